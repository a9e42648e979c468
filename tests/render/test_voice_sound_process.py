"""The sound process, real and in its own process: a clip it normalizes is the one the loudness code
gives in this process, byte for byte; a track whose clips are placed one by one and finished is the
file the whole-track limiter and the checked mux make here, byte for byte; the clips limited alone
are the whole track's samples exactly, down to the closest two clips may come; a child that dies or
hangs fails that request only; a forked copy starts its own; and a narrated render's own process,
cold or warm, never imports scipy's signal module or pyloudnorm (they are the sound process's)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import av
import numpy as np
import pytest

from scenes.render.voice.clip import Clip, SpeechError
from scenes.render.voice.loudness import normalize_loudness
from scenes.render.voice.peak_checked import add_checked_sound_track
from scenes.render.voice.building_track import BuildingTrack
from scenes.render.voice.sound_process import SoundProcess, close_sound_process, sound_process
from scenes.render.voice.track import REACH, TRACK_RATE, laid_pieces, limited_piece, place_samples
from tests.render.test_voice_timing import _video

ROOT = Path(__file__).resolve().parents[2]


def _speech_like(seconds: float, seed: int, rate: int = 22_050) -> Clip:
    """Noise in bursts with clicks (peaks the limiter must take down), at a rate to resample."""
    rng = np.random.default_rng(seed)
    count = int(seconds * rate)
    samples = rng.normal(0, 0.2, count) * (np.sin(np.arange(count) / rate * 2 * np.pi * 3) > -0.3)
    samples[:: rate // 50] = 0.99
    return Clip(samples.astype(np.float32), rate, (), "characters")


@pytest.fixture(autouse=True)
def own_sound_process():
    close_sound_process()
    yield
    close_sound_process()


def test_a_clip_normalized_there_is_the_clip_normalized_here():
    clip = _speech_like(1.3, 1)
    there = sound_process().normalized(clip)
    here = normalize_loudness(clip)
    assert there.samples.dtype == np.float32 and there.samples.tobytes() == here.samples.tobytes()
    assert there.rate == clip.rate and there.words == clip.words


def test_a_silent_clip_is_a_speech_error_and_the_process_serves_the_next():
    silent = Clip(np.zeros(8000, np.float32), 16_000, (), "characters")
    with pytest.raises(SpeechError, match="silent"):
        sound_process().normalized(silent)
    assert len(sound_process().normalized(_speech_like(0.5, 2)).samples) == int(0.5 * 22_050)


def _audio_packets(path: Path) -> list[tuple[bytes, int]]:
    with av.open(str(path)) as container:
        stream = container.streams.audio[0]
        return [(bytes(packet), packet.pts) for packet in container.demux(stream) if packet.size]


@pytest.mark.parametrize(("suffix", "codec"), [(".mp4", "libx264"), (".webm", "libvpx-vp9")])
def test_a_track_built_clip_by_clip_while_the_video_renders_is_the_track_made_at_once(tmp_path, suffix, codec):
    """Placed one by one (limited and encoded as far as final in the sound process), finished when
    the video exists: the file (MP4: byte for byte; WebM's muxer writes a fresh segment id) and its
    sound packets are those the whole-track limiter and the checked mux make here."""
    placed = [(0.0, normalize_loudness(_speech_like(1.2, 3))), (2.0, normalize_loudness(_speech_like(1.5, 4))),
              (4.1, normalize_loudness(_speech_like(0.9, 5)))]
    track = sound_process().track(suffix)
    for start, clip in placed:
        track.place(start, clip)
    video = tmp_path / f"video{suffix}"
    _video(video, codec, seconds=6.0)  # (made after the clips were placed, as a render's is)
    peak, gain = track.finish(video, 6.0, tmp_path / f"there{suffix}")
    whole = place_samples([(start, (clip.samples, clip.rate)) for start, clip in placed], 6.0)
    assert (peak, gain) == add_checked_sound_track(video, whole, TRACK_RATE, tmp_path / f"here{suffix}")
    assert _audio_packets(tmp_path / f"there{suffix}") == _audio_packets(tmp_path / f"here{suffix}")
    if suffix == ".mp4":
        assert (tmp_path / "there.mp4").read_bytes() == (tmp_path / "here.mp4").read_bytes()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([video.name, f"there{suffix}", f"here{suffix}"])


@pytest.mark.parametrize("case", ["too close", "out of order", "past the end", "another container"])
def test_where_the_shortcut_does_not_hold_the_track_is_made_whole(tmp_path, case):
    clip = normalize_loudness(_speech_like(0.6, 9))
    length = round(clip.seconds * TRACK_RATE)
    starts = {"too close": [0.5, 0.5 + (length + 2 * REACH - 1) / TRACK_RATE], "out of order": [2.0, 0.5],
              "past the end": [0.5, 2.7], "another container": [0.5, 2.0]}[case]
    building = BuildingTrack(".webm" if case == "another container" else ".mp4")
    for start in starts:
        building.place(start, clip.samples, clip.rate)
    video = tmp_path / "video.mp4"
    _video(video, "libx264", seconds=3.0)
    assert building.finish(video, 3.0, tmp_path / "there.mp4") == add_checked_sound_track(
        video, place_samples([(start, (clip.samples, clip.rate)) for start in starts], 3.0), TRACK_RATE,
        tmp_path / "here.mp4")
    assert (tmp_path / "there.mp4").read_bytes() == (tmp_path / "here.mp4").read_bytes()


@pytest.mark.parametrize("gap", [2 * REACH, 2 * REACH + 1, 5000])
def test_clips_limited_alone_are_the_whole_tracks_samples_exactly(gap):
    """Down to the closest two clips may come (twice the limiter's reach apart), with a click at
    either edge of each clip, where a neighbour's peaks would lower its gain if it could reach."""
    clips = [_speech_like(0.4, seed, TRACK_RATE) for seed in range(4)]
    for clip in clips:
        clip.samples[0] = clip.samples[-1] = 1.0
    starts, first = [], 0
    for clip in clips:
        starts.append(first / TRACK_RATE)
        first += len(clip.samples) + gap
    seconds = first / TRACK_RATE
    whole = place_samples([(start, (clip.samples, clip.rate)) for start, clip in zip(starts, clips)], seconds)
    laid = laid_pieces([limited_piece(start, clip.samples, clip.rate) for start, clip in zip(starts, clips)], seconds)
    assert laid is not None and laid.tobytes() == whole.tobytes()


def test_pieces_too_close_or_past_the_end_are_refused_not_laid_wrong():
    clip = _speech_like(0.2, 6, TRACK_RATE)
    length = len(clip.samples)
    close = [limited_piece(0.0, clip.samples, TRACK_RATE), limited_piece((length + 2 * REACH - 1) / TRACK_RATE,
                                                                          clip.samples, TRACK_RATE)]
    assert laid_pieces(close, 2.0) is None
    assert laid_pieces([limited_piece(0.0, clip.samples, TRACK_RATE)], (length + REACH - 1) / TRACK_RATE) is None


def test_a_child_that_dies_fails_that_request_and_the_next_starts_a_new_one(tmp_path):
    """The first child dies reading its first request (exit 3); the second is the real one."""
    mark = tmp_path / "died-once"
    program = (f"import os, runpy, sys\nif not os.path.exists({str(mark)!r}):\n"
               f"    open({str(mark)!r}, 'w').close(); sys.stdin.buffer.readline(); sys.exit(3)\n"
               "runpy.run_module('scenes.render.voice.sound_child', run_name='__main__')\n")
    process = SoundProcess(command=[sys.executable, "-c", program])
    try:
        with pytest.raises(SpeechError, match="sound process died over 'normalize': exit status 3"):
            process.normalized(_speech_like(0.3, 7))
        clip = _speech_like(0.3, 7)
        assert process.normalized(clip).samples.tobytes() == normalize_loudness(clip).samples.tobytes()
    finally:
        process.close()


def test_a_child_that_hangs_is_stopped_and_that_request_fails():
    hanging = SoundProcess(command=[sys.executable, "-c", "import time; time.sleep(60)"], timeout=1.0)
    try:
        with pytest.raises(SpeechError, match="no answer to 'normalize' within 1 s"):
            hanging.normalized(_speech_like(0.2, 8))
    finally:
        hanging.close()


def test_a_forked_copy_starts_its_own_and_never_uses_its_parents():
    parents = sound_process()
    parents.start()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        mine = sound_process()
        os.write(write, b"fresh" if mine is not parents and mine.child_pid is None else b"shared")
        os._exit(0)
    os.close(write)
    answer = os.read(read, 16)
    os.waitpid(child, 0)
    assert answer == b"fresh" and sound_process() is parents and parents.child_pid is not None


def test_a_narrated_renders_own_process_never_imports_scipy_signal_cold_or_warm(tmp_path):
    env = {**os.environ, "NORMGEO_SPEECH_CACHE": str(tmp_path / "cache")}
    for run in ("cold", "warm"):
        argv = ["normgeo", "render", "layernorm-2d", "-q", "l", "--voice", "en", "--jobs", "1", "--quiet",
                "--out", str(tmp_path / run)]
        probe = ("import atexit, sys\n"
                 "atexit.register(lambda: print('scipy.signal' in sys.modules, 'pyloudnorm' in sys.modules))\n"
                 "from scenes.cli.main import main\n"
                 f"sys.argv = {argv!r}\n"
                 "main()\n")
        done = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, timeout=600, capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split()[-2:] == ["False", "False"], (run, done.stdout)
        assert len(list((tmp_path / run).glob("*/*.voice-en.*.mp4"))) == 1


def test_the_time_limit_is_read_at_each_request_not_when_the_process_was_made(monkeypatch):
    """The process outlives the render that made it: a later render's limit is the one that holds."""
    monkeypatch.setenv("NORMGEO_SPEECH_TIMEOUT", "0.001")
    process = sound_process()
    monkeypatch.setenv("NORMGEO_SPEECH_TIMEOUT", "120")
    assert process.timeout == 120.0 and len(process.normalized(_speech_like(0.3, 11)).samples) > 0


def test_a_process_that_exits_does_not_wait_for_its_sound_process_which_then_leaves_too():
    """At exit the render closes the sound process's input and goes (its child's own exit, about
    0.15 s of module teardown, used to hold the render up); the child, every request answered, reads
    the end of its input and exits by itself: nothing is left running."""
    code = ("import sys\n"
            "from scenes.render.voice.sound_process import sound_process\n"
            "process = sound_process()\n"
            "process.start()\n"
            "from tests.render.test_voice_sound_process import _speech_like\n"
            "process.normalized(_speech_like(0.5, 1))\n"
            "print(process.child_pid, flush=True)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    child = int(done.stdout.split()[-1])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(child):
        time.sleep(0.05)
    assert not _alive(child), "the sound process outlived its render"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:  # a zombie (not yet reaped by init) is not alive
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False
