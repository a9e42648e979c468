"""Axes, axis titles, legends and number grids read back from the mobjects: which tick labels
are drawn, with what text (Russian decimal comma kept inside the math), where they sit; the
titles' places; a legend's rows in order with their swatch colours; one number per cell."""

import numpy as np
import pytest
from manim import Line

from scenes.kit.grids import cell_rectangles, number_cells
from scenes.kit.plots import TICK_SIZE, axis_labels, make_axes
from scenes.kit.theme import palette
from scenes.kit.widgets import legend, math_mobject, text_mobject

PALETTE = palette("dark")


def codes(group):
    return [label.typst_code for label in group]


def test_linear_axes_label_every_tick_in_the_language():
    axes = make_axes((0, 4, 1), (0, 1, 0.5), 4, 2, PALETTE, lang="ru")
    assert codes(axes.x_axis.labels) == ["$ 0 $", "$ 1 $", "$ 2 $", "$ 3 $", "$ 4 $"]
    assert codes(axes.y_axis.labels) == ["$ 0 $", '$ 0","5 $', "$ 1 $"]
    np.testing.assert_allclose([label.get_center()[0] for label in axes.x_axis.labels],
                               [axes.c2p(x, 0)[0] for x in range(5)], atol=1e-6)
    np.testing.assert_allclose([label.get_center()[1] for label in axes.y_axis.labels],
                               [axes.c2p(0, y)[1] for y in (0, 0.5, 1)], atol=1e-6)
    assert axes.x_axis.get_length() == pytest.approx(4.0, rel=1e-6)
    assert axes.y_axis.get_length() == pytest.approx(2.0, rel=1e-6)
    assert all(label.color.to_hex().lower() == PALETTE.muted.lower() for label in axes.x_axis.labels)
    english = make_axes((0, 1, 0.25 * 2), (0, 2, 1), 4, 2, PALETTE)
    assert codes(english.x_axis.labels) == ["$ 0 $", "$ 0.5 $", "$ 1 $"]


def test_log_axes_label_powers_of_ten_and_custom_x_labels_replace_numbers():
    axes = make_axes((1, 3, 1), (-2.4, 1.2, 1), 4, 2, PALETTE, log_y=True, x_tick_labels={1: "a", 3: "b"})
    assert codes(axes.y_axis.labels) == ["$ 10^(-2) $", "$ 10^(-1) $", "$ 10^(0) $", "$ 10^(1) $"]
    assert codes(axes.x_axis.labels) == ["$ a $", "$ b $"]
    np.testing.assert_allclose(axes.y_axis.labels[0].get_center()[1], axes.c2p(1, 1e-2)[1], atol=1e-6)
    assert axes.y_axis.labels[0].font_size == pytest.approx(TICK_SIZE)


def test_axis_titles_sit_under_the_x_axis_at_its_right_end_and_above_the_y_axis_at_its_left():
    axes = make_axes((0, 4, 1), (0, 1, 0.5), 4, 2, PALETTE)
    x_title, y_title = axis_labels(axes, "steps", "loss", "en", "#ffffff", font_size=20)
    assert x_title.get_top()[1] == pytest.approx(axes.x_axis.get_bottom()[1] - 0.32, abs=1e-6)
    assert x_title.get_right()[0] == pytest.approx(axes.x_axis.get_right()[0], abs=1e-6)
    assert y_title.get_bottom()[1] == pytest.approx(axes.y_axis.get_top()[1] + 0.15, abs=1e-6)
    assert y_title.get_left()[0] == pytest.approx(axes.y_axis.get_left()[0], abs=1e-6)
    assert x_title.typst_code.endswith("steps") and y_title.typst_code.endswith("loss")
    assert x_title.font_size == pytest.approx(20)


def test_a_legend_lists_its_rows_in_order_with_their_colours_left_aligned():
    rows = [("#ff0000", "first"), ("#00ff00", "second row"), ("#0000ff", "third")]
    group = legend(rows, "en", "#ffffff", font_size=24)
    assert len(group) == 3
    for (colour, markup), item in zip(rows, group):
        swatch, label = item
        assert isinstance(swatch, Line) and swatch.get_length() == pytest.approx(0.4)
        assert swatch.get_color().to_hex().lower() == colour and swatch.get_stroke_width() == 8
        assert label.typst_code.endswith(markup) and label.font_size == pytest.approx(24)
        assert label.get_left()[0] == pytest.approx(swatch.get_right()[0] + 0.18, abs=1e-6)
    tops = [item.get_top()[1] for item in group]
    assert tops[0] > tops[1] > tops[2]
    assert group[1].get_top()[1] == pytest.approx(group[0].get_bottom()[1] - 0.18, abs=1e-6)
    lefts = [item.get_left()[0] for item in group]
    np.testing.assert_allclose(lefts, lefts[0], atol=1e-6)


def test_number_cells_put_one_number_in_the_middle_of_each_cell():
    cells = cell_rectangles((2, 2), 1.0, 0.5, "#ffffff")
    numbers = number_cells([[1.5, -2], [0, 3]], [["1,5", "−2"], ["0", "3"]], cells, "ru", "#ffffff", 18)
    assert codes(numbers) == ['$1","5$', "$−2$", "$0$", "$3$"]  # the decimal comma kept inside the math
    assert len(numbers) == 4
    for number, cell in zip(numbers, cells):
        np.testing.assert_allclose(number.get_center(), cell.get_center(), atol=1e-6)
        assert number.font_size == pytest.approx(18)


def test_text_and_math_take_their_colour_and_size():
    text = text_mobject("hello", "zh", "#112233", font_size=30)
    assert text.font_size == pytest.approx(30) and text.typst_code == "hello"
    assert "Noto Sans CJK SC" in text.typst_preamble and 'lang: "zh"' in text.typst_preamble
    assert text.get_color().to_hex().lower() == "#112233"
    maths = math_mobject("x^2", "#445566", font_size=40)
    assert maths.font_size == pytest.approx(40) and maths.typst_code == "$ x^2 $"
    assert maths.get_color().to_hex().lower() == "#445566"
