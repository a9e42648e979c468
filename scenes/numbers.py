"""How computed numbers are written on screen and in subtitles."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

__all__ = ["nice_step", "fmt_number", "fmt_fixed", "fmt_vector", "fmt_scientific", "fmt_plain_scientific"]


def fmt_number(value: float, digits: int = 3) -> str:
    """A rounded number without trailing zeros; −0 is written 0; minus as U+2212.

    >>> fmt_number(0.6000000001), fmt_number(-1.0), fmt_number(1.41421356), fmt_number(-1e-17)
    ('0.6', '−1', '1.414', '0')
    >>> fmt_number(50, 0), fmt_number(0, 0), fmt_number(150.0)
    ('50', '0', '150')
    """
    rounded = round(float(value), digits)
    if rounded == 0:
        rounded = 0.0
    text = f"{rounded:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace("-", "−")


def fmt_fixed(value: float, digits: int = 2) -> str:
    """A number with exactly ``digits`` decimals (for columns that must line up); minus as U+2212.

    >>> fmt_fixed(-1.3416), fmt_fixed(0.0)
    ('−1.34', '0.00')
    """
    text = f"{float(value):.{digits}f}"
    if float(text) == 0:
        text = text.lstrip("-")
    return text.replace("-", "−")


def fmt_vector(values: Iterable[float], digits: int = 3) -> str:
    """A vector as ``(a, b, …)`` with ``fmt_number`` entries.

    >>> fmt_vector(np.array([0.6, 0.8]))
    '(0.6, 0.8)'
    """
    return "(" + ", ".join(fmt_number(v, digits) for v in np.ravel(values)) + ")"


def fmt_scientific(value: float, digits: int = 2) -> str:
    """A Typst math expression a·10^k for large or small numbers, else ``fmt_number``.

    >>> fmt_scientific(526315798.0), fmt_scientific(1e-5)
    ('5.26 dot 10^(8)', '10^(-5)')
    """
    value = float(value)
    if value == 0 or 1e-3 <= abs(value) < 1e4:
        return fmt_number(value, digits)
    exponent = int(np.floor(np.log10(abs(value))))
    mantissa = value / 10**exponent
    if fmt_number(mantissa, digits) == "1":
        return f"10^({exponent})"
    return f"{fmt_number(mantissa, digits)} dot 10^({exponent})"


_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def fmt_plain_scientific(value: float, digits: int = 2) -> str:
    """Like ``fmt_scientific`` but as plain text with superscripts, for subtitles.

    >>> fmt_plain_scientific(4140960326.0), fmt_plain_scientific(141.0), fmt_plain_scientific(1e4)
    ('4.14·10⁹', '141', '10⁴')
    """
    value = float(value)
    if value == 0 or 1e-3 <= abs(value) < 1e4:
        return fmt_number(value, digits)
    exponent = int(np.floor(np.log10(abs(value))))
    mantissa = fmt_number(value / 10**exponent, digits)
    power = "10" + str(exponent).translate(_SUPERSCRIPTS)
    return power if mantissa == "1" else f"{mantissa}·{power}"


def nice_step(span: float, ticks: int = 4) -> float:
    """A round spacing (1, 2 or 5 × 10^k) giving about ``ticks`` intervals over ``span``.

    >>> nice_step(6.0), nice_step(150), nice_step(0.0176)
    (2.0, 50.0, 0.005)
    """
    raw = span / ticks
    magnitude = 10 ** np.floor(np.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw * (1 - 1e-9):
            return float(factor * magnitude)
    return float(10 * magnitude)
