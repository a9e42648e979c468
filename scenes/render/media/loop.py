"""A small looping video to use instead of a GIF:
``<video autoplay muted loop playsinline src="….mp4"></video>``.

H.264 in MP4 (every browser; ``+faststart`` so it starts playing while it loads) or VP9 in
WebM. 4:2:0 chroma, as browsers require, so thin coloured lines lose a little colour: its SSIM
on RGB is measured like any other encoding. Frames are streamed; held frames are repeated at
the constant frame rate (an unchanged frame costs an H.264 encoder a few bytes), which is what
makes the loop seamless in every player.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from scenes.render.files import atomic_target
from scenes.render.media.quality import scaled_timed_frames

__all__ = ["VideoStats", "CODECS", "encode_loop_video"]

# codec → (container suffix, encoder, options)
CODECS = {
    "h264": (".mp4", "libx264", {"preset": "slow", "tune": "animation"}),
    "vp9": (".webm", "libvpx-vp9", {"b": "0", "row-mt": "1", "deadline": "good", "cpu-used": "2"}),
}


@dataclass(frozen=True)
class VideoStats:
    path: Path
    size_bytes: int
    width: int
    height: int
    frames: int
    source_frames: int
    duration_s: float
    codec: str
    crf: int
    encode_seconds: float


def encode_loop_video(frames: Iterable[tuple[np.ndarray, float]], target: Path, width: int, fps: int = 15,
                      crf: int = 28, codec: str = "h264", keyframe_seconds: float = 10.0,
                      pixel_format: str = "yuv420p") -> VideoStats:
    """Encode (RGB uint8 frame, seconds shown) pairs, read once, as a silent constant-rate video
    of ``width`` pixels (even, never wider than the frames) at ``fps``. ``crf``: lower is better
    and larger (H.264 0..51, VP9 0..63). ``pixel_format`` "yuv444p" keeps full colour on thin
    lines (H.264 High 4:4:4, VP9 profile 1) but Safari and most hardware decoders cannot play it:
    for ``<video>`` on the web keep 4:2:0. Written atomically to ``target``."""
    if codec not in CODECS:
        raise ValueError(f"unknown codec {codec!r}; valid: {', '.join(CODECS)}")
    suffix, encoder_name, options = CODECS[codec]
    started = time.monotonic()
    target = Path(target)
    count = written = ticks = 0
    size = None
    with atomic_target(target, suffix=".partial" + suffix) as temporary:
        container_options = {"movflags": "+faststart"} if suffix == ".mp4" else {}
        with av.open(str(temporary), "w", format=suffix[1:], options=container_options) as output:
            stream = None
            last = None
            for frame, start_tick, end_tick in scaled_timed_frames(frames, width, fps, fps):
                count += 1
                if frame is not None:
                    last = frame[:, : frame.shape[1] // 2 * 2]  # 4:2:0 needs an even width
                    if stream is None:
                        size = (last.shape[1], last.shape[0])
                        stream = output.add_stream(encoder_name, rate=fps)
                        stream.width, stream.height, stream.pix_fmt = size[0], size[1], pixel_format
                        stream.options = {**options, "crf": str(crf), "g": str(max(1, int(keyframe_seconds * fps)))}
                        stream.time_base = Fraction(1, fps)
                if last is None:
                    continue
                while ticks < end_tick:
                    picture = av.VideoFrame.from_ndarray(np.ascontiguousarray(last), format="rgb24")
                    picture.pts, picture.time_base = ticks, Fraction(1, fps)
                    for packet in stream.encode(picture):
                        output.mux(packet)
                    ticks += 1
                    written += 1
            if stream is None:
                raise ValueError("no frames to encode")
            for packet in stream.encode(None):
                output.mux(packet)
    return VideoStats(target, target.stat().st_size, size[0], size[1], written, count, ticks / fps, codec, crf,
                      time.monotonic() - started)
