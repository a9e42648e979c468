"""The GIF's loop count and frame delays, read back from the file (the bytes of its NETSCAPE2.0
block and its Graphic Control Extensions, and Pillow's decoder), not from the encoder's own stats.

A GIF that plays once instead of forever, or whose delays drift from the source's timing, would
look right in every other test."""

import struct

import numpy as np
import pytest
from PIL import Image

from scenes.render.media.gif import encode_gif


def frames(delays_s):
    """Distinct 64×48 frames (a bright bar moving across a dark ground), each shown for its delay."""
    out = []
    for index, delay in enumerate(delays_s):
        frame = np.full((48, 64, 3), 20, dtype=np.uint8)
        frame[10:38, 4 + 8 * index:12 + 8 * index] = (240, 200, 40)
        out.append((frame, delay))
    return out


def netscape_loops(data: bytes) -> int | None:
    """The loop count of the file's NETSCAPE2.0 application extension, or None if it has none."""
    at = data.find(b"\x21\xff\x0bNETSCAPE2.0")
    if at < 0:
        return None
    sub = data[at + 14:at + 19]
    assert sub[0] == 3 and sub[1] == 1 and sub[4] == 0
    return struct.unpack("<H", sub[2:4])[0]


def control_delays_cs(data: bytes) -> list[int]:
    """Each frame's delay in centiseconds from its Graphic Control Extension (21 F9 04 …)."""
    delays, at = [], data.find(b"\x21\xf9\x04")
    while at >= 0:
        delays.append(struct.unpack("<H", data[at + 4:at + 6])[0])
        at = data.find(b"\x21\xf9\x04", at + 8)
    return delays


def decoded_delays_ms(path) -> list[int]:
    with Image.open(path) as image:
        out = []
        for index in range(image.n_frames):
            image.seek(index)
            out.append(image.info["duration"])
        return out


DELAYS = [0.5, 0.25, 1.0, 0.1, 2.0]


def test_the_default_gif_loops_forever(tmp_path):
    target = tmp_path / "a.gif"
    encode_gif(frames(DELAYS), target, width=64)
    data = target.read_bytes()
    assert netscape_loops(data) == 0
    with Image.open(target) as image:
        assert image.info.get("loop") == 0


@pytest.mark.parametrize("loop", [1, 3, 65535])
def test_a_loop_count_is_written_as_given(loop, tmp_path):
    target = tmp_path / "a.gif"
    encode_gif(frames(DELAYS), target, width=64, loop=loop)
    assert netscape_loops(target.read_bytes()) == loop


def test_play_once_writes_no_loop_block(tmp_path):
    target = tmp_path / "a.gif"
    encode_gif(frames(DELAYS), target, width=64, loop=-1)
    assert netscape_loops(target.read_bytes()) is None


def test_frame_delays_read_back_equal_the_source_timing(tmp_path):
    """0.5, 0.25, 1, 0.1 and 2 s are 50, 25, 100, 10 and 200 cs, in the file and in Pillow."""
    target = tmp_path / "a.gif"
    encode_gif(frames(DELAYS), target, width=64, fps=50)
    assert control_delays_cs(target.read_bytes()) == [50, 25, 100, 10, 200]
    assert decoded_delays_ms(target) == [500, 250, 1000, 100, 2000]


def test_a_repeated_frame_lengthens_the_delay_before_it_and_the_total_is_kept(tmp_path):
    """Frames 2 and 3 equal: one frame of 0.5 + 0.25 s; the total stays 3.85 s to the centisecond."""
    source = frames(DELAYS)
    source[2] = (source[1][0].copy(), source[2][1])
    target = tmp_path / "a.gif"
    encode_gif(source, target, width=64, fps=50)
    assert control_delays_cs(target.read_bytes()) == [50, 125, 10, 200]
    assert sum(decoded_delays_ms(target)) == 3850


def test_frames_thinned_to_the_frame_rate_keep_the_running_total(tmp_path):
    """30 distinct frames of 1/30 s at 15 fps: the GIF lasts 1 s (whole centiseconds rounded on
    the running total: no frame shorter than 6 cs or longer than 7 cs)."""
    target = tmp_path / "a.gif"
    source = []
    for index in range(30):
        frame = np.full((48, 64, 3), 20, dtype=np.uint8)
        frame[5:40, index * 2:index * 2 + 3] = 250
        source.append((frame, 1 / 30))
    encode_gif(source, target, width=64, fps=15)
    delays = control_delays_cs(target.read_bytes())
    assert sum(delays) == 100
    assert set(delays) <= {6, 7}
