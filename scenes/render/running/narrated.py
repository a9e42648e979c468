"""A narrated video on a worker: the scene is built with the voice's speech (each step lasts at least
its speech and a pause), then the clips are laid on a sound track at the times the scene recorded and
muxed into the video (AAC in MP4 and MOV, Opus in WebM). A synthesizer that dies, or a recording that
does not decode, fails this render only (:class:`JobFailed`)."""

from __future__ import annotations

from pathlib import Path

from scenes.render.manim_door import run_manim
from scenes.render.manim_door.run import ManimOutput
from scenes.render.media.audio_mux import add_sound_track
from scenes.render.running.job import RenderJob
from scenes.render.running.worker import JobFailed
from scenes.render.voice.choice import check_language, parse_voice
from scenes.render.voice.clip import SpeechError
from scenes.render.voice.narrator import Narrator
from scenes.render.voice.scene_speech import SceneSpeech
from scenes.render.voice.track import TRACK_RATE, sound_track

__all__ = ["render_narrated"]


def render_narrated(job: RenderJob, scratch: Path, verbose: bool) -> tuple[ManimOutput, Path, dict]:
    """Manim's output for the narrated ``job``, the video with its sound track, and manifest fields."""
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
    add_sound_track(output.artifact, sound_track(placed, output.duration, TRACK_RATE), TRACK_RATE, voiced)
    extra = {"voice": voice.identity,
             "speech": [{"step": step, "start": round(start, 3), "seconds": round(speech.clips[step].seconds, 3),
                         "words_from": speech.clips[step].words_from} for step, start in output.spoken]}
    return output, voiced, extra
