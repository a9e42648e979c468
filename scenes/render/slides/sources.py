"""What a deck is made of: for each scene asked for, the one rendered video of the deck's language
and theme (narrated before silent, as ``--voice`` chooses; MP4 before WebM; the best quality
first) with the steps that render recorded, read from the output folder's manifest like the site.

A scene with no such video is refused, all of them in one line that names the command making them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from scenes.kit.registry import LECTURE_ORDER, entry
from scenes.render.errors import InputError
from scenes.render.manifest import MANIFEST_NAME, Manifest
from scenes.render.site.publish import record_height, record_voice
from scenes.render.site.words import inline_math

__all__ = ["DeckStep", "DeckScene", "deck_scenes", "making_command"]

VIDEO_SUFFIXES = (".mp4", ".webm")


@dataclass(frozen=True)
class DeckStep:
    """One narrated step: seconds from its scene video's start, its key and its narrated text."""

    start: float
    end: float
    key: str
    text: str


@dataclass(frozen=True)
class DeckScene:
    """One scene of a deck: its title and description in the deck's language, its video, the
    voice it was narrated with (``none``: silent), its pixel height, frame rate and steps."""

    id: str
    title: str
    description: str
    video: Path
    voice: str
    height: int
    fps: int
    steps: tuple[DeckStep, ...]


def _fps(record: dict) -> int:
    """The frame rate of a render's quality label (``480p15``: 15, ``1080x1080p60``: 60)."""
    digits = str(record.get("quality", "")).rpartition("p")[2]
    return int(digits) if digits.isdigit() and int(digits) > 0 else 30


def _wanted(record: dict, voice: str | None) -> bool:
    """A video narrated as ``voice`` asks: None any narration or none, ``none`` silent only."""
    return voice is None or record_voice(record) == voice


def _rank(name: str, record: dict) -> tuple:
    """Narrated first, then MP4 (PowerPoint plays it), then the tallest, then the name."""
    return (record_voice(record) == "none", not name.endswith(".mp4"), -record_height(record), name)


def making_command(scene_ids: Sequence[str], lang: str, theme: str, voice: str | None, quality: str | None = None) -> str:
    """The command that renders what a deck of ``scene_ids`` needs.

    >>> making_command(["conditioning", "layernorm-2d"], "ru", "dark", "ru", "h")
    'normgeo render conditioning layernorm-2d --lang ru --theme dark --voice ru -q h'
    """
    narration = f" --voice {voice}" if voice not in (None, "none") else ""
    return f"normgeo render {' '.join(scene_ids)} --lang {lang} --theme {theme}{narration}{f' -q {quality}' if quality else ''}"


def deck_scenes(out_dir: Path, scene_ids: Sequence[str], lang: str, theme: str, voice: str | None = None,
                suffixes: Sequence[str] = VIDEO_SUFFIXES, quality: str | None = None) -> list[DeckScene]:
    """The scenes of a deck, in the order given, each with its chosen video (a suffix in
    ``suffixes``; rendered at ``quality``, a ``-q`` letter, else the best there is) and steps; a
    render made with custom settings (``--set``) is never chosen: the deck shows the lecture as
    published, like the site. Missing ones: one :class:`InputError`."""
    out_dir = Path(out_dir)
    if not (out_dir / MANIFEST_NAME).is_file():
        whole = list(scene_ids) == list(LECTURE_ORDER)
        command = making_command([] if whole else scene_ids, lang, theme, voice, quality).replace("render  ", "render ")
        raise InputError(f"{out_dir} holds no {MANIFEST_NAME}: nothing was rendered there; "
                         f"`{command} --out {out_dir}` renders the deck's videos")
    records = Manifest(out_dir).artifacts
    found, missing = [], []
    for scene_id in scene_ids:
        candidates = sorted(
            (_rank(name, record), name, record) for name, record in records.items()
            if record.get("scene") == scene_id and record.get("spec_tag") is None
            and Path(name).suffix in suffixes and not name.endswith(".loop.mp4")
            and record.get("spec", {}).get("lang") == lang and record.get("spec", {}).get("theme") == theme
            and not record.get("settings", {}).get("transparent") and _wanted(record, voice)
            and quality in (None, record.get("settings", {}).get("quality"))
            and record.get("steps") and (out_dir / name).is_file())
        if not candidates:
            missing.append(scene_id)
            continue
        _, name, record = candidates[0]
        scene = entry(scene_id)
        steps = tuple(DeckStep(float(s["start"]), float(s["end"]), str(s.get("key", "")), str(s["text"]))
                      for s in record["steps"])
        found.append(DeckScene(scene_id, inline_math(scene.title(lang)), inline_math(scene.description(lang)),
                               out_dir / name, record_voice(record), record_height(record), _fps(record), steps))
    if missing:
        kinds = " or ".join(suffix.lstrip(".").upper() for suffix in suffixes)
        conditions = [lang, theme, *({None: [], "none": ["silent"]}.get(voice, [f"narrated with --voice {voice}"])),
                      *([f"-q {quality}"] if quality else [])]
        whole = list(missing) == list(LECTURE_ORDER)
        command = making_command([] if whole else missing, lang, theme, voice, quality).replace("render  ", "render ")
        where = "" if str(out_dir) == "renders" else f" --out {out_dir}"
        raise InputError(f"no {kinds} video of {'any scene' if whole else ', '.join(missing)} "
                         f"({', '.join(conditions)}) in {out_dir}; `{command}{where}` renders "
                         f"{'it' if len(missing) == 1 else 'them'}")
    return found
