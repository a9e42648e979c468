"""The site from what an output folder holds: its manifest's videos, subtitles, stills and GIFs, the
narrated steps each render recorded, and the joined lecture videos, in lecture order.

Where a scene (or the lecture) has a narrated video in a language, the page plays that one (with its
subtitles, timed to the speech, and its steps) and not the silent one; ``voice`` chooses: None is
any narration (the first narrated render the manifest lists), ``"none"`` silent videos only, a
``--voice`` value (``en``, ``ru``, ``piper:…``) the videos narrated with it."""

from __future__ import annotations

from pathlib import Path

import av

from scenes.kit.languages import LANGUAGES
from scenes.kit.registry import SCENES
from scenes.render.manifest import Manifest
from scenes.render.names import voice_tag
from scenes.render.settings import PRESET_SIZES
from scenes.render.site import WIDGET_FOR_SCENE, SiteLecture, SiteMedia, SiteReport, SiteScene, SiteStep, build_site
from scenes.render.site.folder import check_apart_from_renders

__all__ = ["publish_site", "record_height", "record_voice", "site_content"]

KIND_OF_SUFFIX = {".mp4": "video", ".webm": "video", ".gif": "gif", ".webp": "webp", ".png": "still", ".vtt": "subtitles"}


def record_height(record: dict) -> int:
    resolution = record.get("settings", {}).get("resolution")
    if resolution:
        return int(resolution[1])
    label = str(record.get("quality", "0p"))
    return int(label.split("p")[0].split("x")[-1] or 0)


def _is_video(name: str) -> bool:
    return KIND_OF_SUFFIX.get(Path(name).suffix) == "video" and not name.endswith(".loop.mp4")


def record_voice(record: dict) -> str:
    return record.get("settings", {}).get("voice", "none")


def _shown_videos(mine: list[tuple[str, dict]], voice: str | None) -> list[tuple[str, dict]]:
    """The records of one scene the page may show: in a language with a video of the voice asked
    for (any narration when ``voice`` is None), its other videos are left out."""
    wanted = (lambda v: v != "none") if voice is None else (lambda v: v == voice)
    voiced_langs = {r["spec"]["lang"] for name, r in mine if _is_video(name) and wanted(record_voice(r))}
    return [(name, r) for name, r in mine
            if not _is_video(name) or (wanted(record_voice(r)) if r["spec"]["lang"] in voiced_langs else record_voice(r) == "none")]


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


def site_content(out_dir: Path, voice: str | None = None) -> tuple[list[SiteScene], list[SiteLecture]]:
    """Every scene that has something rendered with its default settings (custom-spec renders are
    left out: the page explains the lecture as published), narrated videos (see the module's note)
    and then the best quality first."""
    out_dir = Path(out_dir)
    records = {name: r for name, r in Manifest(out_dir).artifacts.items()
               if r.get("spec_tag") is None and (out_dir / name).is_file() and not r.get("settings", {}).get("transparent")}
    scenes = []
    for scene in SCENES:
        mine = sorted(_shown_videos([(name, r) for name, r in records.items() if r.get("scene") == scene.id], voice),
                      key=lambda item: (record_voice(item[1]) == "none", -record_height(item[1])))
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
                steps[lang] = [SiteStep(s["start"], s["end"], s["text"], s.get("key", "")) for s in record["steps"]]
        scenes.append(SiteScene(
            id=scene.id,
            titles={lang: scene.title(lang) for lang in LANGUAGES},
            descriptions={lang: scene.description(lang) for lang in LANGUAGES},
            steps=steps,
            media=media,
            widget=WIDGET_FOR_SCENE.get(scene.id),
        ))
    return scenes, _lectures(out_dir, voice)


def _lectures(out_dir: Path, voice: str | None) -> list[SiteLecture]:
    """One lecture per language and theme: narrated (as ``voice`` asks) before silent, then the best quality."""
    found: dict[tuple[str, str], list[tuple[tuple, Path]]] = {}
    for path in sorted((out_dir / "lecture").glob("lecture.*.mp4")):
        parts = path.name.split(".")
        # lecture.<lang>.<theme>[.voice-<voice>].<quality>.mp4: a custom-spec lecture has a tag too
        tag = parts[3] if len(parts) == 6 and parts[3].startswith("voice-") else None
        if (len(parts) != 5 and tag is None) or parts[1] not in LANGUAGES:
            continue
        if voice is not None and tag != (None if voice == "none" else voice_tag(voice)[1:]):
            continue
        quality = parts[-2].split("p")[0].split("x")[-1]
        found.setdefault((parts[1], parts[2]), []).append(((tag is None, -int(quality) if quality.isdigit() else 0), path))
    lectures = []
    for (lang, theme), candidates in found.items():
        path = min(candidates)[1]
        with av.open(str(path)) as container:
            chapters = [(float(c["start"] * c["time_base"]), float(c["end"] * c["time_base"]))
                        for c in container.chapters()]
        lectures.append(SiteLecture(lang, theme, path, chapters))
    return lectures


def publish_site(out_dir: Path, site_dir: Path | None = None, default_lang: str = "en",
                 voice: str | None = None) -> SiteReport:
    """Build the site for ``out_dir`` into ``site_dir`` (default ``<out_dir>/site``), its videos
    narrated as ``voice`` chooses (see the module's note). ``site_dir`` may not be, hold or lie inside
    ``out_dir`` (other than ``<out_dir>/site``), and must be new, empty or an earlier site of
    normgeo's: else ``InputError``, and nothing is written."""
    site_dir = Path(site_dir) if site_dir else Path(out_dir) / "site"
    check_apart_from_renders(site_dir, out_dir)
    scenes, lectures = site_content(out_dir, voice)
    return build_site(scenes, site_dir, lectures, default_lang)
