"""Grids of numbers whose cells are shaded by the groups that share μ and σ."""

from __future__ import annotations

import numpy as np
from manim import DOWN, RIGHT, Rectangle, VGroup

from scenes.kit.text import math_number
from scenes.kit.widgets import text_mobject

__all__ = ["cell_rectangles", "number_cells", "shade_groups", "GROUP_OPACITIES"]

# Neighbouring groups alternate in strength so that adjacent groups stay distinguishable.
GROUP_OPACITIES = (0.55, 0.25, 0.42, 0.14)


def cell_rectangles(shape, cell_width: float, cell_height: float, stroke_color: str) -> VGroup:
    """Rows × columns of empty rectangles, row 0 at the top."""
    rows, cols = shape
    cells = VGroup()
    for r in range(rows):
        for c in range(cols):
            rect = Rectangle(width=cell_width, height=cell_height, stroke_color=stroke_color, stroke_width=1.5)
            rect.move_to(RIGHT * c * cell_width + DOWN * r * cell_height)
            cells.add(rect)
    return cells


def number_cells(values, texts, cells: VGroup, lang: str, color: str, font_size: float) -> VGroup:
    """One Typst number per cell, centred in it; ``texts`` are the values formatted in ``lang``
    (a decimal comma is kept together inside the math)."""
    flat = np.asarray(values).ravel()
    numbers = VGroup()
    for text, cell in zip(np.ravel(texts), cells):
        numbers.add(text_mobject(f"${math_number(text)}$", lang, color, font_size).move_to(cell))
    assert len(numbers) == flat.size
    return numbers


def shade_groups(cells: VGroup, labels, color: str) -> VGroup:
    """Copies of the cells filled by group label: one colour, opacity cycling per group."""
    shaded = VGroup()
    for cell, label in zip(cells, np.ravel(labels)):
        shaded.add(cell.copy().set_fill(color, opacity=GROUP_OPACITIES[int(label) % len(GROUP_OPACITIES)]).set_stroke(width=0))
    return shaded
