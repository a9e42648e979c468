"""The frame's regions (scenes/kit/frame_layout.py) against numbers worked by hand from the layout's
stated margins, and the 3-D view's origin read back from the camera's own projection.

Worked constants (scene units): a 16:9 frame is 128/9 × 8; margins EDGE 0.35, title band 1.15,
figure left margin 0.5111, bottom margin 0.25, column gap 0.45, column right margin 0.4111, a
stacked view drawn 1.2 larger and 1.2 below the figure's centre."""

import numpy as np
import pytest
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, Dot, Square, tempconfig

from scenes.kit.base import NormGeoThreeDScene
from scenes.kit.frame_layout import Layout, frame_size, keep_clear, overlaps

WIDE = 128 / 9


def square(side, at=ORIGIN):
    """A square of ``side`` centred at ``at`` (a 3-D point)."""
    return Square(side_length=side).move_to(np.array(at, dtype=float))


def flat(placed):
    """((x, y, z), side) as (x, y, z, side); a list of them as one flat tuple."""
    if isinstance(placed, list):
        return tuple(value for item in placed for value in flat(item))
    (x, y, z), side = placed
    return (x, y, z, side)


@pytest.mark.parametrize(("pixels", "size"), [
    ((1920, 1080), (WIDE, 8.0)),
    ((2560, 1080), (8 * 2560 / 1080, 8.0)),  # wider than 16:9: 8 tall, as wide as the aspect makes it
    ((1440, 1080), (WIDE, WIDE * 1080 / 1440)),  # 4:3: the 16:9 width kept
    ((1080, 1080), (WIDE, WIDE)),
    ((1080, 1920), (8.0, WIDE)),  # 9:16: the 16:9 frame on its side
    ((500, 2000), (WIDE / 4, WIDE)),
])
def test_frame_size(pixels, size):
    assert frame_size(*pixels) == pytest.approx(size, rel=1e-12)


@pytest.mark.parametrize("pixels", [(0, 10), (10, 0), (-4, 3)])
def test_a_frame_without_pixels_has_no_size(pixels):
    with pytest.raises(ValueError, match="has no size"):
        frame_size(*pixels)


def test_the_wide_layout_of_a_shorter_frame():
    """16 × 7: the figure 7 − 2·1.15 + 0.9 = 5.6 tall, its centre x −8 + 0.5111 + 2.8, y −3.5 + 0.25 + 2.8;
    the column from the figure's right edge + 0.45 to 8 − 0.4111."""
    layout = Layout.for_frame(16.0, 7.0)
    assert not layout.stacked
    assert layout.figure_height == pytest.approx(5.6)
    assert layout.figure_center == pytest.approx((-8 + 0.5111111111111111 + 2.8, -0.45, 0.0))
    assert layout.column_left == pytest.approx(-4.688888888888889 + 2.8 + 0.45)
    assert layout.column_width == pytest.approx(8 - 0.4111111111111111 - (-1.438888888888889))
    assert layout.view_center == (0.0, 0.0, 0.0) and layout.view_scale == 1.0
    assert layout.pick("wide", "stacked") == "wide"


def test_the_stacked_layouts_of_a_tall_frame():
    """8 × 128/9 with a 7.6-unit column: the figure 128/9 − 1.15 − 7.6 − 0.7 tall (less than 6.6 and
    than 8 − 0.7 − 0.4), centred across, its top under the title band; the column under its left edge."""
    layout = Layout.for_frame(8.0, WIDE, column_height=7.6)
    side = WIDE - 1.15 - 7.6 - 0.7
    assert layout.stacked and layout.figure_height == pytest.approx(side)
    assert layout.figure_center == pytest.approx((0.0, WIDE / 2 - 1.15 - side / 2, 0.0))
    assert layout.figure_top == pytest.approx(WIDE / 2 - 1.15)
    assert layout.column_left == pytest.approx(-side / 2)
    assert layout.column_width == pytest.approx(4 - 0.5 + side / 2)
    assert layout.view_center == pytest.approx((0.0, WIDE / 2 - 1.15 - side / 2 - 1.2, 0.0))
    assert layout.view_scale == 1.2 and layout.pick("wide", "stacked") == "stacked"
    assert (layout.content_width, layout.left, layout.right) == pytest.approx((7.2, -3.65, 3.65))
    assert (layout.top, layout.bottom) == pytest.approx((WIDE / 2 - 0.35, -WIDE / 2 + 0.35))
    narrow = Layout.for_frame(4.0, WIDE)  # the figure as wide as the frame allows, the column inside the margin
    assert narrow.figure_height == pytest.approx(4 - 0.7 - 0.4)
    assert narrow.column_left == pytest.approx(-1.45) and narrow.column_width == pytest.approx(2 - 0.5 + 1.45)
    square_frame = Layout.for_frame(WIDE, WIDE)  # room for the plane's full 6.6
    assert square_frame.figure_height == pytest.approx(6.6) and square_frame.column_left == pytest.approx(-3.3)


def test_start_column_beside_or_below_the_figure():
    figure = square(2.0)
    wide = Layout.for_frame(WIDE, 8.0).start_column(square(1.0, (5, 3, 0)), figure)
    assert wide.get_left()[0] == pytest.approx(1.45) and wide.get_top()[1] == pytest.approx(1.0)
    off_centre = Layout.for_frame(WIDE, 8.0).start_column(square(1.0, (5, 3, 0)), square(2.0, (-2.0, 0.5, 0)))
    assert off_centre.get_left()[0] == pytest.approx(-1.0 + 0.45) and off_centre.get_top()[1] == pytest.approx(1.5)
    tall = Layout.for_frame(8.0, WIDE)
    below = tall.start_column(square(1.0, (5, 3, 0)), figure)
    assert below.get_top()[1] == pytest.approx(-1.0 - 0.35) and below.get_left()[0] == pytest.approx(tall.column_left)
    assert tall.start_column(square(1.0), figure, buff=0.8).get_top()[1] == pytest.approx(-1.0 - 0.7)


def test_square_below_fills_the_room_down_to_the_bottom_margin():
    layout = Layout.for_frame(WIDE, 8.0)  # bottom margin at −3.65
    above = square(2.0)  # its bottom at −1
    assert flat(layout.square_below(above, 5.0)) == pytest.approx((0.0, -2.5, 0.0, 2.3))  # from −1.35 down to −3.65
    assert flat(layout.square_below(above, 1.0)) == pytest.approx((0.0, -1.85, 0.0, 1.0))
    assert flat(layout.square_below(above, 5.0, buff=0.85, x=2.0)) == pytest.approx((2.0, -2.75, 0.0, 1.8))
    low = square(2.0, (0, -2.5, 0))  # no room left: the least square, 0.5
    assert flat(layout.square_below(low, 5.0)) == pytest.approx((0.0, -3.85 - 0.25, 0.0, 0.5))
    tall = Layout.for_frame(8.0, WIDE)  # room for 12.16 below, but the content is 7.2 wide
    assert tall.square_below(square(0.5, (0, 6.0, 0)), 100.0)[1] == pytest.approx(7.2)


def test_stacked_panels_share_the_height_under_the_title_band():
    layout = Layout.for_frame(8.0, WIDE)
    top, bottom = WIDE / 2 - 1.15, -WIDE / 2 + 0.35
    band = (top - bottom) / 2
    side = band - 0.5 - 1.4
    panels = layout.stacked_panels(2, 10.0)
    assert flat(panels) == pytest.approx((0.0, top - 0.5 - side / 2, 0.0, side, 0.0, top - band - 0.5 - side / 2, 0.0, side))
    assert flat(layout.stacked_panels(2, 3.0)[1]) == pytest.approx((0.0, top - band - 0.5 - 1.5, 0.0, 3.0))
    gapped = layout.stacked_panels(3, 10.0, above=0.2, below=0.3, top_gap=1.0, bottom_gap=0.6)
    band3 = (top - 1.0 - bottom - 0.6) / 3
    side3 = band3 - 0.5
    assert flat(gapped[2]) == pytest.approx((0.0, top - 1.0 - 2 * band3 - 0.2 - side3 / 2, 0.0, side3))
    assert layout.stacked_panels(1, 100.0)[0][1] == pytest.approx(7.2)  # never wider than the content
    assert layout.stacked_panels(40, 10.0)[0][1] == 0.5  # never smaller than 0.5


def test_band_centres():
    layout = Layout.for_frame(8.0, WIDE)
    top, bottom = WIDE / 2 - 1.15, -WIDE / 2 + 0.35
    assert layout.band_center(0, 4) == pytest.approx((0.0, top - (top - bottom) / 8, 0.0))
    assert layout.band_center(3, 4) == pytest.approx((0.0, bottom + (top - bottom) / 8, 0.0))
    assert layout.band_center(1, 2, top_gap=2.0) == pytest.approx((0.0, top - 2.0 - 0.75 * (top - 2.0 - bottom), 0.0))


def test_moved_carries_a_wide_part_whole_to_its_stacked_place():
    assert Layout.for_frame(WIDE, 8.0).moved((1.0, 2.0, 0.5), (3.0, 0.0, 0.0), (0.0, 4.0, 0.0)) == (1.0, 2.0, 0.5)
    assert Layout.for_frame(WIDE, WIDE).moved((1.0, 2.0, 0.5), (3.0, 1.0, 0.0), (0.0, 4.0, 1.0)) == \
        pytest.approx((-2.0, 5.0, 1.5))


@pytest.mark.parametrize(("shift", "margin", "expected"), [
    ((1.9, 0.0), 0.05, True),     # 0.1 of overlap across, the full height: more than 0.05 both ways
    ((1.96, 0.0), 0.05, False),   # 0.04 across
    ((0.0, 1.96), 0.05, False),   # 0.04 up
    ((1.99, 0.0), 0.0, True),
    ((2.0, 0.0), 0.0, False),     # touching
    ((1.0, 1.0), 0.9, True),      # 1 × 1 of overlap
    ((1.0, 1.0), 1.0, False),
    ((0.5, 1.0), 1.0, False),     # 1.5 across, exactly 1 up: not more than 1
    ((0.0, 2.0), 0.0, False),     # touching, one above the other
    ((-1.9, -1.9), 0.05, True),
])
def test_overlaps_by_more_than_the_margin_both_ways(shift, margin, expected):
    assert bool(overlaps(square(2.0), square(2.0, (*shift, 0)), margin=margin)) is expected
    assert bool(overlaps(square(2.0, (*shift, 0)), square(2.0), margin=margin)) is expected


def test_overlaps_allows_a_twentieth_of_a_unit_by_default():
    assert overlaps(square(2.0), square(2.0, (1.9, 0, 0))) and not overlaps(square(2.0), square(2.0, (1.96, 0, 0)))


def test_keep_clear_moves_past_each_one_it_covers_keeping_the_other_coordinate():
    grazing = keep_clear(square(1.0, (0.0, -1.47, 0)), square(2.0))  # 0.03 of overlap: covered all the same
    assert grazing.get_top()[1] == pytest.approx(-1.12)
    label = keep_clear(square(1.0, (0.3, 0.2, 0)), square(2.0))
    assert label.get_top()[1] == pytest.approx(-1.12) and label.get_x() == pytest.approx(0.3)
    right = keep_clear(square(1.0, (0.3, 0.2, 0)), square(2.0), direction=RIGHT, buff=0.5)
    assert right.get_left()[0] == pytest.approx(1.5) and right.get_y() == pytest.approx(0.2)
    up = keep_clear(square(1.0, (0.3, 0.2, 0)), square(2.0), direction=UP)
    assert up.get_bottom()[1] == pytest.approx(1.12) and up.get_x() == pytest.approx(0.3)
    left = keep_clear(square(1.0, (0.3, 0.2, 0)), square(2.0), direction=LEFT)
    assert left.get_right()[0] == pytest.approx(-1.12) and left.get_y() == pytest.approx(0.2)
    apart = keep_clear(square(1.0, (4.0, 0.0, 0)), square(2.0))
    assert apart.get_center() == pytest.approx((4.0, 0.0, 0.0))
    # past the first, then past the second it now covers
    twice = keep_clear(square(1.0, (0.0, 0.0, 0)), square(2.0), square(2.0, (0, -2.0, 0)))
    assert twice.get_top()[1] == pytest.approx(-3.0 - 0.12)
    assert DOWN[1] == -1  # the default direction


class Origin(NormGeoThreeDScene):
    """Looks from φ = 60°, θ = −30°; then turns to φ = 70°, θ = 20°, zoom 0.8 (the origin kept in place)."""

    def construct(self) -> None:
        self.look_from(phi=60 * np.pi / 180, theta=-30 * np.pi / 180, zoom=1.0)
        self.first = self.origin_on_screen()
        self.first_zoom = self.renderer.camera.get_zoom()
        self.dot = Dot(ORIGIN)
        self.add(self.dot)
        self.turn_to(0.5, added_anims=[self.dot.animate.shift(RIGHT)], phi=70 * np.pi / 180, theta=20 * np.pi / 180,
                     zoom=0.8)
        self.turned_at = float(self.time)
        self.second = self.origin_on_screen()
        self.second_zoom = self.renderer.camera.get_zoom()
        self.kept = self.view_from(zoom=1.0)  # φ and θ as they are now
        self.down = self.view_from(phi=0.0, theta=0.0, zoom=1.0)  # straight down: nothing to move
        self.as_is = self.view_from()  # the camera's own zoom, not times the view scale again

    def origin_on_screen(self):
        """Where the camera draws the world's origin now (its rotation matrix is refreshed by a
        drawn frame, which a dry run does not draw)."""
        camera = self.renderer.camera
        camera.reset_rotation_matrix()
        return camera.project_points(np.zeros((1, 3)))[0].copy()


@pytest.mark.parametrize("pixels", [(1920, 1080), (1080, 1920), (1080, 1080)])
def test_the_3d_view_draws_the_origin_at_the_layouts_view_centre(pixels, tmp_path):
    width, height = frame_size(*pixels)
    options = {"dry_run": True, "media_dir": str(tmp_path), "verbosity": "ERROR", "progress_bar": "none",
               "pixel_width": pixels[0], "pixel_height": pixels[1], "frame_width": width, "frame_height": height}
    with tempconfig(options):
        scene = Origin(spec=Origin.spec_class())
        scene.render()
    centre = Layout.for_frame(width, height).view_center
    scale = 1.2 if pixels[0] < pixels[1] * 1.25 else 1.0
    assert scene.first[:2] == pytest.approx(centre[:2], abs=1e-9)
    assert scene.second[:2] == pytest.approx(centre[:2], abs=1e-9)
    assert scene.first_zoom == pytest.approx(scale) and scene.second_zoom == pytest.approx(0.8 * scale)
    camera = scene.renderer.camera
    assert camera.get_phi() == pytest.approx(70 * np.pi / 180) and camera.get_theta() == pytest.approx(20 * np.pi / 180)
    assert scene.turned_at == pytest.approx(0.5) and scene.dot.get_center() == pytest.approx(RIGHT)  # run_time, added_anims
    assert scene.kept["phi"] == pytest.approx(70 * np.pi / 180) and scene.kept["theta"] == pytest.approx(20 * np.pi / 180)
    assert scene.kept["zoom"] == pytest.approx(scale)
    assert scene.down["frame_center"].tolist() == [0.0, 0.0, 0.0]
    assert scene.as_is["zoom"] == pytest.approx(0.8 * scale) and scene.as_is["phi"] == pytest.approx(70 * np.pi / 180)
