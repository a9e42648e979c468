"""What a paused frame asks of its viewer, read from what is drawn: the words of its text and their
size, and the colours of its drawing.

* A **word** is a run of letters (hyphens and apostrophes inside it) in a text's markup outside its
  ``$…$`` maths and Typst's ``#commands``; numbers, maths and single Greek letters are not words.
  Chinese is counted in jieba's words.
* A word is **tall enough** when its text's capitals are at least :data:`MIN_WORD_PX` pixels high at
  1920×1080 (the kit's measure of a capital, ``scenes.kit.legibility``).
* A **colour** is every stroke and fill colour of a visible mobject; each must be one of its theme's
  palette colours (``scenes.kit.theme``): a concept's or a neutral.

>>> shown_words("sphere $norm(v)_2 = sqrt({n})$ of radius 1.41", "en")
['sphere', 'of', 'radius']
>>> shown_words("#h(1em) it lands on (1, −1) — twice", "en")
['it', 'lands', 'on', 'twice']
>>> shown_words("сфера $x$ радиуса 2,5", "ru")
['сфера', 'радиуса']
"""

from __future__ import annotations

import re

import jieba
from manim import MathTypst, Typst, VMobject

from scenes.kit.legibility import cap_height_px
from scenes.kit.theme import THEMES

__all__ = ["MAX_WORDS", "MIN_WORD_PX", "drawn_colours", "foreign_colours", "frame_words", "shown_words", "small_texts"]

MAX_WORDS = 25  # on a last frame, besides the title
MIN_WORD_PX = 24.0  # the least capital height of text holding a word, at 1920×1080

_MATH = re.compile(r"\$[^$]*\$")
_COMMAND = re.compile(r"#[A-Za-z.]+(\([^()]*\))?(\[[^\]]*\])?")
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’\-‐](?=[^\W\d_]))*", re.UNICODE)
_GREEK = re.compile(r"^[\u0370-\u03ff]$")
_CJK = re.compile(r"[\u3400-\u9fff]")


def shown_words(markup: str, lang: str) -> list[str]:
    """The words a reader reads in ``markup`` (see the module's note)."""
    prose = _COMMAND.sub(" ", _MATH.sub(" ", markup))
    if lang == "zh":
        return [w for w in jieba.lcut(prose) if _CJK.search(w) or re.fullmatch(r"[A-Za-z][A-Za-z\-]*", w)]
    return [w for w in _WORD.findall(prose) if not _GREEK.match(w)]


def _visible(mobject) -> bool:
    return any(part.get_fill_opacity() > 0 for part in mobject.family_members_with_points())


def _texts(scene) -> list[Typst]:
    seen, texts = set(), []
    for top in scene.mobjects:
        for mobject in top.get_family():
            if isinstance(mobject, Typst) and not isinstance(mobject, MathTypst) and id(mobject) not in seen \
                    and _visible(mobject):
                seen.add(id(mobject))
                texts.append(mobject)
    return texts


def frame_words(scene) -> list[str]:
    """Every word on screen now, the title's left out."""
    title = scene.words("title")
    lang = scene.spec.lang
    return [w for text in _texts(scene) if text.typst_code.strip() != title.strip()
            for w in shown_words(text.typst_code, lang)]


def small_texts(scene, shown_width: float = 1920) -> list[tuple[str, float]]:
    """Each text on screen that holds a word and whose capitals are under :data:`MIN_WORD_PX` at
    ``shown_width`` pixels: (its markup, its capital height in pixels)."""
    lang, frame_width = scene.spec.lang, scene.camera.frame_width
    small = []
    for text in _texts(scene):
        height = cap_height_px(text.font_size, shown_width, frame_width)
        if shown_words(text.typst_code, lang) and height < MIN_WORD_PX - 1e-6:
            small.append((text.typst_code, round(height, 1)))
    return small


def drawn_colours(scene) -> dict[str, list[str]]:
    """Every colour a visible mobject is drawn in (lower-case hex) → a few of the mobjects drawn in it."""
    found: dict[str, list[str]] = {}
    for top in scene.mobjects:
        for mobject in top.family_members_with_points():
            if not isinstance(mobject, VMobject):
                continue
            colours = []
            if mobject.get_fill_opacity() > 0:
                colours.append(mobject.get_fill_color())
            if mobject.get_stroke_opacity() > 0 and mobject.get_stroke_width() > 0:
                colours.append(mobject.get_stroke_color())
            for colour in colours:
                found.setdefault(colour.to_hex().lower(), []).append(type(mobject).__name__)
    return found


def foreign_colours(scene) -> dict[str, list[str]]:
    """The drawn colours that are none of the scene's theme's palette colours."""
    palette = THEMES[scene.spec.theme]
    allowed = {value.lower() for name, value in vars(palette).items() if name != "name"}
    return {colour: kinds[:3] for colour, kinds in drawn_colours(scene).items() if colour not in allowed}
