"""The single-file HTML deck: the site's presenter page for the deck's scenes, with its scripts,
styles, videos and word-timed captions written into the one file (each video once, as a ``data:``
URI the page plays from a blob), for an e-mail or an LMS that takes one file. It opens from disk
with nothing beside it."""

from __future__ import annotations

import base64
import json
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from scenes.render.site import SiteMedia, SiteScene, SiteStep, build_site
from scenes.render.site.pages import self_contained
from scenes.render.slides.sources import DeckScene

__all__ = ["write_html_deck", "MIME_TYPES"]

MIME_TYPES = {".mp4": "video/mp4", ".webm": "video/webm", ".png": "image/png", ".vtt": "text/vtt"}
_MEDIA_URL = re.compile(r"media/[\w.-]+/[\w.-]+\.(?:mp4|webm|png|vtt)")


def _site_scene(scene: DeckScene, lang: str, theme: str) -> SiteScene:
    media = [SiteMedia("video", lang, theme, scene.video, scene.video.stat().st_size)]
    subtitles = scene.video.with_suffix(".vtt")
    if subtitles.is_file():
        media.append(SiteMedia("subtitles", lang, theme, subtitles, subtitles.stat().st_size))
    steps = [SiteStep(step.start, step.end, step.text, step.key) for step in scene.steps]
    return SiteScene(scene.id, {lang: scene.title}, {lang: scene.description}, {lang: steps}, media)


def _data_uri(path: Path) -> str:
    return f"data:{MIME_TYPES[path.suffix]};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


def write_html_deck(scenes: Sequence[DeckScene], target: Path, lang: str, theme: str) -> int:
    """Write the deck of ``scenes`` to the HTML file ``target``; the number of media files inside it
    (each once, in ``window.NORMGEO_MEDIA``, which the presenter's script plays from)."""
    with tempfile.TemporaryDirectory(prefix=".normgeo-deck-", dir=target.parent) as folder:
        site = Path(folder) / "site"
        build_site([_site_scene(scene, lang, theme) for scene in scenes], site, (), lang)
        page = self_contained((site / "present.html").read_text(encoding="utf-8"), site / "assets", "assets/")
        deck_start = page.index("<script>window.NORMGEO_DECK")
        urls = sorted(set(_MEDIA_URL.findall(page[deck_start:page.index("</script>", deck_start)])))
        media = {url: _data_uri(site / url) for url in urls}
        page = page[:deck_start] + f"<script>window.NORMGEO_MEDIA = {json.dumps(media)};</script>\n" + page[deck_start:]
    target.write_text(page, encoding="utf-8")
    return len(media)
