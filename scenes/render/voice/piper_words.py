"""Word times from Piper's phoneme alignments.

In each sentence the phonemes between two ``' '`` phonemes are one spoken word, said from the first
of them to the end of the last (the sentence's start ``^``, end ``$``, punctuation and stress marks
are not part of a word). When those words pair one to one with the text's, each text word gets its
spoken word's time. eSpeak often joins short words ("of a" → ``əvə``, "does not" → ``dʌznˈɑːt``) or
reads one as several ("12" → "twelve"), so otherwise each text word takes, in order, as many of the
sentence's phonemes as eSpeak gives that word alone (scaled so that all are used): the time runs from
its first phoneme's start to its last one's end, and a word eSpeak does not read (a dash) has no
length, at the end of the word before it.
"""

from __future__ import annotations

from collections.abc import Sequence

from scenes.render.voice.clip import WordTime, text_words

__all__ = ["aligned_words", "phoneme_words", "spoken_phonemes", "NOT_SPOKEN"]

NOT_SPOKEN = frozenset("^$_ ,.;:!?¡¿—–-…\"'«»()ˈˌ")

Chunks = Sequence[tuple[int, Sequence[tuple[str, int]] | None]]


def spoken_phonemes(chunks: Chunks) -> list[tuple[int, int, bool]] | None:
    """(first sample, end sample, starts a word) of every spoken phoneme over the chunks, one after
    the other; None when a chunk has no alignment.

    >>> spoken_phonemes([(10, [("^", 1), ("h", 2), ("i", 2), (" ", 1), ("j", 3), (".", 1)])])
    [(1, 3, True), (3, 5, False), (6, 9, True)]
    """
    found: list[tuple[int, int, bool]] = []
    offset = 0
    for length, phonemes in chunks:
        if phonemes is None:
            return None
        position, new_word = offset, True
        for phoneme, samples in phonemes:
            if phoneme == " ":
                new_word = True
            elif phoneme not in NOT_SPOKEN:
                found.append((position, position + samples, new_word))
                new_word = False
            position += samples
        offset += length
    return found


def phoneme_words(chunks: Chunks) -> list[tuple[int, int]] | None:
    """(first sample, end sample) of every spoken word.

    >>> phoneme_words([(10, [("^", 1), ("h", 2), ("i", 2), (" ", 1), ("j", 3), (".", 1)])])
    [(1, 5), (6, 9)]
    """
    phonemes = spoken_phonemes(chunks)
    if phonemes is None:
        return None
    spans: list[list[int]] = []
    for start, end, new_word in phonemes:
        if new_word or not spans:
            spans.append([start, end])
        else:
            spans[-1][1] = end
    return [(start, end) for start, end in spans]


def aligned_words(text: str, chunks: Chunks, rate: int, word_phonemes: Sequence[int]) -> tuple[WordTime, ...] | None:
    """The words of ``text`` with their times (see the module's note); ``word_phonemes`` is how many
    spoken phonemes eSpeak gives each text word alone. None when there are no alignments.

    >>> chunks = [(10, [("^", 1), ("h", 2), ("i", 2), (";", 1), (" ", 1), ("j", 3), (".", 1)])]
    >>> [(w.word, w.start, w.end) for w in aligned_words("hi — you.", chunks, 10, [2, 0, 1])]
    [('hi', 0.1, 0.5), ('—', 0.5, 0.5), ('you.', 0.7, 1.0)]
    """
    words, phonemes, spans = text_words(text), spoken_phonemes(chunks), phoneme_words(chunks)
    if phonemes is None or spans is None or not words:
        return None
    total = sum(length for length, _ in chunks)
    if len(spans) != len(words):
        spans = _spread(phonemes, word_phonemes, len(words))
    return tuple(WordTime(word, min(start, total) / rate, min(end, total) / rate)
                 for word, (start, end) in zip(words, spans, strict=True))


def _spread(phonemes: list[tuple[int, int, bool]], counts: Sequence[int], words: int) -> list[tuple[int, int]]:
    """Each word's span when word ``i`` takes ``counts[i]`` of the phonemes, in order, scaled to all."""
    if len(counts) != words or sum(counts) == 0 or not phonemes:
        counts = [1] * words
    scale, spans, used, last_end = len(phonemes) / sum(counts), [], 0.0, phonemes[0][0]
    for count in counts:
        first, used = round(used), used + count * scale
        last = round(used)
        if last > first:
            last_end = phonemes[last - 1][1]
            spans.append((phonemes[first][0], last_end))
        else:
            spans.append((last_end, last_end))
    return spans
