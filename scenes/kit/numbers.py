"""How computed numbers are written on screen and in subtitles, in each language's conventions.

The digits kept are the scene's choice; the decimal sign, digit grouping and the minus sign come
from CLDR through Babel (English 0.6, Chinese 0.6, Russian 0,6; vectors in Russian use "; "
between entries because the comma is taken). The minus is U+2212 everywhere, a sign glued to its
number: "(1; −1,2)", never "(1; − 1,2)". A vector is (a, b), an interval [a, b], a list in running
text a, b (Russian "; " for all three; a Chinese list takes the enumeration comma: 2、0.5).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

import numpy as np
from babel import Locale
from babel.numbers import format_decimal, get_decimal_symbol

__all__ = ["NumberFormat", "nice_step", "fmt_number", "fmt_fixed", "fmt_vector", "fmt_interval", "fmt_list",
           "fmt_scientific", "fmt_plain_scientific", "vector_separator", "BABEL_LOCALES"]

# Babel's locale for each language of the lecture.
BABEL_LOCALES = {"en": "en", "zh": "zh_Hans", "ru": "ru"}
MINUS = "\u2212"


def _locale(lang: str) -> Locale:
    return Locale.parse(BABEL_LOCALES[lang])


def _rounded_text(value: float, digits: int, strip: bool) -> str:
    """``value`` rounded to ``digits`` decimals as plain ASCII ("-0" becomes "0": a value that rounds
    to zero is written from +0.0, and any other rounded value is a nonzero multiple of 10^−digits).

    >>> _rounded_text(-0.0004, 3, True), _rounded_text(2.5, 2, True), _rounded_text(2.5, 2, False)
    ('0', '2.5', '2.50')
    """
    rounded = round(float(value), digits)
    if rounded == 0:
        rounded = 0.0
    text = f"{rounded:.{digits}f}"
    if strip and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def localize(text: str, lang: str) -> str:
    """A plain decimal string ("-1234.50") in ``lang``'s conventions, keeping its decimals.

    >>> localize("-1234.50", "en"), localize("-1234.50", "ru"), localize("0.6", "zh")
    ('−1,234.50', '−1\\xa0234,50', '0.6')
    """
    decimals = len(text.split(".")[1]) if "." in text else 0
    pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    out = format_decimal(Decimal(text), format=pattern, locale=_locale(lang))
    return out.replace("-", MINUS)


def fmt_number(value: float, digits: int = 3, lang: str = "en") -> str:
    """A rounded number without trailing zeros; −0 is written 0; minus as U+2212.

    >>> fmt_number(0.6000000001), fmt_number(-1.0), fmt_number(1.41421356), fmt_number(-1e-17)
    ('0.6', '−1', '1.414', '0')
    >>> fmt_number(50, 0), fmt_number(150.0), fmt_number(5.7, 1, "ru")
    ('50', '150', '5,7')
    """
    return localize(_rounded_text(value, digits, strip=True), lang)


def fmt_fixed(value: float, digits: int = 2, lang: str = "en") -> str:
    """A number with exactly ``digits`` decimals (for columns that must line up).

    >>> fmt_fixed(-1.3416), fmt_fixed(0.0), fmt_fixed(-1.3416, 2, "ru")
    ('−1.34', '0.00', '−1,34')
    """
    return localize(_rounded_text(value, digits, strip=False), lang)


def vector_separator(lang: str) -> str:
    """", " between a vector's entries, or "; " where the decimal sign is a comma."""
    return "; " if get_decimal_symbol(_locale(lang)) == "," else ", "


def fmt_vector(values: Iterable[float], digits: int = 3, lang: str = "en") -> str:
    """A vector as ``(a, b, …)`` with ``fmt_number`` entries.

    >>> fmt_vector(np.array([0.6, 0.8])), fmt_vector([0.6, -0.8], lang="ru")
    ('(0.6, 0.8)', '(0,6; −0,8)')
    """
    return "(" + vector_separator(lang).join(fmt_number(v, digits, lang) for v in np.ravel(values)) + ")"


def fmt_interval(low: float, high: float, digits: int = 3, lang: str = "en") -> str:
    """A closed interval ``[a, b]`` with ``fmt_number`` ends.

    >>> fmt_interval(-1, 0.5), fmt_interval(-1, -0.5, lang="ru"), fmt_interval(-1.25, 2, 1, "zh")
    ('[−1, 0.5]', '[−1; −0,5]', '[−1.2, 2]')
    """
    return "[" + vector_separator(lang).join(fmt_number(v, digits, lang) for v in (low, high)) + "]"


def list_separator(lang: str) -> str:
    """Between the numbers of a list in running text: ", ", "; " in Russian, "、" in Chinese."""
    return "、" if lang == "zh" else vector_separator(lang)


def fmt_list(values: Iterable[float], digits: int = 3, lang: str = "en") -> str:
    """Numbers listed in running text ("here c = 2, 0.5").

    >>> fmt_list([2, -0.5]), fmt_list([2, -0.5], lang="ru"), fmt_list([2, -0.5], lang="zh")
    ('2, −0.5', '2; −0,5', '2、−0.5')
    """
    return list_separator(lang).join(fmt_number(v, digits, lang) for v in np.ravel(values))


def _mantissa_exponent(value: float, digits: int, lang: str) -> tuple[str, int]:
    exponent = int(np.floor(np.log10(abs(value))))
    mantissa = fmt_number(value / 10**exponent, digits, lang)
    if mantissa in ("10", f"{MINUS}10"):  # 9.999 rounds up to 10: carry into the exponent
        exponent += 1
        mantissa = fmt_number(value / 10**exponent, digits, lang)
    return mantissa, exponent


def _significant(value: float, digits: int, lang: str) -> str:
    """``fmt_number`` keeping ``digits`` decimals, or more for small numbers so that 0.001 is not 0."""
    if value == 0:
        return fmt_number(value, digits, lang)
    return fmt_number(value, max(digits, digits - int(np.floor(np.log10(abs(value))))), lang)


def fmt_scientific(value: float, digits: int = 2, lang: str = "en") -> str:
    """A Typst math expression a·10^k for large or small numbers, else the number itself.

    >>> fmt_scientific(526315798.0), fmt_scientific(1e-5), fmt_scientific(526315798.0, lang="ru")
    ('5.26 dot 10^(8)', '10^(-5)', '5,26 dot 10^(8)')
    >>> fmt_scientific(0.001), fmt_scientific(0.0123), fmt_scientific(0.25)
    ('0.001', '0.0123', '0.25')
    """
    value = float(value)
    if value == 0 or 1e-3 <= abs(value) < 1e4:
        return _significant(value, digits, lang)
    mantissa, exponent = _mantissa_exponent(value, digits, lang)
    if mantissa == "1":
        return f"10^({exponent})"
    return f"{mantissa} dot 10^({exponent})"


_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def fmt_plain_scientific(value: float, digits: int = 2, lang: str = "en") -> str:
    """Like ``fmt_scientific`` but as plain text with superscripts, for subtitles.

    >>> fmt_plain_scientific(4140960326.0), fmt_plain_scientific(141.0), fmt_plain_scientific(1e4)
    ('4.14·10⁹', '141', '10⁴')
    """
    value = float(value)
    if value == 0 or 1e-3 <= abs(value) < 1e4:
        return _significant(value, digits, lang)
    mantissa, exponent = _mantissa_exponent(value, digits, lang)
    power = "10" + str(exponent).translate(_SUPERSCRIPTS)
    return power if mantissa == "1" else f"{mantissa}·{power}"


@dataclass(frozen=True)
class NumberFormat:
    """The number formats above bound to one language: what a scene uses (``self.fmt``)."""

    lang: str = "en"

    def number(self, value: float, digits: int = 3) -> str:
        return fmt_number(value, digits, self.lang)

    def fixed(self, value: float, digits: int = 2) -> str:
        return fmt_fixed(value, digits, self.lang)

    def vector(self, values: Iterable[float], digits: int = 3) -> str:
        return fmt_vector(values, digits, self.lang)

    def interval(self, low: float, high: float, digits: int = 3) -> str:
        return fmt_interval(low, high, digits, self.lang)

    def list(self, values: Iterable[float], digits: int = 3) -> str:
        return fmt_list(values, digits, self.lang)

    def scientific(self, value: float, digits: int = 2) -> str:
        return fmt_scientific(value, digits, self.lang)

    def plain_scientific(self, value: float, digits: int = 2) -> str:
        return fmt_plain_scientific(value, digits, self.lang)

    def integer(self, value: int) -> str:
        """A whole number with the language's grouping: 1,000 / 1 000."""
        if float(value) != int(value):
            raise ValueError(f"{value!r} is not a whole number")
        return localize(str(int(value)), self.lang)


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
