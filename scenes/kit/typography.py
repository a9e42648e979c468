"""Typography of running text set by a browser or a typesetter (the site, the handout), where a line
may break at any space. Subtitles break their own lines (``scenes.kit.captions``).

Russian, as its typesetting rules want:

* a number and its unit or sign stay on one line: "1 %", "90 °", "3 с", "12 КБ" (a no-break
  space, U+00A0, between them; a placeholder counts as a number: "{seconds} с");
* a dash never starts a line: "— это" keeps the no-break space before it ("длина — это").

Chinese takes full-width punctuation in its prose: ``half_width_marks`` finds an ASCII , ; : ! ?
touching a Han character, or ASCII brackets around Chinese words (brackets of a formula, "LN(x)" or
"(3, 4)", are the formula's own).
"""

from __future__ import annotations

import re

__all__ = ["NBSP", "typeset", "half_width_marks"]

NBSP = "\u00a0"
_RU_UNITS = ("%", "‰", "°", "с", "мс", "мин", "ч", "КБ", "МБ", "ГБ", "кБ", "ГиБ", "МиБ", "пикс.")
_RU_NUMBER_UNIT = re.compile(r"(?<=[\d}]) (?=(?:" + "|".join(re.escape(u) for u in _RU_UNITS) + r")(?![\w]))")
_RU_DASH = re.compile(r"(?<=\S) (?=[—–] )")
_HAN = "\u4e00-\u9fff"
_HALF_WIDTH = re.compile(rf"[{_HAN}][,;:!?]|[,;:!?] ?[{_HAN}]|\([^()]*[{_HAN}][^()]*\)")


def typeset(text: str, lang: str) -> str:
    """``text`` with the no-break spaces ``lang``'s typesetting wants (Russian; other languages as is).

    >>> typeset("с точностью до 1 % — какой бы ни была длина, за 3 с", "ru")
    'с точностью до 1\\xa0%\\xa0— какой бы ни была длина, за 3\\xa0с'
    >>> typeset("within 1 % — any length", "en")
    'within 1 % — any length'
    """
    if lang != "ru":
        return text
    return _RU_DASH.sub(NBSP, _RU_NUMBER_UNIT.sub(NBSP, text))


def half_width_marks(text: str) -> list[str]:
    """Every ASCII punctuation mark in Chinese prose that should be full-width, with its neighbours.

    >>> half_width_marks("取值 1 … 6, 共 2 个值"), half_width_marks("RMSNorm(x) 与 LN(x) 的夹角（3, 4）")
    (['6, 共'], [])
    >>> half_width_marks("保留原来的组数(见上)")
    ['(见上)']
    """
    return [text[max(0, m.start() - 1): m.end() + 1].strip() if len(m.group(0)) <= 3 else m.group(0)
            for m in _HALF_WIDTH.finditer(text)]
