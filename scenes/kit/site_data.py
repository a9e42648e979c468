"""What the site's page and widgets take from the kit: each theme's palette as CSS custom
properties, so that a layer has one colour in the videos and on the page, and the lesson's grid.

Graphics (strokes, fills, swatches) use the videos' colours as they are. Text must reach the
WCAG contrast of 4.5:1; a video colour that does not, as text on the page's backgrounds, is
replaced *for text only* by the same hue moved away from the background (``readable``), the
least that reaches 4.5. Group shading is the video's (one colour per layer, the opacities of
``scenes.kit.grids.GROUP_OPACITIES``) laid over the page as solid colours.

>>> readable("#ffffff", ["#ffffff"]) != "#ffffff"
True
>>> readable("#1c1f24", ["#ffffff"])
'#1c1f24'
"""

from __future__ import annotations

import colorsys
import json

from scenes.kit.grids import GROUP_OPACITIES
from scenes.kit.theme import THEMES, Palette

__all__ = ["SOURCE_GRID", "TEXT_CONTRAST", "SHADED_LAYERS", "SITE_ONLY", "contrast", "readable", "mix",
           "css_properties", "shade", "palette_css", "widget_data_script", "site_assets"]

#: The Russian lesson's 4×4 grid (rows = examples of the batch, columns = features).
SOURCE_GRID: tuple[tuple[float, ...], ...] = ((1.0, 2.0, 3.0, 10.0), (2.0, 4.0, 1.0, 8.0), (3.0, 1.0, 5.0, 12.0),
                                              (0.0, 3.0, 2.0, 9.0))

TEXT_CONTRAST = 4.5

#: the layers whose groups the grid widget shades, by their palette field
SHADED_LAYERS = ("batchnorm", "layernorm", "rmsnorm", "groupnorm")

#: colours the videos never show (form errors), per theme
SITE_ONLY = {
    "dark": {"error": "#ffb4ab", "error-bg": "#3d1a17"},
    "light": {"error": "#b3261e", "error-bg": "#fde7e6"},
}

# custom property → the palette field whose colour it is (graphics: used as is)
_GRAPHICS = {
    "bg": "background", "fg": "text", "panel": "panel", "line": "grid", "x": "input",
    "l2": "l2", "rms": "rmsnorm", "ln": "layernorm", "bn": "batchnorm", "gn": "groupnorm",
    "hyperplane": "hyperplane", "ones": "ones", "elementwise": "elementwise", "emphasis": "emphasis",
}
# custom property → the palette field whose colour it is as text (made readable)
_TEXT = {
    "muted": "muted", "accent": "emphasis",
    "x-text": "input", "l2-text": "l2", "rms-text": "rmsnorm", "ln-text": "layernorm", "hyperplane-text": "hyperplane",
    "ones-text": "ones",
    "centre": "ones", "scale": "emphasis", "affine": "emphasis",  # the formula's parts: centring removes μ·1
}


def _rgb(colour: str) -> tuple[float, float, float]:
    value = colour.lstrip("#")
    return tuple(int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))


def _hex(rgb) -> str:
    return "#" + "".join(f"{round(min(max(c, 0.0), 1.0) * 255):02x}" for c in rgb)


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in _rgb(colour)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio (L₁ + 0.05)/(L₂ + 0.05), from 1 to 21.

    >>> round(contrast("#000000", "#ffffff"), 6)
    21.0
    """
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def readable(colour: str, backgrounds, minimum: float = TEXT_CONTRAST) -> str:
    """``colour`` if it reaches ``minimum`` against every background; else the same hue and
    saturation (HLS) with the lightness moved away from the backgrounds by the least amount
    (bisection to 1/1000) that does."""
    backgrounds = [backgrounds] if isinstance(backgrounds, str) else list(backgrounds)

    def passes(candidate: str) -> bool:
        return all(contrast(candidate, b) >= minimum for b in backgrounds)

    if passes(colour):
        return colour
    hue, lightness, saturation = colorsys.rgb_to_hls(*_rgb(colour))
    darker = sum(_luminance(b) for b in backgrounds) / len(backgrounds) > 0.18  # light backgrounds: go darker
    target = 0.0 if darker else 1.0
    near, far = lightness, target  # near fails, far (black or white) passes if anything does
    for _ in range(40):
        middle = (near + far) / 2
        if passes(_hex(colorsys.hls_to_rgb(hue, middle, saturation))):
            far = middle
        else:
            near = middle
    found = _hex(colorsys.hls_to_rgb(hue, far, saturation))
    if not passes(found):
        raise ValueError(f"no lightness of {colour} reaches {minimum}:1 against {backgrounds}")
    return found


def mix(colour: str, background: str, opacity: float) -> str:
    """The solid colour of ``colour`` laid at ``opacity`` over ``background``."""
    return _hex(opacity * c + (1 - opacity) * b for c, b in zip(_rgb(colour), _rgb(background)))


def shade(palette: Palette, layer: str, group: int) -> str:
    """The video's shading of group ``group`` under ``layer`` on the page's background, lightened
    (less opacity) as far as needed for the page's text to keep its contrast on it."""
    colour = getattr(palette, layer)
    opacity = GROUP_OPACITIES[group % len(GROUP_OPACITIES)]
    while contrast(palette.text, mix(colour, palette.background, opacity)) < TEXT_CONTRAST:
        opacity -= 0.01
    return mix(colour, palette.background, opacity)


def css_properties(theme: str) -> dict[str, str]:
    """Every custom property of ``theme``: name (without ``--``) → colour."""
    palette = THEMES[theme]
    page = [palette.background, palette.panel]
    properties = {name: getattr(palette, field) for name, field in _GRAPHICS.items()}
    properties.update({name: readable(getattr(palette, field), page) for name, field in _TEXT.items()})
    on_accent = contrast(properties["accent"], palette.background) >= TEXT_CONTRAST
    properties["accent-fg"] = palette.background if on_accent else palette.text
    properties["plane"] = mix(palette.hyperplane, palette.background, 0.16)
    for layer in SHADED_LAYERS:
        for group in range(len(GROUP_OPACITIES)):
            properties[f"shade-{layer}-{group}"] = shade(palette, layer, group)
    extra = SITE_ONLY[theme]
    properties["error"] = readable(extra["error"], [*page, extra["error-bg"]])
    properties["error-bg"] = extra["error-bg"]
    return properties


def _block(selector: str, theme: str) -> str:
    lines = [f"  --{name}: {value};" for name, value in css_properties(theme).items()]
    return f"{selector} {{\n" + "\n".join(lines) + f"\n  color-scheme: {theme};\n}}\n"


def _presenter_block() -> str:
    """The presenter's stage is always the dark lecture's: its background, text and neutrals."""
    dark, extra = THEMES["dark"], SITE_ONLY["dark"]
    colours = {"bg": dark.background, "fg": dark.text, "muted": dark.muted, "panel": dark.panel, "line": dark.grid,
               "emphasis": dark.emphasis, "error": extra["error"], "error-bg": extra["error-bg"]}
    return ".ng-present {\n" + "".join(f"  --present-{name}: {value};\n" for name, value in colours.items()) + "}\n"


def palette_css() -> str:
    """The site's colours: light unless the reader's system asks for dark, ``data-theme`` overriding."""
    return (
        "/* Generated by scenes/kit/site_data.py from scenes/kit/theme.py: do not edit. */\n"
        + _block(":root", "light")
        + "@media (prefers-color-scheme: dark) {\n" + _block(':root:not([data-theme="light"])', "dark") + "}\n"
        + _block(':root[data-theme="dark"]', "dark")
        + _block(':root[data-theme="light"]', "light")
        + _presenter_block()
        + "".join(
            f'.ng-grid[data-layer="{layer}"] .ng-shade.ng-g{g} {{ background: var(--shade-{layer}-{g}); }}\n'
            for layer in SHADED_LAYERS for g in range(len(GROUP_OPACITIES))
        )
    )


def widget_data_script() -> str:
    """``window.NORMGEO_DATA``: what the widgets take from the kit (the grid, the group count of shades)."""
    data = {"sourceGrid": [list(row) for row in SOURCE_GRID], "shades": len(GROUP_OPACITIES)}
    return "window.NORMGEO_DATA = " + json.dumps(data, separators=(",", ":")) + ";\n"


def site_assets() -> dict[str, str]:
    """The generated files of the site's ``assets`` folder: name → text."""
    return {"palette.css": palette_css(), "data.js": widget_data_script()}
