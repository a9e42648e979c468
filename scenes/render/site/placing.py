"""Media into the site folder: ``media/<scene>/<kind>.<lang>.<theme><suffix>``, hard-linked (copied
across file systems), the joined lectures under ``media/lecture/``, a poster for every video and
every lecture."""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scenes.render.site.model import SiteLecture, SiteMedia, SiteScene
from scenes.render.site.posters import last_frame_png, poster_sources

__all__ = ["Placed", "place_media"]


@dataclass
class Placed:
    """Where each file landed inside the site (relative addresses) and how much was placed."""

    files: dict[tuple[str, int], str] = field(default_factory=dict)
    posters: dict[tuple[str, int], str] = field(default_factory=dict)
    lectures: dict[tuple[str, str], str] = field(default_factory=dict)
    lecture_posters: dict[tuple[str, str], str] = field(default_factory=dict)
    count: int = 0
    bytes: int = 0

    def url(self, scene: SiteScene, item: SiteMedia | None) -> str:
        """The media file's address inside the site ("" for none)."""
        return "" if item is None else self.files[(scene.id, scene.media.index(item))]

    def poster(self, scene: SiteScene, item: SiteMedia | None) -> str:
        """The poster of a video ("" for none)."""
        return "" if item is None else self.posters.get((scene.id, scene.media.index(item)), "")

    def add(self, out: Path, relative: str) -> str:
        self.count += 1
        self.bytes += (out / relative).stat().st_size
        return relative


def _place(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _place_posters(scene: SiteScene, out: Path, placed: Placed) -> None:
    for index, still in poster_sources(scene).items():
        if still is not None:
            placed.posters[(scene.id, index)] = placed.files[(scene.id, scene.media.index(still))]
            continue
        video = scene.media[index]
        relative = f"media/{scene.id}/poster.{video.lang}.{video.theme}.{index}.png"
        last_frame_png(Path(video.source), out / relative)
        placed.posters[(scene.id, index)] = placed.add(out, relative)


def place_media(scenes: Sequence[SiteScene], lectures: Sequence[SiteLecture], out: Path) -> Placed:
    """Put every scene's media, a poster per video and the lectures into ``out``."""
    placed = Placed()
    for scene in scenes:
        for index, item in enumerate(scene.media):
            source = Path(item.source)
            relative = f"media/{scene.id}/{item.kind}.{item.lang}.{item.theme}{source.suffix.lower()}"
            if (out / relative).exists():  # two files of one kind, language and theme: keep both
                relative = f"media/{scene.id}/{item.kind}.{item.lang}.{item.theme}.{index}{source.suffix.lower()}"
            _place(source, out / relative)
            placed.files[(scene.id, index)] = placed.add(out, relative)
        _place_posters(scene, out, placed)
    for lecture in lectures:
        relative = f"media/lecture/lecture.{lecture.lang}.{lecture.theme}{Path(lecture.video).suffix.lower()}"
        _place(Path(lecture.video), out / relative)
        placed.lectures[(lecture.lang, lecture.theme)] = placed.add(out, relative)
        poster = f"media/lecture/poster.{lecture.lang}.{lecture.theme}.png"
        last_frame_png(Path(lecture.video), out / poster, lecture.chapters[0][1] if lecture.chapters else None)
        placed.lecture_posters[(lecture.lang, lecture.theme)] = placed.add(out, poster)
    return placed
