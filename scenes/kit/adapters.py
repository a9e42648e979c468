"""Core arrays ↔ Manim points. Scenes hand core output here and never convert by hand."""

from __future__ import annotations

import numpy as np
from manim import NumberPlane, ThreeDAxes

from scenes.kit.numbers import nice_step

__all__ = ["to_points", "to_coordinates", "make_plane", "make_space_axes"]


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
    """3-D axes over [−extent, extent]³ drawn ``length`` scene units long, no ticks."""
    return ThreeDAxes(
        x_range=(-extent, extent, 1),
        y_range=(-extent, extent, 1),
        z_range=(-extent, extent, 1),
        x_length=length,
        y_length=length,
        z_length=length,
        axis_config={"stroke_color": palette.muted, "stroke_width": 2, "include_ticks": False, "include_tip": False},
    )


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
