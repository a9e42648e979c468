"""Numbers as written on screen (expected strings written by hand from CLDR: English 1,234.5,
Russian 1 234,5 with a no-break space and "; " between a vector's entries, the minus U+2212),
and the kit's drawing helpers read back from the mobjects they build: where an arrow's tip is,
a circle's radius in scene units, a bar's height, a grid cell's place, a shaded group's opacity."""

import math

import numpy as np
import pytest
from manim import Arrow, Circle, DashedLine, Dot, Line, Polygon, VMobject

from scenes.kit.adapters import make_plane, make_space_axes, to_coordinates, to_points
from scenes.kit.grids import GROUP_OPACITIES, cell_rectangles, shade_groups
from scenes.kit.numbers import (
    NumberFormat,
    fmt_fixed,
    fmt_number,
    fmt_plain_scientific,
    fmt_scientific,
    fmt_vector,
    localize,
    nice_step,
)
from scenes.kit.plots import _digits, bar_chart, curve
from scenes.kit.theme import palette
from scenes.kit.widgets import (
    circle_of_radius,
    closed_curve,
    dot_at,
    panel_behind,
    ray,
    segment,
    space_polygon,
    space_polyline,
    space_segment,
    vector_arrow,
    wire_sphere,
)

M = "\u2212"
NBSP = "\xa0"


@pytest.mark.parametrize(("call", "expected"), [
    (lambda: fmt_number(1234.5678), "1,234.568"),
    (lambda: fmt_number(1234.5678, 1, "ru"), f"1{NBSP}234,6"),
    (lambda: fmt_number(-0.0004), "0"),
    (lambda: fmt_number(-0.0006), f"{M}0.001"),
    (lambda: fmt_number(2.5, 0), "2"),  # round half to even, as Python rounds
    (lambda: fmt_number(1e6, 0, "zh"), "1,000,000"),
    (lambda: fmt_number(0.125), "0.125"),
    (lambda: fmt_number(0.1), "0.1"),
    (lambda: fmt_fixed(2.0, 3), "2.000"),
    (lambda: fmt_fixed(-0.004, 2), "0.00"),
    (lambda: fmt_fixed(1234.5, 1, "ru"), f"1{NBSP}234,5"),
    (lambda: fmt_fixed(3.14159), "3.14"),
    (lambda: fmt_vector([3.0, -4.25]), f"(3, {M}4.25)"),
    (lambda: fmt_vector([3.0, -4.25], lang="ru"), f"(3; {M}4,25)"),
    (lambda: fmt_vector([0.12345, 2], 2, "zh"), "(0.12, 2)"),
    (lambda: fmt_vector(np.array([[1.0, 2.0]])), "(1, 2)"),
    (lambda: localize("12345", "ru"), f"12{NBSP}345"),
    (lambda: localize("-0.50", "en"), f"{M}0.50"),
    (lambda: fmt_scientific(12345.0), "1.23 dot 10^(4)"),
    (lambda: fmt_scientific(9999.0), "9,999"),
    (lambda: fmt_scientific(1e4), "10^(4)"),
    (lambda: fmt_scientific(-2.5e-7), f"{M}2.5 dot 10^(-7)"),
    (lambda: fmt_scientific(9.999e5), "10^(6)"),  # 9.999 rounds to 10: carried into the exponent
    (lambda: fmt_scientific(0.0), "0"),
    (lambda: fmt_scientific(0.00123, 2), "0.00123"),
    (lambda: fmt_scientific(5.5e-4, 1, "ru"), "5,5 dot 10^(-4)"),
    (lambda: fmt_scientific(1.234567e10, 4), "1.2346 dot 10^(10)"),
    (lambda: fmt_plain_scientific(2.5e-7), f"2.5·10⁻⁷"),
    (lambda: fmt_plain_scientific(1e-12), "10⁻¹²"),
    (lambda: fmt_plain_scientific(-3.3e5, 1, "ru"), f"{M}3,3·10⁵"),
    (lambda: fmt_plain_scientific(0.5), "0.5"),
    (lambda: fmt_plain_scientific(9.96e3, 1), "9,960"),
    (lambda: NumberFormat("ru").integer(1000000), f"1{NBSP}000{NBSP}000"),
    (lambda: NumberFormat("en").integer(7.0), "7"),
    (lambda: NumberFormat("ru").number(0.25, 1), "0,2"),
    (lambda: NumberFormat("ru").fixed(0.25, 3), "0,250"),
    (lambda: NumberFormat("ru").vector([1.5, 2]), "(1,5; 2)"),
    (lambda: NumberFormat("zh").scientific(3e8), "3 dot 10^(8)"),
    (lambda: NumberFormat("en").plain_scientific(3e8, 1), "3·10⁸"),
    (lambda: NumberFormat().number(1 / 3), "0.333"),
    (lambda: NumberFormat().fixed(1 / 3), "0.33"),
    (lambda: NumberFormat().vector([1 / 3]), "(0.333)"),
    (lambda: NumberFormat().scientific(1 / 3e6), "3.33 dot 10^(-7)"),
    (lambda: NumberFormat().plain_scientific(1 / 3e6), "3.33·10⁻⁷"),
])
def test_numbers_are_written_as_each_language_writes_them(call, expected):
    assert call() == expected


def test_an_integer_format_refuses_a_fraction():
    with pytest.raises(ValueError, match="2.5 is not a whole number"):
        NumberFormat().integer(2.5)


@pytest.mark.parametrize(("span", "ticks", "step"), [(6.0, 4, 2.0), (1.0, 4, 0.25 * 0 + 0.5), (10.0, 5, 2.0), (7.0, 7, 1.0),
                                                     (0.3, 3, 0.1), (900.0, 4, 500.0), (100.0, 4, 50.0), (4.0, 4, 1.0),
                                                     (9.5, 1, 10.0)])
def test_nice_step_is_one_two_or_five_times_a_power_of_ten_at_least_span_over_ticks(span, ticks, step):
    assert nice_step(span, ticks) == pytest.approx(step, rel=1e-12)


@pytest.mark.parametrize(("step", "digits"), [(1.0, 0), (0.5, 1), (0.2, 1), (0.1, 1), (2.0, 0), (50.0, 0), (0.001, 3),
                                              (0.05, 2), (5e-4, 4), (0.25, 2), (0.125, 3), (2.5, 1), (0.75, 2)])
def test_tick_labels_keep_the_decimals_their_step_needs(step, digits):
    """The steps nice_step gives (1, 2 or 5 × 10^k) and quarter steps (0.25 once got 1 decimal,
    so its ticks read 0.3, 0.5, 0.8)."""
    assert _digits(step) == digits


@pytest.mark.parametrize(("start", "step"), [(0.0, 0.25), (0.5, 1.0), (-1.0, 0.125), (0.1, 0.2), (-0.75, 0.5), (0, 50.0)])
def test_every_tick_written_with_those_decimals_reads_back_as_its_value_and_none_fewer_would(start, step):
    """Brute force with exact fractions: every tick start + k·step written with _digits decimals
    reads back as the tick, and with one decimal fewer some tick would not."""
    from fractions import Fraction

    ticks = [Fraction(str(start)) + k * Fraction(str(step)) for k in range(9)]
    digits = _digits(start, step)

    def exact(decimals):
        return all(Fraction(fmt_number(float(v), decimals).replace("\u2212", "-")) == v for v in ticks)

    assert exact(digits)
    assert digits == 0 or not exact(digits - 1)


PALETTE = palette("dark")


@pytest.fixture
def plane():
    return make_plane(5.0, 6.0, (1.0, -0.5, 0.0), PALETTE)


def test_the_plane_shows_minus_extent_to_extent_in_its_height(plane):
    """[−5, 5] over 6 scene units centred at (1, −0.5): (5, 5) is 3 units right and up of the centre."""
    np.testing.assert_allclose(to_points(plane, [5.0, 5.0]), [4.0, 2.5, 0.0], atol=1e-9)
    np.testing.assert_allclose(to_points(plane, [0.0, 0.0]), [1.0, -0.5, 0.0], atol=1e-9)
    np.testing.assert_allclose(to_points(plane, [[-5.0, 0.0], [2.5, -5.0]]), [[-2.0, -0.5, 0], [2.5, -3.5, 0]], atol=1e-9)
    np.testing.assert_allclose(to_coordinates(plane, [[4.0, 2.5, 0.0]]), [[5.0, 5.0]], atol=1e-9)
    assert plane.x_range[2] == nice_step(5.0)
    assert make_plane(5.0, 6.0, (0, 0, 0), PALETTE, step=0.5).x_range[2] == 0.5


def test_an_arrow_runs_from_the_origin_to_its_vector(plane):
    arrow = vector_arrow(plane, [3.0, 4.0], "#ffffff")
    assert isinstance(arrow, Arrow)
    np.testing.assert_allclose(arrow.get_end(), to_points(plane, [3.0, 4.0]), atol=1e-6)
    np.testing.assert_allclose(arrow.get_start(), to_points(plane, [0.0, 0.0]), atol=1e-6)
    moved = vector_arrow(plane, [3.0, 4.0], "#ffffff", start=[1.0, 1.0])
    np.testing.assert_allclose(moved.get_start(), to_points(plane, [1.0, 1.0]), atol=1e-6)
    np.testing.assert_allclose(moved.get_end(), to_points(plane, [3.0, 4.0]), atol=1e-6)


def test_a_ray_a_segment_and_a_dot_are_where_their_coordinates_say(plane):
    r = ray(plane, [2.0, -1.0], "#ffffff")
    assert isinstance(r, DashedLine)
    np.testing.assert_allclose(r.get_start(), to_points(plane, [0, 0]), atol=1e-6)
    np.testing.assert_allclose(r.get_end(), to_points(plane, [2.0, -1.0]), atol=1e-6)
    s = segment(plane, [1.0, 1.0], [-2.0, 3.0], "#ffffff")
    assert isinstance(s, Line)
    np.testing.assert_allclose(s.get_start(), to_points(plane, [1.0, 1.0]), atol=1e-9)
    np.testing.assert_allclose(s.get_end(), to_points(plane, [-2.0, 3.0]), atol=1e-9)
    d = dot_at(plane, [-3.0, 2.0], "#ffffff", radius=0.1)
    assert isinstance(d, Dot)
    np.testing.assert_allclose(d.get_center(), to_points(plane, [-3.0, 2.0]), atol=1e-9)
    assert d.width == pytest.approx(0.2, rel=1e-6)


@pytest.mark.parametrize("radius", [1.0, 2.5, 4.0])
def test_a_circle_of_radius_r_passes_through_every_point_of_length_r(plane, radius):
    circle = circle_of_radius(plane, radius, "#ffffff")
    assert isinstance(circle, Circle)
    points = circle.get_anchors()
    centre = to_points(plane, [0.0, 0.0])
    np.testing.assert_allclose(np.linalg.norm(points - centre, axis=1), radius * 6.0 / 10.0, rtol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(to_coordinates(plane, points), axis=1), radius, rtol=1e-6)


def test_a_panel_encloses_its_content_with_the_padding():
    content = Line([0, 0, 0], [2, 1, 0])
    panel = panel_behind(content, "#000000", padding=0.3)
    assert panel.width == pytest.approx(2.6, rel=1e-6) and panel.height == pytest.approx(1.6, rel=1e-6)
    np.testing.assert_allclose(panel.get_center(), content.get_center(), atol=1e-9)
    assert panel.get_fill_opacity() == pytest.approx(0.92)


@pytest.fixture
def space():
    return make_space_axes(3.0, 6.0, PALETTE)


def test_space_curves_pass_through_the_core_points(space):
    points = np.array([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, -1.0]])
    open_line = space_polyline(space, points, "#ffffff")
    np.testing.assert_allclose(np.asarray(open_line.get_anchors())[[0, -1]], to_points(space, points[[0, -1]]), atol=1e-9)
    closed = space_polyline(space, points, "#ffffff", closed=True)
    np.testing.assert_allclose(closed.get_anchors()[-1], to_points(space, points[0]), atol=1e-9)
    corners = {tuple(np.round(p, 9)) for p in closed.get_anchors()}
    assert corners == {tuple(np.round(p, 9)) for p in to_points(space, points)}
    shaft, tip = space_segment(space, points[0], points[1], "#ffffff")
    np.testing.assert_allclose(shaft.get_end(), to_points(space, points[1]), atol=1e-9)
    np.testing.assert_allclose(tip.get_center(), to_points(space, points[1]), atol=1e-9)
    polygon = space_polygon(space, points, "#ffffff", 0.4)
    assert isinstance(polygon, Polygon) and polygon.get_fill_opacity() == pytest.approx(0.4)
    np.testing.assert_allclose(polygon.get_vertices(), to_points(space, points), atol=1e-9)


def test_a_wire_sphere_is_eleven_closed_rings_on_the_sphere(space):
    sphere = wire_sphere(space, 2.0, "#ffffff")
    assert len(sphere) == 11
    unit = np.linalg.norm(to_points(space, [1.0, 0, 0]) - to_points(space, [0.0, 0, 0]))
    centre = to_points(space, [0.0, 0.0, 0.0])
    for ring in sphere:
        anchors = ring.get_anchors()
        np.testing.assert_allclose(np.linalg.norm(anchors - centre, axis=1), 2.0 * unit, rtol=1e-9)
        np.testing.assert_allclose(anchors[0], anchors[-1], atol=1e-9)
        assert ring.get_stroke_opacity() == pytest.approx(0.5)


def test_a_closed_curve_goes_round_and_returns(plane):
    t = np.linspace(0, 2 * math.pi, 12, endpoint=False)
    points = np.stack([2 * np.cos(t), np.sin(t)], axis=1)
    shape = closed_curve(plane, points, "#ffffff")
    assert isinstance(shape, VMobject)
    anchors = shape.get_anchors()
    np.testing.assert_allclose(anchors[0], anchors[-1], atol=1e-9)
    for point in to_points(plane, points):
        assert np.min(np.linalg.norm(anchors - point, axis=1)) < 1e-9


def test_grid_cells_sit_row_by_row_with_row_zero_on_top():
    cells = cell_rectangles((2, 3), 0.5, 0.4, "#ffffff")
    assert len(cells) == 6
    centres = np.array([cell.get_center() for cell in cells])
    np.testing.assert_allclose(centres[:, :2], [[0, 0], [0.5, 0], [1.0, 0], [0, -0.4], [0.5, -0.4], [1.0, -0.4]], atol=1e-9)
    assert all(cell.width == pytest.approx(0.5) and cell.height == pytest.approx(0.4) for cell in cells)
    shaded = shade_groups(cells, [[0, 1, 2], [3, 4, 0]], "#ff0000")
    assert [round(s.get_fill_opacity(), 6) for s in shaded] == [0.55, 0.25, 0.42, 0.14, 0.55, 0.55]
    assert GROUP_OPACITIES == (0.55, 0.25, 0.42, 0.14)
    assert all(s.get_stroke_width() == 0 for s in shaded)
    np.testing.assert_allclose([s.get_center() for s in shaded], centres, atol=1e-12)


def test_bars_stand_up_or_hang_down_by_their_value():
    baseline, bars = bar_chart([1.0, -2.0, 0.0], unit=0.5, color="#ffffff", axis_color="#888888", bar_width=0.3, gap=0.1)
    assert baseline.get_length() == pytest.approx(1.2)
    np.testing.assert_allclose(baseline.get_center(), [0, 0, 0], atol=1e-12)
    heights = [bar.height for bar in bars]
    assert heights == [pytest.approx(0.5), pytest.approx(1.0), pytest.approx(1e-3)]
    assert bars[0].get_bottom()[1] == pytest.approx(0.0, abs=1e-9) and bars[0].get_top()[1] == pytest.approx(0.5)
    assert bars[1].get_top()[1] == pytest.approx(0.0, abs=1e-9) and bars[1].get_bottom()[1] == pytest.approx(-1.0)
    np.testing.assert_allclose([bar.get_center()[0] for bar in bars], [-0.4, 0.0, 0.4], atol=1e-9)
    assert all(bar.width == pytest.approx(0.3) for bar in bars)
    assert bars[0].get_fill_opacity() == pytest.approx(0.85)


def test_a_plotted_curve_passes_through_its_points_in_axes_coordinates():
    from manim import Axes
    axes = Axes(x_range=(0, 4, 1), y_range=(-1, 1, 0.5), x_length=4, y_length=2)
    xs, ys = [0.0, 1.0, 2.5, 4.0], [0.0, 1.0, -1.0, 0.5]
    line = curve(axes, xs, ys, "#ffffff", stroke_width=3)
    expected = np.array([axes.c2p(x, y) for x, y in zip(xs, ys)])
    corners = line.get_anchors()
    np.testing.assert_allclose(corners[0], expected[0], atol=1e-9)
    np.testing.assert_allclose(corners[-1], expected[-1], atol=1e-9)
    for point in expected:
        assert np.min(np.linalg.norm(corners - point, axis=1)) < 1e-9
    assert line.get_stroke_width() == 3


@pytest.mark.parametrize(("call", "expected"), [
    (lambda: fmt_plain_scientific(0.0), "0"), (lambda: fmt_plain_scientific(0.001), "0.001"),
    (lambda: fmt_scientific(0.001), "0.001"), (lambda: fmt_plain_scientific(1.0), "1"),
    (lambda: fmt_vector([1 / 3, 2 / 3]), "(0.333, 0.667)"), (lambda: NumberFormat().number(2 / 3), "0.667"),
])
def test_number_edges(call, expected):
    assert call() == expected


def test_a_layers_colour_and_the_raw_vectors_colour():
    for name in ("dark", "light"):
        colours = palette(name)
        assert colours.layer("none") == colours.input
        assert colours.layer("layernorm") == colours.layernorm and colours.layer("rmsnorm") == colours.rmsnorm


def test_shared_text_comes_from_the_common_file():
    from scenes.kit.text import message

    assert message("radial-projection", "common.unit-circle", "en") == "unit circle"
    assert message("layernorm-2d", "common.unit-circle", "ru") == "единичная окружность"
    assert message("radial-projection", "title", "zh") == "L2 与 RMSNorm：径向投影"


def test_to_coordinates_keeps_the_leading_shape_of_its_points():
    """(2, 2, 3) scene points come back as (2, 2, 2) plane coordinates, one point (3,) as (2,)."""
    plane = make_plane(5.0, 4.0, (0, 0, 0), PALETTE)
    grid = np.array([[[0.0, 0.0, 0.0], [0.8, 0.0, 0.0]], [[0.0, 0.8, 0.0], [0.8, 0.8, 0.0]]])
    back = to_coordinates(plane, grid)
    assert back.shape == (2, 2, 2)
    np.testing.assert_allclose(back[1, 1], to_coordinates(plane, grid[1, 1]), atol=1e-12)
    assert to_coordinates(plane, grid[1, 1]).shape == (2,)
