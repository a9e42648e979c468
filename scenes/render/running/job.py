"""A render job: one scene, one spec, one set of settings, to one output folder; the plain data it
travels to a worker as (:class:`JobPayload`), and what a worker hands back (:class:`Produced`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import normgeo
from scenes.kit.spec import SceneSpec
from scenes.render.manim_door import manim_version
from scenes.render.media.quality import scaled_size
from scenes.render.names import artifact_name, gif_name
from scenes.render.running.worker import JobFailed, worker_name
from scenes.render.settings import DEFAULT_QUALITY, PRESET_SIZES, GifOptions, RenderSettings, frames_for_width
from scenes.render.specs import spec_class

__all__ = ["RenderJob", "RenderResult", "JobPayload", "Produced", "job_payload", "job_from_payload", "is_splittable"]


@dataclass(frozen=True)
class RenderJob:
    """One scene with one spec and one set of settings, to one output folder."""

    scene_id: str
    spec: SceneSpec
    settings: RenderSettings
    out_dir: Path
    force: bool = False
    still: bool = False
    gif: GifOptions | None = None

    @property
    def settings_for_output(self) -> RenderSettings:
        if self.still:
            return RenderSettings(self.settings.quality, "png", self.settings.transparent, self.settings.resolution)
        if self.gif is not None:  # web animations are silent, whatever the voice
            return RenderSettings(self.settings.quality, self.gif.format, False, self.settings.resolution)
        return self.settings

    @property
    def animation_width(self) -> int:
        """The real pixel width of a web animation: the asked width, never wider than the frames."""
        return scaled_size(*self.settings.pixel_size, self.gif.width)[0]

    @property
    def relative_path(self) -> str:
        if self.gif is not None:
            gif = self.gif
            return gif_name(self.scene_id, self.spec, self.animation_width, gif.format, gif.lossless, fps=gif.fps,
                            loop=gif.loop, max_size=gif.max_size, frames=self.animation_frames)
        return artifact_name(self.scene_id, self.spec, self.settings_for_output)

    @property
    def animation_frames(self) -> tuple[int, int] | None:
        """The size of the frames a web animation is scaled from, when they are not those of the
        default quality for its width (None): they change its bytes, so they go in its name."""
        usual = frames_for_width(self.gif.width, DEFAULT_QUALITY, None) or PRESET_SIZES[DEFAULT_QUALITY]
        frames = tuple(self.settings.pixel_size)
        return None if frames == tuple(usual) else frames

    @property
    def target(self) -> Path:
        return self.out_dir / self.relative_path


@dataclass(frozen=True)
class RenderResult:
    """What happened to a job: ``made``, ``cached`` or ``failed`` (with a one-line reason)."""

    job: RenderJob
    status: str
    seconds: float = 0.0
    files: tuple[str, ...] = ()
    record: dict | None = None
    error: str = ""
    worker: str = ""


@dataclass(frozen=True)
class JobPayload:
    """A job as plain data for a worker (another process or another machine): the versions it was
    made with, scene id, spec and settings as dicts, the artefact's name and the input hash it is
    recorded under."""

    versions: dict
    scene_id: str
    spec: dict
    settings: dict
    still: bool
    gif: dict | None
    relative_path: str
    digest: str
    verbose: bool = False


@dataclass(frozen=True)
class Produced:
    """What a worker hands back for a job: its files as bytes by name in the output folder, the
    scene's duration, extra manifest fields, the seconds it took and the worker's name; ``refused``:
    the one line of a setting the job cannot meet (returned, not raised, so Dask does not retry it)."""

    files: dict[str, bytes]
    duration: float
    extra: dict = field(default_factory=dict)
    seconds: float = 0.0
    worker: str = ""
    refused: str | None = None


def _versions() -> dict:
    return {"normgeo": normgeo.__version__, "manim": manim_version()}


def job_payload(job: RenderJob, digest: str, verbose: bool = False) -> JobPayload:
    """``job`` as a :class:`JobPayload`."""
    return JobPayload(_versions(), job.scene_id, job.spec.as_dict(), job.settings.as_dict(), job.still,
                      job.gif.as_dict() if job.gif else None, job.relative_path, digest, verbose)


def job_from_payload(payload: JobPayload) -> RenderJob:
    """The :class:`RenderJob` a worker renders (its output folder is the client's business)."""
    wanted, here = payload.versions, _versions()
    if wanted and wanted != here:
        raise JobFailed(f"worker {worker_name()} has normgeo {here['normgeo']} and manim {here['manim']}, the client "
                        f"normgeo {wanted['normgeo']} and manim {wanted['manim']}")
    spec = spec_class(payload.scene_id)().with_overrides(dict(payload.spec))
    settings = dict(payload.settings)
    if settings.get("resolution") is not None:
        settings["resolution"] = tuple(settings["resolution"])
    gif = GifOptions(**payload.gif) if payload.gif else None
    job = RenderJob(payload.scene_id, spec, RenderSettings(**settings), Path("."), still=payload.still, gif=gif)
    if job.relative_path != payload.relative_path:
        raise JobFailed(f"this worker names the artefact {job.relative_path}, the client {payload.relative_path}")
    return job


def is_splittable(job: RenderJob) -> bool:
    """Videos can be split into ranges of animations; stills and GIFs render whole."""
    return not job.still and job.gif is None
