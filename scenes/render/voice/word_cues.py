"""A narrated render's cues timed to its speech: each step's line is split into cues as a silent
render splits it (:func:`scenes.kit.captions.split_into_cues`), and each cue starts when its first
word is said (the step's speech start plus that word's time in the clip), ending when the next cue
starts or, for a step's last cue, when the step ends. Every word after a cue's first gets the time
it is said as a mark (WebVTT's cue timestamps).

Cues and words are matched by position in the line counted in non-space characters, which both the
cue splitter (cues are consecutive runs of the line's words) and the clip's words
(:func:`~.clip.text_words`) keep, in every language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scenes.kit.captions import split_into_cues
from scenes.render.voice.clip import Clip
from scenes.render.voice.timed_text import TimedCue

__all__ = ["spoken_cues", "step_cues"]


def _ms(seconds: float) -> int:
    return int(round(seconds * 1000))


def step_cues(line: str, lang: str, clip: Clip, speech_start: float, step_end: float) -> list[TimedCue]:
    """The cues of one step whose speech ``clip`` starts at ``speech_start`` (scene seconds).

    >>> from scenes.render.voice.clip import WordTime
    >>> import numpy as np
    >>> clip = Clip(np.zeros(10), 10, (WordTime("One.", 0.1, 0.3), WordTime("Two", 0.5, 0.6),
    ...                                WordTime("three.", 0.6, 0.9)), "alignment")
    >>> step_cues("One. Two three.", "en", clip, 2.0, 4.0)
    [TimedCue(start=2100, end=4000, text='One. Two three.', marks=((5, 2500), (9, 2600)))]
    """
    word_starts = _word_starts(clip)
    cues, position = [], 0
    for text in split_into_cues(line, lang):
        marks = []
        for at, character in enumerate(text):
            if character.isspace():
                continue
            if position in word_starts:
                marks.append((at, _ms(speech_start + word_starts[position])))
            position += 1
        if not marks:
            raise ValueError(f"no word of the clip begins in the cue {text!r}")
        cues.append(TimedCue(marks[0][1], 0, text, tuple(marks[1:])))
    if position != sum(len("".join(word.word.split())) for word in clip.words):
        raise ValueError(f"the cues of {line[:40]!r} do not cover the words that were said")
    ends = [cue.start for cue in cues[1:]] + [max(_ms(step_end), cues[-1].start)]
    return [TimedCue(cue.start, end, cue.text, cue.marks) for cue, end in zip(cues, ends, strict=True)]


def _word_starts(clip: Clip) -> dict[int, float]:
    """Position (in non-space characters) at which each word of the clip begins → its start time."""
    starts, position = {}, 0
    for word in clip.words:
        starts[position] = word.start
        position += len("".join(word.word.split()))
    return starts


def spoken_cues(steps: Sequence[Mapping], spoken: Sequence[tuple[str, float]], clips: Mapping[str, Clip],
                lang: str) -> list[TimedCue]:
    """All cues of a narrated scene: ``steps`` as the scene recorded them (key, text, start, end),
    ``spoken`` (step, when its speech starts) and each step's clip."""
    step_by_key = {step["key"]: step for step in steps}
    cues: list[TimedCue] = []
    for key, start in spoken:
        step = step_by_key[key]
        for cue in step_cues(step["text"], lang, clips[key], start, step["end"]):
            if cues and cues[-1].end > cue.start:  # a step's cues end where the next step's begin
                cues[-1] = TimedCue(cues[-1].start, cue.start, cues[-1].text, cues[-1].marks)
            cues.append(cue)
    return [cue for cue in cues if cue.end > cue.start]
