"""Running Manim on one scene inside a scratch folder: video, still, or lossless frames for a GIF."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from scenes.kit.registry import entry
from scenes.kit.spec import SceneSpec
from scenes.render.settings import RenderSettings

__all__ = ["ManimOutput", "manim_options", "run_manim", "record_frame_repeats", "expand_repeats", "load_png_frames", "png_frames",
           "capture_lossless_frames"]


@dataclass
class ManimOutput:
    """What Manim wrote for one scene: the main file (or the frames folder), the subtitles, the
    scene's duration, its narrated steps and, for frame sequences, how often each frame is shown."""

    artifact: Path | None
    subtitles: Path | None
    duration: float
    steps: list[dict]
    frames_dir: Path | None = None
    repeats: list[int] = field(default_factory=list)
    frame_rate: float = 15.0


def manim_options(scene_id: str, settings: RenderSettings, scratch: Path, *, verbose: bool = False,
                  video: bool = True) -> dict:
    """Manim's config for one render into ``scratch``: size, format, quiet logging, no cache of
    Manim's own (normgeo caches whole artefacts), and for a video the encoder settings
    (``settings.encoder_preset``, see ``segment_encoder``)."""
    from scenes.render.segment_encoder import encoder_config

    options = {
        "media_dir": str(scratch),
        "quality": settings.manim_quality,
        "format": settings.format,
        "transparent": settings.transparent,
        "output_file": scene_id,
        "disable_caching": True,
        "progress_bar": "display" if verbose else "none",
        "verbosity": "INFO" if verbose else "ERROR",
        "notify_outdated_version": False,
    }
    if settings.resolution is not None:
        options["pixel_width"], options["pixel_height"] = settings.resolution
    if video:
        options |= encoder_config(settings.format, settings.transparent, settings.encoder_preset)
    return options


def use_pipeline_drawing(scene, video: bool = True) -> None:
    """What every render of the pipeline (whole or a split part) changes in a Manim scene before it
    runs: held frames converted once (video only), still runs of mobjects drawn once per play, and
    cairo paths kept while points stay the same."""
    from scenes.render.path_cache import use_path_cache
    from scenes.render.segment_encoder import use_held_frame_encoder
    from scenes.render.still_overlay import use_still_overlays

    if video:
        use_held_frame_encoder(scene.renderer.file_writer)
    use_still_overlays(scene)
    use_path_cache(scene.renderer.camera)


def run_manim(scene_id: str, spec: SceneSpec, settings: RenderSettings, scratch: Path, *, still: bool = False,
              frames: bool = False, frame_rate: int | None = None, verbose: bool = False) -> ManimOutput:
    """Render ``scene_id`` with ``spec`` into ``scratch``: a video (``settings.format``), the last
    frame (``still``) or a lossless PNG sequence (``frames``, at ``frame_rate``)."""
    from manim import config, logger, tempconfig

    video = not still and not frames
    options = manim_options(scene_id, settings, scratch, verbose=verbose, video=video) | {
        "format": "png-sequence" if frames else settings.format,
        "write_to_movie": video,
        "save_last_frame": still,
    }
    if frame_rate is not None:
        options["frame_rate"] = frame_rate
    scene_class = entry(scene_id).load()
    with tempconfig(options):
        logger.setLevel(config.verbosity)
        scene = scene_class(spec=spec, skip_animations=still)
        use_pipeline_drawing(scene, video)
        repeats = record_frame_repeats(scene) if frames else []
        scene.render()
        writer = scene.renderer.file_writer
        plan = writer.output_plan
        steps = [step.as_dict() for step in scene.steps]
        if frames:
            return ManimOutput(None, None, float(scene.time), steps, Path(plan.image_sequence_dir), repeats,
                               float(config.frame_rate))
        artifact = writer.image_file_path if still else plan.primary_artifact
        if artifact is None or not Path(artifact).is_file():
            raise RuntimeError(f"manim wrote no {'png' if still else settings.format} file")
        subtitles = plan.subcaption_file
        if still or subtitles is None or not Path(subtitles).is_file():
            subtitles = None
        return ManimOutput(Path(artifact), Path(subtitles) if subtitles else None, float(scene.time), steps)


def record_frame_repeats(scene) -> list[int]:
    """Count how often each written frame is shown. Manim 0.22 writes a held frame (a ``wait``)
    once into a PNG sequence and drops its repeat count, so a GIF made from the PNGs alone would
    play every pause too fast; the counts recorded here put the pauses back."""
    writer = scene.renderer.file_writer
    original = writer.write_frame
    repeats: list[int] = []

    def recording(pixels, *, repeat: int = 1):
        repeats.append(int(repeat))
        return original(pixels, repeat=repeat)

    writer.write_frame = recording
    return repeats


def expand_repeats(frames: list, repeats: list[int] | None) -> list:
    """Each frame as many times as it was shown."""
    if not repeats:
        return frames
    if len(repeats) != len(frames):
        raise RuntimeError(f"manim wrote {len(frames)} frames but showed {len(repeats)}")
    return [frame for frame, count in zip(frames, repeats) for _ in range(count)]


def png_frames(folder: Path, repeats: list[int], frame_rate: float):
    """(RGB frame, seconds shown) for each PNG Manim wrote, one frame in memory at a time; a held
    frame is shown for its repeat count (see ``record_frame_repeats``)."""
    paths = sorted(Path(folder).glob("*.png"))
    if repeats and len(repeats) != len(paths):
        raise RuntimeError(f"manim wrote {len(paths)} frames but showed {len(repeats)}")
    for index, path in enumerate(paths):
        with Image.open(path) as image:
            frame = np.asarray(image.convert("RGB"))
        yield frame, (repeats[index] if repeats else 1) / frame_rate


def load_png_frames(folder: Path) -> list[np.ndarray]:
    """The lossless frames Manim wrote as a PNG sequence, in order."""
    return [np.asarray(Image.open(p).convert("RGB")) for p in sorted(Path(folder).glob("*.png"))]


def capture_lossless_frames(scene_id: str, spec: SceneSpec | None = None, quality: str = "l") -> tuple[list, float]:
    """Every frame of a scene exactly as rendered (held frames repeated), and the frame rate:
    the reference against which GIFs are measured (used by the benchmark)."""
    scene_class = entry(scene_id).load()
    scratch = Path(tempfile.mkdtemp(prefix="normgeo-frames-"))
    try:
        output = run_manim(scene_id, spec or scene_class.spec_class(), RenderSettings(quality, "png"), scratch, frames=True)
        return expand_repeats(load_png_frames(output.frames_dir), output.repeats), output.frame_rate
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
