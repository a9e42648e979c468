"""Slides and handouts from what an output folder holds (``normgeo slides``): a PowerPoint deck
(:mod:`.pptx_deck`), a PDF handout (:mod:`.handout`) or a single-file HTML deck (:mod:`.html_deck`)
of rendered scenes, in one language and theme, into ``<out>/slides/``.

The file lands whole or not at all (built in a hidden folder beside it, then renamed), so a failed
build leaves an earlier deck as it was.

>>> slides_name("en", "dark", "pptx", None)
'slides.en.dark.pptx'
>>> slides_name("zh", "light", "pdf", ("conditioning", "layernorm-2d"))
'slides.zh.light.68ce0920.pdf'
"""

from __future__ import annotations

import hashlib
import shlex
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import av
from PIL import UnidentifiedImageError

from scenes.kit.registry import LECTURE_ORDER
from scenes.render.checks import check_output_folder
from scenes.render.errors import InputError
from scenes.render.files import atomic_target
from scenes.render.slides.handout import write_handout
from scenes.render.slides.html_deck import write_html_deck
from scenes.render.slides.pptx_deck import write_pptx
from scenes.render.slides.sources import DeckScene, deck_scenes, making_command

__all__ = ["FORMATS", "SlidesReport", "build_slides", "slides_name", "DeckScene"]

FORMATS = ("pptx", "pdf", "html")
SUFFIXES = {"pptx": (".mp4",), "pdf": (".mp4", ".webm"), "html": (".mp4", ".webm")}  # PowerPoint plays MP4


@dataclass(frozen=True)
class SlidesReport:
    """What :func:`build_slides` wrote: the file, its scenes and steps, a one-line detail (slides
    and clips of a deck, pages of a handout, videos inside an HTML deck), and a note when the deck
    mixes narrated and silent scenes (or voices)."""

    path: Path
    scenes: int
    steps: int
    detail: str
    note: str = ""


def slides_name(lang: str, theme: str, fmt: str, scene_ids: Sequence[str] | None, voice: str | None = None) -> str:
    """``slides.<lang>.<theme>[.<tag>].<fmt>``: a tag (8 hex digits) for a selection of scenes
    other than the whole lecture in its order, or for a voice asked for."""
    parts = []
    if scene_ids is not None and list(scene_ids) != list(LECTURE_ORDER):
        parts.append("scenes:" + ",".join(scene_ids))
    if voice is not None:
        parts.append("voice:" + voice)
    tag = f".{hashlib.sha256('|'.join(parts).encode()).hexdigest()[:8]}" if parts else ""
    return f"slides.{lang}.{theme}{tag}.{fmt}"


def build_slides(out_dir: Path, scene_ids: Sequence[str] | None, fmt: str, lang: str, theme: str,
                 voice: str | None = None, quality: str | None = None) -> SlidesReport:
    """Write the ``fmt`` deck of ``scene_ids`` (None: the whole lecture) into ``<out_dir>/slides/``
    from the renders there; a missing render is an :class:`~scenes.render.errors.InputError`."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown slides format {fmt!r}; known: {', '.join(FORMATS)}")
    ids = list(scene_ids or LECTURE_ORDER)
    scenes = deck_scenes(Path(out_dir), ids, lang, theme, voice, SUFFIXES[fmt], quality)
    target = Path(out_dir) / "slides" / slides_name(lang, theme, fmt, scene_ids, voice)
    check_output_folder(target.parent)
    steps = sum(len(scene.steps) for scene in scenes)
    try:
        detail = _write(scenes, target, fmt, lang, theme)
    except (av.error.FFmpegError, UnidentifiedImageError) as error:
        raise InputError(f"a rendered video cannot be read ({error}); render the deck's scenes again with --force: "
                         f"`{making_command([scene.id for scene in scenes], lang, theme, voice, quality)} --force`"
                         ) from None
    note = _mixed_voices(scenes, lang, theme, quality, Path(out_dir)) if fmt != "pdf" else ""  # (a handout: no sound)
    return SlidesReport(target, len(scenes), steps, detail, note)


def _mixed_voices(scenes: Sequence[DeckScene], lang: str, theme: str, quality: str | None, out_dir: Path) -> str:
    """One line when the deck's scenes are not all narrated alike: which are narrated with which
    voice and which silent, and the commands that make the deck one way or the other."""
    voices = {scene.voice for scene in scenes}
    if len(voices) < 2:
        return ""
    groups = {voice: [scene.id for scene in scenes if scene.voice == voice] for voice in sorted(voices)}
    told = "; ".join(f"{'silent' if voice == 'none' else f'narrated with --voice {voice}'}: {', '.join(ids)}"
                     for voice, ids in groups.items())
    narrations = sorted(voices - {"none"}, key=lambda voice: -len(groups[voice]))
    ways = ["`--voice none` makes it silent"] if "none" in voices else []
    if narrations and groups.get("none"):
        where = "" if str(out_dir) == "renders" else f" --out {shlex.quote(str(out_dir))}"
        ways.append(f"`{making_command(groups['none'], lang, theme, narrations[0], quality)}{where}` narrates the rest")
    return (f"this deck mixes narrated and silent scenes ({told})" if "none" in voices
            else f"this deck mixes voices ({told})") + (f": {' and '.join(ways)}" if ways else "")


def _write(scenes: Sequence[DeckScene], target: Path, fmt: str, lang: str, theme: str) -> str:
    with tempfile.TemporaryDirectory(prefix=f".{target.name}.work-", dir=target.parent) as work, \
            atomic_target(target, suffix=f".partial.{fmt}") as partial:
        if fmt == "pptx":
            deck = write_pptx(scenes, partial, lang, theme, Path(work))
            detail = (f"{deck.slides} slides, {deck.copied} clips cut without re-encoding"
                      + (f", {deck.encoded} re-encoded" if deck.encoded else ""))
        elif fmt == "pdf":
            handout = write_handout(scenes, partial, lang, Path(work))
            detail = f"{handout.pages} pages, {handout.frames} frames"
        else:
            inside = write_html_deck(scenes, partial, lang, theme)
            detail = f"{inside} videos inside"
    return detail
