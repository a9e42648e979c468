"""``show`` and ``still``: a scene rendered by the pipeline the CLI drives (``normgeo render`` and
``normgeo still``), with its cache (an unchanged render is not made again), and returned as an object
Jupyter displays inline: the video or the PNG written into the output, so that it survives a static
HTML export of the notebook.

Settings are a scene's spec settings as keyword arguments, the values ``--set`` takes (a numpy
array, a list, a number or a string); they are written as ``--set`` text and go through the same
checks, so a bad one raises :class:`~scenes.render.errors.InputError` with the CLI's message.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scenes.kit.languages import DEFAULT_LANGUAGE, LANGUAGES
from scenes.kit.registry import UnknownSceneError, entry
from scenes.kit.spec import SpecError, as_setting_text
from scenes.kit.theme import DEFAULT_THEME, THEMES
from scenes.render.checks import check_format, check_transparency
from scenes.render.errors import InputError
from scenes.render.matrix import batch_jobs, render_batch
from scenes.render.running.job import RenderResult
from scenes.render.settings import QUALITIES, RenderSettings, parse_resolution
from scenes.render.site.words import inline_math, ui_text

__all__ = ["RenderError", "SceneStill", "SceneVideo", "setting_assignments", "show", "still"]

VIDEO_TYPES = {"mp4": "video/mp4", "webm": "video/webm", "mov": "video/quicktime"}



class RenderError(RuntimeError):
    """The pipeline could not make the file (the reason is the CLI's one line)."""


@dataclass(frozen=True)
class SceneVideo:
    """A rendered video, displayed as a ``<video>`` with the file (and its subtitles) inside the page."""

    path: Path
    status: str  # "made" or "cached", as the CLI's summary says
    subtitles: Path | None = None
    lang: str = DEFAULT_LANGUAGE

    def _repr_html_(self) -> str:
        kind = VIDEO_TYPES[self.path.suffix.lstrip(".")]
        track = ""
        if self.subtitles is not None:
            track = (f'<track kind="subtitles" srclang="{self.lang}" label="{self.lang}" default '
                     f'src="data:text/vtt;base64,{_base64(self.subtitles)}">')
        return (f'<video controls playsinline style="max-width: 100%" title="{html.escape(self.path.name)}">'
                f'<source type="{kind}" src="data:{kind};base64,{_base64(self.path)}">{track}</video>')


@dataclass(frozen=True)
class SceneStill:
    """A rendered final frame, displayed as the PNG itself (an ``<img>`` with ``alt``, the scene's
    title, where HTML is shown: JupyterLab, an HTML export)."""

    path: Path
    status: str
    alt: str = ""

    def _repr_png_(self) -> bytes:
        return self.path.read_bytes()

    def _repr_html_(self) -> str:
        return (f'<img src="data:image/png;base64,{_base64(self.path)}" alt="{html.escape(self.alt)}" '
                f'style="max-width: 100%">')


def _base64(path: Path) -> str:
    return base64.b64encode(path.read_bytes()).decode("ascii")


def _plain(value):
    """A setting as ``as_setting_text`` writes it: arrays and lists as tuples, numpy scalars as numbers."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return value.item() if isinstance(value, np.generic) else value


def setting_assignments(settings: dict) -> tuple[str, ...]:
    """Keyword settings as the CLI's ``--set KEY=VALUE`` strings.

    >>> setting_assignments({"vector": np.array([3.0, 4.0]), "vectors": [[3, 4], [6, 8]], "radius": 2})
    ('vector=3,4', 'vectors=3,4;6,8', 'radius=2')
    """
    return tuple(f"{key}={as_setting_text(_plain(value))}" for key, value in settings.items())


def _choose(kind: str, value, known) -> None:
    if value not in known:  # the CLI's words (scenes/cli/options.py)
        raise InputError(f"unknown {kind} {value!r}; choose one of {', '.join(known)}")


def _render(scene_id: str, render_settings: RenderSettings, *, still: bool, lang: str, theme: str, out_dir,
            force: bool, settings: dict) -> RenderResult:
    _choose("language", lang, LANGUAGES)
    _choose("theme", theme, tuple(THEMES))
    try:
        scene = entry(scene_id).id
        jobs = batch_jobs([scene], render_settings, langs=(lang,), themes=(theme,), out_dir=Path(out_dir),
                          assignments=setting_assignments(settings), force=force, still=still)
    except (SpecError, UnknownSceneError) as error:
        raise InputError(str(error)) from None
    (result,) = render_batch(jobs, workers=1)
    if result.status == "failed":
        raise RenderError(f"{scene}: {result.error}")
    return result


def _render_settings(quality: str, fmt: str, transparent: bool, resolution) -> RenderSettings:
    _choose("quality", quality, tuple(QUALITIES))
    check_format(fmt)
    check_transparency(fmt, transparent)
    if resolution is not None:  # "320x180" or (320, 180), checked as the CLI checks --resolution
        text = resolution if isinstance(resolution, str) else "x".join(str(side) for side in resolution)
        try:
            resolution = parse_resolution(text)
        except ValueError as error:
            raise InputError(f"--resolution {text!r}: {error}") from None
    return RenderSettings(quality, fmt, transparent, resolution)


def show(scene_id: str, *, lang: str = DEFAULT_LANGUAGE, theme: str = DEFAULT_THEME, quality: str = "l",
         resolution=None, format: str = "mp4", out_dir="renders", force: bool = False, **settings) -> SceneVideo:
    """Render scene ``scene_id`` as a video (as ``normgeo render``; cached) and return it for display.

    ``settings``: the scene's spec settings (``normgeo spec ID`` lists them), e.g. ``vector=np.array([3, 4])``.
    ``resolution``: ``"320x180"`` or ``(320, 180)``. The files stay in ``out_dir``, as the CLI's.
    """
    if format not in VIDEO_TYPES:
        raise InputError(f"unknown format {format!r} for a video; choose one of {', '.join(VIDEO_TYPES)}")
    result = _render(scene_id, _render_settings(quality, format, False, resolution), still=False, lang=lang,
                     theme=theme, out_dir=out_dir, force=force, settings=settings)
    folder = result.job.out_dir
    vtt = [folder / name for name in result.files if name.endswith(".vtt")]
    return SceneVideo(result.job.target, result.status, vtt[0] if vtt else None, lang)


def still(scene_id: str, *, lang: str = DEFAULT_LANGUAGE, theme: str = DEFAULT_THEME, quality: str = "l",
          resolution=None, transparent: bool = False, out_dir="renders", force: bool = False,
          **settings) -> SceneStill:
    """The final frame of scene ``scene_id`` as a PNG (as ``normgeo still``; cached), for display."""
    result = _render(scene_id, _render_settings(quality, "png", transparent, resolution), still=True, lang=lang,
                     theme=theme, out_dir=out_dir, force=force, settings=settings)
    alt = ui_text()["page.still-of"][lang].format(title=inline_math(entry(scene_id).title(lang)))  # the site's words
    return SceneStill(result.job.target, result.status, alt)
