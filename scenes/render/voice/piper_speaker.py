"""Speaking with Piper: one child process per voice (``piper_child``) loaded once and fed text after
text; a child that dies or answers nonsense is a :class:`SpeechError` (that render fails) and the
next request starts a new one. A child that does not answer within :func:`speech_timeout` seconds
(``$NORMGEO_SPEECH_TIMEOUT``, default 120; the first answer includes loading the voice) is killed
by a watchdog and is a :class:`SpeechError` too: a hung synthesizer never hangs the render.

Piper gives phoneme alignments only from a model whose duration tensor is a graph output; the
speaker patches a copy of the voice file once (Piper's own ``add_alignment_output``), into the
speech cache's folder, never the file itself. A model that cannot be patched speaks without
alignments (word times then come from the characters).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnx
from piper.patch_voice_with_alignment import add_alignment_output

from scenes.render.voice.choice import PiperVoiceFile, speech_timeout
from scenes.render.voice.clip import Clip, SpeechError, voiced_span, words_by_characters
from scenes.render.voice.piper_words import aligned_words

__all__ = ["PiperSpeaker", "aligned_model"]

def aligned_model(voice: PiperVoiceFile, folder: Path) -> tuple[Path, Path]:
    """The voice's model (and config) with alignments, patched once into ``folder``/<sha256>.onnx."""
    target = folder / f"{voice.model_sha256}.onnx"
    config = target.with_name(target.name + ".json")
    if target.is_file() and config.is_file():
        return target, config
    folder.mkdir(parents=True, exist_ok=True)
    model = onnx.load(str(voice.model))
    try:
        add_alignment_output(model)
    except ValueError:  # already patched, or no duration tensor to expose
        return voice.model, voice.config
    fd, partial = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=folder)
    os.close(fd)
    try:
        onnx.save(model, partial)
        shutil.copyfile(voice.config, config)
        os.replace(partial, target)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    return target, config


class PiperSpeaker:
    """Speaks text in one Piper voice through a child process started on first use (``command``,
    the child's program, is ``python -m scenes.render.voice.piper_child``; the model and config
    paths are appended to it)."""

    def __init__(self, voice: PiperVoiceFile, model_folder: Path, command: Sequence[str] | None = None,
                 timeout: float | None = None):
        self.voice, self.model_folder = voice, model_folder
        self.command = list(command or [sys.executable, "-m", "scenes.render.voice.piper_child"])
        self.timeout = speech_timeout() if timeout is None else timeout
        self._child: subprocess.Popen | None = None

    @property
    def child_pid(self) -> int | None:
        return None if self._child is None else self._child.pid

    def speak(self, text: str) -> Clip:
        child = self._running_child()
        timed_out = threading.Event()
        watchdog = threading.Timer(self.timeout, _stop, (child, timed_out))  # the kill ends the reads below
        watchdog.daemon = True
        watchdog.start()
        try:
            child.stdin.write(json.dumps({"text": text}).encode() + b"\n")
            child.stdin.flush()
            header = json.loads(child.stdout.readline() or b"null")
            if header is None:
                raise EOFError
            chunks = [(int(c["samples"]), c["phonemes"]) for c in header["chunks"]]
            raw = _read_exactly(child.stdout, 4 * sum(length for length, _ in chunks))
        except (OSError, EOFError, ValueError, KeyError, TypeError) as error:
            self.close()
            if timed_out.is_set():
                raise SpeechError(f"Piper ({self.voice.model.name}) gave no speech for {text[:40]!r} within "
                                  f"{self.timeout:g} s and was stopped (NORMGEO_SPEECH_TIMEOUT sets the limit)") from None
            raise SpeechError(f"Piper ({self.voice.model.name}) died while speaking {text[:40]!r}: "
                              f"{_exit_status(child) or error}") from None
        finally:
            watchdog.cancel()
        samples, rate = np.frombuffer(raw, dtype="<f4").astype(np.float32), int(header["rate"])
        words = aligned_words(text, chunks, rate, [int(n) for n in header.get("word_phonemes", [])])
        if words is None:
            return Clip(samples, rate, words_by_characters(text, *voiced_span(samples, rate)), "characters")
        return Clip(samples, rate, words, "alignment")

    def close(self) -> None:
        if self._child is not None:
            child, self._child = self._child, None
            for stream in (child.stdin, child.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                _stop(child)
                child.wait()

    def _running_child(self) -> subprocess.Popen:
        if self._child is None or self._child.poll() is not None:
            self.close()
            model, config = aligned_model(self.voice, self.model_folder)
            self._child = subprocess.Popen(
                [*self.command, str(model), str(config)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env={**os.environ, "OMP_NUM_THREADS": "1"}, cwd=Path(__file__).resolve().parents[3],
                start_new_session=True)
        return self._child


def _stop(child: subprocess.Popen, timed_out: threading.Event | None = None) -> None:
    """Kill the child and whatever it started (its own session), so that no process keeps its pipes open."""
    if timed_out is not None:
        timed_out.set()
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _read_exactly(stream, count: int) -> bytes:
    data = stream.read(count)
    if len(data) != count:
        raise EOFError(f"{len(data)} of {count} bytes")
    return data


def _exit_status(child: subprocess.Popen) -> str:
    code = child.poll()
    if code is None:
        return ""
    return f"killed by signal {-code}" if code < 0 else f"exit status {code}"
