"""scenes.kit.labels: where each label lands, read back from the label's box."""

import math

import numpy as np
import pytest
from manim import Dot, Rectangle

from scenes.kit.labels import at_point, at_tip, beyond, clearest_angle, follow, on_circle


def box(width=1.0, height=0.4):
    return Rectangle(width=width, height=height)


def corners(mobject):
    return np.array([mobject.get_corner(c) for c in ((-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0))])


@pytest.mark.parametrize("angle", np.linspace(0, 2 * math.pi, 13))
def test_circle_label_lies_outside_the_circle_beyond_its_tangent(angle):
    """Every corner of the box is past the tangent at the label's angle, by at least buff, and the
    nearest one by exactly buff (the label touches its place, it does not float off)."""
    center, radius, buff = np.array([1.0, -2.0, 0.0]), 1.5, 0.1
    label = on_circle(box(), center, radius, angle, buff)
    u = np.array([math.cos(angle), math.sin(angle), 0.0])
    reach = (corners(label) - center) @ u
    assert reach.min() == pytest.approx(radius + buff, abs=1e-9)
    assert np.all(np.linalg.norm((corners(label) - center)[:, :2], axis=1) > radius)


def test_point_label_sits_on_the_asked_side():
    label = at_point(box(0.6, 0.3), np.array([2.0, 1.0, 0.0]), (-1, 0, 0), buff=0.2)
    assert label.get_right()[0] == pytest.approx(1.8)
    assert label.get_center()[1] == pytest.approx(1.0)


def test_beyond_by_hand():
    """A 2 × 1 box beyond (0, 0) along the diagonal: its reach is (2·0.5 + 1·0.5)/√2·… by hand."""
    u = np.array([1.0, 1.0, 0.0]) / math.sqrt(2)
    centre = beyond(np.zeros(3), u, 2.0, 1.0, 0.0)
    assert np.allclose(centre, u * (1.0 * u[0] + 0.5 * u[1]))


def test_arrow_label_is_beside_the_tip_away_from_what_it_must_avoid():
    start, end = np.zeros(3), np.array([2.0, 0.0, 0.0])
    above = at_tip(box(), start, end, avoid=[np.array([2.0, -1.0, 0.0])])
    below = at_tip(box(), start, end, avoid=[np.array([2.0, 1.0, 0.0])])
    assert above.get_bottom()[1] > 0 and below.get_top()[1] < 0
    for label in (above, below):  # near the tip: leaning forward, not past the arrow's middle
        assert 1.5 < label.get_center()[0] < 3.0
        assert abs(label.get_center()[1]) < 1.0


def test_clearest_angle_turns_away_from_the_points():
    center = np.zeros(3)
    points = [np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0]), np.array([0.0, -1.0, 0.0])]
    assert clearest_angle(center, points) == pytest.approx(math.pi)


def test_a_followed_label_moves_with_its_object():
    dot, label = Dot(np.zeros(3)), box()
    follow(label, lambda m: at_point(m, dot.get_center(), (0, 1, 0)))
    before = label.get_center().copy()
    dot.shift(np.array([3.0, -1.0, 0.0]))
    label.update()
    assert np.allclose(label.get_center() - before, [3.0, -1.0, 0.0])


def test_no_direction_is_refused():
    with pytest.raises(ValueError, match="non-zero length"):
        at_tip(box(), np.ones(3), np.ones(3))


def test_box_gap_by_hand():
    """A 2 × 1 box about the origin: a segment along y = 2 is 1.5 away; one through it, 0."""
    from scenes.kit.labels import box_gap
    above = [[[-5.0, 2.0, 0.0], [5.0, 2.0, 0.0]]]
    across = [[[-5.0, 0.0, 0.0], [5.0, 0.0, 0.0]]]
    assert box_gap(np.zeros(3), 2.0, 1.0, above) == pytest.approx(1.5)
    assert box_gap(np.zeros(3), 2.0, 1.0, across) == 0.0


def test_clearest_place_keeps_off_the_lines_and_inside_the_region():
    from scenes.kit.labels import clearest_place
    line = [[[-3.0, -3.0, 0.0], [3.0, 3.0, 0.0]]]  # the diagonal
    places = [np.array([1.0, 1.0, 0.0]), np.array([1.0, -1.0, 0.0]), np.array([-4.0, 4.0, 0.0])]
    label = clearest_place(box(), places, line, inside=((-3.0, -3.0), (3.0, 3.0)))
    assert np.allclose(label.get_center(), [1.0, -1.0, 0.0])  # (−4, 4) is farther but outside
