"""A narrated video on a worker: the scene is built with the voice's speech (each step lasts at least
its speech and a pause), then the clips are laid on a sound track at the times the scene recorded and
muxed into the video (AAC in MP4 and MOV, Opus in WebM), and the subtitles are timed to the words
(:mod:`scenes.render.voice.word_cues`): SRT, and WebVTT with word timestamps. A synthesizer that
dies, or a recording that does not decode, fails this render only (:class:`JobFailed`)."""

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
from scenes.render.voice.peak_checked import add_checked_sound_track
from scenes.render.voice.scene_speech import SceneSpeech
from scenes.render.voice.timed_text import compose_srt, compose_vtt
from scenes.render.voice.track import TRACK_RATE, sound_track
from scenes.render.voice.word_cues import spoken_cues

__all__ = ["render_narrated"]


def render_narrated(job: RenderJob, scratch: Path, verbose: bool) -> tuple[ManimOutput, Path, Path | None, dict]:
    """Manim's output for the narrated ``job`` (its subtitles timed to the speech), the video with its
    sound track, the WebVTT file with word timestamps (None without subtitles) and manifest fields."""
    settings = job.settings_for_output
    voice = parse_voice(settings.voice)
    check_language(voice, job.spec.lang)
    try:
        with Narrator(voice) as narrator:
            speech = SceneSpeech(narrator, job.scene_id, job.spec.lang)
            output = run_manim(job.scene_id, job.spec, settings, scratch, verbose=verbose, speech=speech)
    except SpeechError as error:
        raise JobFailed(str(error)) from None
    placed = [(start, speech.clips[step]) for step, start in output.spoken]
    voiced = output.artifact.with_name(f"voiced-{output.artifact.name}")
    peak, gain_db = add_checked_sound_track(output.artifact, sound_track(placed, output.duration, TRACK_RATE), TRACK_RATE,
                                            voiced)
    output, vtt = _timed_subtitles(output, speech, job.spec.lang)
    extra = {"voice": voice.identity, "true_peak_dbtp": round(peak, 2), "track_gain_db": round(gain_db, 2),
             "speech": [{"step": step, "start": round(start, 3), "seconds": round(speech.clips[step].seconds, 3),
                         "words_from": speech.clips[step].words_from} for step, start in output.spoken]}
    return output, voiced, vtt, extra


def _timed_subtitles(output: ManimOutput, speech: SceneSpeech, lang: str) -> tuple[ManimOutput, Path | None]:
    """``output`` with its SRT replaced by cues timed to the speech, and the WebVTT beside it."""
    if output.subtitles is None:
        return output, None
    cues = spoken_cues(output.steps, output.spoken, speech.clips, lang)
    timed = output.subtitles.with_name(f"spoken-{output.subtitles.name}")
    atomic_write_text(timed, compose_srt(cues))
    atomic_write_text(timed.with_suffix(".vtt"), compose_vtt(cues))
    return replace(output, subtitles=timed), timed.with_suffix(".vtt")
