"""Blog GIFs built from lossless frames: downscale, decimate, a palette per scene, gifsicle, and a
measured SSIM against the lossless frames, so that size is always quoted at a known quality."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from av.filter import Graph
from PIL import Image

__all__ = ["GifSettings", "GifResult", "encode_gif", "ssim", "gif_ssim", "best_gif", "CANDIDATES"]


@dataclass(frozen=True)
class GifSettings:
    """How to turn frames into a GIF."""

    width: int = 640
    fps: int = 15
    loop: int = 0
    colors: int = 256
    dither: str = "bayer:bayer_scale=3"
    stats_mode: str = "diff"
    lossy: int = 0

    def describe(self) -> str:
        dither = self.dither.split(":")[0]
        return f"{self.width}px {self.fps}fps {self.colors} colours, {dither} dither, lossy {self.lossy}"


@dataclass(frozen=True)
class GifResult:
    path: Path
    settings: GifSettings
    size_bytes: int
    ssim: float


# Tried in order of quality; --max-size takes the first that fits.
CANDIDATES = (
    {"colors": 256, "dither": "bayer:bayer_scale=3", "lossy": 0},
    {"colors": 256, "dither": "none", "lossy": 0},
    {"colors": 256, "dither": "bayer:bayer_scale=3", "lossy": 30},
    {"colors": 128, "dither": "bayer:bayer_scale=3", "lossy": 30},
    {"colors": 128, "dither": "none", "lossy": 60},
    {"colors": 64, "dither": "none", "lossy": 80},
)




def _frame(array: np.ndarray, index: int, rate: int) -> av.VideoFrame:
    frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(array), format="rgb24")
    frame.pts, frame.time_base = index, Fraction(1, rate)
    return frame


def _drain(sink, handle) -> None:
    while True:
        try:
            handle(sink.pull())
        except (av.error.BlockingIOError, av.error.EOFError):
            return


def prepared_frames(frames: list[np.ndarray], source_fps: int, settings: GifSettings) -> list[np.ndarray]:
    """Frames decimated to ``settings.fps`` and scaled to ``settings.width`` (Lanczos): the
    reference the GIF is measured against."""
    step = max(1, round(source_fps / settings.fps))
    kept = frames[::step]
    height, width = kept[0].shape[:2]
    new_height = int(round(height * settings.width / width / 2) * 2)
    if settings.width == width:
        return kept
    return [np.asarray(Image.fromarray(f).resize((settings.width, new_height), Image.LANCZOS)) for f in kept]


def encode_gif(frames: list[np.ndarray], fps: int, settings: GifSettings, target: Path) -> None:
    """palettegen over every frame, then paletteuse, encoded by FFmpeg's GIF encoder (via PyAV),
    then ``gifsicle -O3`` (with ``--lossy`` when asked)."""
    height, width = frames[0].shape[:2]
    palette_graph = Graph()
    source = palette_graph.add_buffer(width=width, height=height, format="rgb24", time_base=Fraction(1, fps))
    generator = palette_graph.add("palettegen", f"stats_mode={settings.stats_mode}:max_colors={settings.colors}")
    sink = palette_graph.add("buffersink")
    source.link_to(generator)
    generator.link_to(sink)
    palette_graph.configure()
    for index, array in enumerate(frames):
        palette_graph.push(_frame(array, index, fps))
    palette_graph.push(None)
    palette = palette_graph.pull()

    graph = Graph()
    pictures = graph.add_buffer(width=width, height=height, format="rgb24", time_base=Fraction(1, fps))
    palette_in = graph.add_buffer(width=palette.width, height=palette.height, format=palette.format.name,
                                  time_base=Fraction(1, fps))
    use = graph.add("paletteuse", f"dither={settings.dither}:diff_mode=rectangle")
    sink = graph.add("buffersink")
    pictures.link_to(use, 0, 0)
    palette_in.link_to(use, 0, 1)
    use.link_to(sink)
    graph.configure()
    palette.pts = 0
    palette_in.push(palette)
    palette_in.push(None)
    raw = target.with_name(target.name + ".raw.gif")
    with av.open(str(raw), "w", format="gif", options={"loop": str(settings.loop)}) as output:
        stream = output.add_stream("gif", rate=fps)
        stream.width, stream.height, stream.pix_fmt = width, height, "pal8"

        def write(frame):
            for packet in stream.encode(frame):
                output.mux(packet)

        for index, array in enumerate(frames):
            pictures.push(_frame(array, index, fps))
            _drain(sink, write)
        pictures.push(None)
        _drain(sink, write)
        for packet in stream.encode(None):
            output.mux(packet)
    _optimize(raw, target, settings)


def _optimize(raw: Path, target: Path, settings: GifSettings) -> None:
    gifsicle = shutil.which("gifsicle")
    if gifsicle is None:
        raw.replace(target)
        return
    command = [gifsicle, "-O3", "--no-warnings", f"--loopcount={'forever' if settings.loop == 0 else settings.loop}"]
    if settings.lossy:
        command.append(f"--lossy={settings.lossy}")
    subprocess.run([*command, str(raw), "-o", str(target)], check=True, capture_output=True)
    raw.unlink()


def _box_mean(image: np.ndarray, size: int = 8) -> np.ndarray:
    total = np.cumsum(np.cumsum(np.pad(image, ((1, 0), (1, 0))), axis=0), axis=1)
    return (total[size:, size:] - total[:-size, size:] - total[size:, :-size] + total[:-size, :-size]) / size**2


def ssim(a: np.ndarray, b: np.ndarray) -> float:
    """Mean SSIM of two RGB images on their luma, 8×8 windows (Wang et al. 2004 constants)."""
    weights = np.array([0.299, 0.587, 0.114])
    x, y = a.astype(float) @ weights, b.astype(float) @ weights
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    mx, my = _box_mean(x), _box_mean(y)
    vx, vy = _box_mean(x * x) - mx * mx, _box_mean(y * y) - my * my
    cov = _box_mean(x * y) - mx * my
    ssim_map = ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
    return float(ssim_map.mean())


def gif_ssim(gif: Path, reference: list[np.ndarray], fps: float) -> float:
    """Mean SSIM, over every reference frame (one per 1/fps s), of the GIF frame on screen at that
    moment: GIF optimizers merge repeated frames, so frames are matched by time, not by index."""
    from scenes.render.video import frames_at, read_timed_frames

    shown = frames_at(read_timed_frames(gif), np.arange(len(reference)) / fps)
    return float(np.mean([ssim(a, b) for a, b in zip(shown, reference)]))


def best_gif(frames: list[np.ndarray], source_fps: int, base: GifSettings, target: Path,
             max_size: int | None = None, min_ssim: float = 0.98) -> GifResult:
    """Try the candidates in order of quality; keep the first that fits ``max_size`` (and, without a
    budget, the smallest whose SSIM ≥ ``min_ssim``). If none fits, also shrink width and frame rate."""
    reference_cache: dict[tuple[int, int], list[np.ndarray]] = {}
    tried: list[GifResult] = []

    def attempt(settings: GifSettings) -> GifResult:
        key = (settings.width, settings.fps)
        if key not in reference_cache:
            reference_cache[key] = prepared_frames(frames, source_fps, settings)
        reference = reference_cache[key]
        path = target.with_name(f"{target.stem}.try{len(tried)}.gif")
        encode_gif(reference, settings.fps, settings, path)
        result = GifResult(path, settings, path.stat().st_size, gif_ssim(path, reference, settings.fps))
        tried.append(result)
        return result

    sizes = [(base.width, base.fps), (int(base.width * 0.75) // 2 * 2, base.fps), (int(base.width * 0.75) // 2 * 2, max(5, base.fps // 2))]
    chosen = None
    for width, fps in sizes:
        for candidate in CANDIDATES:
            settings = GifSettings(width=width, fps=fps, loop=base.loop, **candidate)
            result = attempt(settings)
            if max_size is None:
                if result.ssim >= min_ssim and (chosen is None or result.size_bytes < chosen.size_bytes):
                    chosen = result
                if len(tried) >= 3:
                    break
            elif result.size_bytes <= max_size:
                chosen = result
                break
        if chosen is not None:
            break
    if chosen is None:
        chosen = min(tried, key=lambda r: r.size_bytes)
    chosen.path.replace(target)
    for result in tried:
        result.path.unlink(missing_ok=True)
    return GifResult(target, chosen.settings, chosen.size_bytes, chosen.ssim)
