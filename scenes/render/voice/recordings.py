"""The user's own recordings, one file per narrated step:

    DIR/<scene>/<step>.<lang>.<wav|flac|ogg|mp3>

e.g. ``voice/layernorm-2d/line.en.flac`` for the step ``say.line`` of ``layernorm-2d`` in English.
Every step of every scene rendered must have exactly one; a missing or doubled one is refused before
anything renders, and so is one that does not decode. Files are decoded by PyAV (FFmpeg); word times come from the recording's voiced
span split by characters.
"""

from __future__ import annotations

from pathlib import Path

from scenes.render.errors import InputError
from scenes.render.voice.audio_file import read_audio
from scenes.render.voice.choice import RECORDING_SUFFIXES, RecordingsFolder
from scenes.render.voice.clip import Clip, SpeechError, voiced_span, words_by_characters

__all__ = ["recording_path", "check_recordings", "RecordingSpeaker"]


def recording_path(folder: Path, scene_id: str, step: str, lang: str) -> Path:
    """The one recording of ``step`` in ``lang`` (an :class:`InputError` if none or several)."""
    found = [folder / scene_id / f"{step}.{lang}{suffix}" for suffix in RECORDING_SUFFIXES]
    found = [path for path in found if path.is_file()]
    if not found:
        raise InputError(f"recordings:{folder}: no recording of {scene_id} step {step!r} in {lang} "
                         f"(expected {scene_id}/{step}.{lang}.wav, .flac, .ogg or .mp3)")
    if len(found) > 1:
        raise InputError(f"recordings:{folder}: {scene_id} step {step!r} in {lang} is recorded "
                         f"{len(found)} times ({', '.join(path.name for path in found)}); keep one")
    return found[0]


def check_recordings(voice: RecordingsFolder, scene_id: str, steps: list[str], lang: str) -> None:
    """Refuse a render whose scene has a step without exactly one recording, or one that does not
    decode (each is decoded once, here, before anything renders)."""
    for step in steps:
        path = recording_path(voice.folder, scene_id, step, lang)
        try:
            read_audio(path)
        except SpeechError as error:
            raise InputError(f"recordings:{voice.folder}: {error}") from None


class RecordingSpeaker:
    """Reads a step's recording (not a synthesizer: it speaks a step, not a text)."""

    def __init__(self, voice: RecordingsFolder):
        self.voice = voice

    def speak_step(self, scene_id: str, step: str, lang: str, text: str) -> Clip:
        samples, rate = read_audio(recording_path(self.voice.folder, scene_id, step, lang))
        return Clip(samples, rate, words_by_characters(text, *voiced_span(samples, rate)), "characters")
