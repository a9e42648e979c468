"""A narrated scene lasts its speech (the base scene's hook, with the real Piper voice), and a sound
track is muxed into MP4 (AAC) and WebM (Opus) with the video's packets untouched, its loudness read
back by FFmpeg's ebur128."""

from __future__ import annotations

from fractions import Fraction

import av
import numpy as np
import pytest
from manim import tempconfig

from scenes.kit.base import SPEECH_PAUSE
from scenes.kit.registry import entry
from scenes.render.media.audio_mux import add_sound_track
from scenes.render.specs import spec_class
from scenes.render.voice.choice import parse_voice
from scenes.render.voice.narrator import Narrator
from scenes.render.voice.scene_speech import SceneSpeech
from scenes.render.voice.track import TRACK_RATE, place_samples
from tests.audio_readback import decoded_audio, ebur128

SCENE = "layernorm-2d"


def build(media_dir, speech=None):
    options = {"dry_run": True, "media_dir": str(media_dir), "verbosity": "ERROR", "progress_bar": "none",
               "notify_outdated_version": False}
    with tempconfig(options):
        scene = entry(SCENE).load()(spec=spec_class(SCENE)(), speech=speech, skip_animations=True)
        scene.render()
    return scene


@pytest.fixture(scope="module")
def narrated(tmp_path_factory):
    media = tmp_path_factory.mktemp("media")
    with Narrator(parse_voice("en"), tmp_path_factory.mktemp("speech")) as narrator:
        speech = SceneSpeech(narrator, SCENE, "en")
        yield build(media), build(media, speech), speech


def test_a_step_lasts_its_speech_and_a_pause_and_animations_keep_their_run_times(narrated):
    silent, voiced, speech = narrated
    assert [s.key for s in silent.steps] == [s.key for s in voiced.steps] == list(speech.clips)
    assert [step for step, _ in voiced.spoken] == [s.key for s in voiced.steps]
    assert all(start == step.start for (_, start), step in zip(voiced.spoken, voiced.steps))
    assert silent.speech is None and silent.spoken == []
    silent_gaps, voiced_gaps = _play_lengths(silent), _play_lengths(voiced)
    for quiet, loud in zip(silent.steps, voiced.steps, strict=True):
        said = speech.clips[loud.key].seconds
        assert loud.end - loud.start >= said + SPEECH_PAUSE - 1e-9
        assert loud.end - loud.start >= quiet.end - quiet.start - 1e-9
        # the animations of a step start at the same offsets from its start as in the silent scene
        assert _offsets(voiced, loud) == pytest.approx(_offsets(silent, quiet))
    assert len(silent_gaps) == len(voiced_gaps)
    assert voiced.end_time > silent.end_time


def _offsets(scene, step):
    return [start - step.start for start in scene.play_starts.values() if step.start <= start < step.end]


def _play_lengths(scene):
    starts = sorted(scene.play_starts.values())
    return [b - a for a, b in zip(starts, starts[1:])]


def _video(path, codec: str, seconds: float = 3.0, fps: int = 15) -> None:
    with av.open(str(path), "w") as out:
        stream = out.add_stream(codec, rate=fps)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        for index in range(int(seconds * fps)):
            pixels = np.full((48, 64, 3), index * 5 % 256, dtype=np.uint8)
            frame = av.VideoFrame.from_ndarray(pixels, format="rgb24")
            frame.pts, frame.time_base = index, Fraction(1, fps)
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))


def _packets(path, kind: str) -> list[bytes]:
    with av.open(str(path)) as container:
        stream = container.streams.video[0] if kind == "video" else container.streams.audio[0]
        return [bytes(packet) for packet in container.demux(stream) if packet.size]




@pytest.mark.parametrize(("suffix", "video_codec", "audio_codec"), [(".mp4", "libx264", "aac"),
                                                                     (".webm", "libvpx-vp9", "opus")])
def test_the_sound_track_is_muxed_with_the_video_untouched(narrated, tmp_path, suffix, video_codec, audio_codec):
    _, _, speech = narrated
    clips = list(speech.clips.values())[:2]
    placed = [(0.2, clips[0]), (0.4 + clips[0].seconds, clips[1])]
    track = place_samples([(start, (clip.samples, clip.rate)) for start, clip in placed],
                          0.6 + clips[0].seconds + clips[1].seconds)
    silent, voiced = tmp_path / f"silent{suffix}", tmp_path / f"voiced{suffix}"
    _video(silent, video_codec, seconds=len(track) / TRACK_RATE)
    before = silent.read_bytes()
    add_sound_track(silent, track, TRACK_RATE, voiced)
    assert silent.read_bytes() == before
    assert _packets(voiced, "video") == _packets(silent, "video")
    samples, rate, name = decoded_audio(voiced)
    assert name == audio_codec and rate == TRACK_RATE
    assert abs(len(samples) / rate - len(track) / TRACK_RATE) < 0.1
    loudness, peak = ebur128(samples, rate)
    assert abs(loudness - -16.0) <= 0.5, loudness
    assert peak <= -1.0, peak
    assert not list(tmp_path.glob(".*"))
