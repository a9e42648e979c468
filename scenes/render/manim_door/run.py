"""Running Manim on one scene inside a scratch folder: video, still, lossless frames, or a range of
its animations (a split part). Every render is built with the pipeline's renderer, cameras and file
writers (:mod:`.renderer`, :mod:`.cameras`, :mod:`.writer`), handed to Manim through ``Scene(renderer=…)``."""

from __future__ import annotations

import logging
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from manim import MovingCameraScene, Scene, ThreeDScene, config, logger, tempconfig
from manim.scene.scene_file_writer import SceneFileWriter

from scenes.kit.base import Speech, scene_config
from scenes.kit.frame_layout import frame_size
from scenes.kit.registry import entry
from scenes.kit.spec import SceneSpec
from scenes.render.manim_door.cameras import PathCachingCamera, PathCachingThreeDCamera, camera_for_animation
from scenes.render.manim_door.encoder import encoder_config
from scenes.render.manim_door.renderer import PipelineRenderer, PlayHooks
from scenes.render.manim_door.writer import FrameSequenceWriter, HeldFrameFileWriter, HeldOnceFileWriter
from scenes.render.media.frames import expand_repeats, load_png_frames
from scenes.render.settings import RenderSettings

__all__ = ["ManimOutput", "Narration", "RangeRender", "manim_options", "run_manim", "render_range", "capture_lossless_frames",
           "camera_for"]

# The pipeline's camera for each kind of scene, the most specific first.
CAMERAS = ((ThreeDScene, PathCachingThreeDCamera), (Scene, PathCachingCamera))


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
    spoken: list[tuple[str, float]] = field(default_factory=list)  # (step, scene time its speech starts)
    left_out: list[tuple[str, float]] = field(default_factory=list)  # (text, font size) too small to read, not drawn
    legible_from: int | None = None  # the least animation width that would draw every text left out


def camera_for(scene_class: type) -> type:
    """The pipeline's camera class for ``scene_class`` (a scene whose camera moves is refused)."""
    if issubclass(scene_class, MovingCameraScene):
        raise TypeError(f"{scene_class.__name__}: the pipeline has no camera for a MovingCameraScene")
    return next(camera for base, camera in CAMERAS if issubclass(scene_class, base))


def manim_options(scene_id: str, settings: RenderSettings, scratch: Path, *, verbose: bool = False,
                  video: bool = True, held_once: bool = False) -> dict:
    """Manim's config for one render into ``scratch``: size (a ``--resolution`` sets the frame's
    size in scene units too, see :func:`scenes.kit.frame_layout.frame_size`), format, quiet logging, no cache of
    Manim's own (normgeo caches whole artefacts), and for a video the encoder settings
    (``settings.encoder_preset``; ``held_once``: a narrated render's variable frame rate, see :mod:`.encoder`)."""
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
        # the scene lays itself out for this frame (scenes.kit.frame_layout): square and tall ones too
        options["frame_width"], options["frame_height"] = frame_size(*settings.resolution)
    if video:
        options |= encoder_config(settings.format, settings.transparent, settings.encoder_preset, held_once)
    return options


def _scene(scene_id: str, spec: SceneSpec, *, writer: type, skip: bool = False, draws_while_skipping: bool = True,
           hooks: PlayHooks | None = None, speech: Speech | None = None, shown_width: int | None = None):
    """The scene of ``scene_id`` with ``spec``, built on the pipeline's renderer (inside a tempconfig);
    with ``shown_width``, the frames of a web animation shown that many pixels wide (no text too
    small to read there is drawn)."""
    logger.setLevel(config.verbosity)
    scene_class = entry(scene_id).load()
    camera = camera_for(scene_class)
    if shown_width is not None:
        camera = camera_for_animation(camera, shown_width, spec.lang)
    with tempconfig(scene_config(spec)):  # the camera takes the theme's background from it
        renderer = PipelineRenderer(camera_class=camera, file_writer_class=writer,
                                    skip_animations=skip, draws_while_skipping=draws_while_skipping, hooks=hooks)
    if speech is None:  # a silent scene is built exactly as before narration existed
        return scene_class(spec=spec, renderer=renderer, skip_animations=skip)
    return scene_class(spec=spec, renderer=renderer, skip_animations=skip, speech=speech)


def run_manim(scene_id: str, spec: SceneSpec, settings: RenderSettings, scratch: Path, *, still: bool = False,
              frames: bool = False, frame_rate: int | None = None, verbose: bool = False,
              speech: Speech | None = None, shown_width: int | None = None) -> ManimOutput:
    """Render ``scene_id`` with ``spec`` into ``scratch``: a video (``settings.format``), the last
    frame (``still``) or a lossless PNG sequence (``frames``, at ``frame_rate``, for a web animation
    shown ``shown_width`` pixels wide: text too small to read there is left out, see
    ``ManimOutput.left_out``); with ``speech``, a narrated scene (the sound track is the caller's:
    see ``ManimOutput.spoken``)."""
    video = not still and not frames
    options = manim_options(scene_id, settings, scratch, verbose=verbose, video=video, held_once=speech is not None) | {
        "format": "png-sequence" if frames else settings.format,
        "write_to_movie": video,
        "save_last_frame": still,
    }
    if frame_rate is not None:
        options["frame_rate"] = frame_rate
    writer = FrameSequenceWriter if frames else _video_writer(speech) if video else SceneFileWriter
    with tempconfig(options):
        scene = _scene(scene_id, spec, writer=writer, skip=still, speech=speech, shown_width=shown_width if frames else None)
        scene.render()
        writer = scene.renderer.file_writer
        plan = writer.output_plan
        steps = [step.as_dict() for step in scene.steps]
        if frames:
            return ManimOutput(None, None, float(scene.time), steps, Path(plan.image_sequence_dir), writer.repeats,
                               float(config.frame_rate), **_legibility(scene.renderer.camera, shown_width))
        artifact = writer.image_file_path if still else plan.primary_artifact
        if artifact is None or not Path(artifact).is_file():
            raise RuntimeError(f"manim wrote no {'png' if still else settings.format} file")
        subtitles = plan.subcaption_file
        if still or subtitles is None or not Path(subtitles).is_file():
            subtitles = None
        return ManimOutput(Path(artifact), Path(subtitles) if subtitles else None, float(scene.time), steps,
                           spoken=list(scene.spoken))


def _video_writer(speech: Speech | None) -> type[HeldFrameFileWriter]:
    """A narrated video holds each still frame as one frame (a variable frame rate: the speech makes
    its pauses long); a silent one stays at a constant rate, every frame encoded."""
    return HeldFrameFileWriter if speech is None else HeldOnceFileWriter


def _legibility(camera, shown_width: int | None) -> dict:
    """What a web animation's camera left out as too small to read (nothing without ``shown_width``)."""
    if shown_width is None:
        return {}
    return {"left_out": camera.left_out, "legible_from": camera.legible_from}


@dataclass(frozen=True)
class Narration:
    """The narration records a run of a scene left (see ``scenes.kit.base``): when each animation
    began, the scene's end, its steps before they were clipped to it, every cue as asked, and (when
    narrated) when each step's speech starts."""

    play_starts: dict[int, float]
    end_time: float
    steps: list
    cues: list[tuple[float, float, float, str]]
    spoken: list[tuple[str, float]] = field(default_factory=list)  # (step, scene time its speech starts)


class RangeRender:
    """A scene set up to render a range of its animations, and what the run left: the segment of
    each animation rendered, when each began, and the scene's narration records."""

    def __init__(self, scene):
        self.scene = scene

    @property
    def renderer(self) -> PipelineRenderer:
        return self.scene.renderer

    def render(self) -> None:
        self.scene.render()

    @property
    def artifact(self) -> Path | None:
        artifact = self.renderer.file_writer.output_plan.primary_artifact
        return Path(artifact) if artifact is not None else None

    @property
    def segments(self) -> dict[int, Path]:
        """Animation number → its segment; none for a skipped one."""
        return {number: Path(path) for number, path in enumerate(self.renderer.file_writer.partial_movie_files)
                if path is not None}

    @property
    def narration(self) -> Narration:
        scene = self.scene
        return Narration(dict(scene.play_starts), float(scene.end_time), list(scene.steps_at_end), list(scene.cues),
                         list(scene.spoken))

    def pixels(self):
        """The scene as it stands, drawn in full (RGBA)."""
        return self.renderer.scene_pixels(self.scene)


@contextmanager
def render_range(scene_id: str, spec: SceneSpec, settings: RenderSettings, scratch: Path, first: int, upto: int,
                 hooks: PlayHooks | None = None, verbose: bool = False, speech: Speech | None = None):
    """Inside: a :class:`RangeRender` of animations ``first``…``upto`` (−1: to the end) of the
    scene, video only, drawing nothing for skipped animations, every segment kept; with ``speech``,
    the narrated scene (its steps last as long as their speech, skipped ones too)."""
    options = manim_options(scene_id, settings, scratch, verbose=verbose, held_once=speech is not None) | {
        "from_animation_number": first, "upto_animation_number": upto,
        "write_to_movie": True, "save_last_frame": False,
        # Manim prunes all but 100 segments once it has combined its movie; the runs are joined
        # from the segments after that (they go with the scratch folder anyway)
        "max_files_cached": -1}
    # Manim writes the part's own .srt too (unused); srt logs the cues clipped to nothing there
    logging.getLogger("srt").setLevel(logging.ERROR)
    with tempconfig(options):
        yield RangeRender(_scene(scene_id, spec, writer=_video_writer(speech), draws_while_skipping=False, hooks=hooks,
                                 speech=speech))


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
