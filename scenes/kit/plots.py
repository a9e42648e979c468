"""Plots for the simulation scenes: Manim ``Axes`` with labelled axes, and curves from core arrays."""

from __future__ import annotations

import math

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Axes, Line, LogBase, MathTypst, Rectangle, VGroup, VMobject

from scenes.kit.numbers import fmt_number, nice_step
from scenes.kit.text import math_number

from scenes.kit.widgets import text_mobject

__all__ = ["make_axes", "nice_step", "curve", "axis_labels", "bar_chart"]


def make_axes(x_range, y_range, width: float, height: float, palette, log_y: bool = False,
              x_tick_labels: dict | None = None, lang: str = "en") -> Axes:
    """Axes over ``x_range``/``y_range`` ((min, max, step)) with tick labels typeset by Typst
    (no LaTeX needed). With ``log_y`` the y range is in powers of ten (exponents) and the tick
    labels read 10^k. ``x_tick_labels`` ({x: Typst math}) replaces the numeric x labels. Numbers are
    written in ``lang``'s conventions (Russian 0,5)."""
    axes = Axes(
        x_range=x_range,
        y_range=y_range,
        x_length=width,
        y_length=height,
        tips=False,
        axis_config={"stroke_color": palette.muted, "stroke_width": 2, "include_numbers": False},
        y_axis_config={"scaling": LogBase()} if log_y else {},
    )
    if x_tick_labels is None:
        x_ticks = np.arange(x_range[0], x_range[1] + 1e-9 * abs(x_range[2]), x_range[2])
        x_tick_labels = {float(v): math_number(fmt_number(v, _digits(x_range[0], x_range[2]), lang)) for v in x_ticks}
    axes.x_axis.add_labels({float(v): _tick(text, palette) for v, text in x_tick_labels.items()}, font_size=TICK_SIZE)
    if log_y:
        exponents = range(int(np.ceil(y_range[0])), int(np.floor(y_range[1])) + 1)
        axes.y_axis.add_labels({10.0**k: _tick(f"10^({k})", palette) for k in exponents}, font_size=TICK_SIZE)
    else:
        y_ticks = np.arange(y_range[0], y_range[1] + 1e-9 * abs(y_range[2]), y_range[2])
        axes.y_axis.add_labels({float(v): _tick(math_number(fmt_number(v, _digits(y_range[0], y_range[2]), lang)), palette)
                                for v in y_ticks},
                               font_size=TICK_SIZE)
    return axes


TICK_SIZE = 16


def _digits(*values: float) -> int:
    """Decimals needed to write every sum of whole multiples of ``values`` (an axis's start and its
    step) exactly: the fewest d with each value × 10^d a whole number (at most 12), up to the
    float's rounding: within 4 units in the last place (a decimal of up to 15 significant digits,
    or a few operations on one, is that close; a tolerance relative to the size, 10⁻⁹ before,
    wrote 1000000.0105 with 2 decimals) or within 10⁻⁹ (so that 0.1 + 0.2 − 0.3 is 0).

    >>> _digits(0.25), _digits(0.5), _digits(2.0), _digits(0.5, 1.0), _digits(5e-4), _digits(0.1 * 3)
    (2, 1, 0, 1, 4, 1)
    >>> _digits(1000000.0105), _digits(123456789.123), _digits(17743561.2928)
    (4, 3, 4)
    """
    digits = 0
    for value in values:
        while digits < 12 and abs(value * 10**digits - round(value * 10**digits)) > max(4 * math.ulp(value * 10**digits),
                                                                                          1e-9):
            digits += 1
    return digits


def _tick(math: str, palette):
    return MathTypst(math, color=palette.muted, font_size=TICK_SIZE)


def axis_labels(axes: Axes, x_markup: str, y_markup: str, lang: str, color: str, font_size: float = 20) -> VGroup:
    """Axis titles (catalog text) under the x axis and above the y axis."""
    x_label = text_mobject(x_markup, lang, color, font_size).next_to(axes.x_axis, DOWN, buff=0.32)
    x_label.align_to(axes.x_axis, RIGHT)
    y_label = text_mobject(y_markup, lang, color, font_size).next_to(axes.y_axis, UP, buff=0.15)
    y_label.align_to(axes.y_axis, LEFT)
    return VGroup(x_label, y_label)


def curve(axes: Axes, xs, ys, color: str, stroke_width: float = 4) -> VMobject:
    """A polyline through the points (xs, ys) in axes coordinates."""
    points = np.array([axes.c2p(float(x), float(y)) for x, y in zip(xs, ys)])
    line = VMobject(color=color, stroke_width=stroke_width)
    line.set_points_as_corners(points)
    return line


def bar_chart(values, unit: float, color: str, axis_color: str, bar_width: float = 0.32, gap: float = 0.14) -> VGroup:
    """Bars for ``values`` (up for positive, down for negative), ``unit`` scene units per 1.0,
    on a baseline. Returns VGroup(baseline, bars); the baseline's centre is the chart's origin."""
    values = np.asarray(values, dtype=float)
    pitch = bar_width + gap
    total = pitch * values.size
    baseline = Line(LEFT * total / 2, RIGHT * total / 2, color=axis_color, stroke_width=2)
    bars = VGroup()
    for index, value in enumerate(values):
        height = max(abs(value) * unit, 1e-3)
        bar = Rectangle(width=bar_width, height=height, stroke_width=0, fill_color=color, fill_opacity=0.85)
        x = -total / 2 + pitch * (index + 0.5)
        bar.move_to(RIGHT * x + UP * (np.sign(value) * height / 2))
        bars.add(bar)
    return VGroup(baseline, bars)
