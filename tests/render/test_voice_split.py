"""``--voice`` with ``--split``: every part holds each step as long as its speech (the skipped ones
too), so the joined video has the unsplit narrated render's frames, step times and cues, and one
sound track laid over the whole of it, at −16 LUFS and ≤ −1 dBTP read back by FFmpeg's ebur128."""

from __future__ import annotations

import json

import av
import numpy as np
import pytest
from click.testing import CliRunner

from scenes.cli.main import cli
from scenes.render.voice.timed_text import parse_vtt
from tests.audio_readback import decoded_audio, ebur128
from tests.helpers import assert_split_equals_unsplit

NAME = "layernorm-2d/layernorm-2d.en.dark.voice-en.480p15.mp4"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.render
def test_a_split_narrated_render_equals_the_unsplit_one(tmp_path, monkeypatch):
    """layernorm-2d at -q l, narrated in English, whole and in two parts on two worker processes:
    the same frames, duration (within a frame), step times, speech starts, cues with their word
    marks, and a sound track as long as the video with the same loudness and true peak."""
    monkeypatch.setenv("NORMGEO_SPEECH_CACHE", str(tmp_path / "speech"))
    whole, split = tmp_path / "whole", tmp_path / "split"
    made = run("render", "layernorm-2d", "-q", "l", "--voice", "en", "--jobs", 1, "--out", whole)
    assert made.exit_code == 0, made.output
    made = run("render", "layernorm-2d", "-q", "l", "--voice", "en", "--jobs", 2, "--split", 2, "--out", split)
    assert made.exit_code == 0, made.output
    records = assert_split_equals_unsplit(whole, split, NAME)  # frames, SRT cues (1 ms), steps (2 ms)
    assert records[1]["split_parts"] == 2
    assert records[1]["speech"] == records[0]["speech"] != []
    assert records[1]["voice"] == records[0]["voice"]
    vtts = [parse_vtt((folder / NAME).with_suffix(".vtt").read_text(encoding="utf-8")) for folder in (whole, split)]
    assert vtts[1] == vtts[0] and sum(len(cue.marks) for cue in vtts[1]) > len(vtts[1])
    readings = []
    for folder in (whole, split):
        with av.open(str(folder / NAME)) as container:
            assert [stream.type for stream in container.streams] == ["video", "audio"]
            seconds = float(container.streams.video[0].duration * container.streams.video[0].time_base)
        samples, rate, codec = decoded_audio(folder / NAME)
        assert codec == "aac" and abs(len(samples) / rate - seconds) < 0.1
        readings.append((seconds, samples, rate, *ebur128(samples, rate)))
    (seconds, samples, rate, loudness, peak), (split_seconds, split_samples, _, split_loudness, split_peak) = readings
    assert abs(split_seconds - seconds) <= 1 / 15
    assert abs(loudness + 16) <= 0.5 and abs(split_loudness + 16) <= 0.5, (loudness, split_loudness)
    assert peak <= -1.0 and split_peak <= -1.0, (peak, split_peak)
    assert abs(split_loudness - loudness) <= 0.1
    # the speech sits at the same samples: the two decoded tracks correlate almost perfectly
    common = min(len(samples), len(split_samples))
    assert np.corrcoef(samples[:common], split_samples[:common])[0, 1] > 0.99
    record = json.loads((split / "manifest.json").read_text())["artifacts"][NAME]
    assert record["true_peak_dbtp"] <= -1.0
