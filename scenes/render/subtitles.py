"""Subtitles: SRT from Manim's subcaptions, WebVTT for browsers, and joining several files."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import srt

__all__ = ["srt_to_vtt", "join_subtitles", "write_vtt_beside"]


def srt_to_vtt(text: str) -> str:
    """WebVTT with the same cues (browsers' <track> needs VTT).

    >>> srt_to_vtt("1\\n00:00:00,000 --> 00:00:01,500\\nHello\\n")
    'WEBVTT\\n\\n1\\n00:00:00.000 --> 00:00:01.500\\nHello\\n'
    """
    cues = list(srt.parse(text))
    lines = ["WEBVTT", ""]
    for cue in cues:
        lines += [str(cue.index), f"{_vtt_time(cue.start)} --> {_vtt_time(cue.end)}", cue.content, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def _vtt_time(moment: timedelta) -> str:
    total_ms = int(round(moment.total_seconds() * 1000))
    hours, rest = divmod(total_ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, ms = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}.{ms:03d}"


def join_subtitles(parts: list[tuple[str, float]]) -> str:
    """One SRT from (srt text, start offset in seconds) pairs, renumbered, in time order. Times are
    rounded to whole milliseconds (what SRT keeps) and each cue ends at the latest when the next
    one starts, so that cues never overlap even where a part's last cue outlasts its video by a
    fraction of a frame; a cue left with no time is dropped.

    >>> print(join_subtitles([("1\\n00:00:00,000 --> 00:00:02,0004\\nA\\n", 0.0),
    ...                       ("1\\n00:00:00,000 --> 00:00:01,000\\nB\\n", 1.9995)]).strip())
    1
    00:00:00,000 --> 00:00:02,000
    A
    <BLANKLINE>
    2
    00:00:02,000 --> 00:00:03,000
    B
    """
    timed = []
    for text, offset in parts:
        for cue in srt.parse(text):
            start = round((cue.start.total_seconds() + offset) * 1000)
            end = round((cue.end.total_seconds() + offset) * 1000)
            timed.append((start, end, cue.content))
    timed.sort(key=lambda cue: cue[0])
    cues = []
    for index, (start, end, content) in enumerate(timed):
        if index + 1 < len(timed):
            end = min(end, timed[index + 1][0])
        if end > start:
            cues.append(srt.Subtitle(0, timedelta(milliseconds=start), timedelta(milliseconds=end), content))
    return srt.compose(cues, reindex=True)


def write_vtt_beside(srt_path: Path) -> Path:
    """Write ``<name>.vtt`` next to ``<name>.srt``; return its path."""
    vtt = srt_path.with_suffix(".vtt")
    vtt.write_text(srt_to_vtt(srt_path.read_text(encoding="utf-8")), encoding="utf-8")
    return vtt
