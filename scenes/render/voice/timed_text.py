"""Subtitle cues with word times, written as SRT (cue times) and WebVTT (cue times and, inside each
cue, a ``<hh:mm:ss.mmm>`` timestamp before every word after the first, for karaoke-style
highlighting), parsed back, shifted and joined (the lecture).

Times are whole milliseconds. A cue ends at the latest when the next one starts; a word timestamp
lies strictly after the cue's start and the timestamp before it, and before the cue's end (a word
whose time would break that, e.g. one eSpeak does not say, is highlighted with the word before it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import timedelta

import srt

__all__ = ["TimedCue", "compose_srt", "compose_vtt", "parse_vtt", "join_timed", "vtt_time"]


@dataclass(frozen=True)
class TimedCue:
    """A cue from ``start`` to ``end`` (ms) showing ``text`` (lines split by ``\\n``); ``marks`` are
    (character index in ``text``, ms) where a word begins, in order."""

    start: int
    end: int
    text: str
    marks: tuple[tuple[int, int], ...] = ()

    def shifted(self, ms: int) -> TimedCue:
        return TimedCue(self.start + ms, self.end + ms, self.text, tuple((at, t + ms) for at, t in self.marks))

    def valid_marks(self) -> tuple[tuple[int, int], ...]:
        """The marks a WebVTT reader accepts: after the start and the mark before, before the end."""
        kept, last = [], self.start
        for at, moment in self.marks:
            if 0 < at < len(self.text) and last < moment < self.end:
                kept.append((at, moment))
                last = moment
        return tuple(kept)


def vtt_time(ms: int) -> str:
    """``hh:mm:ss.mmm``.

    >>> vtt_time(3_723_004)
    '01:02:03.004'
    """
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, milliseconds = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}.{milliseconds:03d}"


def compose_srt(cues: list[TimedCue]) -> str:
    """SRT with the cues' times and text (no word times: SRT has none)."""
    return srt.compose([srt.Subtitle(0, timedelta(milliseconds=cue.start), timedelta(milliseconds=cue.end), cue.text)
                        for cue in cues], reindex=True)


def compose_vtt(cues: list[TimedCue]) -> str:
    """WebVTT with a timestamp before each word after a cue's first.

    >>> print(compose_vtt([TimedCue(1000, 2500, "Take the\\nvector.", ((5, 1400), (9, 1800)))]).strip())
    WEBVTT
    <BLANKLINE>
    1
    00:00:01.000 --> 00:00:02.500
    Take <00:00:01.400>the
    <00:00:01.800>vector.
    """
    lines = ["WEBVTT", ""]
    for number, cue in enumerate(cues, start=1):
        text, cut = [], 0
        for at, moment in cue.valid_marks():
            text += [cue.text[cut:at], f"<{vtt_time(moment)}>"]
            cut = at
        text.append(cue.text[cut:])
        lines += [str(number), f"{vtt_time(cue.start)} --> {vtt_time(cue.end)}", "".join(text), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


_TIME = r"(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})"
_TIMING = re.compile(rf"^{_TIME}\s+-->\s+{_TIME}")
_MARK = re.compile(rf"<{_TIME}>")


def _ms(hours: str | None, minutes: str, seconds: str, milliseconds: str) -> int:
    return ((int(hours or 0) * 60 + int(minutes)) * 60 + int(seconds)) * 1000 + int(milliseconds)


def parse_vtt(text: str) -> list[TimedCue]:
    """The cues of a WebVTT file (as :func:`compose_vtt` writes them), with their word timestamps.

    >>> parse_vtt(compose_vtt([TimedCue(0, 900, "a b", ((2, 400),))]))
    [TimedCue(start=0, end=900, text='a b', marks=((2, 400),))]
    """
    cues = []
    for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n").strip()):
        lines = block.split("\n")
        timing = next((i for i, line in enumerate(lines) if "-->" in line), None)
        if timing is None:
            continue
        found = _TIMING.match(lines[timing].strip())
        if found is None:
            raise ValueError(f"not a WebVTT timing line: {lines[timing]!r}")
        payload, plain, marks, cut = "\n".join(lines[timing + 1:]), [], [], 0
        for mark in _MARK.finditer(payload):
            plain.append(payload[cut:mark.start()])
            marks.append((sum(len(piece) for piece in plain), _ms(*mark.groups())))
            cut = mark.end()
        plain.append(payload[cut:])
        cues.append(TimedCue(_ms(*found.groups()[:4]), _ms(*found.groups()[4:]), "".join(plain), tuple(marks)))
    return cues


def join_timed(parts: list[tuple[list[TimedCue], float]]) -> list[TimedCue]:
    """The cues of every (cues, offset in seconds) part shifted by it, in time order; each cue ends
    at the latest when the next one starts, and a cue left with no time is dropped (the rule of
    :func:`scenes.render.subtitles.join_subtitles`, so the joined SRT and WebVTT agree)."""
    timed = sorted((cue.shifted(round(offset * 1000)) for cues, offset in parts for cue in cues),
                   key=lambda cue: cue.start)
    joined = []
    for index, cue in enumerate(timed):
        if index + 1 < len(timed):
            cue = replace(cue, end=min(cue.end, timed[index + 1].start))
        if cue.end > cue.start:
            joined.append(cue)
    return joined
