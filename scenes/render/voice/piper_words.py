"""Word times from Piper's phoneme alignments.

In each sentence the phonemes between two ``' '`` phonemes are one spoken word, said from the first
of them to the end of the last (the sentence's start ``^``, end ``$``, punctuation and stress marks
are not part of a word). When those words pair one to one with the text's, each text word gets its
spoken word's time. eSpeak often joins short words ("of a" → ``əvə``, "does not" → ``dʌznˈɑːt``) or
reads one as several ("12" → "twelve"), so otherwise each text word takes, in order, as many of the
phonemes as eSpeak gives that word alone (scaled so that all are used): the time runs from
its first phoneme's start to its last one's end, and a word eSpeak does not read (a dash) has no
length, at the end of the word before it. Which text words were read as which spoken words is
found first (blocks of one to several, by least difference in phoneme counts), so that the share-out
stays within a block and a pause between spoken words stays between text words.
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
    words, phonemes = text_words(text), spoken_phonemes(chunks)
    if phonemes is None or not words or not phonemes:
        return None
    counts = list(word_phonemes) if len(word_phonemes) == len(words) else [len(word) for word in words]
    groups = _groups(phonemes)
    spans: list[tuple[int, int]] = []
    for (first_word, last_word), (first_group, last_group) in _pair_blocks(counts, [len(g) for g in groups]):
        block = [phoneme for group in groups[first_group:last_group] for phoneme in group]
        spans += _spread(block, counts[first_word:last_word], spans[-1][1] if spans else block[0][0])
    total = sum(length for length, _ in chunks)
    return tuple(WordTime(word, min(start, total) / rate, min(end, total) / rate)
                 for word, (start, end) in zip(words, spans, strict=True))


def _groups(phonemes: list[tuple[int, int, bool]]) -> list[list[tuple[int, int, bool]]]:
    groups: list[list[tuple[int, int, bool]]] = []
    for phoneme in phonemes:
        if phoneme[2] or not groups:
            groups.append([])
        groups[-1].append(phoneme)
    return groups


_BLOCK = 4  # at most this many words read as one, or one word read as this many


def _pair_blocks(counts: list[int], sizes: list[int]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Consecutive text words paired with consecutive spoken words, in blocks of one to many or many
    to one, with the least total difference between their phoneme counts (dynamic programming).

    >>> _pair_blocks([2, 2, 1, 3], [2, 3, 3])  # "of a" read as one word
    [((0, 1), (0, 1)), ((1, 3), (1, 2)), ((3, 4), (2, 3))]
    """
    words, spoken, inf = len(counts), len(sizes), float("inf")
    cost = [[inf] * (spoken + 1) for _ in range(words + 1)]
    back: list[list[tuple[int, int] | None]] = [[None] * (spoken + 1) for _ in range(words + 1)]
    cost[0][0] = 0.0
    for i in range(words + 1):
        for j in range(spoken + 1):
            if cost[i][j] == inf:
                continue
            for a, b in [(1, 1), *((n, 1) for n in range(2, _BLOCK + 1)), *((1, n) for n in range(2, _BLOCK + 1))]:
                if i + a <= words and j + b <= spoken:
                    step = abs(sum(counts[i:i + a]) - sum(sizes[j:j + b])) + 0.5 * (a + b - 2)
                    if cost[i][j] + step < cost[i + a][j + b]:
                        cost[i + a][j + b], back[i + a][j + b] = cost[i][j] + step, (i, j)
    if cost[words][spoken] == inf:  # more than _BLOCK to one somewhere: one block for all
        return [((0, words), (0, spoken))]
    blocks, at = [], (words, spoken)
    while at != (0, 0):
        before = back[at[0]][at[1]]
        blocks.append(((before[0], at[0]), (before[1], at[1])))
        at = before
    return blocks[::-1]


def _spread(phonemes: list[tuple[int, int, bool]], counts: Sequence[int], last_end: int) -> list[tuple[int, int]]:
    """Each word's span when word ``i`` takes ``counts[i]`` of the phonemes, in order, scaled to all
    (a word with none has no length, at the end of the one before)."""
    if sum(counts) == 0:
        counts = [1] * len(counts)
    scale, spans, used = len(phonemes) / sum(counts), [], 0.0
    for count in counts:
        first, used = round(used), used + count * scale
        last = round(used)
        if last > first:
            last_end = phonemes[last - 1][1]
            spans.append((phonemes[first][0], last_end))
        else:
            spans.append((last_end, last_end))
    return spans
