"""The site from what an output folder holds: its manifest's videos, subtitles, stills and GIFs, the
narrated steps each render recorded, and the joined lecture videos, in lecture order."""

from __future__ import annotations

from pathlib import Path

import av

from scenes.kit.languages import LANGUAGES
from scenes.kit.registry import SCENES
from scenes.render.manifest import Manifest
from scenes.render.settings import PRESET_SIZES
from scenes.render.site import WIDGET_FOR_SCENE, SiteLecture, SiteMedia, SiteReport, SiteScene, SiteStep, build_site

__all__ = ["site_content", "publish_site"]

KIND_OF_SUFFIX = {".mp4": "video", ".webm": "video", ".gif": "gif", ".webp": "webp", ".png": "still", ".vtt": "subtitles"}


def _height(record: dict) -> int:
    resolution = record.get("settings", {}).get("resolution")
    if resolution:
        return int(resolution[1])
    label = str(record.get("quality", "0p"))
    return int(label.split("p")[0].split("x")[-1] or 0)


def _pixel_size(record: dict) -> tuple[int | None, int | None]:
    """The pixels of a recorded file: a web animation's own, else its render's frame size.

    >>> _pixel_size({"gif": {"width": 480, "height": 270}}), _pixel_size({"settings": {"quality": "l"}})
    ((480, 270), (854, 480))
    """
    if "gif" in record:
        return record["gif"].get("width"), record["gif"].get("height")
    settings = record.get("settings", {})
    size = settings.get("resolution") or PRESET_SIZES.get(settings.get("quality"))
    return (int(size[0]), int(size[1])) if size else (None, None)


def site_content(out_dir: Path) -> tuple[list[SiteScene], list[SiteLecture]]:
    """Every scene that has something rendered with its default settings (custom-spec renders are
    left out: the page explains the lecture as published), best quality first."""
    out_dir = Path(out_dir)
    records = {name: r for name, r in Manifest(out_dir).artifacts.items()
               if r.get("spec_tag") is None and (out_dir / name).is_file() and not r.get("settings", {}).get("transparent")}
    scenes = []
    for scene in SCENES:
        mine = sorted(((name, r) for name, r in records.items() if r.get("scene") == scene.id),
                      key=lambda item: -_height(item[1]))
        if not mine:
            continue
        media, steps = [], {}
        for name, record in mine:
            lang, theme = record["spec"]["lang"], record["spec"]["theme"]
            for file_name in record.get("files", [name]):
                kind = "loop" if file_name.endswith(".loop.mp4") else KIND_OF_SUFFIX.get(Path(file_name).suffix)
                if kind is None:
                    continue
                path = out_dir / file_name
                media.append(SiteMedia(kind, lang, theme, path, path.stat().st_size,
                                       *(_pixel_size(record) if kind != "subtitles" else (None, None))))
            if record.get("steps") and lang not in steps:
                steps[lang] = [SiteStep(s["start"], s["end"], s["text"]) for s in record["steps"]]
        scenes.append(SiteScene(
            id=scene.id,
            titles={lang: scene.title(lang) for lang in LANGUAGES},
            descriptions={lang: scene.description(lang) for lang in LANGUAGES},
            steps=steps,
            media=media,
            widget=WIDGET_FOR_SCENE.get(scene.id),
        ))
    return scenes, _lectures(out_dir)


def _lectures(out_dir: Path) -> list[SiteLecture]:
    lectures = []
    for path in sorted((out_dir / "lecture").glob("lecture.*.mp4")):
        parts = path.name.split(".")
        if len(parts) != 5:  # lecture.<lang>.<theme>.<quality>.mp4: a custom-spec lecture has a tag too
            continue
        with av.open(str(path)) as container:
            chapters = [(float(c["start"] * c["time_base"]), float(c["end"] * c["time_base"]))
                        for c in container.chapters()]
        if parts[1] in LANGUAGES:
            lectures.append(SiteLecture(parts[1], parts[2], path, chapters))
    return lectures


def publish_site(out_dir: Path, site_dir: Path | None = None, default_lang: str = "en") -> SiteReport:
    """Build the site for ``out_dir`` into ``site_dir`` (default ``<out_dir>/site``)."""
    scenes, lectures = site_content(out_dir)
    return build_site(scenes, Path(site_dir) if site_dir else Path(out_dir) / "site", lectures, default_lang)
