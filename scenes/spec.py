"""Scene specs: frozen dataclasses of everything a scene shows, with defaults from the sources.

A spec is validated when built, so a scene never starts with bad parameters. ``with_overrides``
builds a spec from ``KEY=VALUE`` strings (the CLI's ``--set``) with one-line errors.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from dataclasses import dataclass, fields

import numpy as np

from normgeo import NormGeoError, euclidean_norm
from scenes.languages import DEFAULT_LANGUAGE, LANGUAGES
from scenes.theme import DEFAULT_THEME, THEMES

__all__ = ["SceneSpec", "SpecError", "Vector", "Vectors", "parse_value", "check_vectors", "check_range"]

Vector = tuple[float, ...]
Vectors = tuple[Vector, ...]


class SpecError(ValueError):
    """A spec value is malformed or out of range; the message says which and why."""


@dataclass(frozen=True)
class SceneSpec:
    """What every scene has: the language of its text and the colour theme."""

    lang: str = DEFAULT_LANGUAGE
    theme: str = DEFAULT_THEME

    def __post_init__(self) -> None:
        if self.lang not in LANGUAGES:
            raise SpecError(f"lang: unknown language {self.lang!r}; choose one of {', '.join(LANGUAGES)}")
        if self.theme not in THEMES:
            raise SpecError(f"theme: unknown theme {self.theme!r}; choose one of {', '.join(THEMES)}")
        self.validate()

    def validate(self) -> None:
        """Scene-specific checks; raise ``SpecError``."""

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def with_overrides(self, overrides: dict[str, str | object]) -> SceneSpec:
        """A copy with fields replaced; string values are parsed by the field's type."""
        hints = typing.get_type_hints(type(self))
        changes = {}
        for key, raw in overrides.items():
            name = key.replace("-", "_")
            if name not in hints:
                known = ", ".join(self.field_names())
                raise SpecError(f"{key}: not a setting of this scene; settings: {known}")
            changes[name] = parse_value(name, raw, hints[name]) if isinstance(raw, str) else raw
        try:
            return dataclasses.replace(self, **changes)
        except SpecError:
            raise
        except (TypeError, ValueError) as error:
            raise SpecError(str(error)) from None

    def as_dict(self) -> dict:
        """Plain JSON-able values (tuples become lists)."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}


def _plain(value):
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def parse_value(name: str, text: str, hint) -> object:
    """Parse ``text`` for a field annotated ``hint``: int, float, str, bool, Vector or Vectors.

    >>> parse_value("vectors", "3,4; 6,8", Vectors)
    ((3.0, 4.0), (6.0, 8.0))
    """
    text = text.strip()
    try:
        if hint is int:
            if not text.lstrip("+-").isdigit():
                raise ValueError
            return int(text)
        if hint is float:
            value = float(text)
            if not math.isfinite(value):
                raise SpecError(f"{name}: must be a finite number, got {text!r}")
            return value
        if hint is bool:
            if text.lower() in {"1", "true", "yes", "on"}:
                return True
            if text.lower() in {"0", "false", "no", "off"}:
                return False
            raise ValueError
        if hint is str:
            return text
        if hint == Vector:
            return _parse_vector(name, text.strip("()[] "))
        if hint == Vectors:
            rows = [row for row in text.replace("|", ";").split(";") if row.strip()]
            if not rows:
                raise SpecError(f"{name}: give at least one vector, e.g. {name}=\"3,4;6,8\"")
            return tuple(_parse_vector(name, row.strip("()[] ")) for row in rows)
    except SpecError:
        raise
    except ValueError:
        kind = {int: "a whole number", float: "a number", bool: "true or false"}.get(hint, "a value")
        raise SpecError(f"{name}: expected {kind}, got {text!r}") from None
    raise SpecError(f"{name}: cannot be set from the command line")


def _parse_vector(name: str, text: str) -> Vector:
    parts = [p for p in text.replace(" ", ",").split(",") if p]
    try:
        values = tuple(float(p) for p in parts)
    except ValueError:
        raise SpecError(f"{name}: {text!r} is not a list of numbers like 3,4") from None
    if not values:
        raise SpecError(f"{name}: empty vector")
    return values


def check_vectors(name: str, vectors: Vectors, dim: int | None = None, max_length: float = 1e3) -> None:
    """Every vector finite, non-zero, of dimension ``dim`` and length ≤ ``max_length``."""
    if not vectors:
        raise SpecError(f"{name}: give at least one vector")
    dims = {len(v) for v in vectors}
    if len(dims) != 1:
        raise SpecError(f"{name}: all vectors need the same dimension, got {sorted(dims)}")
    if dim is not None and dims != {dim}:
        raise SpecError(f"{name}: this scene draws {dim}-D vectors, got {dims.pop()}-D")
    for index, vector in enumerate(vectors):
        try:
            length = float(euclidean_norm(np.array(vector, dtype=float)))
        except NormGeoError as error:
            raise SpecError(f"{name}: vector {index + 1} {vector}: {error}") from None
        if length == 0:
            raise SpecError(f"{name}: vector {index + 1} is the zero vector, which has no direction")
        if length > max_length or length < 1e-3:
            raise SpecError(f"{name}: vector {index + 1} has length {length:.3g}; keep lengths between 0.001 and {max_length:g}")


def check_range(name: str, value, low, high) -> None:
    """``low ≤ value ≤ high``, else a SpecError naming the setting and the range."""
    if not low <= value <= high:
        raise SpecError(f"{name}: must be between {low:g} and {high:g}, got {value}")
