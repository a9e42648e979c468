"""Subtitle cues as broadcasters set them: at most two lines of about 42 characters (16 for Chinese),
each on screen long enough to read. A narrated step longer than one cue becomes several consecutive
cues, split at sentence ends first, then at clause marks, then between words. Lines and cues
break only between words (Chinese words as jieba segments them), and only where an editor would:

* never inside brackets or quotes that fit on a line, so a vector such as (3, 4) or (−0,92; −1,11)
  stays on one line;
* never beside "=" (or ≈, ≤, ≥, ≠, <, >, →): "B = 2" is one piece;
* never inside or after "et al." (nor "e.g.", "i.e.", "и др.", "т. е."), and its full stop ends no
  sentence: "Zhu et al. (2025) saw" stays together;
* a punctuation mark, a closing bracket or quote, or (in Chinese) a particle such as 的 never
  starts a line, and an opening bracket or quote never ends one;
* Russian: never after a preposition (при, для, без, под, над, про, ради, через, перед, между,
  вдоль, в, к, с, о, у, на, по, за, из, от, до, …), «не» or a one-letter word, nor between a
  number and the word after it ("5 шагов", "в 2,6 раза");
* Chinese: never after 的 (nor before it), nor between a numeral and its measure word or noun
  ("3 个", "第 2 次"), nor inside a word;
* a short clause (under half a line) beside ":" or ";" is never a cue of its own: neither one that
  leads ("Значит:") nor one that follows ("…: это массивная норма."); with its neighbour, too long
  for one cue together, it is cut between words. At clause level (",", "—") a short leading clause
  is kept with the next the same way.

Each rule is a glue between two words: the words of a glued run stay on one line where the run fits
on one (a run longer than a line, such as a long parenthesis, breaks between its words).
"""

from __future__ import annotations

import functools
import logging
import re

import jieba

from scenes.kit.glossary import glossary

__all__ = ["LINE_LENGTH", "READING_SPEED", "reading_seconds", "split_into_cues", "wrap_cue", "cue_times", "line_width"]

# Characters per subtitle line (Netflix's timed-text style guides: 42 Latin/Cyrillic, 16 Chinese).
LINE_LENGTH = {"en": 42, "ru": 42, "zh": 16}
# Reading speed in characters per second (adult programmes: ~17–20 Latin/Cyrillic, ~7.5–9 Chinese).
READING_SPEED = {"en": 19.0, "ru": 18.0, "zh": 7.5}

# Abbreviations whose full stop ends no sentence and after which no line breaks.
_ABBREVIATIONS = ("et al.", "e.g.", "i.e.", "и др.", "т. е.", "т. д.")
_ABBREVIATION_PARTS = frozenset(part for a in _ABBREVIATIONS for part in a.split(" "))
_NOT_AFTER_ABBREVIATION = "".join(f"(?<!{re.escape(a)})" for a in _ABBREVIATIONS)
_OPENING, _CLOSING = "([{（【《「『“«", ")]}）】》」』”»"
# Latin and Cyrillic punctuation ends a unit only before a space (so 2.6 stays whole), and not after
# an abbreviation; Chinese ends it at once, unless a closing quote or bracket follows.
_SENTENCE_END = re.compile(rf"(?<=[.!?;:]){_NOT_AFTER_ABBREVIATION}\s+|(?<=[。！？；：])(?![{re.escape(_CLOSING)}])")
_CLAUSE_END = re.compile(rf"(?<=[,—])\s+|(?<=[，、])(?![{re.escape(_CLOSING)}])")
# Relations a line never breaks beside: "B = 2", "η < 2/L", "x ↦ x̂".
_RELATIONS = frozenset("=≈≤≥≠<>→↦")
# Chinese particles that lean on the word before them: a line never starts with one.
_PARTICLES = frozenset(("的", "了", "着", "吗", "呢", "吧"))
# Russian typesetting keeps a preposition, a one- or two-letter conjunction or particle with the word after it.
_RUSSIAN_PREPOSITIONS = frozenset(["при", "для", "без", "безо", "под", "подо", "над", "надо", "про", "ради", "через",
                                   "перед", "передо", "между", "вдоль", "обо", "ото", "изо", "около", "после", "кроме",
                                   "среди", "вокруг", "против"])
_RUSSIAN_ONE_LETTER = frozenset([*"авиксуоя", "во", "со", "ко", "не", "ни", "на", "по", "до", "от", "из", "за", "об"])
_RUSSIAN_GLUED = _RUSSIAN_ONE_LETTER | _RUSSIAN_PREPOSITIONS
# A number as written (−1 000,5; 2.6; 10⁻⁵; 4,14·10⁹), ending in a digit: not "5," (that ends a clause).
_NUMBER = re.compile(r"[−-]?\d(?:[\d.,\u00a0\u202f·⁻⁰¹²³⁴⁵⁶⁷⁸⁹]*[\d⁰¹²³⁴⁵⁶⁷⁸⁹])?")
# Chinese numerals, and the ordinal prefix 第, lean on the measure word or noun after them.
_CHINESE_NUMERAL = re.compile(r"[零〇一二两三四五六七八九十百千万亿几半]+|第")


def reading_seconds(text: str, lang: str) -> float:
    """Seconds a viewer needs to read ``text`` as a subtitle (at least one second)."""
    return max(1.0, len(text.replace("\n", "")) / READING_SPEED[lang])


_CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_CJK_RUN = re.compile(f"[{_CJK}]+|[^{_CJK}]+")
_NO_LINE_START = "，。、；：！？…,.;:!?%—" + _CLOSING
jieba.setLogLevel(logging.WARNING)
# jieba's own dictionary splits 等人 ("Zhu 等" / "人观察到"), 可学习 and the glossary's terms (黑塞 / 矩阵):
# a tokenizer of our own knows them as words (the glossary's Chinese names, and a few more).
_EXTRA_WORDS = ("等人", "落在", "快于", "可学习", "黑塞矩阵", "最小二乘", "梯度下降", "反向传播", "测试序列", "时间步")


@functools.cache
def _segmenter() -> jieba.Tokenizer:
    tokenizer = jieba.Tokenizer()
    names = (concept.names.get("zh", "") for concept in glossary().values())
    words = {w for name in names for w in re.split(r"[^\u4e00-\u9fff]+", name) if len(w) >= 2}
    for word in sorted(words | set(_EXTRA_WORDS)):
        tokenizer.add_word(word, freq=10**6)
    return tokenizer


def line_width(text: str, lang: str) -> float:
    """A line's width in characters; in Chinese a Latin letter, digit or space counts half."""
    if lang != "zh":
        return len(text)
    wide = len(_CJK_CHAR.findall(text))
    return wide + (len(text) - wide) / 2


def _depth_change(text: str) -> int:
    return sum(text.count(c) for c in _OPENING) - sum(text.count(c) for c in _CLOSING)


def _keep_brackets_whole(words: list[str], joiner: str, lang: str) -> list[str]:
    """Words inside brackets merged into one word with the bracket's own, where the whole fits on
    one line (a longer parenthesis, a remark rather than a vector, breaks between its words)."""
    groups: list[list[str]] = []
    depth = 0
    for word in words:
        if depth > 0:
            groups[-1].append(word)
        else:
            groups.append([word])
        depth = max(0, depth + _depth_change(word))
    merged = []
    for group in groups:
        whole = joiner.join(group)
        fits = line_width(whole.strip(), lang) <= LINE_LENGTH[lang] and _depth_change(whole) == 0
        merged += [whole] if fits else group
    return merged


def _glued_to_next(word: str, lang: str) -> bool:
    """No break after ``word``: an opening bracket or quote, a relation, an abbreviation (et al.) or
    its first part; in Russian a preposition, «не» or a one-letter word (a line never ends with «в»,
    «и» or «для»); in Chinese 的 (an attribute stays with its noun)."""
    bare = word.strip()
    return bool(bare) and (bare[-1] in _OPENING or bare in _RELATIONS or bare[-1] in _RELATIONS
                           or bare.rstrip(",;:") in _ABBREVIATION_PARTS
                           or (lang == "ru" and bare.lower() in _RUSSIAN_GLUED)
                           or (lang == "zh" and bare.endswith("的") and bare != "目的"))


def _number_and_its_word(word: str, following: str, lang: str) -> bool:
    """No break between a number and the word it counts: "5 шагов", "в 2,6 раза"; Chinese "3 个",
    "两个", "第 2 次" (a numeral before its measure word or noun)."""
    bare, after = word.strip(), following.strip()
    if not bare or not after:
        return False
    if lang == "ru":
        return bool(_NUMBER.fullmatch(bare)) and after[0].isalpha() and after.lower() not in _RUSSIAN_GLUED
    if lang == "zh":
        numeral = _NUMBER.fullmatch(bare) or _CHINESE_NUMERAL.fullmatch(bare)
        return bool(numeral) and bool(_CJK_CHAR.match(after[0]) or after[0].isdigit())
    return False


def _glued_to_previous(word: str, lang: str) -> bool:
    """No break before ``word``: a relation, a closing mark, or a Chinese particle."""
    bare = word.strip()
    return bool(bare) and (bare[0] in _RELATIONS or bare[0] in _NO_LINE_START
                           or (lang == "zh" and bare in _PARTICLES))


def _keep_glued_words_together(words: list[str], joiner: str, lang: str) -> list[str]:
    """Words with no break allowed between them (``_glued_to_next``/``_glued_to_previous``) merged
    into one, where the whole fits on one line (else they stay apart, as a long remark does)."""
    runs: list[list[str]] = []
    for word in words:
        if runs and (_glued_to_next(runs[-1][-1], lang) or _glued_to_previous(word, lang)
                     or _number_and_its_word(runs[-1][-1], word, lang)):
            runs[-1].append(word)
        else:
            runs.append([word])
    merged = []
    for run in runs:
        whole = joiner.join(run)
        merged += [whole] if line_width(whole.strip(), lang) <= LINE_LENGTH[lang] else run
    return merged


def _chinese_words(text: str) -> list[str]:
    """Chinese runs segmented by jieba, other runs (RMSNorm, √3, 1.732, x = …) split at spaces,
    spaces and punctuation kept with the word before them: ``"".join(words) == text``."""
    pieces = []
    for run in _CJK_RUN.findall(text):
        pieces += _segmenter().lcut(run) if _CJK_CHAR.match(run) else re.findall(r"\s+|\S+\s*", run)
    words = []
    for piece in pieces:
        if words and (piece.isspace() or piece[0] in _NO_LINE_START):
            words[-1] += piece
        else:
            words.append(piece)
    return words


def _words(text: str, lang: str) -> list[str]:
    """The pieces a line may break between."""
    if lang == "zh":
        return _keep_glued_words_together(_keep_brackets_whole(_chinese_words(text), "", lang), "", lang)
    return _keep_glued_words_together(_keep_brackets_whole(text.split(" "), " ", lang), " ", lang)


def _join(pieces: list[str], lang: str) -> str:
    return ("" if lang == "zh" else " ").join(pieces).strip()


def wrap_cue(text: str, lang: str) -> str:
    """``text`` (at most two lines' worth) on one or two lines, broken near the middle between words.

    >>> wrap_cue("Take the vector x = (2.6, 0.4, 1.8).", "en")
    'Take the vector x = (2.6, 0.4, 1.8).'
    >>> wrap_cue("Subtracting mu times ones leaves the zero-mean part, which lies on the plane.", "en")
    'Subtracting mu times ones leaves the\\nzero-mean part, which lies on the plane.'
    """
    limit = LINE_LENGTH[lang]
    if line_width(text, lang) <= limit:
        return text
    words = _words(text, lang)
    best = None
    for cut in range(1, len(words)):
        first, second = _join(words[:cut], lang), _join(words[cut:], lang)
        if line_width(first, lang) <= limit and line_width(second, lang) <= limit:
            # Balanced lines, and a break after punctuation rather than inside a phrase.
            score = abs(line_width(first, lang) - line_width(second, lang)) - (10 if first[-1] in ",.;:—，。；：" else 0)
            if best is None or score < best[0]:
                best = (score, first, second)
    if best is None:
        raise ValueError(f"cannot wrap {text!r} into two lines of {limit}")
    return f"{best[1]}\n{best[2]}"


def _fits(text: str, lang: str) -> bool:
    try:
        wrap_cue(text, lang)
        return True
    except ValueError:
        return False


def _split_units(text: str, pattern: re.Pattern) -> list[str]:
    """``text`` split where ``pattern`` matches outside brackets."""
    parts, start = [], 0
    for match in pattern.finditer(text):
        if match.end() > start and _depth_change(text[:match.start()]) <= 0:
            parts.append(text[start:match.start()])
            start = match.end()
    parts.append(text[start:])
    return [part for part in parts if part.strip()]


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
            return _pack_units(units, lang, short_clauses_lead=pattern is _CLAUSE_END)
    return _cues_between_words(text, lang)


def _short(unit: str, lang: str) -> bool:
    """A clause too short to stand as a cue of its own: under half a line."""
    return line_width(unit.strip(), lang) < LINE_LENGTH[lang] / 2


def _ends_with_colon(unit: str) -> bool:
    return unit.rstrip()[-1:] in (":", ";", "：", "；")


def _pack_units(units: list[str], lang: str, short_clauses_lead: bool) -> list[str]:
    """Consecutive units (sentences or clauses) packed greedily into cues. A short clause is never
    left as a cue of its own where it leads ("With the noise,", "Значит,"; at sentence level one
    ending in ":" or ";") or follows ":" or ";" ("…: это массивная норма."): with its neighbour,
    too long for one cue together, it is cut between words."""
    groups: list[tuple[list[str], bool]] = []  # (units, cut between words)
    for unit in units:
        unit = unit.strip()
        if groups and not groups[-1][1] and _fits(_join([*groups[-1][0], unit], lang), lang):
            groups[-1][0].append(unit)
        elif (groups and len(groups[-1][0]) == 1 and not groups[-1][1] and _short(groups[-1][0][0], lang)
              and (short_clauses_lead or _ends_with_colon(groups[-1][0][0]))):
            groups[-1] = ([groups[-1][0][0], unit], True)
        else:
            groups.append(([unit], False))
    for index in range(1, len(groups)):
        orphan, before = groups[index][0], groups[index - 1][0]
        if (len(orphan) == 1 and not groups[index][1] and _short(orphan[0], lang) and len(before) > 0
                and _ends_with_colon(before[-1])):
            if groups[index - 1][1]:  # the clause before is already cut with its own short lead
                groups[index - 1], groups[index] = ([*before, *orphan], True), ([], False)
                continue
            pair = [before.pop(), orphan[0]]
            groups[index] = (pair, not _fits(_join(pair, lang), lang))
    cues = []
    for group, by_words in groups:
        if group:
            text = _join(group, lang)
            cues.extend(_cues_between_words(text, lang) if by_words else split_into_cues(text, lang))
    return cues


def _cues_between_words(text: str, lang: str) -> list[str]:
    """One long clause: the fewest cues of about equal length, cut between words (two cues: the
    most even cut, preferring one after punctuation and not between a number and its noun)."""
    words = _words(text, lang)
    two = []
    for cut in range(1, len(words)):
        first, second = _join(words[:cut], lang), _join(words[cut:], lang)
        if _fits(first, lang) and _fits(second, lang):
            score = (abs(line_width(first, lang) - line_width(second, lang)) - (10 if first[-1] in ",;:—，；：" else 0)
                     + (8 if first[-1].isdigit() else 0))
            two.append((score, cut, first, second))
    if two:
        _, _, first, second = min(two)
        return [wrap_cue(first, lang), wrap_cue(second, lang)]
    for count in range(3, len(words) + 1):
        target, cues, current = len(text) / count, [], []
        for word in words:
            if current and len(_join([*current, word], lang)) > target * 1.15 and len(cues) < count - 1:
                cues.append(_join(current, lang))
                current = []
            current.append(word)
        cues.append(_join(current, lang))
        if all(_fits(cue, lang) for cue in cues):
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
