"""A narrated render's variable frame rate: each held frame encoded at the start and the end of its
hold (``HeldOnceSegmentEncoder``), read back against the constant-rate video of the same scene:
the same picture on screen at every frame time, the same length, a sound timeline (each frame lasts
until the next begins), far fewer frames; and Manim's join of such segments kept sound too."""

import shutil
import tempfile
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from scenes.kit.registry import entry
from scenes.render.manim_door.run import manim_options
from scenes.render.settings import RenderSettings
from tests.helpers import in_fresh_process
from tests.render.test_video_encoder import x264_settings

TINY = (192, 108)
SCENE = "scale-invariance"


def render_here(target: Path, fmt: str, held_once: bool) -> None:
    """The scene at 192×108 through the pipeline's writer, at a constant or a variable frame rate."""
    from manim import tempconfig

    from scenes.render.manim_door.run import _scene
    from scenes.render.manim_door.writer import HeldFrameFileWriter, HeldOnceFileWriter

    scratch = Path(tempfile.mkdtemp(dir=target.parent))
    options = manim_options(SCENE, RenderSettings("l", fmt, False, TINY), scratch, held_once=held_once)
    with tempconfig(options | {"write_to_movie": True}):
        scene = _scene(SCENE, entry(SCENE).load().spec_class(),
                       writer=HeldOnceFileWriter if held_once else HeldFrameFileWriter)
        scene.render()
        artifact = Path(scene.renderer.file_writer.output_plan.primary_artifact)
    shutil.copy(artifact, target)


@pytest.fixture(scope="module")
def videos(tmp_path_factory):
    folder = tmp_path_factory.mktemp("held-once")
    made = {}
    for fmt in ("mp4", "webm"):
        for held_once in (False, True):
            made[fmt, held_once] = folder / f"{'vfr' if held_once else 'cfr'}.{fmt}"
            in_fresh_process(render_here, made[fmt, held_once], fmt, held_once)
    return made


def timeline(path: Path) -> tuple[list[tuple[Fraction, np.ndarray]], Fraction]:
    """(start, RGB picture) of every decoded frame, and the video stream's end, in seconds."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        frames = [(Fraction(frame.pts) * stream.time_base, frame.to_ndarray(format="rgb24"))
                  for frame in container.decode(stream)]
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        packets = [packet for packet in container.demux(stream) if packet.pts is not None]
        if stream.codec_context.name == "h264":  # MP4 keeps each packet's duration: the stream ends with the last
            end = max(Fraction(p.pts + p.duration) * stream.time_base for p in packets)
        else:  # WebM keeps none: the container's duration
            end = Fraction(container.duration, av.time_base)
    return frames, end


@pytest.mark.parametrize("fmt", ["mp4", "webm"])
def test_the_variable_rate_shows_the_same_picture_at_every_frame_time(videos, fmt):
    """Every frame time of the constant-rate video shows, in the variable-rate one, the same picture
    up to the encoder's loss (mean difference under 1 level of 255; two encodes of one picture differ
    by that much at most here), and the variable-rate video has under half as many frames: this scene's
    waits are held frames."""
    steady, steady_end = timeline(videos[fmt, False])
    held, held_end = timeline(videos[fmt, True])
    assert len(held) < len(steady) / 2
    assert abs(held_end - steady_end) <= Fraction(1, 1000)
    starts = [start for start, _ in held]
    assert starts == sorted(starts) and starts[0] == 0
    for start, picture in steady:
        shown = held[np.searchsorted(np.array(starts, dtype=object), start, side="right") - 1][1]
        assert np.abs(shown.astype(int) - picture.astype(int)).mean() < 1.0, f"at {float(start):.3f} s"


def test_each_frame_of_the_variable_rate_mp4_lasts_until_the_next_begins(videos):
    """The MP4's timeline as a player reads it: packet durations add up to the stream's length and
    each ends where the next starts (Manim's join lets FFmpeg guess decoding times; with B-frames and
    unequal durations it guessed wrong, and the stream's length came out a quarter short)."""
    with av.open(str(videos["mp4", True])) as container:
        stream = container.streams.video[0]
        packets = sorted((p.pts, p.dts, p.duration) for p in container.demux(stream) if p.pts is not None)
        length = stream.duration
    assert all(pts == dts for pts, dts, _ in packets)  # decoded in the order shown: no B-frames
    assert all(a + duration == b for (a, _, duration), (b, _, _) in zip(packets, packets[1:]))
    assert sum(duration for _, _, duration in packets) == length


def test_only_the_variable_rate_turns_b_frames_off(videos):
    assert " bframes=0 " in x264_settings(videos["mp4", True])
    assert " bframes=3 " in x264_settings(videos["mp4", False])
