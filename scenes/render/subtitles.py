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
    """One SRT from (srt text, start offset in seconds) pairs, renumbered."""
    cues = []
    for text, offset in parts:
        shift = timedelta(seconds=offset)
        for cue in srt.parse(text):
            cues.append(srt.Subtitle(0, cue.start + shift, cue.end + shift, cue.content))
    return srt.compose(cues, reindex=True)


def write_vtt_beside(srt_path: Path) -> Path:
    """Write ``<name>.vtt`` next to ``<name>.srt``; return its path."""
    vtt = srt_path.with_suffix(".vtt")
    vtt.write_text(srt_to_vtt(srt_path.read_text(encoding="utf-8")), encoding="utf-8")
    return vtt
