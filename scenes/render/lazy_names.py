"""A package's public names, each loaded from its module when first used (PEP 562), so that
importing a light part of the pipeline does not load Manim."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

__all__ = ["lazy_getattr"]


def lazy_getattr(package: str, where: dict[str, str]) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``package``: ``where`` maps each public name to the submodule
    (relative to ``package``) that defines it; any other name is an AttributeError.

    >>> getter = lazy_getattr("scenes.render", {"parse_size": "settings"})
    >>> getter("parse_size")("2k")
    2000
    """

    def __getattr__(name: str):
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(f"{package}.{where[name]}"), name)

    return __getattr__
