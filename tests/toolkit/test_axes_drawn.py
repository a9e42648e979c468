"""make_axes read back from the mobjects it builds, against numbers worked by hand: the axes span
exactly their ranges over the given width and height, carry no arrow tips, are drawn in the muted
colour at weight 2, the log axis puts 10^k evenly, the tick labels are set at the tick size with
the decimals the start needs (0.25 + k) and in the language asked for, and an axis with big steps
(10⁵) keeps its last tick.
"""

import pytest

from scenes.kit.plots import TICK_SIZE, make_axes
from scenes.kit.theme import palette

PALETTE = palette("dark")


def codes(group):
    return [label.typst_code for label in group]


@pytest.fixture
def big():
    """x over [0, 3·10⁵] in steps of 10⁵, 6 wide; y over [0.25, 3] in steps of 1 (ticks 0.25, 1.25,
    2.25: the end 3 is not on the grid), 3 tall. Made for each test, not once per module: mutmut
    runs a mutant against the tests that reached the mutated function when it mapped them, and a
    fixture made once reaches it under the first test only (the tips and stroke checks were never
    run against make_axes' mutants)."""
    return make_axes((0, 3e5, 1e5), (0.25, 3, 1), 6, 3, PALETTE)


def test_the_axes_span_their_ranges_over_their_size(big):
    """Centred at the origin: x from −3 to 3 scene units, y from −1.5 to 1.5."""
    assert big.c2p(0, 0.25)[:2] == pytest.approx([-3.0, -1.5], abs=1e-9)
    assert big.c2p(3e5, 3)[:2] == pytest.approx([3.0, 1.5], abs=1e-9)
    assert big.x_axis.get_length() == pytest.approx(6.0, rel=1e-9)
    assert big.y_axis.get_length() == pytest.approx(3.0, rel=1e-9)


def test_the_axes_have_no_tips_and_the_muted_stroke(big):
    for axis in (big.x_axis, big.y_axis):
        assert not axis.has_tip()
        assert axis.get_stroke_color().to_hex().lower() == PALETTE.muted.lower()
        assert axis.get_stroke_width() == 2


def test_every_tick_is_labelled_up_to_a_large_last_step(big):
    """0, 10⁵, 2·10⁵, 3·10⁵: four labels (the end 3·10⁵ is a tick, within rounding of 10⁵ steps)."""
    assert codes(big.x_axis.labels) == ["$ 0 $", '$ 100","000 $', '$ 200","000 $', '$ 300","000 $']
    tall = make_axes((0, 1, 1), (0, 4e5, 1e5), 2, 2, PALETTE)
    assert len(tall.y_axis.labels) == 5


def test_labels_keep_the_decimals_of_the_start(big):
    assert codes(big.y_axis.labels) == ["$ 0.25 $", "$ 1.25 $", "$ 2.25 $"]
    wide = make_axes((0.25, 3, 1), (0, 1, 1), 3, 1, PALETTE)
    assert codes(wide.x_axis.labels) == ["$ 0.25 $", "$ 1.25 $", "$ 2.25 $"]


def test_labels_are_set_at_the_tick_size(big):
    for label in [*big.x_axis.labels, *big.y_axis.labels]:
        assert label.font_size == pytest.approx(TICK_SIZE, rel=1e-9)


def test_russian_x_labels_have_the_decimal_comma():
    axes = make_axes((0, 1, 0.5), (0, 1, 1), 2, 1, PALETTE, lang="ru")
    assert codes(axes.x_axis.labels) == ["$ 0 $", '$ 0","5 $', "$ 1 $"]


def test_a_log_axis_spaces_powers_of_ten_evenly_to_its_top():
    """y over exponents [−2, 3], 3 tall: 10^k sits at −1.5 + 3·(k + 2)/5, and 10^−2 … 10^3 are all labelled."""
    axes = make_axes((0, 1, 1), (-2, 3, 1), 2, 3, PALETTE, log_y=True)
    for k in range(-2, 4):
        assert axes.c2p(0, 10.0**k)[1] == pytest.approx(-1.5 + 3 * (k + 2) / 5, abs=1e-9)
    assert codes(axes.y_axis.labels) == [f"$ 10^({k}) $" for k in range(-2, 4)]
