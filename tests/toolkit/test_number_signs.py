"""Every way a list of numbers is written (vector, interval, list in running text), in each language,
with the minus a sign glued to its number (issue 34: Russian vectors showed "(1; − 1,2)"). Expected
strings written by hand: U+2212 for the minus, "; " between Russian entries (the comma is the
decimal sign), "、" between the numbers of a Chinese list. On screen the same must hold after Typst
sets the math: measured with Typst itself."""

import re

import pytest
import typst

from scenes.kit.numbers import NumberFormat, fmt_interval, fmt_list, fmt_vector
from scenes.kit.text import fill, math_number

M = "\u2212"


@pytest.mark.parametrize(("call", "expected"), [
    (lambda: fmt_vector([1, -1.2], lang="ru"), f"(1; {M}1,2)"),
    (lambda: fmt_vector([-1, -1.2, 0], lang="ru"), f"({M}1; {M}1,2; 0)"),
    (lambda: fmt_vector([1, -1.2], lang="zh"), f"(1, {M}1.2)"),
    (lambda: fmt_vector([1, -1.2], lang="en"), f"(1, {M}1.2)"),
    (lambda: fmt_interval(-1, -0.25, 2, "ru"), f"[{M}1; {M}0,25]"),
    (lambda: fmt_interval(-1, 2.5, 2, "zh"), f"[{M}1, 2.5]"),
    (lambda: fmt_interval(0, 1e3, 0, "ru"), "[0; 1\xa0000]"),
    (lambda: fmt_list([2, -0.5, 4], lang="ru"), f"2; {M}0,5; 4"),
    (lambda: fmt_list([2, -0.5, 4], lang="zh"), f"2、{M}0.5、4"),
    (lambda: fmt_list([2, -0.5, 4], lang="en"), f"2, {M}0.5, 4"),
    (lambda: NumberFormat("ru").interval(-0.5, 0.5), f"[{M}0,5; 0,5]"),
    (lambda: NumberFormat("zh").list([1, -2]), f"1、{M}2"),
])
def test_every_number_format_writes_the_minus_as_a_sign_on_its_number(call, expected):
    text = call()
    assert text == expected
    assert not re.search(f"{M}\\s", text) and "-" not in text


def test_inside_math_a_minus_after_a_russian_separator_is_a_sign():
    assert math_number(f"(1; {M}1,2)") == f'(1"; "class("unary", {M})1","2)'
    filled = fill("$x = {x}$, {x}", "ru", {"x": f"(1; {M}1,2)"})
    assert filled == f'$x = (1"; "class("unary", {M})1","2)$, (1; {M}1,2)'
    assert math_number(f"({M}1, 2)") == f"({M}1, 2)"  # after "(" or "," Typst already sets a sign


def _width(math: str) -> float:
    """The width in points of Typst math at 20 pt, as Typst sets it."""
    source = f"#set page(width: auto, height: auto, margin: 0pt)\n#set text(size: 20pt)\n${math}$"
    svg = typst.compile(source.encode(), format="svg").decode()
    return float(re.search(r'width="([\d.]+)pt"', svg).group(1))


@pytest.mark.parametrize(("negative", "positive"), [
    (f"(1; {M}1,2)", "(1; 1,2)"), (f"[0; {M}3]", "[0; 3]"), (f"2; {M}0,5", "2; 0,5"), (f"(1, {M}2)", "(1, 2)")])
def test_typst_sets_the_minus_without_the_space_of_a_binary_minus(negative, positive):
    """A sign adds only its own width ("−1" against "1"); a binary minus would add two medium spaces
    (about 9 pt at 20 pt)."""
    sign = _width(f"{M}1") - _width("1")
    assert _width(math_number(negative)) - _width(math_number(positive)) == pytest.approx(sign, abs=0.05)
