"""How computed numbers are written on screen and in subtitles."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

__all__ = ["fmt_number", "fmt_vector", "fmt_scientific"]


def fmt_number(value: float, digits: int = 3) -> str:
    """A rounded number without trailing zeros; −0 is written 0; minus as U+2212.

    >>> fmt_number(0.6000000001), fmt_number(-1.0), fmt_number(1.41421356), fmt_number(-1e-17)
    ('0.6', '−1', '1.414', '0')
    """
    rounded = round(float(value), digits)
    if rounded == 0:
        rounded = 0.0
    text = f"{rounded:.{digits}f}".rstrip("0").rstrip(".")
    return text.replace("-", "−")


def fmt_vector(values: Iterable[float], digits: int = 3) -> str:
    """A vector as ``(a, b, …)`` with ``fmt_number`` entries.

    >>> fmt_vector(np.array([0.6, 0.8]))
    '(0.6, 0.8)'
    """
    return "(" + ", ".join(fmt_number(v, digits) for v in np.ravel(values)) + ")"


def fmt_scientific(value: float, digits: int = 2) -> str:
    """A Typst math expression a·10^k for large or small numbers, else ``fmt_number``.

    >>> fmt_scientific(526315798.0)
    '5.26 dot 10^(8)'
    """
    value = float(value)
    if value == 0 or 1e-3 <= abs(value) < 1e4:
        return fmt_number(value, digits)
    exponent = int(np.floor(np.log10(abs(value))))
    mantissa = value / 10**exponent
    return f"{fmt_number(mantissa, digits)} dot 10^({exponent})"
