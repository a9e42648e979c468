"""The lecture: rendered scenes joined into one MP4 (a chapter per scene) with joined subtitles."""

from __future__ import annotations

import hashlib
from pathlib import Path

from scenes.kit.registry import LECTURE_ORDER, entry
from scenes.render.files import atomic_write_text, install_file
from scenes.render.media.video import concatenate_with_chapters, video_duration
from scenes.render.running.job import RenderJob
from scenes.render.names import lecture_name, spec_tag
from scenes.render.subtitles import join_subtitles, srt_to_vtt
from scenes.render.voice.audio_file import read_audio
from scenes.render.voice.peak_checked import add_checked_sound_track
from scenes.render.voice.timed_text import compose_srt, compose_vtt, join_timed, parse_vtt
from scenes.render.voice.track import TRACK_RATE, place_samples

__all__ = ["lecture_path", "join_lecture", "LectureResult"]


def _lecture_tag(jobs: list[RenderJob]) -> str | None:
    """None for every scene in lecture order with its default settings; else a hash of the scenes'
    spec tags and, when the scenes are not the whole lecture in its order, of their ids too."""
    tags = [spec_tag(job.spec) or "" for job in jobs]
    ids = [job.scene_id for job in jobs]
    whole = ids == list(LECTURE_ORDER)
    if not any(tags) and whole:
        return None
    return hashlib.sha256("|".join(tags + ([] if whole else ["scenes:" + ",".join(ids)])).encode()).hexdigest()[:8]


def lecture_path(jobs: list[RenderJob]) -> Path:
    """``lecture/lecture.<lang>.<theme>[.<tag>].<quality>.mp4`` in the jobs' output folder (a tag
    for custom settings or a selection of scenes: see :func:`_lecture_tag`)."""
    first = jobs[0]
    return first.out_dir / lecture_name(first.spec.lang, first.spec.theme, first.settings, _lecture_tag(jobs))


class LectureResult:
    """The joined video, each scene's (start, end) in it, and its duration."""

    def __init__(self, path: Path, spans: list[tuple[float, float]], duration: float):
        self.path, self.spans, self.duration = path, spans, duration


def join_lecture(jobs: list[RenderJob]) -> LectureResult:
    """Remux the rendered scene videos of ``jobs`` (no re-encode) into one MP4 with a chapter per
    scene titled in the lecture's language; write joined .srt and .vtt beside it. Narrated scenes
    give one sound track, decoded and laid at each chapter's start, encoded once, and their WebVTT
    files' word timestamps are kept."""
    target = lecture_path(jobs)
    lang = jobs[0].spec.lang
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial.mp4")
    parts = [(job.target, entry(job.scene_id).title(lang).replace("$", "")) for job in jobs]
    voiced = target.with_name(f".{target.name}.voiced.mp4")
    try:
        spans = concatenate_with_chapters(parts, partial)
        if jobs[0].settings.narrated:  # one continuous track: each scene's sound at its chapter's start
            track = place_samples([(start, read_audio(job.target)) for job, (start, _) in zip(jobs, spans)],
                                  spans[-1][1])
            add_checked_sound_track(partial, track, TRACK_RATE, voiced)
            voiced.replace(partial)
        install_file(partial, target)
    finally:
        partial.unlink(missing_ok=True)
        voiced.unlink(missing_ok=True)
    _join_subtitles(jobs, spans, target)
    return LectureResult(target, spans, video_duration(target))


def _join_subtitles(jobs: list[RenderJob], spans: list[tuple[float, float]], target: Path) -> None:
    if jobs[0].settings.narrated:  # the scenes' WebVTT files carry word times: join those, SRT from the same cues
        cues = join_timed([(parse_vtt(job.target.with_suffix(".vtt").read_text(encoding="utf-8")), start)
                           for job, (start, _) in zip(jobs, spans)])
        atomic_write_text(target.with_suffix(".srt"), compose_srt(cues))
        atomic_write_text(target.with_suffix(".vtt"), compose_vtt(cues))
        return
    subtitles = join_subtitles([(job.target.with_suffix(".srt").read_text(encoding="utf-8"), start)
                                for job, (start, _) in zip(jobs, spans)])
    atomic_write_text(target.with_suffix(".srt"), subtitles)
    atomic_write_text(target.with_suffix(".vtt"), srt_to_vtt(subtitles))
