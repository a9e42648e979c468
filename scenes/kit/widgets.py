"""Reusable mobjects: vectors, rays, circles and spheres of a given radius, labels and readouts."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Arrow,
    Circle,
    DashedLine,
    Dot,
    Line,
    MathTypst,
    Polygon,
    RoundedRectangle,
    Typst,
    VGroup,
    VMobject,
)

from normgeo import sphere_rings
from scenes.kit.adapters import to_points
from scenes.kit.languages import typst_preamble

__all__ = [
    "text_mobject",
    "math_mobject",
    "vector_arrow",
    "ray",
    "circle_of_radius",
    "segment",
    "dot_at",
    "legend",
    "panel_behind",
    "space_polyline",
    "closed_curve",
    "wire_sphere",
    "space_polygon",
    "space_segment",
]


def text_mobject(markup: str, lang: str, color: str, font_size: float = 28) -> Typst:
    """Typst markup (prose with inline ``$math$``) in the fonts of ``lang``."""
    return Typst(markup, typst_preamble=typst_preamble(lang), color=color, font_size=font_size)


def math_mobject(expression: str, color: str, font_size: float = 32) -> MathTypst:
    """Display math from a Typst math expression."""
    return MathTypst(expression, color=color, font_size=font_size)


def vector_arrow(plane, vector, color: str, stroke_width: float = 5, start=None) -> Arrow:
    """An arrow from the origin (or ``start``) to ``vector`` in plane coordinates, tip at the point."""
    tail = to_points(plane, np.zeros(2) if start is None else start)
    head = to_points(plane, vector)
    return Arrow(
        tail,
        head,
        buff=0,
        color=color,
        stroke_width=stroke_width,
        max_tip_length_to_length_ratio=0.18,
        max_stroke_width_to_length_ratio=12,
        tip_length=0.22,
    )


def ray(plane, end, color: str, stroke_width: float = 2) -> DashedLine:
    """The dashed ray from the origin to ``end`` (plane coordinates, e.g. a radial projection)."""
    return DashedLine(to_points(plane, np.zeros(2)), to_points(plane, end), color=color, stroke_width=stroke_width,
                      dash_length=0.08)


def circle_of_radius(plane, radius: float, color: str, stroke_width: float = 4) -> Circle:
    """The circle ‖v‖₂ = radius in plane coordinates (the plane's unit converts the radius)."""
    scene_unit = np.linalg.norm(to_points(plane, [1.0, 0.0]) - to_points(plane, [0.0, 0.0]))
    circle = Circle(radius=radius * scene_unit, color=color, stroke_width=stroke_width)
    return circle.move_to(to_points(plane, [0.0, 0.0]))


def segment(plane, start, end, color: str, stroke_width: float = 4) -> Line:
    """The straight segment between two points in plane coordinates."""
    return Line(to_points(plane, start), to_points(plane, end), color=color, stroke_width=stroke_width)


def dot_at(plane, vector, color: str, radius: float = 0.07) -> Dot:
    """A dot at ``vector`` in plane coordinates."""
    return Dot(to_points(plane, vector), radius=radius, color=color)


class LegendRow(VGroup):
    """A colour swatch and the text that names it: a swatch says nothing without its text, so
    wherever the text is not drawn (too small to read in a web animation) neither is the swatch."""


def legend(rows, lang: str, text_color: str, font_size: float = 24) -> VGroup:
    """Rows of (colour, Typst markup) as colour swatches with text, left-aligned."""
    items = []
    for color, markup in rows:
        swatch = Line(LEFT * 0.2, RIGHT * 0.2, color=color, stroke_width=8)
        label = text_mobject(markup, lang, text_color, font_size)
        items.append(LegendRow(swatch, label).arrange(RIGHT, buff=0.18))
    return VGroup(*items).arrange(DOWN, aligned_edge=LEFT, buff=0.18)


def panel_behind(mobject, fill: str, padding: float = 0.2) -> RoundedRectangle:
    """A rounded panel sized to sit behind ``mobject``."""
    panel = RoundedRectangle(
        width=mobject.width + 2 * padding,
        height=mobject.height + 2 * padding,
        corner_radius=0.12,
        fill_color=fill,
        fill_opacity=0.92,
        stroke_width=0,
    )
    return panel.move_to(mobject)


def space_polyline(axes, points, color: str, stroke_width: float = 3, closed: bool = False) -> VMobject:
    """A polyline through core 3-D points (shape (k, 3)); cheap in 3-D: no surface faces."""
    scene_points = to_points(axes, points)
    if closed:
        scene_points = np.vstack([scene_points, scene_points[:1]])
    curve = VMobject(color=color, stroke_width=stroke_width)
    curve.set_points_as_corners(scene_points)
    return curve


def space_segment(axes, start, end, color: str, stroke_width: float = 6) -> VGroup:
    """A segment with a small flat tip at ``end``: an arrow for 3-D scenes without cone faces."""
    a, b = to_points(axes, start), to_points(axes, end)
    shaft = Line(a, b, color=color, stroke_width=stroke_width)
    tip = Dot(b, radius=0.06, color=color)
    return VGroup(shaft, tip)


def space_polygon(axes, points, color: str, opacity: float) -> Polygon:
    """A flat filled polygon through core 3-D points: one face, however the camera moves."""
    return Polygon(*to_points(axes, points), color=color, fill_opacity=opacity, stroke_width=1.5, stroke_color=color)


def wire_sphere(axes, radius: float, color: str, stroke_width: float = 1.5, opacity: float = 0.5):
    """The sphere of ``radius`` (core units) drawn as 5 latitude and 6 longitude rings from
    ``normgeo.sphere_rings``: curves only, no faces to shade."""
    rings = [space_polyline(axes, ring, color, stroke_width, closed=True)
             for ring in sphere_rings(radius, latitudes=5, longitudes=6, samples=72)]
    return VGroup(*rings).set_stroke(opacity=opacity)



def closed_curve(coordinate_system, points, color: str, stroke_width: float = 4) -> VMobject:
    """A smooth closed curve through core 2-D points (an ellipse or circle sampled by the core)."""
    scene_points = to_points(coordinate_system, points)
    curve = VMobject(color=color, stroke_width=stroke_width)
    curve.set_points_smoothly(np.vstack([scene_points, scene_points[:1]]))
    return curve
