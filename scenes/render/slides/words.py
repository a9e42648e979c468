"""The words a deck or handout prints, in its language: ``words.toml`` beside this file, and the
site's title and "Contents" (``page.title``, ``page.contents`` of ``scenes/web/ui.toml``)."""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

from scenes.kit.languages import LANGUAGES
from scenes.render.site.words import ui_text

__all__ = ["deck_words"]

WORDS_FILE = Path(__file__).with_name("words.toml")


@functools.cache
def _table() -> dict[str, dict[str, str]]:
    with open(WORDS_FILE, "rb") as handle:
        table = tomllib.load(handle)
    site = ui_text()
    table["title"], table["contents"] = site["page.title"], site["page.contents"]
    for key, entry in table.items():
        if missing := [lang for lang in LANGUAGES if not entry.get(lang)]:
            raise ValueError(f"{WORDS_FILE.name}: {key!r} has no text for {', '.join(missing)}")
    return table


def deck_words(lang: str) -> dict[str, str]:
    """key → text in ``lang`` (``title``, ``contents``, ``slides.subtitle``, ``handout.subtitle``).

    >>> deck_words("ru")["contents"]
    'Содержание'
    """
    return {key: entry[lang] for key, entry in _table().items()}
