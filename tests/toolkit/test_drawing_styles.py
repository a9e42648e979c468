"""The kit's drawing helpers drawn in the colour and line weight they are given (or their stated
defaults), read back from the mobjects Manim builds: a helper that dropped its ``color`` would draw
in Manim's white, one that dropped ``stroke_width`` in Manim's default weight."""

import numpy as np
import pytest
from manim import Line

from scenes.kit.adapters import make_plane, make_space_axes, to_points
from scenes.kit.grids import cell_rectangles, shade_groups
from scenes.kit.plots import bar_chart
from scenes.kit.theme import palette
from scenes.kit.widgets import closed_curve, dot_at, panel_behind, ray, segment, space_polygon, space_segment

PALETTE = palette("dark")
RED, BLUE = "#d81b60", "#1e88e5"  # neither is a Manim default colour


def stroke(mobject) -> str:
    return mobject.get_stroke_color().to_hex().lower()


def fill(mobject) -> str:
    return mobject.get_fill_color().to_hex().lower()


@pytest.fixture
def plane():
    return make_plane(5.0, 6.0, (1.0, -0.5, 0.0), PALETTE)


@pytest.fixture
def space():
    return make_space_axes(3.0, 6.0, PALETTE)


def test_a_segment_has_its_colour_and_weight(plane):
    assert stroke(segment(plane, [0, 0], [1, 2], RED)) == RED
    assert segment(plane, [0, 0], [1, 2], RED).get_stroke_width() == 4
    assert segment(plane, [0, 0], [1, 2], RED, stroke_width=7).get_stroke_width() == 7


def test_a_ray_is_dashed_every_0_08_scene_units_in_its_colour_and_weight(plane):
    """DashedLine(dash_length=0.08) with Manim's dashed_ratio 0.5: dashes 0.08 long with gaps as
    long, so consecutive dashes start 0.16 apart (Manim spreads a whole number of dashes over the
    length, hence a few percent of slack)."""
    drawn = ray(plane, [4.0, 3.0], BLUE)
    length = np.linalg.norm(to_points(plane, [4.0, 3.0]) - to_points(plane, [0.0, 0.0]))  # 5 · 0.6 = 3
    assert length == pytest.approx(3.0)
    dashes = drawn.submobjects
    starts = np.array([dash.get_start() for dash in dashes])
    pitch = np.linalg.norm(np.diff(starts, axis=0), axis=1)
    assert np.allclose(pitch, 0.16, rtol=0.05)
    assert np.allclose([np.linalg.norm(d.get_end() - d.get_start()) for d in dashes], 0.08, rtol=0.05)
    assert stroke(drawn) == BLUE and all(stroke(d) == BLUE for d in dashes)
    assert all(d.get_stroke_width() == 2 for d in dashes)
    assert all(d.get_stroke_width() == 5 for d in ray(plane, [4.0, 3.0], BLUE, stroke_width=5).submobjects)


def test_a_dot_has_its_colour_and_a_default_radius_of_0_07(plane):
    drawn = dot_at(plane, [1.0, 1.0], RED)
    assert fill(drawn) == RED
    assert drawn.width == pytest.approx(0.14, rel=1e-6)


def test_a_panel_is_filled_without_an_outline_and_rounded_by_0_12():
    content = Line([0, 0, 0], [2, 1, 0])
    panel = panel_behind(content, BLUE)
    assert fill(panel) == BLUE and panel.get_stroke_width() == 0
    assert panel.width == pytest.approx(2.4, rel=1e-6) and panel.height == pytest.approx(1.4, rel=1e-6)
    assert panel.corner_radius == pytest.approx(0.12)
    # a rounded corner: the rectangle's corner point itself is not on the outline
    corner = panel.get_corner((1, 1, 0))
    assert np.min(np.linalg.norm(panel.points - corner, axis=1)) > 0.03


def test_a_space_segment_is_a_shaft_and_a_tip_of_its_colour(space):
    shaft, tip = space_segment(space, [0, 0, 0], [1, 1, 1], RED)
    assert stroke(shaft) == RED and fill(tip) == RED
    assert shaft.get_stroke_width() == 6
    assert tip.width == pytest.approx(0.12, rel=1e-6)
    assert space_segment(space, [0, 0, 0], [1, 1, 1], RED, stroke_width=3)[0].get_stroke_width() == 3


def test_a_space_polygon_is_outlined_and_filled_in_its_colour(space):
    polygon = space_polygon(space, np.eye(3), BLUE, 0.3)
    assert stroke(polygon) == BLUE and fill(polygon) == BLUE
    assert polygon.get_stroke_width() == pytest.approx(1.5)


def test_a_closed_curve_has_its_colour_and_weight(plane):
    t = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    points = np.stack([np.cos(t), np.sin(t)], axis=1)
    assert stroke(closed_curve(plane, points, RED)) == RED
    assert closed_curve(plane, points, RED).get_stroke_width() == 4
    assert closed_curve(plane, points, RED, stroke_width=2).get_stroke_width() == 2


def test_bars_are_filled_in_their_colour_without_outline_on_a_baseline_of_the_axis_colour():
    baseline, bars = bar_chart([1.0, -2.0, 3], unit=0.5, color=RED, axis_color=BLUE)
    assert stroke(baseline) == BLUE and baseline.get_stroke_width() == 2
    assert all(fill(bar) == RED and bar.get_stroke_width() == 0 for bar in bars)
    # defaults: bars 0.32 wide, 0.14 apart, so the baseline is 3 · 0.46 long
    assert baseline.get_length() == pytest.approx(3 * 0.46)
    assert all(bar.width == pytest.approx(0.32) for bar in bars)
    _, integer_bars = bar_chart([1, 2], unit=0.25, color=RED, axis_color=BLUE)
    assert [bar.height for bar in integer_bars] == [pytest.approx(0.25), pytest.approx(0.5)]


def test_shaded_groups_are_filled_in_the_layers_colour():
    cells = cell_rectangles((1, 2), 0.5, 0.4, "#ffffff")
    assert all(fill(s) == RED for s in shade_groups(cells, [[0, 1]], RED))
