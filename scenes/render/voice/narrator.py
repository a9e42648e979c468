"""The narrator of a render: the speech of each step in the chosen voice, loudness-normalized, from
the speech cache when it is there (a recording is read each time: it is the user's file). The speaker
is made on the first clip the cache does not hold: a warm render never imports Piper (onnx alone
takes seconds to import) nor starts a synthesizer."""

from __future__ import annotations

import os
from importlib import import_module
from pathlib import Path

from scenes.render.voice.cache import SpeechCache, default_cache_folder, speech_key
from scenes.render.voice.choice import FestivalVoice, NoVoice, PiperVoiceFile, RecordingsFolder, Voice
from scenes.render.voice.clip import Clip
from scenes.render.voice.loudness import PEAK_CEILING_DBTP, TARGET_LUFS, normalize_loudness
from scenes.render.voice.recordings import RecordingSpeaker

__all__ = ["Narrator"]

_TREATMENT = f"bs1770 {TARGET_LUFS} LUFS, true peak {PEAK_CEILING_DBTP} dBTP (4x)"


class Narrator:
    """Speech for the steps of scenes in one voice; ``synthesized`` counts clips made (not cached)."""

    def __init__(self, voice: Voice, cache_folder: Path | None = None):
        if isinstance(voice, NoVoice):
            raise ValueError("a silent render has no narrator")
        self.voice = voice
        self.cache = SpeechCache(cache_folder or default_cache_folder())
        self.synthesized = 0
        self._speaker = None
        self._speaker_pid = 0  # the process that made the speaker (a forked copy makes its own)

    def speech(self, scene_id: str, step: str, lang: str, text: str) -> Clip:
        """The normalized speech of ``step`` (whose words are ``text``) in ``lang``."""
        if isinstance(self.voice, RecordingsFolder):
            return normalize_loudness(self._made_speaker().speak_step(scene_id, step, lang, text))
        key = speech_key(self.voice.identity, lang, text, _TREATMENT)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        clip = normalize_loudness(self._made_speaker().speak(text))
        self.synthesized += 1
        self.cache.put(key, clip, {"voice": self.voice.identity, "lang": lang, "text": text})
        return clip

    def close(self) -> None:
        """End the synthesizer's process, if one runs."""
        close = getattr(self._speaker, "close", None)
        if close is not None and self._speaker_pid == os.getpid():
            close()

    def __enter__(self) -> Narrator:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    @property
    def speaker(self):
        """The speaker, None until a clip had to be made."""
        return self._speaker

    def _made_speaker(self):
        # a copy forked from the process that made it (a split render's waiting copies) never talks to
        # that process's synthesizer: its pipes and watchdog belong to the parent
        if self._speaker is None or self._speaker_pid != os.getpid():
            self._speaker = _speaker_for(self.voice, self.cache.folder / "models")
            self._speaker_pid = os.getpid()
        return self._speaker


def _speaker_for(voice: Voice, model_folder: Path):
    # Piper (onnx, onnxruntime) loads only for a Piper voice: a silent or Festival render needs none of it
    if isinstance(voice, PiperVoiceFile):
        return import_module("scenes.render.voice.piper_speaker").PiperSpeaker(voice, model_folder)
    if isinstance(voice, FestivalVoice):
        return import_module("scenes.render.voice.festival_speaker").FestivalSpeaker(voice)
    if isinstance(voice, RecordingsFolder):
        return RecordingSpeaker(voice)
    raise TypeError(f"not a voice: {voice!r}")
