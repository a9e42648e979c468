"""Small, sharp GIFs from a stream of (frame, seconds) pairs.

How a GIF gets small here, in the order it happens:

1. Frames are scaled (Lanczos) and thinned to the frame rate; a frame equal to the one before
   only lengthens that frame's delay. Delays are whole centiseconds, rounded on the running
   total, so the GIF lasts exactly as long as the source (to 10 ms).
2. First pass: each frame is compared with the previous one, and only the pixels that changed
   go into one colour histogram for the whole animation (libimagequant, the quantizer inside
   gifski and pngquant). Frames are spooled to a temporary file, zlib-compressed, so memory
   holds a frame or two whatever the length.
3. That histogram becomes the global palette (up to 255 colours and a transparent one), so
   frames carry no palette of their own (gifski pays up to 768 bytes a frame for one). The
   palette starts at the quality's size and doubles while six frames spread over the animation,
   mapped onto it, fall short of the quality's SSIM (``GifParams.min_palette_ssim``, FFmpeg's
   SSIM): most scenes keep 32–64 colours, a scene of many thin coloured strokes gets 128. Local palettes
   for frames the global one serves badly exist (``GifParams.max_remap_error``) but are off:
   on Manim scenes they cost more bytes than they bought SSIM.
4. Second pass: each frame is cropped to the rectangle that changed; inside it, pixels that did
   not change, or whose change the viewer would hardly see, are transparent ("do not dispose" +
   transparency), which LZW compresses to almost nothing. "Hardly see" follows SSIM's
   luminance term: the allowed step grows with brightness (``_visible``), so the dark
   background is kept exact while bright text and fills may lag a few levels behind a fade.
   libimagequant remaps the rest onto the global palette, with the shown frame as its
   background, so it too may choose transparency where that is closer.
5. ``gifsicle -O3`` recompresses, with ``--lossy`` below quality 100.

``quality`` (1..100, as in gifski) sets the smallest palette, the palette's SSIM floor, the
tolerance and the LZW loss together (``params_for_quality``). The palette size is the strongest
lever: Manim scenes are a few flat colours plus anti-aliasing, and 32–64 well-chosen colours make
far longer LZW runs than 256 at nearly the same SSIM; the floor keeps a scene that needs more
from losing what no later step can give back.

The file is written under a temporary name beside the target and renamed into place; on any
failure nothing is left behind.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scenes.render.files import atomic_target
from scenes.render.media.gif_parts import Quantizer, gif_control, gif_header, gif_image_data
from scenes.render.media.quality import FfmpegSsim, scaled_timed_frames

__all__ = ["GifStats", "GifParams", "encode_gif", "params_for_quality", "gifsicle_path"]


@dataclass(frozen=True)
class GifStats:
    """What ``encode_gif`` wrote."""

    path: Path
    size_bytes: int
    width: int
    height: int
    frames: int  # GIF frames (held frames merged)
    source_frames: int  # (frame, seconds) pairs read
    duration_s: float  # sum of the GIF's delays
    quality: int
    encode_seconds: float
    local_palettes: int = 0


@dataclass(frozen=True)
class GifParams:
    """The knobs behind one ``quality`` value."""

    dither: float = 0.0  # libimagequant's dithering level, 0..1
    lossy: int = 0  # gifsicle --lossy
    max_remap_error: float = 1e9  # above this (MSE, 0..255 RGB) a frame gets a local palette; 1e9: never
    background_tolerance: int = 0  # a changed pixel within this of what is shown stays transparent
    speed: int = 4  # libimagequant speed 1 (best) .. 10 (fastest)
    colors: int = 256  # smallest global palette (one entry is the transparent colour)
    min_palette_ssim: float = 0.0  # the palette doubles (to 256) while sample frames on it fall below this
    relative_tolerance: float = 0.0  # like background_tolerance, scaled by brightness (see _visible)


_NO_LOCAL_PALETTES = 1e8  # a max_remap_error this large turns local palettes off


def params_for_quality(quality: int) -> GifParams:
    """Quality 1..100 (like gifski's) as encoder settings: 100 is exact LZW on a 256-colour global
    palette; going down, the smallest palette shrinks (128 from 94, 64 from 84, 32 from 69, 16
    below 40) and may grow again while frames mapped onto it stay under SSIM 1 − (100 − quality)
    · 10⁻⁴ (0.997 at 70), a larger brightness-relative step may stay unsent and the LZW loss grows
    (tuned on Manim scenes against gifski, at equal FFmpeg SSIM).

    >>> params_for_quality(70).colors, params_for_quality(70).min_palette_ssim
    (64, 0.997)
    """
    quality = int(min(100, max(1, quality)))
    loss = 100 - quality
    colors = 256 if quality >= 95 else 128 if quality >= 85 else 64 if quality >= 70 else 32 if quality >= 40 else 16
    return GifParams(
        dither=0.0,
        lossy=int(round(loss * 0.5)),
        max_remap_error=1e9,
        relative_tolerance=loss * 0.003,
        colors=colors,
        min_palette_ssim=round(1.0 - loss * 1e-4, 6),
    )


def gifsicle_path() -> str | None:
    return shutil.which("gifsicle")

MIN_DELAY_CS = 2


class _Spool:
    def __init__(self, directory: Path):
        self.file = tempfile.TemporaryFile(dir=directory)
        self.entries: list[tuple[int, int, int, int]] = []  # offset, length, start_cs, end_cs

    def add(self, frame: np.ndarray, start_cs: int, end_cs: int) -> None:
        if len(self.entries) > 1 and self.entries[-1][3] - self.entries[-1][2] < MIN_DELAY_CS:
            # browsers show a delay under 2 cs as 10 cs: such a frame gives way to the next one
            start_cs = self.entries.pop()[2]
        data = zlib.compress(frame.tobytes(), 1)
        offset = self.file.seek(0, os.SEEK_END)
        self.file.write(data)
        self.entries.append((offset, len(data), start_cs, end_cs))

    def extend_last(self, end_cs: int) -> None:
        offset, length, start_cs, _ = self.entries[-1]
        self.entries[-1] = (offset, length, start_cs, end_cs)

    def frames(self, shape) -> Iterator[tuple[np.ndarray, int]]:
        for offset, length, start_cs, end_cs in self.entries:
            self.file.seek(offset)
            data = zlib.decompress(self.file.read(length))
            yield np.frombuffer(data, dtype=np.uint8).reshape(shape), end_cs - start_cs

    def close(self):
        self.file.close()


def _bbox(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    rows = np.flatnonzero(mask.any(axis=1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(mask.any(axis=0))
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def _changed(frame: np.ndarray, previous: np.ndarray) -> np.ndarray:
    """Pixels that differ in any channel (three flat comparisons: faster than ``.any(axis=2)``)."""
    differs = frame != previous
    return differs[..., 0] | differs[..., 1] | differs[..., 2]


def _rgba(frame: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """RGBA for libimagequant; pixels outside ``mask`` fully transparent (0, 0, 0, 0)."""
    out = np.empty(frame.shape[:2] + (4,), dtype=np.uint8)
    out[..., :3] = frame
    if mask is None:
        out[..., 3] = 255
    else:
        keep = mask.view(np.uint8)
        out[..., :3] *= keep[..., None]
        np.multiply(keep, 255, out=out[..., 3])
    return out


# --------------------------------------------------------------------------------------------


def encode_gif(frames: Iterable[tuple[np.ndarray, float]], target: Path, width: int, fps: float = 15,
               loop: int = 0, quality: int = 70, params: GifParams | None = None) -> GifStats:
    """Encode (RGB uint8 frame, seconds shown) pairs, read once from any iterable, as a GIF of
    ``width`` pixels (never wider than the frames) at most ``fps`` frames a second, looping
    ``loop`` times (0: forever, -1: play once). ``quality`` 1..100 as in gifski; ``params``
    overrides it. Written atomically to ``target``."""
    started = time.monotonic()
    params = params or params_for_quality(quality)
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    spool = _Spool(target.parent)
    quantizer = Quantizer(params)
    fd, raw_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".raw.gif", dir=target.parent)
    os.close(fd)
    raw = Path(raw_name)
    try:
        with atomic_target(target, suffix=".opt.gif") as final:
            shape, source_count = _first_pass(frames, width, fps, spool, quantizer)
            palette = _fitted_palette(spool, shape, quantizer, params)
            transparent = int(np.flatnonzero(palette[:, 3] == 0)[0]) if (palette[:, 3] == 0).any() else None
            written, local_count, duration_cs = _second_pass(spool, shape, palette, transparent, quantizer, params,
                                                             loop, raw)
            _optimize(raw, final, params, loop)
    finally:
        raw.unlink(missing_ok=True)
        spool.close()
        quantizer.close()
    height, out_width = shape[:2]
    return GifStats(target, target.stat().st_size, out_width, height, written, source_count, duration_cs / 100.0,
                    quality, time.monotonic() - started, local_count)


def _first_pass(frames, width, fps, spool: _Spool, quantizer: Quantizer):
    previous = None
    count = 0

    def counted():
        nonlocal count
        for item in frames:
            count += 1
            yield item

    for scaled, start_cs, end_cs in scaled_timed_frames(counted(), width, min(float(fps), 50.0), 100):
        if scaled is None:
            if spool.entries:
                spool.extend_last(end_cs)
            continue
        if not _add_changes(quantizer, scaled, previous):
            spool.extend_last(end_cs)
            continue
        spool.add(scaled, start_cs, end_cs)
        previous = scaled
    if previous is None:
        raise ValueError("no frames to encode")
    return previous.shape, count


def _add_changes(quantizer: Quantizer, frame: np.ndarray, previous: np.ndarray | None) -> bool:
    """Add the pixels of ``frame`` that differ from ``previous`` (all, for the first frame) to the
    histogram; False when none do."""
    if previous is None:
        quantizer.add_to_histogram(_rgba(frame, None))
        return True
    mask = _changed(frame, previous)
    box = _bbox(mask)
    if box is None:
        return False
    y0, y1, x0, x1 = box
    quantizer.add_to_histogram(_rgba(frame[y0:y1, x0:x1], mask[y0:y1, x0:x1]))
    return True


PALETTE_SAMPLES = 6  # frames, spread over the animation, that a palette must serve


def _fitted_palette(spool: _Spool, shape, quantizer: Quantizer, params: GifParams) -> np.ndarray:
    """The global palette: ``params.colors`` entries, doubled (up to 256; the histogram is built
    again from the spool, libimagequant consumes it) while the sample frames mapped onto it have a
    mean FFmpeg SSIM under ``params.min_palette_ssim``."""
    palette = quantizer.make_global_palette()
    colors = params.colors
    if colors >= 256 or params.min_palette_ssim <= 0:
        return palette
    picks = set(np.linspace(0, len(spool.entries) - 1, min(PALETTE_SAMPLES, len(spool.entries))).round().astype(int))
    samples = [frame for index, (frame, _) in enumerate(spool.frames(shape)) if index in picks]
    compare = FfmpegSsim()
    while colors < 256:
        indices = [quantizer.remap(_rgba(frame, None), None)[0] for frame in samples]
        if np.mean([compare(palette[i][..., :3], frame) for i, frame in zip(indices, samples)]) >= params.min_palette_ssim:
            break
        colors = min(256, colors * 2)
        quantizer.start_over(colors)
        previous = None
        for frame, _ in spool.frames(shape):
            _add_changes(quantizer, frame, previous)
            previous = frame
        palette = quantizer.make_global_palette()
    return palette


def _second_pass(spool, shape, palette, transparent, quantizer, params: GifParams, loop, raw: Path):
    height, width = shape[:2]
    canvas = None
    previous = None
    local_count = written = duration = 0
    pending = None  # (bytes without control block, transparent index) of the frame before
    pending_delay = 0
    with open(raw, "wb") as out:
        out.write(gif_header(width, height, palette, loop))

        def flush():
            if pending is not None:
                data, index = pending
                out.write(gif_control(pending_delay, index) + data)

        for frame, delay in spool.frames(shape):
            if canvas is None:  # the first frame, whole, on the global palette
                indices, _ = quantizer.remap(_rgba(frame, None), None)
                data, index = gif_image_data(indices, (0, 0), None), None
                canvas = palette[indices][..., :3].copy()
                pending, pending_delay = (data, index), delay
                previous = frame
                written += 1
                duration += delay
                continue
            changed, box = _changed_box(frame, previous, canvas, params)
            previous = frame
            if box is None:
                pending_delay += delay
                duration += delay
                continue
            y0, y1, x0, x1 = box
            indices, palette_used, local = _remapped(frame, canvas, changed, box, palette, quantizer, params)
            local_count += local is not None
            alpha = palette_used[indices][..., 3]
            index = None
            if (alpha == 0).any():
                index = int(np.flatnonzero(palette_used[:, 3] == 0)[0])
            region = canvas[y0:y1, x0:x1]
            shown = alpha > 0
            if not shown.any():
                pending_delay += delay
                duration += delay
                continue
            region[shown] = palette_used[indices[shown]][:, :3]
            flush()
            pending = (gif_image_data(indices, (x0, y0), local), index)
            pending_delay = delay
            written += 1
            duration += delay
        flush()
        out.write(b";")
    return written, local_count, duration


def _changed_box(frame: np.ndarray, previous: np.ndarray, canvas: np.ndarray, params: GifParams):
    """The pixels of ``frame`` that differ from ``previous`` and would be seen over ``canvas``, and
    the box (y0, y1, x0, x1) around them (None: nothing to show)."""
    changed = _changed(frame, previous)
    box = _bbox(changed)
    if box is not None and (params.background_tolerance or params.relative_tolerance):
        y0, y1, x0, x1 = box
        changed[y0:y1, x0:x1] &= _visible(frame[y0:y1, x0:x1], canvas[y0:y1, x0:x1], params)
        box = _bbox(changed[y0:y1, x0:x1])
        if box is not None:
            box = (box[0] + y0, box[1] + y0, box[2] + x0, box[3] + x0)
    return changed, box


def _remapped(frame, canvas, changed, box, palette, quantizer: Quantizer, params: GifParams):
    """The box's changed pixels as palette indices: on the global ``palette``, or on a local one
    when the global one errs more than ``params.max_remap_error`` and the local one errs less.
    Returns (indices, the palette used, the local palette or None)."""
    y0, y1, x0, x1 = box
    crop = _rgba(frame[y0:y1, x0:x1], changed[y0:y1, x0:x1])
    back = _rgba(canvas[y0:y1, x0:x1], None)
    indices, _ = quantizer.remap(crop, back)
    if params.max_remap_error < _NO_LOCAL_PALETTES and (
            error := _error(frame[y0:y1, x0:x1], canvas[y0:y1, x0:x1], palette, indices)) > params.max_remap_error:
        local_indices, local_palette, _ = quantizer.local(crop, back)
        if _error(frame[y0:y1, x0:x1], canvas[y0:y1, x0:x1], local_palette, local_indices) < error:
            return local_indices, local_palette, local_palette
    return indices, palette, None


def _visible(frame: np.ndarray, shown: np.ndarray, params: GifParams) -> np.ndarray:
    """Pixels where ``shown`` is too far from ``frame`` to keep. SSIM's luminance term punishes a
    difference d at brightness v about as d² / (2v² + C1), so the same step is far more visible on
    the dark background than on bright text: the allowed step grows with brightness."""
    difference = np.abs(frame.astype(np.int16) - shown)
    if params.relative_tolerance:
        value = frame.astype(np.float32)
        allowed = params.background_tolerance + params.relative_tolerance * np.sqrt(2 * value * value + 6.5025)
        return (difference > allowed).any(axis=2)
    return difference.max(axis=2) > params.background_tolerance


def _error(frame: np.ndarray, shown_before: np.ndarray, palette: np.ndarray, indices: np.ndarray) -> float:
    """Mean squared error (RGB, 0..255) of what the region shows after this frame."""
    colors = palette[indices]
    shown = np.where(colors[..., 3:] > 0, colors[..., :3], shown_before).astype(np.int32)
    return float(((shown - frame) ** 2).mean())


def _optimize(raw: Path, final: Path, params: GifParams, loop: int) -> None:
    gifsicle = gifsicle_path()
    if gifsicle is None:
        shutil.copyfile(raw, final)
        return
    command = [gifsicle, "-O3", "--no-warnings", "--no-comments", "--no-names", "--no-extensions"]
    command.append("--loopcount=forever" if loop == 0 else ("--no-loopcount" if loop < 0 else f"--loopcount={loop}"))
    if params.lossy:
        command.append(f"--lossy={params.lossy}")
    subprocess.run([*command, str(raw), "-o", str(final)], check=True, capture_output=True)
