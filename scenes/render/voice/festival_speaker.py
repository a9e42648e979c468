"""Speaking with Festival (``text2wave``, one process per text): a unit-selection voice, not a neural
one. A Festival that fails, dies or takes longer than :func:`~.choice.speech_timeout` is a
:class:`SpeechError` (that render fails)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from scenes.render.voice.audio_file import read_audio
from scenes.render.voice.choice import FestivalVoice, speech_timeout
from scenes.render.voice.clip import Clip, SpeechError, voiced_span, words_by_characters
from scenes.render.voice.festival_text import festival_text

__all__ = ["FestivalSpeaker"]


class FestivalSpeaker:
    """Speaks text in one Festival voice."""

    def __init__(self, voice: FestivalVoice):
        self.voice = voice

    def speak(self, text: str) -> Clip:
        with tempfile.TemporaryDirectory(prefix="normgeo-festival-") as folder:
            source, wave = Path(folder) / "text.txt", Path(folder) / "speech.wav"
            source.write_text(festival_text(text), encoding="utf-8")
            command = ["text2wave", "-eval", f"(voice_{self.voice.name})", str(source), "-o", str(wave)]
            try:
                done = subprocess.run(command, capture_output=True, timeout=speech_timeout(), check=False)
            except (OSError, subprocess.TimeoutExpired) as error:
                raise SpeechError(f"Festival could not speak {text[:40]!r}: {error}") from None
            reason = _failure(done, wave)
            if reason:
                raise SpeechError(f"Festival ({self.voice.name}) failed on {text[:40]!r}: {reason}")
            samples, rate = read_audio(wave)
        return Clip(samples, rate, words_by_characters(text, *voiced_span(samples, rate)), "characters")


def _failure(done: subprocess.CompletedProcess, wave: Path) -> str:
    """Why Festival's run did not give speech ('' when it did): Festival prints errors and may still
    exit 0, so its output is read too."""
    said = done.stderr.decode(errors="replace") + done.stdout.decode(errors="replace")
    first_error = next((line.strip() for line in said.splitlines() 
                        if "error" in line.lower() or "no rule matches" in line), "")
    if done.returncode < 0:
        return f"killed by signal {-done.returncode}"
    if done.returncode > 0:
        return f"exit status {done.returncode} {first_error}".strip()
    if first_error:
        return first_error
    if not wave.is_file() or wave.stat().st_size <= 44:
        return "no sound written"
    return ""
