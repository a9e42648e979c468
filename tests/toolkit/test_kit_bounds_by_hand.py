"""Small kit helpers at their bounds, against numbers worked by hand: WCAG luminance below the
sRGB knee (c/12.92), the readable colour's direction and inclusive bound, a short arrow's thinned
shaft, frames of a single pixel and 16:10, a spec range that includes its ends, and the decimals an
axis needs (at most 12; tiny and many-digit starts).
"""

import colorsys

import pytest
from manim import NumberPlane

from scenes.kit.frame_layout import LONG_SIDE, SHORT_SIDE, frame_size
from scenes.kit.plots import _digits
from scenes.kit.site_data import contrast, readable
from scenes.kit.spec import SpecError, check_range
from scenes.kit.widgets import vector_arrow


# --- WCAG 2 relative luminance: c/12.92 at or below 0.04045, grey has L = the linear channel ---

@pytest.mark.parametrize("level", [1, 5, 10])
def test_contrast_of_a_near_black_grey_with_black(level):
    """Grey k/255 with k ≤ 10 is below the knee: L = (k/255)/12.92 (the weights sum to 1), so its
    contrast with black (L = 0) is (L + 0.05)/0.05."""
    luminance = level / 255 / 12.92
    assert contrast(f"#{level:02x}{level:02x}{level:02x}", "#000000") == pytest.approx(
        (luminance + 0.05) / 0.05, rel=1e-12)


def test_contrast_of_a_published_pair():
    """#767676 on white is 4.54:1 (the lightest grey WebAIM lists as passing AA)."""
    assert round(contrast("#767676", "#ffffff"), 2) == 4.54


# --- readable: the least move of lightness away from the backgrounds, bound included ----------

def test_a_colour_exactly_at_the_minimum_is_kept():
    minimum = contrast("#777777", "#ffffff")
    assert readable("#777777", "#ffffff", minimum=minimum) == "#777777"


def test_on_dark_backgrounds_a_colour_is_made_lighter():
    """Two mid-grey backgrounds of L ≈ 0.0999 (mean below 0.18: dark): #808080 (1.77:1) is lifted to
    a lighter grey that reaches 4.5:1; going darker could not (black on them is only 3:1)."""
    found = readable("#808080", ["#595959", "#595959"])
    assert contrast(found, "#595959") >= 4.5
    assert colorsys.rgb_to_hls(*(int(found[i:i + 2], 16) / 255 for i in (1, 3, 5)))[1] > 128 / 255
    below = int(found[1:3], 16) - 1  # one 8-bit step darker no longer reaches it
    assert contrast(f"#{below:02x}{below:02x}{below:02x}", "#595959") < 4.5


# --- a short arrow's shaft: Manim's min(width, 12 × length) with the kit's ratio 12 ------------

@pytest.fixture(scope="module")
def plane():
    return NumberPlane(x_range=(-5, 5, 1), y_range=(-5, 5, 1), x_length=6, y_length=6)  # 0.6 units per unit


def test_a_short_arrow_is_thinned_to_twelve_times_its_length(plane):
    """0.5 plane units = 0.3 scene units: 12 × 0.3 = 3.6 < 5; 1 plane unit = 0.6: 7.2 > 5, so 5."""
    assert vector_arrow(plane, [0.5, 0.0], "#d81b60").get_stroke_width() == pytest.approx(3.6, rel=1e-9)
    assert vector_arrow(plane, [0.0, 0.25], "#d81b60").get_stroke_width() == pytest.approx(1.8, rel=1e-9)
    assert vector_arrow(plane, [1.0, 0.0], "#d81b60").get_stroke_width() == 5


# --- frame sizes ---------------------------------------------------------------------------------

def test_frames_of_one_pixel_have_a_size():
    assert frame_size(1, 1) == (LONG_SIDE, LONG_SIDE)
    assert frame_size(1, 2) == pytest.approx((LONG_SIDE / 2, LONG_SIDE), rel=1e-12)
    assert frame_size(2, 1) == pytest.approx((2 * SHORT_SIDE, SHORT_SIDE), rel=1e-12)


def test_a_16_by_10_frame_keeps_the_wide_width():
    """16:10 is between square and 16:9: the 16:9 width, 14.22… × 10/16 = 8.89 tall."""
    assert frame_size(1728, 1080) == pytest.approx((LONG_SIDE, LONG_SIDE * 10 / 16), rel=1e-12)


# --- a spec range includes both ends ---------------------------------------------------------------

def test_check_range_includes_both_ends():
    check_range("radius", 0.5, 0.5, 3.0)
    check_range("radius", 3.0, 0.5, 3.0)
    with pytest.raises(SpecError) as info:
        check_range("radius", 0.25, 0.5, 3.0)
    assert str(info.value) == "radius: must be between 0.5 and 3, got 0.25"


# --- decimals of an axis ---------------------------------------------------------------------------

@pytest.mark.parametrize(("values", "digits"), [
    ((1.5e-9,), 10),        # 1.5e-9 · 10^10 = 15: it is not 0 to within 1e-9 at d = 0
    ((5562.3118,), 4),      # four decimals, however the products round
    ((2553.692237,), 6),
    ((1.23456789e-9,), 12),  # would need 17: at most 12
    ((0.25, 1.23456789e-9), 12),
    ((1e-13,), 0),          # below 1e-9 a value counts as whole (0 to rounding)
])
def test_digits_by_hand(values, digits):
    assert _digits(*values) == digits
