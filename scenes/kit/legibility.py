"""How small text may be drawn and still be read: a least cap height in the picture's pixels.

A text's capitals are as tall as its font size times :data:`CAP_HEIGHT_PER_POINT` scene units (the
kit's Latin and Cyrillic font, Libertinus Serif: a capital H set at font size 48 is 0.3245 units
tall), and a scene unit is ``shown_width / frame_width`` pixels of the picture as it is shown. Below
:data:`MIN_CAP_PX` (7 px: type of about 10.6 px, the smallest commonly set for reading on a screen;
8 px in Chinese, whose characters need about 12 px for their strokes) text cannot be read. A web
animation leaves such text out rather than show a smudge (``scenes.render.manim_door.cameras``);
videos and stills keep every text.

>>> round(cap_height_px(28, 480, 128 / 9), 2)  # a 28-point readout in a 480-px 16:9 GIF
6.39
>>> legible(28, 480, 128 / 9, "en"), legible(28, 640, 128 / 9, "en"), legible(28, 640, 128 / 9, "zh")
(False, True, True)
>>> least_legible_width(16, 128 / 9, "en")  # tick labels need a GIF this wide
921
"""

from __future__ import annotations

import math

from scenes.kit.languages import check_language

__all__ = ["CAP_HEIGHT_PER_POINT", "MIN_CAP_PX", "cap_height_px", "legible", "least_legible_width"]

CAP_HEIGHT_PER_POINT = 0.3245 / 48  # scene units of a capital's height per point of font size
MIN_CAP_PX = {"en": 7.0, "ru": 7.0, "zh": 8.0}
TOLERANCE_PX = 1e-9  # floating-point rounding of a capital's height exactly at the minimum


def cap_height_px(font_size: float, shown_width: float, frame_width: float) -> float:
    """The height in pixels of a capital set at ``font_size`` in a frame ``frame_width`` scene units
    wide shown ``shown_width`` pixels wide."""
    return font_size * CAP_HEIGHT_PER_POINT * shown_width / frame_width


def legible(font_size: float, shown_width: float, frame_width: float, lang: str) -> bool:
    """Whether text at ``font_size`` can be read in that picture (its capitals reach the least height,
    to within rounding: legible at :func:`least_legible_width` and not one pixel below)."""
    return cap_height_px(font_size, shown_width, frame_width) >= MIN_CAP_PX[check_language(lang)] - TOLERANCE_PX


def least_legible_width(font_size: float, frame_width: float, lang: str) -> int:
    """The narrowest picture, in whole pixels, in which text at ``font_size`` can be read (by
    :func:`legible`'s own test, so the two never disagree at the boundary)."""
    width = max(1, math.ceil(MIN_CAP_PX[check_language(lang)] * frame_width / (font_size * CAP_HEIGHT_PER_POINT)))
    while not legible(font_size, width, frame_width, lang):
        width += 1
    while width > 1 and legible(font_size, width - 1, frame_width, lang):
        width -= 1
    return width
