"""Input checks shared by the core: every public function turns input into a finite float array here."""

from __future__ import annotations

import numpy as np

from normgeo.errors import EmptyInputError, InvalidParameterError, NonFiniteError, ShapeError

__all__ = ["as_finite_array", "as_positive_number", "as_nonnegative_number", "as_dimension", "describe_index"]


def describe_index(index: tuple[int, ...]) -> str:
    """Human-readable index of a row, e.g. ``(1, 2)`` → ``"[1, 2]"``."""
    return "[" + ", ".join(str(int(i)) for i in index) + "]"


def as_finite_array(x, name: str = "x", min_ndim: int = 1) -> np.ndarray:
    """Return ``x`` as a new float64 array, refusing empty, non-numeric and non-finite input.

    >>> as_finite_array([3, 4])
    array([3., 4.])
    """
    try:
        array = np.array(x, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ShapeError(f"{name} must be an array of real numbers ({error})") from None
    if array.ndim < min_ndim:
        raise ShapeError(f"{name} must have at least {min_ndim} dimension(s), got shape {array.shape}")
    if array.size == 0:
        raise EmptyInputError(f"{name} is empty (shape {array.shape})")
    finite = np.isfinite(array)
    if not finite.all():
        where = tuple(int(i) for i in np.argwhere(~finite)[0])
        raise NonFiniteError(f"{name} holds {array[where]} at index {describe_index(where)}; only finite values are allowed")
    return array


def as_positive_number(value, name: str) -> float:
    """``value`` as a float that is finite and > 0."""
    number = _as_number(value, name)
    if not number > 0:
        raise InvalidParameterError(f"{name} must be a positive number, got {number}")
    return number


def as_nonnegative_number(value, name: str) -> float:
    """``value`` as a float that is finite and ≥ 0."""
    number = _as_number(value, name)
    if number < 0:
        raise InvalidParameterError(f"{name} must be ≥ 0, got {number}")
    return number


def as_dimension(n, name: str = "n", minimum: int = 1) -> int:
    """``n`` as an int ≥ ``minimum`` (bools and fractional numbers refused)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise InvalidParameterError(f"{name} must be a whole number, got {n!r}")
    if n < minimum:
        raise InvalidParameterError(f"{name} must be ≥ {minimum}, got {n}")
    return int(n)


def _as_number(value, name: str) -> float:
    if isinstance(value, bool):
        raise InvalidParameterError(f"{name} must be a number, got {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{name} must be a number, got {value!r}") from None
    if not np.isfinite(number):
        raise NonFiniteError(f"{name} must be finite, got {number}")
    return number
