"""``normgeo render --voice``: a narrated video with its sound track at −16 LUFS (read back by FFmpeg's
ebur128), steps as long as their speech, recorded in the manifest; bad voices refused in one line."""

from __future__ import annotations

import json
import re

import av
import pytest
import srt

from scenes.kit.registry import entry
from scenes.render.lecture import join_lecture
from scenes.render.running.cache import input_hash
from scenes.render.running.job import RenderJob
from scenes.render.running.produce import render_job
from scenes.render.settings import RenderSettings
from scenes.render.specs import spec_class
from scenes.render.voice.timed_text import parse_vtt
from tests.audio_readback import decoded_audio, ebur128

NARRATED = "layernorm-2d/layernorm-2d.en.dark.voice-en.480p15.mp4"


@pytest.mark.render
def test_a_narrated_render_has_its_voice(run, tmp_path, monkeypatch):
    monkeypatch.setenv("NORMGEO_SPEECH_CACHE", str(tmp_path / "speech"))
    result = run("render", "layernorm-2d", "-q", "l", "--voice", "en", "--out", tmp_path / "out", "-j", "1")
    assert result.exit_code == 0, result.output
    video = tmp_path / "out" / NARRATED
    with av.open(str(video)) as container:
        assert [stream.type for stream in container.streams] == ["video", "audio"]
        seconds = container.duration / 1e6
        stream = container.streams.video[0]
        shown = float(stream.duration * stream.time_base)
        frames = sum(1 for packet in container.demux(stream) if packet.size)
    # a variable frame rate: each held frame encoded twice, not 15 times a second; the video lasts as the sound
    assert frames < 0.6 * 15 * seconds and abs(shown - seconds) < 0.1, (frames, shown, seconds)
    samples, rate, codec = decoded_audio(video)
    assert codec == "aac" and abs(len(samples) / rate - seconds) < 0.2
    loudness, peak = ebur128(samples, rate)
    assert abs(loudness + 16.0) <= 0.5 and peak <= -1.0, (loudness, peak)
    record = json.loads((tmp_path / "out" / "manifest.json").read_text())
    entry = next(value for key, value in _records(record) if key == NARRATED)
    assert entry["voice"].startswith("piper:en_US-joe-medium.onnx:")
    steps = {step["key"]: step for step in entry["steps"]}
    for said in entry["speech"]:
        step = steps[said["step"]]
        # the pause is 0.5 s less at most one frame (15 fps here): Manim's frames round the scene's clock
        assert step["start"] == said["start"] and step["end"] - step["start"] >= said["seconds"] + 0.5 - 1 / 15 - 0.002
    assert not (tmp_path / "out" / "layernorm-2d" / "layernorm-2d.en.dark.480p15.mp4").exists()  # the silent name is not used
    again = run("render", "layernorm-2d", "-q", "l", "--voice", "en", "--out", tmp_path / "out", "-j", "1")
    assert "1 cached" in again.output


def _records(manifest: dict):
    records = manifest.get("artifacts", manifest)
    return records.items()


@pytest.mark.parametrize(("voice", "lang", "says"), [
    ("shout", "en", "unknown voice 'shout'"),
    ("en", "zh", "speaks en, not zh"),
    ("ru", "en", "speaks ru, not en"),
    ("piper:/no/such.onnx", "en", "no such file"),
    ("recordings:{tmp}", "en", "no recording of layernorm-2d step 'line' in en"),
])
def test_bad_voices_exit_two_before_rendering(run, tmp_path, voice, lang, says):
    result = run("render", "layernorm-2d", "--voice", voice.format(tmp=tmp_path), "--lang", lang, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert says in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.mp4"))


@pytest.mark.render
def test_a_narrated_lecture_keeps_one_track_and_its_chapters(tmp_path, monkeypatch):
    """Two narrated scenes joined as the lecture joins them: chapters, one AAC track as long as the
    video, at −16 LUFS and ≤ −1 dBTP read back."""
    monkeypatch.setenv("NORMGEO_SPEECH_CACHE", str(tmp_path / "speech"))
    settings = RenderSettings("l", "mp4", voice="en")
    jobs = [RenderJob(scene_id, spec_class(scene_id)(), settings, tmp_path / "out") for scene_id in
            ("layernorm-2d", "radial-projection")]
    for job in jobs:
        assert render_job(job, input_hash(job)).status == "made"
    lecture = join_lecture(jobs)
    # two scenes, not the whole lecture: the name carries the selection's tag
    assert re.fullmatch(r"lecture\.en\.dark\.[0-9a-f]{8}\.voice-en\.480p15\.mp4", lecture.path.name), lecture.path.name
    with av.open(str(lecture.path)) as container:
        # (the MP4 muxer writes chapters as a text track too: a data stream)
        assert [stream.type for stream in container.streams if stream.type != "data"] == ["video", "audio"]
        assert [chapter["metadata"]["title"] for chapter in container.chapters()] == [
            entry(job.scene_id).title("en").replace("$", "") for job in jobs]
    samples, rate, codec = decoded_audio(lecture.path)
    assert codec == "aac" and abs(len(samples) / rate - lecture.duration) < 0.2
    loudness, peak = ebur128(samples, rate)
    assert abs(loudness + 16.0) <= 0.5 and peak <= -1.0, (loudness, peak)
    # the joined WebVTT keeps every scene's word timestamps, shifted to its chapter (the SRT has the same cues)
    joined = parse_vtt(lecture.path.with_suffix(".vtt").read_text(encoding="utf-8"))
    expected = [cue.shifted(round(start * 1000)) for job, (start, _) in zip(jobs, lecture.spans)
                for cue in parse_vtt(job.target.with_suffix(".vtt").read_text(encoding="utf-8"))]
    assert [(c.start, c.text, c.marks) for c in joined] == [(c.start, c.text, c.marks) for c in expected]
    assert sum(len(c.marks) for c in joined) > 2 * len(joined)
    plain = list(srt.parse(lecture.path.with_suffix(".srt").read_text(encoding="utf-8")))
    assert [round(c.start.total_seconds() * 1000) for c in plain] == [c.start for c in joined]
