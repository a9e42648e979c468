"""Colour palettes: ``dark`` for lecture video (default) and ``light`` for blog posts.

A scene looks its palette up when it runs (``palette(spec.theme)``); no colour is bound
into a default argument, so changing the theme never needs a re-import.
"""

from __future__ import annotations

from dataclasses import dataclass

from normgeo import Layer, parse_layer

__all__ = ["Palette", "THEMES", "DEFAULT_THEME", "palette"]


@dataclass(frozen=True)
class Palette:
    """Every colour a scene uses, as hex strings."""

    name: str
    background: str
    text: str
    muted: str
    grid: str
    raw: str
    l2: str
    rmsnorm: str
    layernorm: str
    batchnorm: str
    groupnorm: str
    sphere: str
    hyperplane: str
    mean_part: str
    centred_part: str
    highlight: str
    panel: str

    def layer(self, kind) -> str:
        """The colour of a normalization layer (``"none"`` → the raw-vector colour)."""
        layer = parse_layer(kind)
        return self.raw if layer is Layer.NONE else getattr(self, layer.value)


THEMES: dict[str, Palette] = {
    "dark": Palette(
        name="dark",
        background="#11141b",
        text="#eceff4",
        muted="#8f98a8",
        grid="#2b3240",
        raw="#d8dee9",
        l2="#4fc3f7",
        rmsnorm="#ff8a65",
        layernorm="#8bd17c",
        batchnorm="#c792ea",
        groupnorm="#ffd54f",
        sphere="#4fc3f7",
        hyperplane="#f48fb1",
        mean_part="#ffb74d",
        centred_part="#80deea",
        highlight="#ffe082",
        panel="#1b2130",
    ),
    "light": Palette(
        name="light",
        background="#ffffff",
        text="#1c1f24",
        muted="#5f6670",
        grid="#e2e6ec",
        raw="#37474f",
        l2="#0277bd",
        rmsnorm="#d84315",
        layernorm="#2e7d32",
        batchnorm="#4527a0",
        groupnorm="#a36b00",
        sphere="#0277bd",
        hyperplane="#c2185b",
        mean_part="#e65100",
        centred_part="#00838f",
        highlight="#8e24aa",
        panel="#f2f4f7",
    ),
}

DEFAULT_THEME = "dark"


def palette(name: str) -> Palette:
    """The palette called ``name``; an unknown name raises ``ValueError`` listing the known ones."""
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; known: {', '.join(THEMES)}") from None
