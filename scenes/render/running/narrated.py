"""A narrated video on a worker: the scene is built with the voice's speech (each step lasts at least
its speech and a pause), each clip placed on a sound track as it is said (and limited there, in the
sound process, while the scene renders on), then the track is muxed into the video (AAC in MP4 and
MOV, Opus in WebM), and the subtitles are timed to the words (:mod:`scenes.render.voice.word_cues`):
SRT, and WebVTT with word timestamps. A synthesizer or sound process that dies, or a recording that
does not decode, fails this render only (:class:`JobFailed`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from scenes.render.manim_door import run_manim
from scenes.render.files import atomic_write_text
from scenes.render.manim_door.run import ManimOutput
from scenes.render.running.job import RenderJob
from scenes.render.running.worker import JobFailed
from scenes.render.voice.choice import check_language, parse_voice
from scenes.render.voice.clip import SpeechError
from scenes.render.voice.narrator import Narrator
from scenes.render.voice.scene_speech import SceneSpeech
from scenes.render.voice.sound_process import sound_process
from scenes.render.voice.timed_text import TimedCue, compose_srt, compose_vtt
from scenes.render.voice.voiced_video import voice_video

__all__ = ["render_narrated"]


def render_narrated(job: RenderJob, scratch: Path, verbose: bool) -> tuple[ManimOutput, Path, Path | None, dict]:
    """Manim's output for the narrated ``job`` (its subtitles timed to the speech), the video with its
    sound track, the WebVTT file with word timestamps (None without subtitles) and manifest fields."""
    settings = job.settings_for_output
    voice = parse_voice(settings.voice)
    check_language(voice, job.spec.lang)
    sound = sound_process()
    sound.start()  # (it loads while the scene does)
    track = sound.track(f".{settings.format}")
    try:
        with Narrator(voice) as narrator:
            speech = SceneSpeech(narrator, job.scene_id, job.spec.lang, track=track)
            output = run_manim(job.scene_id, job.spec, settings, scratch, verbose=verbose, speech=speech)
        voiced = voice_video(output.artifact, output.duration, output.steps, output.spoken, speech.clips,
                             job.spec.lang, voice.identity, output.artifact.with_name(f"voiced-{output.artifact.name}"),
                             track)
    except BaseException as error:
        track.drop()
        if isinstance(error, SpeechError):
            raise JobFailed(str(error)) from None
        raise
    output, vtt = _timed_subtitles(output, voiced.cues)
    return output, voiced.path, vtt, voiced.extra


def _timed_subtitles(output: ManimOutput, cues: list[TimedCue]) -> tuple[ManimOutput, Path | None]:
    """``output`` with its SRT replaced by ``cues`` (timed to the speech), and the WebVTT beside it."""
    if output.subtitles is None:
        return output, None
    timed = output.subtitles.with_name(f"spoken-{output.subtitles.name}")
    atomic_write_text(timed, compose_srt(cues))
    atomic_write_text(timed.with_suffix(".vtt"), compose_vtt(cues))
    return replace(output, subtitles=timed), timed.with_suffix(".vtt")
