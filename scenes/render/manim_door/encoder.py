"""How Manim's video segments are encoded: x264 preset, encoders in flight, held frames converted once.

Plain Manim spends most of a 1080p60 render in its encoder thread, not in drawing: each shown
frame is copied into a PyAV frame and converted from RGBA to YUV 4:2:0 (about 9 ms at 1080p on
this project's machine), and a held frame (a ``wait``) is converted again for every repeat; then
x264 runs at its ``medium`` preset, and the next animation waits until the last segment is encoded.
Here a held frame is converted once and the same picture is encoded ``repeat`` times (the pixels
x264 receives are the same, so the bitstream is too), the preset is ``veryfast`` by default with
Manim's CRF 23, and two segments may be encoding while the next one is drawn.
"""

from __future__ import annotations

from fractions import Fraction

import av
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from scenes.render.settings import X264_PRESETS

__all__ = ["ENCODERS_IN_FLIGHT", "X264_THREADS", "HeldFrameSegmentEncoder", "HeldOnceSegmentEncoder",
           "encoder_config"]

MANIM_CRF = "23"
ENCODERS_IN_FLIGHT = 2
# x264's output depends on how many threads it encodes with, and left to itself it takes that from
# the cores the process may use: a worker pinned to one core and a two-core laptop would write
# different bytes (3018 of 3027 decoded frames of one 1080p video differed, by up to 131 levels).
# And with more than one thread it does not even repeat itself: one camera move of
# layernorm-hyperplane came out in 3 variants over 5 full renders from identical drawn frames (and
# a test comparing two encodes failed once under load). On one thread a render in a fresh process
# gives the same bytes on any number of cores and in every run (not across CPUs whose vector
# instructions differ: the RGB→YUV conversion uses them; and see docs/pipeline.md "Video encoding" for a rare
# difference after an earlier render in the same process). It cost 3 % of a 1080p60 render
# (dynamic-tanh: 28.4–29.2 s against 27.5–28.3 s) and made the file 5 % smaller. Two segments still
# encode at once (ENCODERS_IN_FLIGHT).
X264_THREADS = 1


def encoder_config(video_format: str, transparent: bool, preset: str, held_once: bool = False) -> dict:
    """Manim config entries for the x264 ``preset`` (CRF stays Manim's 23, threads
    ``X264_THREADS``). Only H.264 output (an opaque mp4 or mov) takes a preset; VP9 and QuickTime
    RLE keep Manim's settings. ``held_once`` (a variable frame rate, :class:`HeldOnceSegmentEncoder`)
    turns x264's B-frames off: Manim joins its segments letting FFmpeg guess each packet's decoding
    time, which it guesses right when frames are decoded in the order they are shown, and, with
    B-frames, only when every frame lasts as long as the others.

    >>> encoder_config("mp4", False, "veryfast")["video_encoder_options"]
    {'crf': '23', 'preset': 'veryfast', 'threads': '1'}
    >>> encoder_config("mp4", False, "veryfast", held_once=True)["video_encoder_options"]["bf"]
    '0'
    >>> encoder_config("webm", False, "veryfast")
    {'max_inflight_encoders': 2}
    """
    if preset not in X264_PRESETS:
        raise ValueError(f"unknown encoder preset {preset!r}; valid: {', '.join(X264_PRESETS)}")
    config: dict = {"max_inflight_encoders": ENCODERS_IN_FLIGHT}
    if video_format in ("mp4", "mov") and not transparent:
        config["video_encoder_options"] = {"crf": MANIM_CRF, "preset": preset, "threads": str(X264_THREADS)}
        if held_once:
            config["video_encoder_options"]["bf"] = "0"
    return config


class HeldFrameSegmentEncoder(VideoSegmentEncoder):
    """Manim's segment encoder, converting each written frame to the stream's pixel format once,
    however many times it is shown."""

    def write_frame(self, pixels, *, repeat: int = 1) -> None:
        self._validate_frame(pixels, repeat)
        time_base = Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)
        try:
            frame = av.VideoFrame.from_ndarray(pixels, format="rgba")
            context = self._stream.codec_context
            if frame.format.name != context.pix_fmt:
                # The conversion PyAV's encode would make, made once, with the same arguments. The
                # context is opened first, as encode does: before that its thread count reads 0
                # (as many threads as cores), not the count encode converts with.
                if not context.is_open:
                    context.open(strict=False)
                frame = frame.reformat(context.width, context.height, context.format,
                                       threads=context.thread_count)
            for pts in self._shown_at(repeat):
                frame.pts = pts
                frame.time_base = time_base
                for packet in self._stream.encode(frame):
                    self._container.mux(packet)
            self._next_pts += repeat
        except BaseException as error:
            raise self._operation_error("encode", error) from error

    def _shown_at(self, repeat: int) -> range | tuple[int, ...]:
        """The frame times (in frames) at which a frame shown ``repeat`` times is encoded: each one."""
        return range(self._next_pts, self._next_pts + repeat)


class HeldOnceSegmentEncoder(HeldFrameSegmentEncoder):
    """A segment encoder for a variable frame rate: a frame shown more than twice is encoded at its
    first and its last frame time only, so it stays on screen for as long (the first packet lasts
    until the second), and x264 encodes 2 frames where a constant rate encodes every repeat. What is
    on screen at every moment is what the constant-rate encoder shows; the frame count is not.

    >>> HeldOnceSegmentEncoder._shown_at(type("E", (), {"_next_pts": 10})(), 5)
    (10, 14)
    >>> HeldOnceSegmentEncoder._shown_at(type("E", (), {"_next_pts": 10})(), 2)
    (10, 11)
    """

    def _shown_at(self, repeat: int) -> tuple[int, ...]:
        first = self._next_pts
        return (first,) if repeat == 1 else (first, first + repeat - 1)
