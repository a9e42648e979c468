"""The kit's drawing helpers drawn in the colour and line weight they are given (or their stated
defaults), read back from the mobjects Manim builds: a helper that dropped its ``color`` would draw
in Manim's white, one that dropped ``stroke_width`` in Manim's default weight."""

import itertools

import numpy as np
import pytest
from manim import Axes, Line, ThreeDAxes, VMobject

from scenes.kit.adapters import SpaceAxes, _box_corner, make_plane, make_space_axes, to_points
from scenes.kit.grids import cell_rectangles, number_cells, shade_groups
from scenes.kit.numbers import nice_step
from scenes.kit.plots import axis_labels, bar_chart, curve
from scenes.kit.theme import palette
from scenes.kit.widgets import (
    circle_of_radius,
    closed_curve,
    dot_at,
    legend,
    math_mobject,
    panel_behind,
    ray,
    segment,
    space_polygon,
    space_polyline,
    space_segment,
    vector_arrow,
    wire_sphere,
)

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


def test_a_vector_arrow_has_its_colour_weight_and_tip(plane):
    """Default weight 5, tip 0.22 long on a long arrow (Manim caps the tip at 0.18 of the length, so
    a short arrow gets a shorter tip)."""
    long = vector_arrow(plane, [4.0, 3.0], RED)  # 3 scene units
    assert stroke(long) == RED and fill(long.tip) == RED
    assert long.get_stroke_width() == 5
    assert long.tip.length == pytest.approx(0.22, rel=1e-6)
    short = vector_arrow(plane, [0.5, 0.0], RED)  # 0.3 scene units: the tip is 0.18 of it
    assert short.tip.length == pytest.approx(0.18 * 0.3, rel=1e-6)
    assert vector_arrow(plane, [4.0, 3.0], RED, stroke_width=9).get_stroke_width() == 9


def test_a_circle_a_polyline_and_a_wire_sphere_have_their_colour_and_weight(plane, space):
    assert stroke(circle_of_radius(plane, 2.0, BLUE)) == BLUE
    assert circle_of_radius(plane, 2.0, BLUE).get_stroke_width() == 4
    assert circle_of_radius(plane, 2.0, BLUE, stroke_width=1).get_stroke_width() == 1
    line = space_polyline(space, np.eye(3), RED)
    assert stroke(line) == RED and line.get_stroke_width() == 3
    assert space_polyline(space, np.eye(3), RED, stroke_width=8).get_stroke_width() == 8
    sphere = wire_sphere(space, 1.0, BLUE)
    assert all(stroke(ring) == BLUE and ring.get_stroke_width() == pytest.approx(1.5) for ring in sphere)
    assert all(ring.get_stroke_width() == 3 for ring in wire_sphere(space, 1.0, BLUE, stroke_width=3))
    # 5 latitudes and 6 longitudes of 72 samples each (closed: 73 corners, the first repeated)
    centre = to_points(space, np.zeros(3))
    heights = sorted({round(float(ring.get_anchors()[0][2] - centre[2]), 6) for ring in sphere[:5]})
    assert len(heights) == 5
    assert all(len(ring.get_anchors()) == 2 * 72 for ring in sphere)  # a corner is two anchors of a polyline


def test_a_legend_row_is_a_swatch_of_its_colour_left_of_its_text():
    rows = legend([(RED, "one"), (BLUE, "two")], "en", "#eceff4")
    assert len(rows) == 2
    for (swatch, label), colour in zip(rows, (RED, BLUE)):
        assert stroke(swatch) == colour and swatch.get_stroke_width() == 8
        assert swatch.get_right()[0] < label.get_left()[0]
        assert label.get_left()[0] - swatch.get_right()[0] == pytest.approx(0.18, abs=1e-6)
        assert abs(swatch.get_center()[1] - label.get_center()[1]) < 1e-6
        assert fill(label.family_members_with_points()[0]) == "#eceff4"
    assert label.font_size == pytest.approx(24)
    assert rows[0].get_left()[0] == pytest.approx(rows[1].get_left()[0], abs=1e-6)


def test_display_math_and_axis_titles_have_their_colour_and_size():
    formula = math_mobject("x + y", RED)
    assert formula.font_size == pytest.approx(32)
    assert fill(formula.family_members_with_points()[0]) == RED
    axes = Axes(x_range=(0, 4, 1), y_range=(0, 2, 1), x_length=4, y_length=2)
    x_label, y_label = axis_labels(axes, "time", "loss", "en", BLUE)
    for label in (x_label, y_label):
        assert label.font_size == pytest.approx(20)
        assert fill(label.family_members_with_points()[0]) == BLUE
    assert x_label.get_top()[1] == pytest.approx(axes.x_axis.get_bottom()[1] - 0.32, abs=1e-6)
    assert x_label.get_right()[0] == pytest.approx(axes.x_axis.get_right()[0], abs=1e-6)
    assert y_label.get_bottom()[1] == pytest.approx(axes.y_axis.get_top()[1] + 0.15, abs=1e-6)
    assert y_label.get_left()[0] == pytest.approx(axes.y_axis.get_left()[0], abs=1e-6)
    line = curve(axes, [0, 1], [0, 1], RED)
    assert stroke(line) == RED and line.get_stroke_width() == 4


def test_grid_cells_and_their_numbers_have_their_colours():
    cells = cell_rectangles((1, 2), 0.5, 0.4, BLUE)
    assert all(stroke(c) == BLUE and c.get_stroke_width() == pytest.approx(1.5) for c in cells)
    numbers = number_cells([1, 2], ["1", "2"], cells, "en", RED, 20)
    assert all(fill(n.family_members_with_points()[0]) == RED for n in numbers)


def test_the_plane_has_a_one_unit_grid_of_the_palettes_colour_and_no_ticks(plane):
    """Background lines 1 wide in the grid colour, fully opaque; axes 2 wide in the muted colour and
    without ticks; no faded (in-between) lines drawn."""
    lines = plane.background_lines.family_members_with_points()
    assert lines and all(stroke(line) == PALETTE.grid.lower() for line in lines)
    assert all(line.get_stroke_width() == 1 and line.get_stroke_opacity() == 1 for line in lines)
    for axis in plane.axes:
        assert stroke(axis) == PALETTE.muted.lower() and axis.get_stroke_width() == 2
        assert len(getattr(axis, "ticks", [])) == 0
    assert all(line.get_stroke_opacity() == 0 for line in plane.faded_lines.family_members_with_points())
    # faded_line_ratio 1: no line between two grid lines
    assert len(plane.faded_lines.family_members_with_points()) <= len(lines)


def test_space_axes_are_length_long_with_unit_steps_in_the_muted_colour(space):
    for axis in space.axes:
        assert axis.get_length() == pytest.approx(6.0)
        assert stroke(axis) == PALETTE.muted.lower()
        assert max(piece.get_stroke_width() for piece in axis.family_members_with_points()) == 2
    assert tuple(space.x_range[:2]) == (-3.0, 3.0)
    other = make_space_axes(3.0, 5.0, PALETTE)  # a length other than the range's span of 6
    assert all(axis.get_length() == pytest.approx(5.0) for axis in other.axes)


def test_space_axes_are_shaded_as_manims_own_three_d_axes():
    """The gradient ends, normals and sheen of every piece equal those Manim's ThreeDAxes gives the
    same axes (Manim's own shading is the reference; only the cost differs)."""
    options = dict(x_range=(-3, 3, 1), y_range=(-2, 2, 1), z_range=(-1, 1, 1), x_length=6, y_length=4, z_length=2,
                   axis_config={"stroke_width": 2, "include_ticks": False, "include_tip": False})
    ours, manims = SpaceAxes(**options), ThreeDAxes(**options)
    for mine, theirs in zip(ours.axes, manims.axes):
        for a, b in zip(mine.family_members_with_points(), theirs.family_members_with_points()):
            start_a, end_a = a.get_gradient_start_and_end_points()
            start_b, end_b = b.get_gradient_start_and_end_points()
            assert np.allclose(start_a, start_b, atol=1e-9) and np.allclose(end_a, end_b, atol=1e-9)
            assert np.array_equal(a.get_unit_normal(0), b.get_unit_normal(0))
            assert a.get_sheen_factor() == pytest.approx(b.get_sheen_factor()) == 0.2


@pytest.mark.parametrize("config", [{"include_ticks": True, "include_tip": False},
                                    {"include_ticks": False, "include_tip": True}])
def test_space_axes_refuse_tips_or_ticks(config):
    with pytest.raises(ValueError, match="^SpaceAxes needs axes without tips and ticks$"):
        SpaceAxes(x_range=(-1, 1, 1), y_range=(-1, 1, 1), z_range=(-1, 1, 1), axis_config=config)


def test_box_corner_is_manims_critical_point():
    """The corner or edge centre toward each of the 27 directions with components in {−1, 0, 1} is
    the one Manim's get_critical_point picks for a mobject with those points."""
    points = np.array([[0.0, 1.0, -2.0], [3.0, -1.0, 0.5], [1.0, 4.0, 1.0]])
    shape = VMobject().set_points_as_corners(points)
    for direction in itertools.product((-1.0, 0.0, 1.0), repeat=3):
        direction = np.array(direction)
        assert np.allclose(_box_corner(shape.points, direction), shape.get_critical_point(direction), atol=1e-12)
    assert np.allclose(_box_corner(points, np.array([0.5, 0.0, -0.5])), [3.0, 1.5, -2.0])


def test_nice_steps_for_a_span_of_ten():
    """10 over the default 4 ticks: 2.5 rounds up to 5; over 5 ticks, 2 is already round."""
    assert nice_step(10.0) == 5.0
    assert nice_step(10.0, ticks=5) == 2.0
    assert nice_step(0.7) == 0.2  # 0.175 → 0.2
