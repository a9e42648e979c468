"""What Festival's Russian voice is given to read: its letter-to-sound rules know Cyrillic and Latin
letters, digits and plain punctuation only (a «, a dash, a σ or an = makes it write no sound at all),
so symbols become the Russian words for them and typographic punctuation plain punctuation. A letter
it cannot read and that has no entry here is refused by name rather than dropped.

>>> festival_text("прямая x + y = 0 — «σ»")
'прямая x плюс y равно 0, сигма'
"""

from __future__ import annotations

import re

from scenes.render.voice.clip import SpeechError

__all__ = ["festival_text", "RUSSIAN_READINGS"]

RUSSIAN_READINGS = {
    "+": " плюс ", "=": " равно ", "≈": " примерно равно ", "−": " минус ", "×": " на ", "·": " на ",
    "√": " корень из ", "≤": " не больше ", "≥": " не меньше ", "<": " меньше ", ">": " больше ", "%": " процентов ",
    "α": "альфа", "β": "бета", "γ": "гамма", "δ": "дельта", "ε": "эпсилон", "θ": "тэта", "λ": "лямбда",
    "μ": "мю", "σ": "сигма", "η": "эта", "κ": "каппа", "ᵢ": " с индексом и ", "ᵀ": " транспонированное ",
    "\u0302": " с крышкой ", "⊙": " поэлементно на ", "∩": " пересечение ",
    "ρ": "ро", "τ": "тау", "φ": "фи", "π": "пи", "Σ": "сигма", "‖": " норма ",
    "—": ",", "–": ",", "…": ".", "«": "", "»": "", "„": "", "“": "", "”": "", "’": "", "'": "", '"': "",
    "(": ",", ")": ",", "[": ",", "]": ",", "/": " на ", "²": " в квадрате ", "ё": "е", "Ё": "Е",
}
_READABLE = re.compile(r"[А-Яа-яA-Za-z0-9\s.,;:!?\-]")


def festival_text(text: str) -> str:
    """``text`` as the Russian voice can read it (see the module's note)."""
    out = []
    for character in text:
        if character in RUSSIAN_READINGS:
            out.append(RUSSIAN_READINGS[character])
        elif _READABLE.fullmatch(character):
            out.append(character)
        elif character.isalpha():
            raise SpeechError(f"Festival's Russian voice cannot read {character!r} (in {text[:40]!r})")
        else:
            out.append(" ")
    # a mark of punctuation standing alone (" , ") is a word to Festival, one it cannot read either
    joined = re.sub(r"\s*([.,;:!?])[\s.,;:!?]*", r"\1 ", "".join(out))
    return re.sub(r"\s+", " ", joined).lstrip(" .,;:!?").strip()
