"""Subtitle cues as broadcasters set them: at most two lines of about 42 characters (16 for Chinese),
each on screen long enough to read. A narrated step longer than one cue becomes several consecutive
cues, split at sentence ends first, then at clause marks, then between words.
"""

from __future__ import annotations

import re

__all__ = ["LINE_LENGTH", "READING_SPEED", "reading_seconds", "split_into_cues", "wrap_cue", "cue_times", "line_width"]

# Characters per subtitle line (Netflix's timed-text style guides: 42 Latin/Cyrillic, 16 Chinese).
LINE_LENGTH = {"en": 42, "ru": 42, "zh": 16}
# Reading speed in characters per second (adult programmes: ~17–20 Latin/Cyrillic, ~7.5–9 Chinese).
READING_SPEED = {"en": 19.0, "ru": 18.0, "zh": 7.5}

# Latin and Cyrillic punctuation ends a unit only before a space (so 2.6 stays whole); Chinese ends it at once.
_SENTENCE_END = re.compile(r"(?<=[.!?;:])(?<!\bal\.)\s+|(?<=[。！？；：])")  # "Xiong et al. (2020)" stays whole
_CLAUSE_END = re.compile(r"(?<=[,—])\s+|(?<=[，、])")


def reading_seconds(text: str, lang: str) -> float:
    """Seconds a viewer needs to read ``text`` as a subtitle (at least one second)."""
    return max(1.0, len(text.replace("\n", "")) / READING_SPEED[lang])


_CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
_ZH_TOKEN = re.compile(f"[{_CJK}]|[^{_CJK}\\s]+\\s*|\\s+")
_CJK_CHAR = re.compile(f"[{_CJK}]")


def line_width(text: str, lang: str) -> float:
    """A line's width in characters; in Chinese a Latin letter, digit or space counts half."""
    if lang != "zh":
        return len(text)
    wide = len(_CJK_CHAR.findall(text))
    return wide + (len(text) - wide) / 2


def _words(text: str, lang: str) -> list[str]:
    if lang == "zh":
        # Chinese breaks between any two characters, but a word of Latin letters, digits and
        # symbols (RMSNorm, √3, 1.732) stays whole.
        return _ZH_TOKEN.findall(text)
    return text.split(" ")


def _join(pieces: list[str], lang: str) -> str:
    return ("" if lang == "zh" else " ").join(pieces).strip()


def wrap_cue(text: str, lang: str, strict: bool = False) -> str:
    """``text`` (at most two lines' worth) on one or two lines, broken near the middle between words.

    >>> wrap_cue("Take the vector x = (2.6, 0.4, 1.8).", "en")
    'Take the vector x = (2.6, 0.4, 1.8).'
    >>> wrap_cue("Subtracting mu times ones leaves the zero-mean part, which lies on the plane.", "en")
    'Subtracting mu times ones leaves the\\nzero-mean part, which lies on the plane.'
    >>> wrap_cue("on the unit circle it becomes (3, 4) divided by 5, which is (0.6, 0.8).", "en")
    'on the unit circle it becomes (3, 4)\\ndivided by 5, which is (0.6, 0.8).'
    """
    limit = LINE_LENGTH[lang]
    if line_width(text, lang) <= limit:
        return text
    words = _words(text, lang)
    best = None
    for cut in range(1, len(words)):
        first, second = _join(words[:cut], lang), _join(words[cut:], lang)
        if line_width(first, lang) <= limit and line_width(second, lang) <= limit:
            # Balanced lines, a break after punctuation rather than inside a phrase, never inside a
            # bracket such as a vector (3, 4) if any other break fits.
            score = abs(line_width(first, lang) - line_width(second, lang)) - (10 if first[-1] in ",.;:—，。；：" else 0)
            score += 2 * _AWKWARD if _open_brackets(first) else 0
            score += _AWKWARD if second[:1] in _RELATIONS or first[-1:] in _RELATIONS else 0  # keep "ε = 0" whole
            score += _AWKWARD if second[:1] in "，。；：、）！？" else 0  # no Chinese line starts with a stop
            if best is None or score < best[0]:
                best = (score, first, second)
    if best is None or strict and best[0] >= _AWKWARD:
        raise ValueError(f"cannot wrap {text!r} into two lines of {limit}" + (" cleanly" if best else ""))
    return f"{best[1]}\n{best[2]}"


_RELATIONS = set("=≈<>≤≥→⊙∩+−·×/")
_AWKWARD = 500  # a break inside a bracket or beside a relation costs this much


def _fits(text: str, lang: str, strict: bool = True) -> bool:
    """``text`` fits one cue (two lines); ``strict``: without breaking inside a bracket or a relation."""
    try:
        wrap_cue(text, lang, strict)
        return True
    except ValueError:
        return False


def _open_brackets(text: str) -> int:
    """How many brackets opened in ``text`` are still open at its end."""
    return sum(text.count(o) - text.count(c) for o, c in ("()", "[]", "（）"))


def _split_units(text: str, pattern: re.Pattern) -> list[str]:
    """The pieces between the pattern's marks; a mark inside brackets (the comma of (3, 4)) does not cut.

    >>> _split_units("so x = (3, 4) goes to (0.6, 0.8), which is on the circle", _CLAUSE_END)
    ['so x = (3, 4) goes to (0.6, 0.8),', 'which is on the circle']
    """
    units: list[str] = []
    for part in pattern.split(text):
        if units and _open_brackets(units[-1]) > 0:
            # the split ate the space after a Latin or Cyrillic mark; a Chinese mark had none
            units[-1] += (" " if units[-1][-1:] in ".!?;:,—" else "") + part
        elif part.strip():
            units.append(part)
    return [unit for unit in units if unit.strip()]


def split_into_cues(text: str, lang: str) -> list[str]:
    """A narrated line as consecutive cues, each wrapped on at most two lines.

    >>> [c.replace("\\n", " / ") for c in split_into_cues("In one line: x goes to R times x divided by its length. "
    ...  "The direction does not change at all; only the length does.", "en")]
    ['In one line: x goes to R / times x divided by its length.', 'The direction does not change / at all; only the length does.']
    """
    text = " ".join(text.split()) if lang != "zh" else text.strip()
    if _fits(text, lang):
        return [wrap_cue(text, lang)]
    for pattern in (_SENTENCE_END, _CLAUSE_END):
        units = _split_units(text, pattern)
        if len(units) > 1:
            cues, current = [], ""
            for unit in units:
                candidate = _join([current, unit], lang) if current else unit.strip()
                if current and not _fits(candidate, lang):
                    cues.extend(split_into_cues(current, lang))
                    current = unit.strip()
                else:
                    current = candidate
            if current:
                cues.extend(split_into_cues(current, lang))
            return cues
    # One long clause: the fewest cues of about equal length, cut between words (cleanly if possible).
    words = _words(text, lang)
    for strict in (True, False):
        for count in range(2, len(words) + 1):
            target, cues, current = len(text) / count, [], []
            for word in words:
                if current and len(_join([*current, word], lang)) > target * 1.15 and len(cues) < count - 1:
                    cues.append(_join(current, lang))
                    current = []
                current.append(word)
            cues.append(_join(current, lang))
            if all(_fits(cue, lang, strict) for cue in cues):
                return [wrap_cue(cue, lang) for cue in cues]
    raise ValueError(f"cannot split {text!r} into cues")


def cue_times(cues: list[str], start: float, duration: float) -> list[tuple[float, float]]:
    """Consecutive (start, end) times sharing ``duration`` in proportion to each cue's length."""
    lengths = [max(1, len(cue.replace("\n", ""))) for cue in cues]
    total, times, moment = sum(lengths), [], start
    for length in lengths:
        end = moment + duration * length / total
        times.append((moment, end))
        moment = end
    return times
