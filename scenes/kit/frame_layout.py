"""Where a scene puts things, for the frame's aspect: a title band, a figure, and a column of text
(legend, readouts, formulas) beside the figure in a wide frame and below it in a square or tall one.

The frame's size in scene units follows from its pixels (:func:`frame_size`): a frame at least as
wide as 16:9 is 8 units tall (Manim's default); a narrower one keeps the 16:9 frame's long side,
8·16/9 units, so that text of a given font size is as large against the frame's long side in
every aspect (a 9:16 frame is the 16:9 frame turned on its side, 8 units wide).

A scene builds its :class:`Layout` from Manim's config as the render set it
(:meth:`Layout.of_config`) and places its parts through it instead of typing 16:9 coordinates:

>>> wide, tall = Layout.for_frame(*frame_size(1920, 1080)), Layout.for_frame(*frame_size(1080, 1920))
>>> wide.stacked, wide.figure_center, wide.figure_height, round(wide.column_width, 2)
(False, (-3.3, -0.45, 0.0), 6.6, 6.25)
>>> tall.stacked, round(tall.width, 3), round(tall.height, 3)
(True, 8.0, 14.222)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, config

__all__ = ["Layout", "frame_size", "keep_clear", "overlaps", "LONG_SIDE", "SHORT_SIDE", "STACK_BELOW_ASPECT", "EDGE", "PLANE_HEIGHT",
           "COLUMN_GAP"]

SHORT_SIDE = 8.0  # Manim's frame height at 16:9
LONG_SIDE = SHORT_SIDE * 16 / 9  # Manim's frame width at 16:9
STACK_BELOW_ASPECT = 1.25  # frames narrower than 5:4 put the column below the figure

EDGE = 0.35  # the margin to the frame's edge
PLANE_HEIGHT = 6.6  # the figure's side in a 16:9 frame
COLUMN_GAP = 0.45  # between the figure and the column
TITLE_BAND = 1.15  # the title's height with its margins, above a stacked figure
FIGURE_LEFT_MARGIN = 0.5111111111111111  # 16:9: the plane's left edge, 0.51 from the frame's
FIGURE_BOTTOM_MARGIN = 0.25
COLUMN_RIGHT_MARGIN = 0.4111111111111111  # 16:9: the column is 6.25 wide
STACKED_VIEW_SCALE = 1.2
VIEW_DROP = 1.2  # a stacked 3-D view sits this far below the figure's centre
STACKED_COLUMN_MIN = 5.6  # height kept for the column below a stacked figure


def frame_size(pixel_width: int, pixel_height: int) -> tuple[float, float]:
    """The frame's (width, height) in scene units for a picture of these pixels.

    >>> frame_size(1920, 1080), frame_size(854, 480)[1], frame_size(1080, 1080)[0] == LONG_SIDE
    ((14.222222222222221, 8.0), 8.0, True)
    """
    if pixel_width <= 0 or pixel_height <= 0:
        raise ValueError(f"a frame of {pixel_width}×{pixel_height} pixels has no size")
    aspect = pixel_width / pixel_height
    if aspect >= 16 / 9:
        return SHORT_SIDE * aspect, SHORT_SIDE
    if aspect >= 1:
        return LONG_SIDE, LONG_SIDE / aspect
    return LONG_SIDE * aspect, LONG_SIDE


@dataclass(frozen=True)
class Layout:
    """The regions of a frame ``width`` × ``height`` (scene units, origin at the centre).

    ``stacked``: the column goes below the figure (square and tall frames), else beside it.
    ``figure_center`` and ``figure_height``: where the main figure (a square plane) goes.
    ``column_left``, ``column_width``: the text column's left edge and width.
    ``content_width``: the width inside the margins (for full-width rows: tables, notes).
    """

    width: float
    height: float
    stacked: bool
    figure_center: tuple[float, float, float]
    figure_height: float
    column_left: float
    column_width: float

    @classmethod
    def for_frame(cls, width: float, height: float, column_height: float = STACKED_COLUMN_MIN) -> "Layout":
        """The layout of a ``width`` × ``height`` frame; stacked, the figure leaves ``column_height``
        below it for the column (a scene with a long column asks for more)."""
        if width / height >= STACK_BELOW_ASPECT:
            figure = min(PLANE_HEIGHT, height - 2 * TITLE_BAND + 0.9)
            center = (round(-width / 2 + FIGURE_LEFT_MARGIN + figure / 2, 12),
                      round(-height / 2 + FIGURE_BOTTOM_MARGIN + figure / 2, 12), 0.0)
            left = center[0] + figure / 2 + COLUMN_GAP
            return cls(width, height, False, center, figure, left, width / 2 - COLUMN_RIGHT_MARGIN - left)
        figure = min(PLANE_HEIGHT, width - 2 * EDGE - 0.4, height - TITLE_BAND - column_height - 2 * EDGE)
        center = (0.0, height / 2 - TITLE_BAND - figure / 2, 0.0)
        left = max(-width / 2 + EDGE + 0.15, -figure / 2)  # under the figure's left edge where there is room
        return cls(width, height, True, center, figure, left, width / 2 - EDGE - 0.15 - left)

    @classmethod
    def of_config(cls, column_height: float = STACKED_COLUMN_MIN) -> "Layout":
        """The layout of the frame Manim renders now (its config, as the render set it)."""
        return cls.for_frame(float(config.frame_width), float(config.frame_height), column_height)

    # ------------------------------------------------------------------ regions
    @property
    def content_width(self) -> float:
        return self.width - 2 * EDGE - 0.1

    @property
    def left(self) -> float:
        """The left edge of the content (inside the margin)."""
        return -self.width / 2 + EDGE

    @property
    def right(self) -> float:
        return self.width / 2 - EDGE

    @property
    def top(self) -> float:
        return self.height / 2 - EDGE

    @property
    def bottom(self) -> float:
        return -self.height / 2 + EDGE

    @property
    def figure_top(self) -> float:
        return self.figure_center[1] + self.figure_height / 2

    @property
    def view_center(self) -> tuple[float, float, float]:
        """Where a 3-D view's origin is drawn: the frame's centre in a wide frame, in a square or tall
        one the middle between a legend under the title and readouts at the bottom."""
        if not self.stacked:
            return (0.0, 0.0, 0.0)
        return (0.0, self.figure_center[1] - VIEW_DROP, 0.0)

    @property
    def view_scale(self) -> float:
        """How much larger a 3-D view is drawn than at 16:9 (a tall frame is as wide as 16:9 is tall)."""
        return STACKED_VIEW_SCALE if self.stacked else 1.0

    # ------------------------------------------------------------------ placing
    def start_column(self, mobject, figure, buff: float = COLUMN_GAP):
        """Put the column's first part beside ``figure`` (right of it, tops aligned) or, stacked,
        below it at the column's left edge; the rest of the column follows it downwards."""
        if self.stacked:
            mobject.next_to(figure, DOWN, buff=buff - 0.1)
            return mobject.align_to(np.array([self.column_left, 0.0, 0.0]), LEFT)
        return mobject.next_to(figure, RIGHT, buff=buff).align_to(figure, UP)

    def pick(self, wide, stacked):
        """``wide`` in a wide frame, ``stacked`` in a square or tall one (sizes, positions)."""
        return stacked if self.stacked else wide

    def square_below(self, mobject, at_most: float, buff: float = 0.35, x: float = 0.0):
        """(centre, side) of the largest square figure, at most ``at_most`` wide, that fits between
        ``mobject``'s bottom and the frame's bottom margin, centred at ``x``."""
        top = mobject.get_bottom()[1] - buff
        side = max(0.5, min(at_most, top - self.bottom, self.content_width))
        return (x, top - side / 2, 0.0), side

    def stacked_panels(self, count: int, at_most: float, above: float = 0.5, below: float = 1.4,
                       top_gap: float = 0.0, bottom_gap: float = 0.0) -> list[tuple[tuple[float, float, float], float]]:
        """(centre, side) of ``count`` square panels one above the other, centred across the frame,
        sharing the height under the title band (and ``top_gap`` more) down to ``bottom_gap`` above the
        bottom margin, each with room ``above``
        (a caption) and ``below`` (readouts) inside its band; each side at most ``at_most``."""
        top = self.height / 2 - TITLE_BAND - top_gap
        band = (top - self.bottom - bottom_gap) / count
        side = max(0.5, min(at_most, band - above - below, self.content_width))
        return [((0.0, top - index * band - above - side / 2, 0.0), side) for index in range(count)]

    def band_center(self, index: int, count: int, top_gap: float = 0.0) -> tuple[float, float, float]:
        """The centre of band ``index`` of ``count`` equal bands from under the title band (and
        ``top_gap``) to the bottom margin, across the frame's middle."""
        top = self.height / 2 - TITLE_BAND - top_gap
        band = (top - self.bottom) / count
        return (0.0, top - (index + 0.5) * band, 0.0)

    def moved(self, point, wide_anchor, stacked_anchor):
        """``point`` of a part drawn around ``wide_anchor`` in a wide frame, moved with the part to
        ``stacked_anchor`` in a square or tall one (a part of a 16:9 layout carried over whole).

        >>> Layout.for_frame(8.0, LONG_SIDE).moved((1.0, 2.0, 0.0), (3.0, 0.0, 0.0), (0.0, 4.0, 0.0))
        (-2.0, 6.0, 0.0)
        """
        if not self.stacked:
            return tuple(point)
        return tuple(float(p - w + s) for p, w, s in zip(point, wide_anchor, stacked_anchor))


def overlaps(a, b, margin: float = 0.05) -> bool:
    """Whether the boxes of mobjects ``a`` and ``b`` overlap by more than ``margin`` both ways."""
    low_a, high_a, low_b, high_b = a.get_corner(DOWN + LEFT), a.get_corner(UP + RIGHT), b.get_corner(DOWN + LEFT), b.get_corner(UP + RIGHT)
    return min(high_a[0], high_b[0]) - max(low_a[0], low_b[0]) > margin and \
        min(high_a[1], high_b[1]) - max(low_a[1], low_b[1]) > margin


def keep_clear(mobject, *others, direction=DOWN, buff: float = 0.12):
    """Move ``mobject`` past each of ``others`` it overlaps, in ``direction`` (its other coordinate kept)."""
    for other in others:
        if overlaps(mobject, other, margin=0.0):
            x = mobject.get_x() if direction[0] == 0 else None
            y = mobject.get_y() if direction[1] == 0 else None
            mobject.next_to(other, direction, buff=buff)
            if x is not None:
                mobject.set_x(x)
            if y is not None:
                mobject.set_y(y)
    return mobject
