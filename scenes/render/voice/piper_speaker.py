"""Speaking with Piper: one child process per voice (``piper_child``) loaded once and fed text after
text, one request at a time (a lock: narrators in one process may share it,
:mod:`.speakers`); a child that dies or answers nonsense is a :class:`SpeechError` (that render
fails) and the next request starts a new one. A child that does not answer within
:func:`speech_timeout` seconds (``$NORMGEO_SPEECH_TIMEOUT``, default 120; the first answer includes
loading the voice) is killed by a watchdog and is a :class:`SpeechError` too: a hung synthesizer
never hangs the render. The child patches the voice for alignments (into ``model_folder``), so the
render never imports onnx.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from scenes.render.voice.child_process import end_child, exit_status, read_exactly, start_child, watchdog
from scenes.render.voice.choice import PiperVoiceFile, speech_timeout
from scenes.render.voice.clip import Clip, SpeechError, voiced_span, words_by_characters
from scenes.render.voice.piper_words import aligned_words

__all__ = ["PiperSpeaker"]


class PiperSpeaker:
    """Speaks text in one Piper voice through a child process started by :meth:`start` or on first
    use (``command``, the child's program, is ``python -m scenes.render.voice.piper_child``; the
    model's, config's and aligned copy's paths are appended to it)."""

    def __init__(self, voice: PiperVoiceFile, model_folder: Path, command: Sequence[str] | None = None,
                 timeout: float | None = None):
        self.voice, self.model_folder = voice, model_folder
        self.command = list(command or [sys.executable, "-m", "scenes.render.voice.piper_child"])
        self._timeout = timeout
        self._child: subprocess.Popen | None = None
        self._lock = threading.Lock()

    @property
    def timeout(self) -> float:
        """Seconds one text may take: as given, else :func:`speech_timeout` read now (the speaker is
        the process's and outlives the settings of the render that made it)."""
        return speech_timeout() if self._timeout is None else self._timeout

    @property
    def child_pid(self) -> int | None:
        return None if self._child is None else self._child.pid

    def start(self) -> None:
        """Start the child now (it loads the voice while the caller goes on), unless it runs."""
        with self._lock:
            self._running_child()

    def speak(self, text: str) -> Clip:
        with self._lock:
            return self._speak(text)

    def _speak(self, text: str) -> Clip:
        child, timeout = self._running_child(), self.timeout
        with watchdog(child, timeout) as timed_out:
            try:
                child.stdin.write(json.dumps({"text": text}).encode() + b"\n")
                child.stdin.flush()
                header = json.loads(child.stdout.readline() or b"null")
                if header is None:
                    raise EOFError
                chunks = [(int(c["samples"]), c["phonemes"]) for c in header["chunks"]]
                raw = read_exactly(child.stdout, 4 * sum(length for length, _ in chunks))
            except (OSError, EOFError, ValueError, KeyError, TypeError) as error:
                self.close()
                if timed_out.is_set():
                    raise SpeechError(f"Piper ({self.voice.model.name}) gave no speech for {text[:40]!r} within "
                                      f"{timeout:g} s and was stopped (NORMGEO_SPEECH_TIMEOUT sets the limit)"
                                      ) from None
                raise SpeechError(f"Piper ({self.voice.model.name}) died while speaking {text[:40]!r}: "
                                  f"{exit_status(child) or error}") from None
        samples, rate = np.frombuffer(raw, dtype="<f4").astype(np.float32), int(header["rate"])
        words = aligned_words(text, chunks, rate, [int(n) for n in header.get("word_phonemes", [])])
        if words is None:
            return Clip(samples, rate, words_by_characters(text, *voiced_span(samples, rate)), "characters")
        return Clip(samples, rate, words, "alignment")

    def close(self, wait: bool = True) -> None:
        if self._child is not None:
            child, self._child = self._child, None
            end_child(child, wait)

    def _running_child(self) -> subprocess.Popen:
        if self._child is None or self._child.poll() is not None:
            self.close()
            aligned = self.model_folder / f"{self.voice.model_sha256}.onnx"
            self._child = start_child([*self.command, str(self.voice.model), str(self.voice.config), str(aligned)])
        return self._child
