"""The narrator of a render: the speech of each step in the chosen voice, loudness-normalized (by the
sound process, :mod:`.sound_process`), from the speech cache when it is there (a recording is read
each time: it is the user's file). The speaker is taken on the first clip the cache does not hold:
a warm render never starts a synthesizer. A Piper speaker is this process's (:mod:`.speakers`),
shared with the narrators after it and perhaps started before the render (:mod:`.early_start`);
closing the narrator leaves it running.

A cold render would wait for each line in turn, since a step must know its speech's length before
it can go on. So lines are made ahead, by a thread that feeds the synthesizer (a process of its own)
while the scene builds and renders: the lines a scene will say whatever its values (those with no
placeholder, known from its text file: :meth:`Narrator.make_ahead`), and, before the rest, a line the
scene will soon need (:meth:`Narrator.ask`: a step asks as its animations start and needs the length
once they are rendered); a line needed meanwhile goes first. A line made ahead that fails is made
again when needed, and fails that render there."""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Iterable
from pathlib import Path

from scenes.render.voice.cache import SpeechCache, default_cache_folder, speech_key
from scenes.render.voice.choice import FestivalVoice, NoVoice, PiperVoiceFile, RecordingsFolder, Voice
from scenes.render.voice.clip import Clip
from scenes.render.voice.festival_speaker import FestivalSpeaker
from scenes.render.voice.recordings import RecordingSpeaker
from scenes.render.voice.sound_process import sound_process
from scenes.render.voice.speakers import piper_speaker
from scenes.render.voice.treatment import SPEECH_TREATMENT

__all__ = ["Narrator"]

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
        self._asking = 0  # lines needed now and waiting for the lock (the thread yields to them)
        self._queue: deque[tuple[str, str, str]] = deque()  # (key, lang, text) to make ahead, next first
        self._queued = threading.Lock()  # the queue and whether a thread serves it
        self._ahead: threading.Thread | None = None
        self._stop = threading.Event()

    def speech(self, scene_id: str, step: str, lang: str, text: str) -> Clip:
        """The normalized speech of ``step`` (whose words are ``text``) in ``lang``."""
        self._own()
        if isinstance(self.voice, RecordingsFolder):
            return sound_process().normalized(self._made_speaker().speak_step(scene_id, step, lang, text))
        key = speech_key(self.voice.identity, lang, text, SPEECH_TREATMENT)
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
        """Make the lines of ``texts`` the cache does not hold, in that order, on a thread (after any
        asked for); return how many. None missing: no thread, no synthesizer. A recordings folder is
        read when needed."""
        self._own()
        if isinstance(self.voice, RecordingsFolder):
            return 0
        missing = self.missing(lang, texts)
        with self._queued:
            self._queue.extend((key, lang, text) for key, text in missing)
            self._run_ahead()
        return len(missing)

    def ask(self, lang: str, text: str) -> bool:
        """Make ``text`` on the thread before the lines waiting there, unless the cache holds it;
        say whether it was queued."""
        self._own()
        missing = None if isinstance(self.voice, RecordingsFolder) else self._missing(lang, text)
        if missing:
            with self._queued:
                self._queue.appendleft((missing[0], lang, text))
                self._run_ahead()
        return bool(missing)

    def missing(self, lang: str, texts: Iterable[str]) -> list[tuple[str, str]]:
        """(cache key, text) of each of ``texts`` (once each, in order) the speech cache does not hold."""
        return [key_and_text for text in dict.fromkeys(texts) if (key_and_text := self._missing(lang, text))]

    def _missing(self, lang: str, text: str) -> tuple[str, str] | None:
        key = speech_key(self.voice.identity, lang, text, SPEECH_TREATMENT)
        return None if self.cache.holds(key) else (key, text)

    def _run_ahead(self) -> None:
        """A thread for the queue, unless one serves it (called holding ``_queued``)."""
        if self._queue and self._ahead is None and not self._stop.is_set():
            self._ahead = threading.Thread(target=self._make_all, daemon=True, name="normgeo-speech-ahead")
            self._ahead.start()

    def _make_all(self) -> None:
        while True:
            while self._asking and not self._stop.is_set():
                time.sleep(_YIELD)
            with self._lock:
                with self._queued:
                    if self._stop.is_set() or not self._queue:
                        self._ahead = None
                        return
                    key, lang, text = self._queue.popleft()
                if self.cache.holds(key):
                    continue
                try:
                    self._make(key, lang, text)
                except Exception:  # made again when the scene needs it, and it fails that render there
                    with self._queued:
                        self._queue.clear()
                        self._ahead = None
                    return

    def _make(self, key: str, lang: str, text: str) -> Clip:
        clip = sound_process().normalized(self._made_speaker().speak(text))
        self.synthesized += 1
        self.cache.put(key, clip, {"voice": self.voice.identity, "lang": lang, "text": text})
        return clip

    def close(self) -> None:
        """Stop making lines ahead (the line under way is finished) and end the synthesizer's process
        (not a Piper speaker's: it is the process's, :mod:`.speakers`)."""
        if self._pid != os.getpid():
            return
        self._stop.set()
        with self._queued:
            ahead = self._ahead
        if ahead is not None:
            ahead.join()
        close = getattr(self._speaker, "close", None)
        if close is not None and not isinstance(self.voice, PiperVoiceFile):
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
    if isinstance(voice, PiperVoiceFile):
        return piper_speaker(voice, model_folder)
    if isinstance(voice, FestivalVoice):
        return FestivalSpeaker(voice)
    if isinstance(voice, RecordingsFolder):
        return RecordingSpeaker(voice)
    raise TypeError(f"not a voice: {voice!r}")
