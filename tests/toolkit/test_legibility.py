"""The legibility rule (scenes/kit/legibility.py) at its boundary, worked by hand: in a frame
100·16·c units wide (c the cap height per point) a 16-point capital is 16·c·W/(1600·c) = W/100 px
tall, so it reaches 7 px at exactly 700 px and Chinese's 8 px at exactly 800."""

import pytest

from scenes.kit.legibility import CAP_HEIGHT_PER_POINT, MIN_CAP_PX, cap_height_px, least_legible_width, legible

FRAME = 100 * 16 * CAP_HEIGHT_PER_POINT


def test_cap_height_scales_with_size_and_width_and_against_the_frame():
    assert cap_height_px(16, 700, FRAME) == pytest.approx(7.0)
    assert cap_height_px(32, 700, FRAME) == pytest.approx(14.0)
    assert cap_height_px(16, 700, 2 * FRAME) == pytest.approx(3.5)


@pytest.mark.parametrize(("lang", "least"), [("en", 700), ("ru", 700), ("zh", 800)])
def test_the_least_legible_width_is_where_the_capitals_reach_the_minimum(lang, least):
    assert least_legible_width(16, FRAME, lang) == least
    assert legible(16, least, FRAME, lang) and legible(16, least + 1, FRAME, lang)
    assert not legible(16, least - 1, FRAME, lang)
    assert least_legible_width(16, FRAME * 1.005, lang) == {700: 704, 800: 804}[least]  # 703.5 → 704, 804


def test_every_language_has_a_minimum_and_an_unknown_one_is_refused():
    assert set(MIN_CAP_PX) == {"en", "ru", "zh"}
    with pytest.raises(ValueError):
        legible(16, 700, FRAME, "de")
    with pytest.raises(ValueError):
        least_legible_width(16, FRAME, "de")
