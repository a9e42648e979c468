"""The kit's 3-D axes: shaded as Manim shades them, from the axis line alone."""

import numpy as np
import pytest
from manim import ThreeDAxes

from scenes.kit.adapters import SpaceAxes, make_space_axes
from scenes.kit.theme import THEMES


def manims_endpoints(axes: ThreeDAxes, axis):
    """What ThreeDAxes._set_axis_shading computes: the axis's edge centres toward ∓ the light."""
    light = axes.light_source
    return axis.get_edge_center(-light), axis.get_edge_center(light)


@pytest.mark.parametrize("extent, length", [(1.0, 2.0), (3.5, 6.0), (0.25, 4.0)])
def test_cheap_axis_shading_gives_manims_gradient_endpoints(extent, length):
    """Every piece of every axis gets the gradient end points Manim would give it (from the whole
    axis's bounding box), here taken from the axis line's own points."""
    axes = make_space_axes(extent, length, THEMES["dark"])
    pieces = 0
    for axis in axes.axes:
        expected = manims_endpoints(axes, axis)
        for piece in axis.family_members_with_points():
            start, end = piece.get_gradient_start_and_end_points()
            np.testing.assert_allclose(start, expected[0], atol=1e-12)
            np.testing.assert_allclose(end, expected[1], atol=1e-12)
            pieces += 1
    assert pieces > 3 * 20  # the 20 pieces of each axis, and the axis lines


def test_cheap_axis_shading_follows_the_axes_when_they_move():
    axes = make_space_axes(2.0, 4.0, THEMES["light"])
    axes.shift(np.array([1.0, -2.0, 0.5])).rotate(0.7, axis=np.array([0.0, 1.0, 1.0]))
    for axis in axes.axes:
        piece = axis.family_members_with_points()[-1]
        np.testing.assert_allclose(piece.get_gradient_start_and_end_points(), manims_endpoints(axes, axis), atol=1e-9)


def test_axes_with_tips_or_ticks_are_refused():
    """A tip or ticks stick out of the axis line, so the line alone would not span the box."""
    with pytest.raises(ValueError, match="tips and ticks"):
        SpaceAxes(x_range=(-2, 2, 1), y_range=(-2, 2, 1), z_range=(-2, 2, 1))
