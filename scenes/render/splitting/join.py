"""Joining the parts of a split render on the client: every run of every part in the order of its
animations, each animation once, with the subtitles and steps offset and clipped as the narration
clips them (see :mod:`.part`)."""

from __future__ import annotations

import shutil
import tempfile
from datetime import timedelta
from pathlib import Path

import srt

from scenes.render.media.video import concatenate
from scenes.render.running.job import Produced, RenderJob
from scenes.render.splitting.contract import PartResult
from scenes.render.splitting.part import EPS
from scenes.render.subtitles import srt_to_vtt

__all__ = ["join_parts"]


def join_parts(job: RenderJob, parts: list[PartResult]) -> Produced:
    """The parts of ``job`` as one video with its subtitles and narrated steps, in the shape
    :func:`scenes.render.running.produce.produce` returns: every run of every part, in the order of their
    animations, each animation exactly once. Runs on the client."""
    scratch = Path(tempfile.mkdtemp(prefix="normgeo-join-"))
    try:
        suffix = parts[0].suffix
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
        paths = []
        for run in runs:
            path = scratch / f"run{run.first}{suffix}"
            path.write_bytes(run.video)
            paths.append(path)
        joined = scratch / f"joined{suffix}"
        concatenate(paths, joined)
        # Offsets on the scene's clock (whole frames, as an unsplit render counts them), not from the
        # containers' timestamps, which are rounded to their time base.
        offsets = [sum(run.duration for run in runs[:number]) for number in range(len(runs))]
        total = sum(run.duration for run in runs)
        cues, steps = [], []
        for offset, run in zip(offsets, runs):
            cues += [(offset + at, offset + start, offset + stop, content) for at, start, stop, content in run.cues]
            steps += [dict(step, start=offset + step["start"], end=offset + step["end"]) for step in run.steps]
        moments = sorted(step["start"] for step in steps)
        for number, step in enumerate(steps):
            limit = steps[number + 1]["start"] if number + 1 < len(steps) else total
            step["end"] = max(step["start"], min(step["end"], limit))
        subtitles = []
        for at, start, stop, content in cues:
            limit = min([moment for moment in moments if moment > at + EPS] + [total])
            subtitles.append(srt.Subtitle(len(subtitles), timedelta(seconds=start),
                                          max(timedelta(seconds=start), min(timedelta(seconds=stop),
                                                                             timedelta(seconds=limit))), content))
        files = {job.relative_path: joined.read_bytes()}
        if subtitles:
            text = srt.compose(subtitles)
            srt_name = str(Path(job.relative_path).with_suffix(".srt"))
            files[srt_name] = text.encode("utf-8")
            files[str(Path(srt_name).with_suffix(".vtt"))] = srt_to_vtt(text).encode("utf-8")
        rounded = [{"key": s["key"], "text": s["text"], "start": round(s["start"], 3), "end": round(s["end"], 3)}
                   for s in steps]
        workers = sorted({part.worker for part in parts})
        return Produced(files, total, {"steps": rounded, "split_parts": len(parts)},
                        sum(part.seconds for part in parts), ", ".join(workers))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
