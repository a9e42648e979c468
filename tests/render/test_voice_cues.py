"""A narrated render's subtitles follow its speech: the WebVTT (and SRT) written by a real narrated
render are read back and compared with the speech found in the rendered file's own audio (decoded
AAC; a word begins where the energy rises after a silence), independently of the alignment the
cues were made from; Festival's word times against the onsets in its own wave."""

from __future__ import annotations

import numpy as np
import pytest
import srt

from scenes.render.running.cache import input_hash
from scenes.render.running.job import RenderJob
from scenes.render.running.produce import render_job
from scenes.render.settings import RenderSettings
from scenes.render.specs import spec_class
from scenes.render.voice.choice import parse_voice
from scenes.render.voice.clip import WordTime, text_words, voiced_span
from scenes.render.voice.festival_speaker import token_words
from scenes.render.voice.narrator import Narrator
from scenes.render.voice.timed_text import TimedCue, compose_vtt, join_timed, parse_vtt
from tests.audio_readback import decoded_audio, speech_onsets

SCENE = "layernorm-2d"




@pytest.fixture(scope="module")
def narrated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cues")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NORMGEO_SPEECH_CACHE", str(folder / "speech"))
        job = RenderJob(SCENE, spec_class(SCENE)(), RenderSettings("l", "mp4", voice="en"), folder / "out")
        result = render_job(job, input_hash(job))
    assert result.status == "made", result.error
    return job, result


def test_cues_start_when_their_first_word_is_said(narrated):
    job, _ = narrated
    samples, rate, _ = decoded_audio(job.target)
    onsets = speech_onsets(samples, rate)
    cues = parse_vtt(job.target.with_suffix(".vtt").read_text(encoding="utf-8"))
    assert len(cues) >= 6 and len(onsets) >= len(cues) - 2
    # every cue after a pause (each step's first cue, and those split at sentence ends) starts on an onset
    errors = np.array([np.min(np.abs(onsets - cue.start / 1000)) for cue in cues])
    assert np.median(errors) <= 0.100, errors
    assert np.mean(errors <= 0.150) >= 0.75, errors
    # and every onset in the audio is a cue start or a word timestamp
    said = np.array(sorted([cue.start / 1000 for cue in cues] + [moment / 1000 for cue in cues for _, moment in cue.marks]))
    misses = np.array([np.min(np.abs(said - onset)) for onset in onsets])
    assert np.median(misses) <= 0.100 and np.max(misses) <= 0.250, misses


def test_word_timestamps_are_valid_webvtt_and_cover_every_word(narrated):
    job, result = narrated
    cues = parse_vtt(job.target.with_suffix(".vtt").read_text(encoding="utf-8"))
    for cue in cues:
        moments = [cue.start, *(moment for _, moment in cue.marks), cue.end]
        assert moments == sorted(moments) and len(set(moments)) == len(moments), cue
        assert all(not cue.text[at - 1].isalnum() for at, _ in cue.marks)  # a mark is at a word's start
    assert all(a.end <= b.start for a, b in zip(cues, cues[1:]))
    steps = result.record["steps"]
    assert " ".join(cue.text.replace("\n", " ") for cue in cues).split() == " ".join(s["text"] for s in steps).split()
    # most words have a mark of their own (eSpeak's unspoken ones, e.g. a dash, share the one before)
    words = sum(len(text_words(step["text"])) for step in steps)
    assert sum(len(cue.marks) + 1 for cue in cues) >= 0.9 * words
    # each step's first cue starts after the step does, within its leading silence
    for step in steps:
        first = next(cue for cue in cues if cue.start >= round(step["start"] * 1000))
        assert 0 <= first.start / 1000 - step["start"] < 0.4


def test_the_srt_has_the_same_cues(narrated):
    job, _ = narrated
    vtt = parse_vtt(job.target.with_suffix(".vtt").read_text(encoding="utf-8"))
    plain = list(srt.parse(job.target.with_suffix(".srt").read_text(encoding="utf-8")))
    assert [(round(c.start.total_seconds() * 1000), round(c.end.total_seconds() * 1000), c.content) for c in plain] == [
        (cue.start, cue.end, cue.text) for cue in vtt]


def test_joined_cues_are_shifted_with_their_word_times_and_never_overlap():
    first = [TimedCue(0, 2000, "a b c", ((2, 500), (4, 1900)))]
    second = [TimedCue(100, 900, "d e", ((2, 400),))]
    joined = join_timed([(first, 0.0), (second, 1.5)])
    assert joined == [TimedCue(0, 1600, "a b c", ((2, 500), (4, 1900))), TimedCue(1600, 2400, "d e", ((2, 1900),))]
    written = compose_vtt(joined)
    assert "<00:00:01.900>c" not in written  # a mark at or after its cue's end is left out
    assert parse_vtt(written)[1] == joined[1]


RU_PAUSED = "Возьмём 24 случайных входа. Вычтем среднее, и каждый ляжет на прямую x + y = 0. Затем масштаб."


def test_festival_word_times_follow_its_speech(tmp_path):
    """Festival's segment times, against the onsets in the wave it wrote: every onset after a pause
    is a word's start, and every word starts inside the clip's sound."""
    with Narrator(parse_voice("ru"), tmp_path) as narrator:
        clip = narrator.speech("s", "a", "ru", RU_PAUSED)
    assert clip.words_from == "segments"
    assert [word.word for word in clip.words] == text_words(RU_PAUSED)
    onsets = speech_onsets(clip.samples, clip.rate, silence_s=0.1)
    starts = np.array([word.start for word in clip.words])
    assert len(onsets) >= 3
    misses = np.array([np.min(np.abs(starts - onset)) for onset in onsets])
    assert np.median(misses) <= 0.100 and np.max(misses) <= 0.200, misses
    begin, end = voiced_span(clip.samples, clip.rate)
    assert begin - 0.1 <= starts[0] <= begin + 0.1 and clip.words[-1].end <= clip.seconds
    assert all(a.start <= b.start for a, b in zip(clip.words, clip.words[1:]))


def test_festival_tokens_that_do_not_pair_up_give_no_word_times():
    assert token_words("x + y", [(0.1, 0.2), (0.2, 0.3)], 1.0) is None  # three words, two tokens
    assert token_words("x + y", [(0.1, 0.2), None, (0.3, 0.4)], 1.0)[1] == WordTime("+", 0.2, 0.2)
