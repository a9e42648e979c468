"""Colour palettes: ``dark`` for lecture video (default) and ``light`` for blog posts.

A scene looks its palette up when it runs (``palette(spec.theme)``); no colour is bound
into a default argument, so changing the theme never needs a re-import.
"""

from __future__ import annotations

from dataclasses import dataclass

from normgeo import Layer, parse_layer

__all__ = ["CONCEPTS", "DEFAULT_THEME", "THEMES", "Palette", "palette"]


@dataclass(frozen=True)
class Palette:
    """One colour per concept, as hex strings; the neutrals (background, text, muted, grid, panel,
    emphasis) carry no concept.

    A concept keeps its hue in both themes (the light theme's is darker), and an output set takes the
    colour of the layer that lands on it: the unit sphere is ``l2``'s, the sphere of radius √n
    ``rmsnorm``'s, sphere ∩ hyperplane ``layernorm``'s. Emphasis, before/after and good/bad are told
    by ``emphasis`` (neutral), weights and dashes, never by a layer's hue.
    """

    name: str
    background: str
    text: str
    muted: str  # notes, axes and ticks: at least 4.5:1 against the background
    grid: str
    panel: str
    emphasis: str  # neutral: the thing to look at now
    input: str  # raw vectors x (neutral)
    l2: str  # L2 and the unit sphere
    rmsnorm: str  # RMSNorm and the sphere of radius √n
    layernorm: str  # LayerNorm and sphere ∩ hyperplane
    hyperplane: str  # the zero-mean hyperplane and what lies in it (x − μ·1)
    batchnorm: str  # BatchNorm and its per-feature sets
    groupnorm: str  # GroupNorm
    ones: str  # the direction 1 and the mean part μ·1
    elementwise: str  # DyT and other element-wise maps

    def layer(self, kind) -> str:
        """The colour of a normalization layer (``"none"`` → the input colour)."""
        layer = parse_layer(kind)
        return self.input if layer is Layer.NONE else getattr(self, layer.value)


#: the fields of :class:`Palette` that name a concept (the rest are neutrals)
CONCEPTS = ("input", "l2", "rmsnorm", "layernorm", "hyperplane", "batchnorm", "groupnorm", "ones", "elementwise")

# The concept hues were chosen so that every pair stays apart (CAM02-UCS ΔE ≥ 9) in normal vision and
# under simulated deuteranopia, protanopia and tritanopia (tests/toolkit/test_concept_colours.py).
THEMES: dict[str, Palette] = {
    "dark": Palette(
        name="dark",
        background="#11141b",
        text="#eceff4",
        muted="#99a2b2",
        grid="#2b3240",
        panel="#1b2130",
        emphasis="#ffffff",
        input="#e6e9ef",
        l2="#86d7fe",
        rmsnorm="#f9ad62",
        layernorm="#bafe98",
        hyperplane="#e1769a",
        batchnorm="#ad89f6",
        groupnorm="#fee43c",
        ones="#49b8bc",
        elementwise="#ff6137",
    ),
    "light": Palette(
        name="light",
        background="#ffffff",
        text="#1c1f24",
        muted="#5f6670",
        grid="#e2e6ec",
        panel="#f2f4f7",
        emphasis="#000000",
        input="#37474f",
        l2="#1b7799",
        rmsnorm="#9d641c",
        layernorm="#5c954f",
        hyperplane="#c72a6f",
        batchnorm="#9d76de",
        groupnorm="#9a8f1f",
        ones="#029ca5",
        elementwise="#954530",
    ),
}

DEFAULT_THEME = "dark"


def palette(name: str) -> Palette:
    """The palette called ``name``; an unknown name raises ``ValueError`` listing the known ones."""
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; known: {', '.join(THEMES)}") from None
