"""The ES module of a notebook widget, built from the site's own files: the words (``ui.toml``), the
kit's palette and grid, ``ng-math.js``, ``ng.js`` and the widget's script from ``scenes/web`` as the
site's build writes them (:mod:`scenes.render.site.pages`), then the notebook's ``bridge.js``. The
site's scripts are classic scripts that define ``window.NormGeo``; run first in the module, they
behave as on a page. Their styles (``palette.css``, ``site.css``) are scoped to the widget's shadow
root: the page's ``:root``, ``html`` and ``body`` rules become the widget frame's."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from scenes.kit.site_data import site_assets
from scenes.render.site.model import WEB_DIR, WIDGETS
from scenes.render.site.words import formula_svgs, ui_text

__all__ = ["BRIDGE", "widget_module", "widget_style"]

BRIDGE = Path(__file__).with_name("bridge.js")

#: the frame around a widget in a notebook (what the site's page gives it: a background and a margin)
_FRAME_CSS = ".ng-root { padding: 12px; border-radius: 8px; }\n"


def _script_value(name: str, value) -> str:
    """``window.<name> = <value as JSON>;`` as the site's text.js, data.js and formulas.js say it."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return f"window.{name} = {text};\n"


@functools.cache
def widget_style() -> str:
    """The site's palette and layout, every ``:root``, ``html`` and ``body`` rule moved to ``.ng-root``."""
    palette = site_assets()["palette.css"].replace(":root", ".ng-root")
    layout = re.sub(r"(?m)^(html|body) \{", ".ng-root {", (WEB_DIR / "site.css").read_text(encoding="utf-8"))
    return palette + layout + _FRAME_CSS


@functools.cache
def _site_scripts(name: str) -> str:
    assets = site_assets()
    parts = [_script_value("NORMGEO_TEXT", ui_text()), assets["data.js"],
             (WEB_DIR / "ng-math.js").read_text(encoding="utf-8")]
    if name == "grid":  # the only widget that shows a typeset formula (and the only one that needs Typst)
        parts.append(_script_value("NORMGEO_FORMULAS", formula_svgs()))
    parts += [(WEB_DIR / "ng.js").read_text(encoding="utf-8"), (WEB_DIR / WIDGETS[name]).read_text(encoding="utf-8")]
    return "\n".join(parts)


def widget_module(name: str, inputs: tuple[str, ...]) -> str:
    """The ``_esm`` of widget ``name`` (a key of the site's ``WIDGETS``) whose input traits are ``inputs``."""
    if name not in WIDGETS:
        raise KeyError(f"no widget {name!r}; the site has {', '.join(WIDGETS)}")
    settings = (f"const NAME = {json.dumps(name)};\nconst INPUTS = {json.dumps(list(inputs))};\n"
                f"const STYLE = {json.dumps(widget_style())};\n")
    return _site_scripts(name) + "\n" + settings + BRIDGE.read_text(encoding="utf-8")
