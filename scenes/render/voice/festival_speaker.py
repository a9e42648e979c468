"""Speaking with Festival (``festival --script``, one process per text): a unit-selection voice, not
a neural one. The script synthesizes the text as one utterance, saves its wave and writes, for each
token of the text Festival read, the start and end of the words it said for it (a word starts where
the segment before its first segment ends, so a pause before it is not part of it; "24" is one token
said as two words). Each word of the original text is paired with the tokens it becomes when read
alone (:func:`~.festival_text.festival_text` of the word: "+" → плюс, "—" → none); where the counts
do not add up, the word times come from the clip's voiced span split by characters instead.
A Festival that fails, dies or takes longer than :func:`~.choice.speech_timeout` is a
:class:`SpeechError` (that render fails)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from scenes.render.voice.audio_file import read_audio
from scenes.render.voice.choice import FestivalVoice, speech_timeout
from scenes.render.voice.clip import Clip, SpeechError, WordTime, text_words, voiced_span, words_by_characters
from scenes.render.voice.festival_text import festival_text

__all__ = ["FestivalSpeaker", "festival_script", "token_words"]

_SCRIPT = """(load (path-append datadir "init.scm"))
(voice_{voice})
(set! utt (SynthText "{text}"))
(utt.save.wave utt "{wave}" 'riff)
(set! out (fopen "{times}" "w"))
(set! tok (utt.relation.first utt 'Token))
(while tok
  (format out "T")
  (mapcar (lambda (w) (format out "\\t%s\\t%s" (item.feat w "R:SylStructure.daughter1.daughter1.R:Segment.p.end")
                                              (item.feat w "word_end")))
          (item.daughters tok))
  (format out "\\n")
  (set! tok (item.next tok)))
(fclose out)
"""


def festival_script(voice: str, text: str, wave: Path, times: Path) -> str:
    """The Scheme program that says ``text`` (already :func:`festival_text`) into ``wave`` and writes
    the token times to ``times``."""
    quoted = text.replace("\\", " ").replace('"', " ")
    return _SCRIPT.format(voice=voice, text=quoted, wave=wave, times=times)


class FestivalSpeaker:
    """Speaks text in one Festival voice."""

    def __init__(self, voice: FestivalVoice):
        self.voice = voice

    def speak(self, text: str) -> Clip:
        read = festival_text(text)
        with tempfile.TemporaryDirectory(prefix="normgeo-festival-") as folder:
            script, wave, times = Path(folder) / "say.scm", Path(folder) / "speech.wav", Path(folder) / "times.tsv"
            script.write_text(festival_script(self.voice.name, read, wave, times), encoding="utf-8")
            try:
                done = subprocess.run(["festival", "--script", str(script)], capture_output=True,
                                      timeout=speech_timeout(), check=False)
            except (OSError, subprocess.TimeoutExpired) as error:
                raise SpeechError(f"Festival could not speak {text[:40]!r}: {error}") from None
            reason = _failure(done, wave)
            if reason:
                raise SpeechError(f"Festival ({self.voice.name}) failed on {text[:40]!r}: {reason}")
            samples, rate = read_audio(wave)
            tokens = _token_times(times.read_text(encoding="utf-8") if times.is_file() else "")
        words = token_words(text, tokens, len(samples) / rate)
        if words is None:
            return Clip(samples, rate, words_by_characters(text, *voiced_span(samples, rate)), "characters")
        return Clip(samples, rate, words, "segments")


def _token_times(table: str) -> list[tuple[float, float] | None]:
    """(start, end) of each token's words, None for a token Festival said nothing for."""
    tokens = []
    for line in table.splitlines():
        fields = line.split("\t")[1:]
        if not line.startswith("T"):
            continue
        try:
            numbers = [float(field) for field in fields]
        except ValueError:
            return []
        tokens.append((numbers[0], numbers[-1]) if numbers else None)
    return tokens


def token_words(text: str, tokens: list[tuple[float, float] | None], seconds: float) -> tuple[WordTime, ...] | None:
    """The words of ``text`` timed by the tokens each becomes when read alone; None when they do not
    pair up. A word with no token (or none said) has no length, at the end of the word before.

    >>> [(w.word, w.start, w.end) for w in token_words("x + y — 24.", [(0.2, 0.4), (0.4, 0.6), (0.6, 0.7),
    ...                                                               (0.8, 1.5)], 2.0)]
    [('x', 0.2, 0.4), ('+', 0.4, 0.6), ('y', 0.6, 0.7), ('—', 0.7, 0.7), ('24.', 0.8, 1.5)]
    """
    words = text_words(text)
    counts = [len(festival_text(word).split()) for word in words]
    if not words or sum(counts) != len(tokens):
        return None
    timed, used, last_end = [], 0, 0.0
    for word, count in zip(words, counts):
        spans = [span for span in tokens[used:used + count] if span is not None]
        used += count
        start, end = (spans[0][0], spans[-1][1]) if spans else (last_end, last_end)
        start, end = max(min(start, seconds), last_end), min(max(end, start), seconds)
        timed.append(WordTime(word, start, max(start, end)))
        last_end = max(start, end)
    return tuple(timed)


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
