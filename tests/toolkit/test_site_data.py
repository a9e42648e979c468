"""The site's colours and data (scenes/kit/site_data.py), checked against published WCAG figures,
integer arithmetic done by hand, and the generated CSS/JS parsed back (not the functions under test).

WCAG 2 contrast ratios quoted by WebAIM's checker (and the WCAG 2 definition): black on white 21:1,
#767676 on white 4.54:1 (the lightest grey that passes AA), #777777 on white 4.48:1, pure blue on
white 8.59:1, pure red on white 4.00:1, pure green on black 15.30:1.
"""

from __future__ import annotations

import colorsys
import json
import re

import pytest

from scenes.kit.grids import GROUP_OPACITIES
from scenes.kit.site_data import (
    SHADED_LAYERS,
    SITE_ONLY,
    SOURCE_GRID,
    TEXT_CONTRAST,
    contrast,
    css_properties,
    mix,
    palette_css,
    readable,
    shade,
    site_assets,
    widget_data_script,
)
from scenes.kit.theme import THEMES

PUBLISHED = [("#000000", "#ffffff", 21.0), ("#767676", "#ffffff", 4.54), ("#777777", "#ffffff", 4.48),
             ("#0000ff", "#ffffff", 8.59), ("#ff0000", "#ffffff", 4.00), ("#00ff00", "#000000", 15.30)]


def channels(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    assert re.fullmatch(r"[0-9a-f]{6}", value), colour
    return tuple(int(value[i:i + 2], 16) for i in (0, 2, 4))


def hls(colour: str) -> tuple[float, float, float]:
    return colorsys.rgb_to_hls(*(c / 255 for c in channels(colour)))


def lightness_step(colour: str, delta: float) -> str:
    """The same hue and saturation with HLS lightness moved by ``delta`` (0–1), as #rrggbb."""
    h, l, s = hls(colour)
    r, g, b = colorsys.hls_to_rgb(h, min(max(l + delta, 0.0), 1.0), s)
    return "#" + "".join(f"{round(c * 255):02x}" for c in (r, g, b))


@pytest.mark.parametrize(("a", "b", "ratio"), PUBLISHED)
def test_contrast_is_the_published_wcag_ratio_either_way_round(a, b, ratio):
    """The ratios WebAIM publishes, to their two decimals, whichever colour is given first."""
    assert round(contrast(a, b), 2) == ratio
    assert contrast(b, a) == contrast(a, b)


def test_contrast_of_a_colour_with_itself_is_one():
    assert contrast("#3a7bd5", "#3a7bd5") == 1.0


@pytest.mark.parametrize(("colour", "background", "opacity", "expected"), [
    ("#ffffff", "#000000", 0.5, "#808080"),   # 127.5 rounds to 128
    ("#ff0000", "#0000ff", 0.25, "#4000bf"),  # 63.75 → 64, 191.25 → 191
    ("#123456", "#abcdef", 1.0, "#123456"),
    ("#123456", "#abcdef", 0.0, "#abcdef"),
    ("#102030", "#ffffff", 0.16, "#d9dbde"),  # 255 − 0.16·(255 − c): 216.76, 219.32, 221.88
])
def test_mix_is_the_alpha_blend_rounded_per_channel(colour, background, opacity, expected):
    """colour·α + background·(1 − α) per 8-bit channel, rounded to the nearest integer."""
    assert mix(colour, background, opacity) == expected


def test_a_colour_that_passes_is_kept_and_one_background_may_be_a_string():
    assert readable("#1c1f24", "#ffffff") == "#1c1f24"
    assert readable("#767676", ["#ffffff"]) == "#767676"  # 4.54 ≥ 4.5


@pytest.mark.parametrize(("colour", "backgrounds", "darker"), [
    ("#777777", ["#ffffff"], True),                # 4.48 on white: one shade darker is enough
    ("#ff8800", ["#ffffff", "#f2f4f7"], True),     # light page: darker
    ("#3355aa", ["#11141b", "#1b2130"], False),    # dark page: lighter
    ("#ffffff", ["#ffffff"], True),
    ("#000000", ["#000000"], False),
])
def test_readable_moves_only_the_lightness_and_by_the_least_amount(colour, backgrounds, darker):
    """The result reaches 4.5:1 on every background; it keeps the hue (within the rounding of 8-bit
    channels); its lightness moved away from the backgrounds; one step of 1/255 in lightness back
    towards the original already fails, so no smaller move would do."""
    found = readable(colour, backgrounds)
    assert found != colour
    assert all(contrast(found, b) >= TEXT_CONTRAST for b in backgrounds)
    (h0, l0, s0), (h1, l1, s1) = hls(colour), hls(found)
    assert (l1 < l0) if darker else (l1 > l0)
    if s0 > 0 and 0 < l1 < 1:
        assert abs(h1 - h0) < 0.02 or abs(abs(h1 - h0) - 1) < 0.02
    back = lightness_step(found, (2 / 255) if darker else -(2 / 255))
    assert not all(contrast(back, b) >= TEXT_CONTRAST for b in backgrounds)


def test_readable_with_a_higher_minimum_goes_further():
    assert contrast(readable("#777777", ["#ffffff"], minimum=7.0), "#ffffff") >= 7.0
    assert contrast(readable("#777777", ["#ffffff"], minimum=7.0), "#ffffff") < 7.3


def test_readable_refuses_what_no_lightness_can_reach():
    """Mid grey between black and white: nothing reaches 10:1 against both at once (21:1 is the most
    any pair reaches, and 10 ≤ √21·… fails for one side), so it raises, naming the colour."""
    with pytest.raises(ValueError, match="#808080"):
        readable("#808080", ["#000000", "#ffffff"], minimum=10.0)


def blend_opacity(shaded: str, colour: str, background: str) -> float:
    """The α that blended colour over background into ``shaded``, read back from the widest channel."""
    c, b, s = channels(colour), channels(background), channels(shaded)
    k = max(range(3), key=lambda i: abs(c[i] - b[i]))
    return (s[k] - b[k]) / (c[k] - b[k])


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("layer", SHADED_LAYERS)
def test_shade_is_the_videos_opacity_unless_the_text_needs_less(theme, layer):
    """Group g's shade is the layer's colour at GROUP_OPACITIES[g mod 4] over the background, read
    back from the channels; where the text would fall below 4.5:1 on it, the opacity is the largest
    (in steps of 0.01) that keeps 4.5:1."""
    palette = THEMES[theme]
    colour = getattr(palette, layer)
    for group in range(2 * len(GROUP_OPACITIES)):
        found = shade(palette, layer, group)
        wanted = GROUP_OPACITIES[group % len(GROUP_OPACITIES)]
        alpha = blend_opacity(found, colour, palette.background)
        assert contrast(palette.text, found) >= TEXT_CONTRAST
        if contrast(palette.text, mix(colour, palette.background, wanted)) >= TEXT_CONTRAST:
            assert abs(alpha - wanted) < 0.01
        else:
            assert alpha < wanted
            assert contrast(palette.text, mix(colour, palette.background, alpha + 0.015)) < TEXT_CONTRAST


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_css_properties_are_the_videos_colours_and_readable_text(theme):
    """Graphics are the palette's own colours; every text colour reaches 4.5:1 on the page and the
    panel; accent-fg reads on the accent; the plane is the hyperplane at 16 % over the background."""
    palette = THEMES[theme]
    found = css_properties(theme)
    graphics = {"bg": palette.background, "fg": palette.text, "panel": palette.panel, "line": palette.grid,
                "x": palette.input, "l2": palette.l2, "rms": palette.rmsnorm, "ln": palette.layernorm,
                "bn": palette.batchnorm, "gn": palette.groupnorm, "hyperplane": palette.hyperplane,
                "ones": palette.ones, "elementwise": palette.elementwise, "emphasis": palette.emphasis}
    for name, colour in graphics.items():
        assert found[name] == colour, name
    text = {"muted": palette.muted, "accent": palette.emphasis, "x-text": palette.input, "l2-text": palette.l2,
            "rms-text": palette.rmsnorm, "ln-text": palette.layernorm, "hyperplane-text": palette.hyperplane,
            "ones-text": palette.ones, "centre": palette.ones, "scale": palette.emphasis, "affine": palette.emphasis}
    for name, source in text.items():
        for page in (palette.background, palette.panel):
            assert contrast(found[name], page) >= TEXT_CONTRAST, name
        if contrast(source, palette.background) >= TEXT_CONTRAST and contrast(source, palette.panel) >= TEXT_CONTRAST:
            assert found[name] == source, name
        else:
            assert found[name] != source and abs(hls(found[name])[0] - hls(source)[0]) < 0.02, name
    assert found["accent-fg"] in (palette.background, palette.text)
    assert contrast(found["accent-fg"], found["accent"]) >= TEXT_CONTRAST
    plane, hyper, bg = channels(found["plane"]), channels(palette.hyperplane), channels(palette.background)
    assert all(abs(p - (0.16 * h + 0.84 * b)) <= 0.5 + 1e-9 for p, h, b in zip(plane, hyper, bg))
    assert found["error-bg"] == SITE_ONLY[theme]["error-bg"]
    for page in (palette.background, palette.panel, SITE_ONLY[theme]["error-bg"]):
        assert contrast(found["error"], page) >= TEXT_CONTRAST
    shades = {name for name in found if name.startswith("shade-")}
    assert shades == {f"shade-{layer}-{g}" for layer in SHADED_LAYERS for g in range(len(GROUP_OPACITIES))}
    assert all(found[f"shade-{layer}-{g}"] == shade(palette, layer, g)
               for layer in SHADED_LAYERS for g in range(len(GROUP_OPACITIES)))
    assert len(found) == len(graphics) + len(text) + 1 + 1 + len(shades) + 2


def test_accent_fg_is_the_background_only_where_it_reads_on_the_accent():
    for theme, palette in THEMES.items():
        found = css_properties(theme)
        on_background = contrast(found["accent"], palette.background) >= TEXT_CONTRAST
        assert found["accent-fg"] == (palette.background if on_background else palette.text)


def css_blocks(css: str) -> dict[str, dict[str, str]]:
    """selector → {property: value} for every flat rule of the stylesheet (the media query's inner
    rule under its own selector)."""
    body = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    body = re.sub(r"@media[^{]*\{", "", body)
    rules = {}
    for selector, block in re.findall(r"([^{}]+)\{([^{}]*)\}", body):
        declarations = dict(re.findall(r"([-\w]+)\s*:\s*([^;]+);", block))
        rules[selector.strip()] = declarations
    return rules


def test_palette_css_has_each_theme_under_each_selector_and_the_grid_shades():
    """Light by default, dark when the system asks unless data-theme says light, and each data-theme;
    every block holds every property with its theme's value; one shading rule per layer and group."""
    css = palette_css()
    assert css.startswith("/* Generated by scenes/kit/site_data.py")
    assert "@media (prefers-color-scheme: dark) {" in css
    rules = css_blocks(css)
    expected = {":root": "light", ':root:not([data-theme="light"])': "dark", ':root[data-theme="dark"]': "dark",
                ':root[data-theme="light"]': "light"}
    for selector, theme in expected.items():
        declarations = rules[selector]
        assert declarations.pop("color-scheme") == theme
        assert declarations == {f"--{name}": value for name, value in css_properties(theme).items()}, selector
    media = css[css.index("@media"):]
    assert media.index(':root:not([data-theme="light"])') < media.index("}\n}\n")  # inside the query
    shading = {s: d for s, d in rules.items() if s.startswith(".ng-grid")}
    assert len(shading) == len(SHADED_LAYERS) * len(GROUP_OPACITIES)
    for layer in SHADED_LAYERS:
        for g in range(len(GROUP_OPACITIES)):
            rule = shading[f'.ng-grid[data-layer="{layer}"] .ng-shade.ng-g{g}']
            assert rule == {"background": f"var(--shade-{layer}-{g})"}
    assert css.endswith("}\n")


def test_widget_data_script_sets_the_grid_and_the_shade_count():
    script = widget_data_script()
    prefix = "window.NORMGEO_DATA = "
    assert script.startswith(prefix) and script.endswith(";\n")
    payload = script[len(prefix):-2]
    assert " " not in payload  # compact separators
    assert json.loads(payload) == {"sourceGrid": [[1.0, 2.0, 3.0, 10.0], [2.0, 4.0, 1.0, 8.0],
                                                  [3.0, 1.0, 5.0, 12.0], [0.0, 3.0, 2.0, 9.0]], "shades": 4}
    assert SOURCE_GRID[2][3] == 12.0


def test_site_assets_are_the_stylesheet_and_the_data_script():
    assert site_assets() == {"palette.css": palette_css(), "data.js": widget_data_script()}
