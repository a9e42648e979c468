"""Which of a scene's files a page in one language shows.

Each group of files that a page shows together — the video with its subtitles, the still, the web
animations (GIF, WebP, looping MP4) — comes from one language: the page's own if it has any,
else the default language, else the first other language that has one. Inside that language each
kind is shown per theme; a kind rendered in one theme only is shown in both, and the page is told
the file's real theme and language so it can say so.

>>> from pathlib import Path
>>> media = [SiteMedia("gif", "ru", "dark", Path("a.gif"), 1), SiteMedia("loop", "zh", "dark", Path("b.mp4"), 2),
...          SiteMedia("gif", "zh", "dark", Path("c.gif"), 3)]
>>> language_for(media, ANIMATION_KINDS, "ru", "en")
'ru'
>>> pick(media, "loop", "ru")
{}
>>> pick(media, "gif", "zh")["light"].source.name
'c.gif'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scenes.render.site.model import LANGS, THEMES, SiteMedia

__all__ = ["VIDEO_KINDS", "STILL_KINDS", "ANIMATION_KINDS", "language_for", "pick", "real_themes", "only_theme"]

VIDEO_KINDS = ("video", "subtitles")
STILL_KINDS = ("still",)
ANIMATION_KINDS = ("gif", "webp", "loop")


def language_for(media: Iterable[SiteMedia], kinds: Sequence[str], lang: str, default_lang: str) -> str | None:
    """The one language a group of kinds is shown in on ``lang``'s page (None: nothing rendered)."""
    have = {item.lang for item in media if item.kind in kinds}
    for wanted in (lang, default_lang, *LANGS):
        if wanted in have:
            return wanted
    return min(have, default=None)


def pick(media: Iterable[SiteMedia], kind: str, lang: str | None) -> dict[str, SiteMedia]:
    """theme → the media of ``kind`` in exactly ``lang`` (the first one rendered per theme); a kind
    rendered in one theme only is shown in both."""
    chosen: dict[str, SiteMedia] = {}
    for item in media:
        if item.kind == kind and item.lang == lang and item.theme not in chosen:
            chosen[item.theme] = item
    if len(chosen) == 1:
        (only,) = chosen.values()
        chosen = {theme: only for theme in THEMES}
    return chosen


def real_themes(picked: dict[str, SiteMedia]) -> dict[str, str]:
    """theme of the page → the theme the shown file was rendered in."""
    return {theme: item.theme for theme, item in picked.items()}


def only_theme(picked: dict[str, SiteMedia]) -> str | None:
    """The one theme a kind was rendered in when it is shown in both, else None."""
    themes = set(real_themes(picked).values())
    return themes.pop() if len(themes) == 1 and len(picked) > 1 else None
