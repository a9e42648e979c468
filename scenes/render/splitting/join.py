"""Joining the parts of a split render on the client: every run of every part in the order of its
animations, each animation once, with the subtitles and steps offset and clipped as the narration
clips them (see :mod:`.part`); a voiced render's clips on one sound track over the joined video."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import srt

from scenes.render.media.video import concatenate
from scenes.render.running.job import Produced, RenderJob
from scenes.render.splitting.contract import PartResult, Run
from scenes.render.splitting.part import EPS
from scenes.render.subtitles import srt_to_vtt
from scenes.render.voice.choice import parse_voice
from scenes.render.voice.clip import Clip
from scenes.render.voice.timed_text import compose_srt, compose_vtt
from scenes.render.voice.voiced_video import voice_video

__all__ = ["join_parts"]


@dataclass
class _Clock:
    """The runs' records on the joined video's clock: its length, the cues as asked, the steps
    (clipped), and each voiced step's speech start and clip."""

    total: float
    cues: list[tuple[float, float, float, str]]
    steps: list[dict]
    spoken: list[tuple[str, float]]
    clips: dict[str, Clip]


def join_parts(job: RenderJob, parts: list[PartResult]) -> Produced:
    """The parts of ``job`` as one video with its subtitles and narrated steps, in the shape
    :func:`scenes.render.running.produce.produce` returns: every run of every part, in the order of their
    animations, each animation exactly once; a voiced job's clips laid on one sound track over the
    joined video, its cues timed to the words. Runs on the client."""
    scratch = Path(tempfile.mkdtemp(prefix="normgeo-join-"))
    try:
        runs = _in_order(parts)
        suffix = parts[0].suffix
        paths = []
        for run in runs:
            path = scratch / f"run{run.first}{suffix}"
            path.write_bytes(run.video)
            paths.append(path)
        joined = scratch / f"joined{suffix}"
        concatenate(paths, joined)
        clock = _on_one_clock(runs)
        steps = [{"key": s["key"], "text": s["text"], "start": round(s["start"], 3), "end": round(s["end"], 3)}
                 for s in clock.steps]
        extra = {"steps": steps, "split_parts": len(parts)}
        srt_name = Path(job.relative_path).with_suffix(".srt")
        if job.settings_for_output.narrated:
            if len(clock.clips) != len(clock.spoken):
                raise RuntimeError("the parts narrated a step twice")
            voiced = voice_video(joined, clock.total, steps, clock.spoken, clock.clips, job.spec.lang,
                                 parse_voice(job.settings_for_output.voice).identity, scratch / f"voiced{suffix}")
            files = {job.relative_path: voiced.path.read_bytes()}
            if voiced.cues:
                files[str(srt_name)] = compose_srt(voiced.cues).encode("utf-8")
                files[str(srt_name.with_suffix(".vtt"))] = compose_vtt(voiced.cues).encode("utf-8")
            extra |= voiced.extra
        else:
            files = {job.relative_path: joined.read_bytes()}
            if subtitles := _silent_subtitles(clock):
                files[str(srt_name)] = subtitles.encode("utf-8")
                files[str(srt_name.with_suffix(".vtt"))] = srt_to_vtt(subtitles).encode("utf-8")
        workers = sorted({part.worker for part in parts})
        return Produced(files, clock.total, extra, sum(part.seconds for part in parts), ", ".join(workers))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _in_order(parts: list[PartResult]) -> list[Run]:
    """Every run of ``parts`` by its first animation; an error unless each animation is in one."""
    runs = sorted((run for part in parts for run in part.runs), key=lambda run: run.first)
    expected = 0
    for run in runs:  # every animation once, in order, up to the scene's end
        if run.first < expected:
            raise RuntimeError(f"the parts rendered animations {run.first}–{expected - 1} twice")
        if run.first > expected:
            raise RuntimeError(f"the parts rendered animations {expected}–{run.first - 1} nowhere")
        expected = run.last + 1
    if not runs[-1].to_the_end:
        raise RuntimeError(f"the parts rendered nothing after animation {expected - 1}, before the scene's end")
    return runs


def _on_one_clock(runs: list[Run]) -> _Clock:
    """The runs' records offset by each run's start in the joined video, on the scene's clock
    (whole frames, as an unsplit render counts them; not the containers' timestamps, which are
    rounded to their time base); each step ends when the next begins, nothing outlasts the scene."""
    offsets = [sum(run.duration for run in runs[:number]) for number in range(len(runs))]
    clock = _Clock(sum(run.duration for run in runs), [], [], [], {})
    for offset, run in zip(offsets, runs):
        clock.cues += [(offset + at, offset + start, offset + stop, text) for at, start, stop, text in run.cues]
        clock.steps += [dict(step, start=offset + step["start"], end=offset + step["end"]) for step in run.steps]
        clock.spoken += [(step, offset + start) for step, start, _ in run.spoken]
        clock.clips |= {step: clip for step, _, clip in run.spoken}
    for number, step in enumerate(clock.steps):
        limit = clock.steps[number + 1]["start"] if number + 1 < len(clock.steps) else clock.total
        step["end"] = max(step["start"], min(step["end"], limit))
    return clock


def _silent_subtitles(clock: _Clock) -> str:
    """The SRT of a silent render: each cue as asked, ending when the next caption starts at the latest."""
    moments = sorted(step["start"] for step in clock.steps)
    subtitles = []
    for at, start, stop, content in clock.cues:
        limit = min([moment for moment in moments if moment > at + EPS] + [clock.total])
        subtitles.append(srt.Subtitle(len(subtitles), timedelta(seconds=start),
                                      max(timedelta(seconds=start), min(timedelta(seconds=stop),
                                                                         timedelta(seconds=limit))), content))
    return srt.compose(subtitles) if subtitles else ""
