"""One palette: the site's colours are the videos' (scenes/kit/theme.py), read back from the built
page in Chromium; colours used as text reach 4.5:1, and where a video colour does not, its text
variant is the same hue, only as much darker (or lighter) as needed."""

from __future__ import annotations

import colorsys
import re

import pytest

from scenes.kit.grids import GROUP_OPACITIES
from scenes.kit.site_data import SHADED_LAYERS, TEXT_CONTRAST, contrast, css_properties, mix, readable
from scenes.kit.theme import THEMES
from tests.site.conftest import PageProblems

# what the widgets draw with which of the videos' colours (the same roles as in the scenes)
DRAWN = {
    "vector-2d": [('circle[data-set="l2"]', "stroke", "l2"), ('circle[data-set="rms"]', "stroke", "rmsnorm"),
                  ('line[data-set="zero-mean"]', "stroke", "hyperplane"), ('circle[data-point="layernorm"]', "fill", "layernorm"),
                  ('circle[data-point="rms"]', "fill", "rmsnorm"), ('circle[data-point="l2"]', "fill", "l2")],
    "layernorm-3d": [('line[data-vec="hat"]', "stroke", "layernorm"), ('line[data-vec="x"]', "stroke", "input"),
                     ('line[data-vec="mean-part"]', "stroke", "ones"), ('line[data-vec="centred"]', "stroke", "hyperplane"),
                     ('polyline[data-set="circle"]', "stroke", "layernorm"), ("polygon", "fill", "hyperplane")],
    "conditioning": [('[data-path="raw"]', "stroke", "muted"), ('[data-path="standardized"]', "stroke", "emphasis")],
}


def rgb(colour: str) -> str:
    value = colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(value[i:i + 2], 16) for i in (0, 2, 4)))


@pytest.fixture(scope="module")
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    problems = PageProblems(page)
    yield page
    context.close()
    problems.check()


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("widget", sorted(DRAWN))
def test_widgets_draw_with_the_videos_colours(page, site, widget, theme):
    """Each layer's element has the computed colour the videos give that layer in this theme."""
    page.goto((site / "widgets" / f"{widget}.html").as_uri() + f"?theme={theme}")
    palette = THEMES[theme]
    for selector, attribute, field in DRAWN[widget]:
        shown = page.evaluate("([s, a]) => getComputedStyle(document.querySelector(s))[a]", [selector, attribute])
        assert shown == rgb(getattr(palette, field)), (widget, selector, theme)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == rgb(palette.background)


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_grid_shading_is_the_videos_and_its_text_readable(page, site, theme):
    """Under each layer the groups are shaded with the layer's colour at the videos' cycling
    opacities (GROUP_OPACITIES) over the page, lightened only where the text would fall below 4.5:1."""
    page.goto((site / "widgets" / "grid.html").as_uri() + f"?theme={theme}")
    palette = THEMES[theme]
    for layer in SHADED_LAYERS:
        page.locator(f'button[data-layer="{layer}"]').click()
        cells = page.evaluate("""() => [...document.querySelectorAll('[data-out-row]')].map((c) =>
            [Number(c.dataset.group), getComputedStyle(c).backgroundColor, getComputedStyle(c).color])""")
        for group, background, colour in cells:
            opacity = GROUP_OPACITIES[group % len(GROUP_OPACITIES)]
            wanted = mix(getattr(palette, layer), palette.background, opacity)
            if contrast(palette.text, wanted) >= TEXT_CONTRAST:
                assert background == rgb(wanted), (layer, group)
            expected = css_properties(theme)[f"shade-{layer}-{group % len(GROUP_OPACITIES)}"]
            assert background == rgb(expected)
            assert colour == rgb(palette.text)
            assert contrast(palette.text, expected) >= TEXT_CONTRAST


def _hls(colour: str):
    return colorsys.rgb_to_hls(*(int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)))


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_text_colours_keep_the_videos_hue_and_reach_the_contrast(site, theme):
    """The built palette.css holds the kit's colours; each text colour reaches 4.5:1 on the page
    and on its panels; it is the video's colour itself when that passes, else the same hue and
    saturation with the least lightness change that passes (one step of 0.005 less fails)."""
    css = (site / "assets" / "palette.css").read_text(encoding="utf-8")
    block = css.split(f':root[data-theme="{theme}"] {{')[1].split("}")[0]
    written = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-f]{6});", block))
    properties = css_properties(theme)
    assert written == {k: v for k, v in properties.items() if v.startswith("#")}
    palette = THEMES[theme]
    for name, field in (("rms", "rmsnorm"), ("ln", "layernorm"), ("l2", "l2"), ("bn", "batchnorm"), ("gn", "groupnorm"),
                        ("x", "input"), ("hyperplane", "hyperplane"), ("ones", "ones"), ("elementwise", "elementwise"),
                        ("bg", "background"), ("fg", "text")):
        assert written[name] == getattr(palette, field), name
    backgrounds = [palette.background, palette.panel]
    for name, field in (("muted", "muted"), ("accent", "emphasis"), ("l2-text", "l2"), ("rms-text", "rmsnorm"),
                        ("ln-text", "layernorm"), ("x-text", "input"), ("hyperplane-text", "hyperplane"),
                        ("ones-text", "ones"), ("centre", "ones"), ("scale", "emphasis"), ("affine", "emphasis")):
        original, shown = getattr(palette, field), written[name]
        assert min(contrast(shown, b) for b in backgrounds) >= TEXT_CONTRAST, (name, shown)
        if min(contrast(original, b) for b in backgrounds) >= TEXT_CONTRAST:
            assert shown == original, name
            continue
        (h0, l0, s0), (h1, l1, s1) = _hls(original), _hls(shown)
        assert abs(h0 - h1) < 0.01 and abs(s0 - s1) < 0.03, (name, original, shown)
        nearer = colorsys.hls_to_rgb(h0, l1 + (0.005 if l1 < l0 else -0.005), s0)
        nearer_hex = "#" + "".join(f"{round(c * 255):02x}" for c in nearer)
        assert min(contrast(nearer_hex, b) for b in backgrounds) < TEXT_CONTRAST, (name, "not the least change")
    assert contrast(written["error"], written["error-bg"]) >= TEXT_CONTRAST
    assert contrast(written["accent-fg"], written["accent"]) >= TEXT_CONTRAST


def test_readable_and_contrast():
    """WCAG's published pairs: black on white 21:1, #767676 on white 4.54:1 (the lightest grey that passes)."""
    assert round(contrast("#000000", "#ffffff"), 2) == 21.0
    assert round(contrast("#767676", "#ffffff"), 2) == 4.54
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48
    assert readable("#767676", "#ffffff") == "#767676"
    fixed = readable("#777777", "#ffffff")
    assert contrast(fixed, "#ffffff") >= 4.5 and fixed < "#777777"
    assert readable("#ff8a65", ["#ffffff"]) != "#ff8a65"
    assert contrast(readable("#0000ff", "#000000"), "#000000") >= 4.5
