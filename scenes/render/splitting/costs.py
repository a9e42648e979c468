"""What a frame costs to convert and encode, measured on one of the scene's own frames."""

from __future__ import annotations

import io
import time

import av
import numpy as np

from scenes.render.manim_door import encoder_config

__all__ = ["per_frame_seconds"]


def per_frame_seconds(pixels, settings) -> tuple[float, float, float]:
    """(seconds to convert one drawn frame to YUV 4:2:0, CPU seconds x264 spends on a frame that
    differs from the one before, and on a frame repeated unchanged) at ``settings.encoder_preset``,
    measured on ``pixels`` (an RGBA frame of the scene), after a few frames to warm the encoder.
    Only H.264 output is measured for encoding; other codecs count conversion only. A narrated
    video's repeats cost nothing: it encodes a held frame at the start and the end of its hold
    (a variable frame rate, see :mod:`scenes.render.manim_door.encoder`)."""
    began = time.perf_counter()
    for _ in range(3):
        picture = av.VideoFrame.from_ndarray(pixels, format="rgba").reformat(format="yuv420p")
    convert = (time.perf_counter() - began) / 3
    options = encoder_config(settings.format, settings.transparent, settings.encoder_preset,
                             settings.narrated).get("video_encoder_options")
    if options is None:
        return convert, 0.0, 0.0
    height, width = pixels.shape[:2]

    def encoding(pictures) -> float:
        """CPU seconds of a whole encode of ``pictures``, flushed (x264 works frames ahead)."""
        began = time.process_time()
        with av.open(io.BytesIO(), "w", format="mp4") as container:
            stream = container.add_stream("libx264", rate=60, options=dict(options))
            stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
            for number, frame in enumerate(pictures):
                frame.pts = number
                for packet in stream.encode(frame):
                    container.mux(packet)
            for packet in stream.encode():
                container.mux(packet)
        return time.process_time() - began

    # the scene's frame moved a few pixels each time stands for an animation's frames
    frames = 8
    moving = [av.VideoFrame.from_ndarray(np.ascontiguousarray(np.roll(pixels, 3 * step, axis=1)), format="rgba")
              .reformat(format="yuv420p") for step in range(frames)]
    alone = encoding([picture])  # the encoder's start and one key frame
    changing = max(0.0, encoding(moving) - alone) / (frames - 1)
    held = 0.0 if settings.narrated else max(0.0, encoding([picture] * frames) - alone) / (frames - 1)
    return convert, changing, held

