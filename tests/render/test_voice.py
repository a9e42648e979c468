"""The voice wing with its real components: Piper with the bundled voice (in its own process),
Festival's Russian voice, recordings in four formats encoded here by PyAV, loudness read back by
FFmpeg's ebur128 filter (an implementation independent of pyloudnorm), the speech cache, refusals."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import av
import numpy as np
import pytest

from scenes.render.errors import InputError
from scenes.render.voice.choice import (FestivalVoice, NoVoice, PiperVoiceFile, RecordingsFolder, bundled_piper_voice,
                                        check_language, parse_voice)
from scenes.render.voice.clip import SpeechError, text_words
from scenes.render.voice.festival_speaker import FestivalSpeaker
from scenes.render.voice.narrator import Narrator
from scenes.render.voice.recordings import check_recordings
from tests.audio_readback import ebur128

EN = "Multiply the weights of a layer by a number c, and the direction stays."
RU = "Умножим веса слоя на число c — направление не изменится."




def write_audio(path: Path, samples: np.ndarray, rate: int, codec: str, out_rate: int | None = None) -> None:
    """Encode mono ``samples`` into ``path`` with PyAV (the container from the suffix)."""
    with av.open(str(path), "w") as container:
        stream = container.add_stream(codec, rate=out_rate or rate, layout="mono")
        resampler = av.AudioResampler(format=stream.codec_context.codec.audio_formats[0].name, layout="mono",
                                      rate=out_rate or rate)
        frame = av.AudioFrame.from_ndarray(samples[None, :].astype(np.float32), format="flt", layout="mono")
        frame.sample_rate = rate
        for converted in [*resampler.resample(frame), *resampler.resample(None)]:
            for packet in stream.encode(converted):
                container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)


def assert_words_fit(clip, text: str) -> None:
    starts = [word.start for word in clip.words]
    assert [word.word for word in clip.words] == text_words(text)
    assert all(0.0 <= word.start <= word.end <= clip.seconds for word in clip.words)
    assert starts == sorted(starts)
    assert all(a.end <= b.start + 1e-9 for a, b in zip(clip.words, clip.words[1:]))


def assert_loudness(clip) -> None:
    loudness, peak = ebur128(clip.samples, clip.rate)
    assert abs(loudness - -16.0) <= 0.5, loudness
    assert peak <= -1.0, peak


@pytest.fixture(scope="module")
def english(tmp_path_factory):
    narrator = Narrator(parse_voice("en"), tmp_path_factory.mktemp("speech"))
    yield narrator
    narrator.close()


def test_piper_speaks_the_same_bytes_twice_with_word_times(english, tmp_path):
    clip = english.speech("s", "a", "en", EN)
    with Narrator(parse_voice("en"), tmp_path) as again:  # a cold cache and a new Piper process
        second = again.speech("s", "a", "en", EN)
        assert again.synthesized == 1
    assert clip.samples.tobytes() == second.samples.tobytes() and clip.rate == second.rate == 22050
    assert clip.words_from == "alignment" and clip.words == second.words
    assert_words_fit(clip, EN)
    assert_loudness(clip)


def test_piper_word_times_cover_the_speech(english):
    """Against the signal itself: every aligned word of some length is louder than the pause at the
    comma, which lies between two words."""
    clip = english.speech("s", "a", "en", EN)
    rms = lambda a, b: float(np.sqrt(np.mean(np.square(clip.samples[int(a * clip.rate):int(b * clip.rate)]))))
    comma = next(i for i, word in enumerate(clip.words) if word.word.endswith(","))
    pause = rms(clip.words[comma].end, clip.words[comma + 1].start)
    assert clip.words[comma + 1].start - clip.words[comma].end > 0.05
    assert all(rms(word.start, word.end) > 3 * pause for word in clip.words if word.end - word.start > 0.1)


def test_warm_cache_synthesizes_nothing_and_one_changed_sentence_one_clip(english, tmp_path):
    texts = ["The first sentence.", "The second sentence.", "The third sentence."]
    with Narrator(parse_voice("en"), tmp_path) as cold:
        first = [cold.speech("s", str(i), "en", text) for i, text in enumerate(texts)]
        assert cold.synthesized == 3
    with Narrator(parse_voice("en"), tmp_path) as warm:
        again = [warm.speech("s", str(i), "en", text) for i, text in enumerate(texts)]
        assert warm.synthesized == 0 and warm.speaker is None  # Piper was neither loaded nor started
        assert all(a.samples.tobytes() == b.samples.tobytes() and a.words == b.words for a, b in zip(first, again))
        warm.speech("s", "1", "en", "The second sentence, changed.")
        assert warm.synthesized == 1
    assert not list(tmp_path.glob(".*partial"))


def test_a_users_piper_file_is_its_own_voice(tmp_path):
    model = tmp_path / "mine.onnx"
    shutil.copyfile(bundled_piper_voice(), model)
    shutil.copyfile(bundled_piper_voice().with_suffix(".onnx.json"), tmp_path / "mine.onnx.json")
    voice = parse_voice(f"piper:{model}")
    assert isinstance(voice, PiperVoiceFile) and voice.language == "en"
    assert voice.model_sha256 in voice.identity and voice.identity != parse_voice("en").identity
    with Narrator(voice, tmp_path / "speech") as narrator:
        clip = narrator.speech("s", "a", "en", "A voice file of my own.")
    assert_words_fit(clip, "A voice file of my own.")
    assert model.read_bytes() == bundled_piper_voice().read_bytes()  # patched in the cache, never in place


def test_a_piper_process_that_dies_fails_that_speech_only(tmp_path):
    with Narrator(parse_voice("en"), tmp_path) as narrator:
        narrator.speech("s", "a", "en", "Before.")
        pid = narrator.speaker.child_pid
        os.kill(pid, signal.SIGSTOP)  # alive, so the next speech goes to it (a dead one is replaced first)
        killer = threading.Timer(0.5, os.kill, (pid, signal.SIGKILL))  # and it dies while that speech waits
        killer.start()
        with pytest.raises(SpeechError, match="Piper .* died .*signal 9"):
            narrator.speech("s", "b", "en", "During.")
        assert narrator.speech("s", "c", "en", "After.").seconds > 0.2  # a new process for the next one


def test_festival_speaks_russian(tmp_path):
    with Narrator(parse_voice("ru"), tmp_path) as narrator:
        clip = narrator.speech("s", "a", "ru", RU)
        again = narrator.speech("s", "a", "ru", RU)
        assert narrator.synthesized == 1
    assert clip.rate == 16000 and clip.seconds > 2.0 and clip.words_from == "segments"
    assert clip.samples.tobytes() == again.samples.tobytes()
    assert_words_fit(clip, RU)
    assert_loudness(clip)


def test_a_festival_that_fails_is_a_speech_error():
    with pytest.raises(SpeechError, match="Festival"):
        FestivalSpeaker(FestivalVoice(name="no_such_voice")).speak("Привет.")


@pytest.mark.parametrize(("suffix", "codec", "rate"),
                         [(".wav", "pcm_s16le", None), (".flac", "flac", None), (".ogg", "libopus", 48000),
                          (".mp3", "libmp3lame", 44100)])
def test_recordings_in_four_formats(english, tmp_path, suffix, codec, rate):
    spoken = english.speech("s", "a", "en", EN)
    quiet = spoken.samples * 0.1  # recorded far too quietly: normalization brings it up
    (tmp_path / "layernorm-2d").mkdir()
    write_audio(tmp_path / "layernorm-2d" / f"line.en{suffix}", quiet, spoken.rate, codec, rate)
    voice = parse_voice(f"recordings:{tmp_path}")
    check_recordings(voice, "layernorm-2d", ["line"], "en")
    with Narrator(voice, tmp_path / "speech") as narrator:
        clip = narrator.speech("layernorm-2d", "line", "en", EN)
    assert clip.rate == (rate or spoken.rate)
    assert abs(clip.seconds - spoken.seconds) < 0.1  # encoders pad a little
    assert_words_fit(clip, EN)
    assert_loudness(clip)


def test_recordings_missing_doubled_or_unreadable_are_refused(tmp_path):
    (tmp_path / "layernorm-2d").mkdir()
    voice = RecordingsFolder(tmp_path)
    with pytest.raises(InputError, match="no recording of layernorm-2d step 'line' in en"):
        check_recordings(voice, "layernorm-2d", ["line"], "en")
    (tmp_path / "layernorm-2d" / "line.en.wav").write_bytes(b"RIFF not really a wave file")
    with pytest.raises(InputError, match="unreadable audio"):
        check_recordings(voice, "layernorm-2d", ["line"], "en")
    (tmp_path / "layernorm-2d" / "line.en.mp3").write_bytes(b"")
    with pytest.raises(InputError, match="recorded 2 times"):
        check_recordings(voice, "layernorm-2d", ["line"], "en")


def test_bad_voices_are_refused_in_one_line(tmp_path):
    (tmp_path / "lonely.onnx").write_bytes(b"\0")
    (tmp_path / "voice.txt").write_text("x")
    (tmp_path / "broken.onnx").write_bytes(b"\0")
    (tmp_path / "broken.onnx.json").write_text("{not json")
    for text, says in [("shout", "unknown voice 'shout'"), ("piper:", "unknown voice"), ("en:x", "unknown voice"),
                       (f"piper:{tmp_path}/none.onnx", "no such file"), (f"piper:{tmp_path}/voice.txt", "a .onnx file"),
                       (f"piper:{tmp_path}/lonely.onnx", "lonely.onnx.json is not beside it"),
                       (f"piper:{tmp_path}/broken.onnx", "unreadable config"),
                       (f"recordings:{tmp_path}/nothing", "no such folder")]:
        with pytest.raises(InputError, match=says) as refused:
            parse_voice(text)
        assert "\n" not in str(refused.value)
    assert parse_voice("none") == NoVoice()
    check_language(parse_voice("en"), "en")
    with pytest.raises(InputError, match="speaks en, not zh"):
        check_language(parse_voice("en"), "zh")
    with pytest.raises(InputError, match="speaks ru, not en"):
        check_language(parse_voice("ru"), "en")
    check_language(RecordingsFolder(tmp_path), "zh")


def test_a_voice_needs_its_package():
    """Run where piper cannot be imported (Python is told that it is not there)."""
    code = ("import sys; sys.modules['piper'] = None\n"
            "from scenes.render.voice.choice import parse_voice\n"
            "try:\n    parse_voice('en')\nexcept Exception as e:\n    print(type(e).__name__, e)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": f"{Path(__file__).resolve().parents[2]}"})
    assert done.stdout.strip() == "InputError this voice needs piper-tts: pip install 'normgeo[voice]'"
