"""The narrator of a render: the speech of each step in the chosen voice, loudness-normalized, from
the speech cache when it is there (a recording is read each time: it is the user's file). The speaker
is made on the first clip the cache does not hold: a warm render never imports Piper (onnx alone
takes seconds to import) nor starts a synthesizer.

A cold render would wait for each line in turn, since a step must know its speech's length before
it can go on. So the lines a scene will say whatever its values (those with no placeholder, known
from its text file) are made ahead (:meth:`Narrator.make_ahead`), by a thread that feeds the
synthesizer (a process of its own) while the scene builds and renders; a line asked for meanwhile
goes first. A line made ahead that fails is made again when asked, and fails that render there."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable
from importlib import import_module
from pathlib import Path

from scenes.render.voice.cache import SpeechCache, default_cache_folder, speech_key
from scenes.render.voice.choice import FestivalVoice, NoVoice, PiperVoiceFile, RecordingsFolder, Voice
from scenes.render.voice.clip import Clip
from scenes.render.voice.loudness import PEAK_CEILING_DBTP, TARGET_LUFS, normalize_loudness
from scenes.render.voice.recordings import RecordingSpeaker

__all__ = ["Narrator"]

_TREATMENT = f"bs1770 {TARGET_LUFS} LUFS, true peak {PEAK_CEILING_DBTP} dBTP (4x)"
_YIELD = 0.005  # seconds the thread making lines ahead waits while a line is asked for


class Narrator:
    """Speech for the steps of scenes in one voice; ``synthesized`` counts clips made (not cached)."""

    def __init__(self, voice: Voice, cache_folder: Path | None = None):
        if isinstance(voice, NoVoice):
            raise ValueError("a silent render has no narrator")
        self.voice = voice
        self.cache = SpeechCache(cache_folder or default_cache_folder())
        self.synthesized = 0
        self._speaker = None
        self._reset()

    def _reset(self) -> None:
        """The state one process owns: a copy forked from it (a split render's waiting copies)
        neither talks to its synthesizer (pipes and watchdog are the parent's) nor waits on its
        locks or its thread, which a fork does not copy."""
        self._pid = os.getpid()
        self._speaker = None
        self._lock = threading.Lock()  # one line at a time through the speaker
        self._asking = 0  # lines asked for and waiting for the lock (the thread yields to them)
        self._ahead: threading.Thread | None = None
        self._stop = threading.Event()

    def speech(self, scene_id: str, step: str, lang: str, text: str) -> Clip:
        """The normalized speech of ``step`` (whose words are ``text``) in ``lang``."""
        self._own()
        if isinstance(self.voice, RecordingsFolder):
            return normalize_loudness(self._made_speaker().speak_step(scene_id, step, lang, text))
        key = speech_key(self.voice.identity, lang, text, _TREATMENT)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        self._asking += 1
        try:
            self._lock.acquire()
        finally:
            self._asking -= 1
        try:
            return self.cache.get(key) or self._make(key, lang, text)  # (made ahead while it waited?)
        finally:
            self._lock.release()

    def make_ahead(self, lang: str, texts: Iterable[str]) -> int:
        """Start making the lines of ``texts`` the cache does not hold, in that order, on a thread;
        return how many. None missing: no thread, no synthesizer. A recordings folder is read when asked."""
        self._own()
        if isinstance(self.voice, RecordingsFolder) or self._ahead is not None:
            return 0
        missing = [(key, text) for text in dict.fromkeys(texts)
                   if not self.cache.holds(key := speech_key(self.voice.identity, lang, text, _TREATMENT))]
        if missing:
            self._ahead = threading.Thread(target=self._make_all, args=(lang, missing), daemon=True,
                                           name="normgeo-speech-ahead")
            self._ahead.start()
        return len(missing)

    def _make_all(self, lang: str, missing: list[tuple[str, str]]) -> None:
        for key, text in missing:
            while self._asking and not self._stop.is_set():
                time.sleep(_YIELD)
            if self._stop.is_set():
                return
            with self._lock:
                if self.cache.holds(key):
                    continue
                try:
                    self._make(key, lang, text)
                except Exception:  # made again when the scene asks for it, and it fails that render there
                    return

    def _make(self, key: str, lang: str, text: str) -> Clip:
        clip = normalize_loudness(self._made_speaker().speak(text))
        self.synthesized += 1
        self.cache.put(key, clip, {"voice": self.voice.identity, "lang": lang, "text": text})
        return clip

    def close(self) -> None:
        """Stop making lines ahead (the line under way is finished) and end the synthesizer's process."""
        if self._pid != os.getpid():
            return
        self._stop.set()
        if self._ahead is not None:
            self._ahead.join()
        close = getattr(self._speaker, "close", None)
        if close is not None:
            close()

    def __enter__(self) -> Narrator:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    @property
    def speaker(self):
        """The speaker, None until a clip had to be made."""
        return self._speaker

    def _own(self) -> None:
        if self._pid != os.getpid():
            self._reset()

    def _made_speaker(self):
        if self._speaker is None:
            self._speaker = _speaker_for(self.voice, self.cache.folder / "models")
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
