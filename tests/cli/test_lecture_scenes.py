"""``normgeo lecture --scenes ID[,ID…]``: a lecture of the chosen scenes in the order given, under a
name of its own (never the whole lecture's); unknown, empty or repeated ids are one line, exit 2,
nothing rendered."""

from __future__ import annotations

import json

import av
import pytest
import srt

from scenes.kit.registry import LECTURE_ORDER, entry
from scenes.render.voice.timed_text import parse_vtt
from tests.audio_readback import decoded_audio, ebur128


@pytest.mark.parametrize(("scenes", "says"), [
    ("layernorm-2d,layernorm2d", "unknown scene 'layernorm2d'"),
    ("layernorm-2d,,sphere-radii", "an empty scene id"),
    ("sphere-radii,layernorm-2d,sphere-radii", "sphere-radii given twice"),
])
def test_bad_scene_lists_exit_two_before_rendering(run, tmp_path, scenes, says):
    result = run("lecture", "--scenes", scenes, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert says in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_the_help_says_what_scenes_does(run):
    help_text = " ".join(run("lecture", "--help").output.split())
    assert "--scenes ID[,ID…]" in help_text and "in the order given" in help_text


@pytest.mark.render
def test_a_short_narrated_lecture_of_chosen_scenes_in_the_order_given(run, tmp_path, monkeypatch):
    """Two scenes, the later one of the lecture first, narrated in English on two worker processes:
    their chapters in that order at the scenes' lengths, one sound track at −16 LUFS and ≤ −1 dBTP
    (FFmpeg's ebur128), cues that never overlap, and a tagged name beside no whole lecture."""
    monkeypatch.setenv("NORMGEO_SPEECH_CACHE", str(tmp_path / "speech"))
    chosen = ["direction-not-length", "layernorm-2d"]
    assert LECTURE_ORDER.index(chosen[0]) > LECTURE_ORDER.index(chosen[1])
    result = run("lecture", "--scenes", ",".join(chosen), "--voice", "en", "-q", "l", "--jobs", 2, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    [video] = (tmp_path / "lecture").glob("lecture.en.dark.????????.voice-en.480p15.mp4")
    assert not (tmp_path / "lecture" / "lecture.en.dark.voice-en.480p15.mp4").exists()
    with av.open(str(video)) as container:
        chapters = [(float(c["start"] * c["time_base"]), float(c["end"] * c["time_base"]), c["metadata"]["title"])
                    for c in container.chapters()]
        assert [s.type for s in container.streams if s.type != "data"] == ["video", "audio"]
        seconds = container.duration / av.time_base
    assert [title for *_, title in chapters] == [entry(scene).title("en").replace("$", "") for scene in chosen]
    records = json.loads((tmp_path / "manifest.json").read_text())["artifacts"]
    lengths = [records[f"{scene}/{scene}.en.dark.voice-en.480p15.mp4"]["duration_s"] for scene in chosen]
    assert chapters[0][0] == 0 and chapters[1][0] == pytest.approx(lengths[0], abs=1 / 15)
    assert seconds == pytest.approx(sum(lengths), abs=2 / 15)
    samples, rate, _ = decoded_audio(video)
    loudness, peak = ebur128(samples, rate)
    assert abs(loudness + 16) <= 0.5 and peak <= -1.0, (loudness, peak)
    cues = list(srt.parse(video.with_suffix(".srt").read_text(encoding="utf-8")))
    assert len(cues) == len(parse_vtt(video.with_suffix(".vtt").read_text(encoding="utf-8"))) > 4
    for before, after in zip(cues, cues[1:]):
        assert before.end <= after.start, (before, after)
