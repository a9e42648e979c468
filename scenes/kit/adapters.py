"""Core arrays ↔ Manim points. Scenes hand core output here and never convert by hand."""

from __future__ import annotations

import numpy as np
from manim import NumberPlane, ThreeDAxes

from scenes.kit.numbers import nice_step

__all__ = ["to_points", "to_coordinates", "make_plane", "make_space_axes", "SpaceAxes"]


def make_plane(extent: float, height: float, center, palette, step: float | None = None) -> NumberPlane:
    """A square NumberPlane showing [−extent, extent]² at ``height`` scene units, centred at ``center``."""
    step = step or nice_step(extent)
    plane = NumberPlane(
        x_range=(-extent, extent, step),
        y_range=(-extent, extent, step),
        x_length=height,
        y_length=height,
        background_line_style={"stroke_color": palette.grid, "stroke_width": 1, "stroke_opacity": 1},
        axis_config={"stroke_color": palette.muted, "stroke_width": 2, "include_ticks": False},
        faded_line_ratio=1,
    )
    plane.faded_lines.set_stroke(opacity=0)
    return plane.move_to(center)


def make_space_axes(extent: float, length: float, palette) -> ThreeDAxes:
    """3-D axes over [−extent, extent]³ drawn ``length`` scene units long, no ticks, shaded the
    way Manim shades them at a fraction of the cost (:class:`SpaceAxes`)."""
    return SpaceAxes(
        x_range=(-extent, extent, 1),
        y_range=(-extent, extent, 1),
        z_range=(-extent, extent, 1),
        x_length=length,
        y_length=length,
        z_length=length,
        axis_config={"stroke_color": palette.muted, "stroke_width": 2, "include_ticks": False, "include_tip": False},
    )


class SpaceAxes(ThreeDAxes):
    """Manim's 3-D axes, shaded as Manim shades them at a fraction of the cost. Manim draws each
    axis as 20 pieces, each shaded by a gradient between two corners of the whole axis's bounding
    box, and finds that box again from every piece's anchors for every piece in every frame: about
    a third of the time a 3-D frame takes. The pieces lie on the axis line, so the line's own end
    points span the same box; here the corners come from them. Only for axes without tips or ticks
    (which would widen the box). ``_set_axis_shading`` is the hook in which Manim's ``ThreeDAxes``
    gives each piece its shading (per piece, as Manim itself does there)."""

    def _set_axis_shading(self) -> None:
        for axis in self.axes:
            if axis.has_tip() or len(getattr(axis, "ticks", [])):
                raise ValueError("SpaceAxes needs axes without tips and ticks")
        light = np.asarray(self.light_source, dtype=float)

        def corners(axis):
            return lambda: (_box_corner(axis.points, -light), _box_corner(axis.points, light))

        for axis in self.axes:
            for piece in axis.family_members_with_points():
                piece.get_gradient_start_and_end_points = corners(axis)
                piece.get_unit_normal = lambda a: np.ones(3)
                piece.set_sheen(0.2)


def _box_corner(points: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """The corner (or edge centre) of the bounding box of ``points`` toward ``direction``, as
    Manim's ``get_critical_point`` picks it."""
    low, high = points.min(axis=0), points.max(axis=0)
    return np.where(direction < 0, low, np.where(direction > 0, high, (low + high) / 2))


def to_points(coordinate_system, vectors) -> np.ndarray:
    """Core vectors (shape (..., d), d = 2 or 3) as scene points, shape (..., 3)."""
    array = np.asarray(vectors, dtype=float)
    flat = array.reshape(-1, array.shape[-1])
    points = np.array([coordinate_system.c2p(*row) for row in flat])
    return points.reshape(array.shape[:-1] + (3,))


def to_coordinates(coordinate_system, points, dim: int = 2) -> np.ndarray:
    """Scene points (shape (..., 3)) back in core coordinates, shape (..., dim)."""
    array = np.asarray(points, dtype=float)
    flat = array.reshape(-1, 3)
    coordinates = np.array([coordinate_system.p2c(point)[:dim] for point in flat])
    return coordinates.reshape(array.shape[:-1] + (dim,))
