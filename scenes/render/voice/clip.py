"""A spoken clip: mono float samples in [-1, 1] at a rate, and when each word of its text is said.

Word times come from the synthesizer where it gives them (Piper's phoneme alignments, Festival's
segment times), otherwise from the clip's voiced span split among the words by their lengths in
characters (:func:`words_by_characters`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

__all__ = ["Clip", "WordTime", "SpeechError", "words_by_characters", "voiced_span", "text_words"]


class SpeechError(RuntimeError):
    """Speech could not be made (the synthesizer died or failed, a recording did not decode): that
    render fails, the others go on."""


@dataclass(frozen=True)
class WordTime:
    """One word of the text and the seconds (from the clip's start) when it is said."""

    word: str
    start: float
    end: float


@dataclass(frozen=True, eq=False)
class Clip:
    """Speech: ``samples`` (float32, mono, in [-1, 1]) at ``rate`` Hz, its words' times, and where
    those came from (``"alignment"``: Piper's, ``"segments"``: Festival's, or ``"characters"``)."""

    samples: np.ndarray
    rate: int
    words: tuple[WordTime, ...]
    words_from: str

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.rate

    def with_samples(self, samples: np.ndarray) -> Clip:
        """The same words, other samples of the same length (e.g. after a gain)."""
        return Clip(np.asarray(samples, dtype=np.float32), self.rate, self.words, self.words_from)


def voiced_span(samples: np.ndarray, rate: int, threshold_db: float = -40.0) -> tuple[float, float]:
    """Seconds from the first to the last 10 ms window whose RMS is within ``threshold_db`` of the
    loudest window (the whole clip when none is)."""
    window = max(1, rate // 100)
    count = len(samples) // window
    if count == 0:
        return 0.0, len(samples) / rate
    rms = np.sqrt(np.mean(np.square(samples[: count * window].reshape(count, window), dtype=np.float64), axis=1))
    loud = np.flatnonzero(rms >= rms.max() * 10 ** (threshold_db / 20)) if rms.max() > 0 else np.array([], int)
    if len(loud) == 0:
        return 0.0, len(samples) / rate
    return loud[0] * window / rate, min(len(samples), (loud[-1] + 1) * window) / rate


_HAN = "\u3400-\u9fff\uf900-\ufaff"
# a Han character is a word of its own (with the punctuation after it); elsewhere words end at spaces
_WORD = re.compile(f"[{_HAN}][^\\s{_HAN}\\w]*|[^\\s{_HAN}]+")


def text_words(text: str) -> list[str]:
    """The words of ``text``: runs between spaces, each Han character on its own.

    >>> text_words("x + y = 0."), text_words("二维时，直线")
    (['x', '+', 'y', '=', '0.'], ['二', '维', '时，', '直', '线'])
    """
    return _WORD.findall(text)


def words_by_characters(text: str, start: float, end: float) -> tuple[WordTime, ...]:
    """The words of ``text`` spread over [start, end] in proportion to their lengths in characters
    (a space counts as one), for speech with no alignment.

    >>> [(w.word, w.start, w.end) for w in words_by_characters("ab c", 0.0, 4.0)]
    [('ab', 0.0, 2.0), ('c', 3.0, 4.0)]
    """
    words = text_words(text)
    if not words:
        return ()
    total = sum(len(word) for word in words) + len(words) - 1
    per_character = (end - start) / total
    times, position = [], 0
    for word in words:
        begin = start + position * per_character
        times.append(WordTime(word, begin, begin + len(word) * per_character))
        position += len(word) + 1
    return tuple(times)
