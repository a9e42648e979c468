"""Scene specs: frozen dataclasses of everything a scene shows, with defaults from the sources.

One conversion, driven by each field's type hint, turns a ``--set`` string and a TOML value into
the same typed value (``"3,4"`` and ``[3, 4]`` both give ``(3.0, 4.0)`` for a ``Vector``), so equal
specs are equal whichever way they were written. Ranges are declared with the field
(``setting(24, low=2, high=200)``) and checked when a spec is built; cross-field rules live in
``validate``. Every refusal is one line: the field, what it expects and the value given.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import math
import re
import typing
from contextvars import ContextVar
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal, get_args, get_origin

import numpy as np

from normgeo import NormGeoError, euclidean_norm
from scenes.kit.languages import DEFAULT_LANGUAGE, LANGUAGES
from scenes.kit.theme import DEFAULT_THEME, THEMES

__all__ = ["SceneSpec", "SpecError", "Vector", "Vectors", "setting", "coerce", "type_description", "as_setting_text",
           "check_vectors", "check_range", "checks_made", "did_you_mean", "check_file_value",
           "scene_id_of_module"]

Vector = tuple[float, ...]
Vectors = tuple[Vector, ...]


class SpecError(ValueError):
    """A spec value is malformed or out of range; the message says which and why."""


class _EmptyItem(SpecError):
    """A list value with nothing between two separators ("3,4;;6,8", "3,,4")."""


def setting(default, *, low: float | None = None, high: float | None = None, items: tuple[int, int] | None = None):
    """A spec field with its allowed range (for numbers, or for each number of a tuple) and, for
    tuples, how many items it may have."""
    return dataclasses.field(default=default, metadata={"low": low, "high": high, "items": items})


def scene_id_of_module(module_name: str) -> str:
    """``scenes.layernorm_2d`` → ``layernorm-2d``: a scene's id is its module's name."""
    return module_name.rsplit(".", 1)[-1].replace("_", "-")


def did_you_mean(word: str, known) -> str:
    """'; did you mean X?' for the closest known word, else the list of known words."""
    known = list(known)
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.5)
    return f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(known)}"


# ------------------------------------------------------------------ conversion by type hint
_INTEGER = re.compile(r"[+-]?\d+")


def type_description(hint) -> str:
    """What a value of this type looks like, for messages and ``normgeo spec``.

    >>> type_description(Vectors), type_description(tuple[int, ...]), type_description(Literal["wire", "surface"])
    ('vectors like 3,4;6,8', 'whole numbers like 2,1', 'one of wire, surface')
    """
    if hint is int:
        return "a whole number"
    if hint is float:
        return "a number"
    if hint is bool:
        return "true or false"
    if hint is str:
        return "text"
    if get_origin(hint) is Literal:
        return "one of " + ", ".join(str(a) for a in get_args(hint))
    if hint == Vectors:
        return "vectors like 3,4;6,8"
    if hint == Vector:
        return "a vector like 3,4"
    if get_origin(hint) is tuple and get_args(hint)[0] is int:
        return "whole numbers like 2,1"
    if get_origin(hint) is tuple and get_args(hint)[0] is float:
        return "numbers like 1,2,0.5"
    return str(hint)


def _refuse(name: str, hint, value) -> SpecError:
    shown = value if isinstance(value, str) else _plain(value)
    return SpecError(f"{name}: expected {type_description(hint)}, got {shown!r}")


def coerce(name: str, value, hint):
    """``value`` (a ``--set`` string or a TOML value) as the field's type, or a SpecError.

    >>> coerce("vector", "3,4", Vector) == coerce("vector", [3, 4], Vector) == (3.0, 4.0)
    True
    >>> coerce("groups", 2, tuple[int, ...]), coerce("groups", "2,1", tuple[int, ...])
    ((2,), (2, 1))
    """
    origin = get_origin(hint)
    if origin is tuple:
        return _coerce_tuple(name, value, hint)
    if origin is Literal:
        choices = get_args(hint)
        text = value.strip() if isinstance(value, str) else value
        if text not in choices:
            raise _refuse(name, hint, value)
        return text
    if isinstance(value, str):
        text = value.strip()
        if hint is int:
            if not _INTEGER.fullmatch(text):
                raise _refuse(name, hint, value)
            return int(text)
        if hint is float:
            try:
                number = float(text)
            except ValueError:
                raise _refuse(name, hint, value) from None
            if not math.isfinite(number):
                raise SpecError(f"{name}: must be a finite number, got {value!r}")
            return number
        if hint is bool:
            if text.lower() in {"1", "true", "yes", "on"}:
                return True
            if text.lower() in {"0", "false", "no", "off"}:
                return False
            raise _refuse(name, hint, value)
        if hint is str:
            return text
        raise _refuse(name, hint, value)
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise _refuse(name, hint, value)
    if isinstance(value, bool):
        raise _refuse(name, hint, value)
    if hint is int and isinstance(value, (int, np.integer)):
        return int(value)
    if hint is float and isinstance(value, (int, float, np.integer, np.floating)):
        if not math.isfinite(float(value)):
            raise SpecError(f"{name}: must be a finite number, got {value!r}")
        return float(value)
    if hint is str and isinstance(value, str):
        return value
    raise _refuse(name, hint, value)


def _coerce_tuple(name: str, value, hint) -> tuple:
    inner = get_args(hint)[0]
    nested = get_origin(inner) is tuple
    if isinstance(value, str):
        text = value.strip()
        if nested:
            rows = [row.strip() for row in re.split(r"[;|]", text)]
        else:
            inside = text.strip("()[] ")
            rows = re.split(r"\s*,\s*|\s+", inside) if inside else [""]
        if rows == [""]:
            raise SpecError(f"{name}: expected {type_description(hint)}, got an empty value")
        if "" in rows:
            raise _EmptyItem(f"{name}: an empty {'vector' if nested else 'number'} in {value!r}; "
                             f"expected {type_description(hint)}")
        items = rows
    elif isinstance(value, (list, tuple)):
        items = list(value)
        if nested and items and not any(isinstance(v, (list, tuple)) for v in items):
            items = [items]  # a single vector given flat: [3, 4] for vectors = [[3, 4]]
    else:
        items = [value]  # a bare value for a tuple field: groups = 2 means (2,)
    try:
        return tuple(coerce(name, item.strip("()[] ") if isinstance(item, str) else item, inner) for item in items)
    except _EmptyItem:
        raise _EmptyItem(f"{name}: an empty number in {value!r}; expected {type_description(hint)}") from None
    except SpecError as error:
        if "finite" in str(error):
            raise SpecError(f"{name}: every value must be a finite number, got {value!r}") from None
        raise _refuse(name, hint, value) from None


def check_file_value(name: str, value, hint) -> None:
    """A TOML value has the field's own type: text only where the field takes text, so that
    ``radius = "2"`` or ``vectors = "2,1;-1,3"`` is refused (``--set`` text is parsed, a file's is not).

    >>> check_file_value("radius", 2, float)
    >>> check_file_value("radius", "2", float)
    Traceback (most recent call last):
    ...
    scenes.kit.spec.SpecError: radius: expected a number, got the text '2' (write it without quotes)
    """
    takes_text = hint is str or (get_origin(hint) is Literal and any(isinstance(a, str) for a in get_args(hint)))
    if isinstance(value, str) and not takes_text:
        raise SpecError(f"{name}: expected {type_description(hint)}, got the text {value!r} (write it without quotes)")
    if get_origin(hint) is tuple and isinstance(value, (list, tuple)):
        inner = get_args(hint)[0]
        for item in value:
            check_file_value(name, item, inner)


def as_setting_text(value) -> str:
    """A value written as ``--set`` would take it: (3.0, 4.0) → "3,4"; ((1, 2), (3, 4)) → "1,2;3,4".

    >>> as_setting_text(((3.0, 4.0), (6.0, 8.0))), as_setting_text(1e-05), as_setting_text(True)
    ('3,4;6,8', '1e-05', 'true')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        if value and isinstance(value[0], tuple):
            return ";".join(as_setting_text(v) for v in value)
        return ",".join(as_setting_text(v) for v in value)
    if isinstance(value, float):
        return repr(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return str(value)


def _plain(value):
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


# ------------------------------------------------------------------ the spec
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
        hints = typing.get_type_hints(type(self))
        for spec_field in fields(self):
            value = coerce(spec_field.name, getattr(self, spec_field.name), hints[spec_field.name])
            object.__setattr__(self, spec_field.name, value)  # (3, 4) built in Python becomes (3.0, 4.0)
            _check_declared_range(spec_field, value)
        self.validate()

    def validate(self) -> None:
        """Scene-specific checks across fields; raise ``SpecError``."""

    @classmethod
    def scene_id(cls) -> str:
        """The id of the scene this spec belongs to (its module's name)."""
        return scene_id_of_module(cls.__module__)

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def settings(cls) -> list[dataclasses.Field]:
        """The fields a user sets (everything but language and theme, which are options)."""
        return [f for f in fields(cls) if f.name not in ("lang", "theme")]

    def with_overrides(self, overrides: dict[str, object]) -> SceneSpec:
        """A copy with fields replaced; each value (a ``--set`` string or a TOML value) goes through
        ``coerce`` for its field's type. An unknown key is refused with a "did you mean"."""
        hints = typing.get_type_hints(type(self))
        changes = {}
        for key, raw in overrides.items():
            name = key.replace("-", "_")
            if name not in hints:
                raise SpecError(f"{key}: not a setting of this scene{did_you_mean(name, self.field_names())}")
            changes[name] = coerce(name, raw, hints[name])
        try:
            return dataclasses.replace(self, **changes)
        except SpecError:
            raise
        except (TypeError, ValueError) as error:
            raise SpecError(str(error)) from None

    def as_dict(self) -> dict:
        """Plain JSON-able values (tuples become lists)."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    def settings_dict(self) -> dict:
        """``as_dict`` without language and theme: what makes a render custom."""
        return {f.name: _plain(getattr(self, f.name)) for f in self.settings()}

    def input_files(self) -> tuple[Path, ...]:
        """Files the render reads besides the code (a user's states file): the cache hashes their
        bytes, so a file changed in place is rendered again, never served stale."""
        return ()


def _check_declared_range(spec_field: dataclasses.Field, value) -> None:
    low, high, items = (spec_field.metadata.get(k) for k in ("low", "high", "items"))
    name = spec_field.name
    if items is not None and not items[0] <= len(value) <= items[1]:
        count = f"{items[0]}" if items[0] == items[1] else f"{items[0]} to {items[1]}"
        raise SpecError(f"{name}: give {count} values, got {len(value)}: {as_setting_text(value)}")
    if low is None and high is None:
        return
    numbers = np.ravel(np.array(value, dtype=float)) if isinstance(value, tuple) else [value]
    low = -math.inf if low is None else low
    high = math.inf if high is None else high
    if any(not low <= v <= high for v in numbers):
        each = "each value " if isinstance(value, tuple) else ""
        raise SpecError(f"{name}: {each}must be between {low:g} and {high:g}, got {as_setting_text(value)}")


#: while ``normgeo spec`` asks (:func:`checks_made`), each check below says what it requires
_MADE: ContextVar[list | None] = ContextVar("normgeo_checks_made", default=None)


@contextlib.contextmanager
def checks_made():
    """The checks a ``validate`` makes inside the block, as (setting, rule, numbers): ``rule`` is
    ``vector-length`` (numbers low, high) or ``range`` (low, high), the numbers its errors print."""
    made: list = []
    token = _MADE.set(made)
    try:
        yield made
    finally:
        _MADE.reset(token)


def _made(name: str, rule: str, **numbers) -> None:
    made = _MADE.get()
    if made is not None:
        made.append((name, rule, numbers))


def check_vectors(name: str, vectors: Vectors, dim: int | None = None, max_length: float = 1e3) -> None:
    """Every vector finite, non-zero, of dimension ``dim`` and length ≤ ``max_length``."""
    _made(name, "vector-length", low=1e-3, high=max_length)
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
    _made(name, "range", low=low, high=high)
    if not low <= value <= high:
        raise SpecError(f"{name}: must be between {low:g} and {high:g}, got {value}")
