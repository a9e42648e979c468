"""Manim's file writer as the pipeline uses it: held frames converted once, repeats recorded.

Handed to Manim through ``CairoRenderer(file_writer_class=…)`` (see :mod:`.renderer`).
"""

from __future__ import annotations

from pathlib import Path

from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from scenes.render.manim_door.encoder import HeldFrameSegmentEncoder, HeldOnceSegmentEncoder

__all__ = ["HeldFrameFileWriter", "HeldOnceFileWriter", "FrameSequenceWriter"]


class HeldFrameFileWriter(SceneFileWriter):
    """A video writer whose segments are encoded by :class:`HeldFrameSegmentEncoder`."""

    segment_encoder_class: type[HeldFrameSegmentEncoder] = HeldFrameSegmentEncoder

    def _create_segment_encoder(self, target: Path) -> VideoSegmentEncoder:
        if self.video_encoder is None:
            raise RuntimeError("Video segment encoding requires resolved settings.")
        return self.segment_encoder_class(target=target, spec=self.video_encoder)


class HeldOnceFileWriter(HeldFrameFileWriter):
    """A video writer at a variable frame rate (a narrated render's): each held frame is encoded
    twice, at the start and the end of its hold (:class:`HeldOnceSegmentEncoder`)."""

    segment_encoder_class = HeldOnceSegmentEncoder


class FrameSequenceWriter(SceneFileWriter):
    """A PNG-sequence writer that counts how often each written frame is shown. Manim 0.22 writes
    a held frame (a ``wait``) once into a PNG sequence and drops its repeat count, so a GIF made
    from the PNGs alone would play every pause too fast; ``repeats`` puts the pauses back."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.repeats: list[int] = []

    def write_frame(self, pixels, *, repeat: int = 1) -> None:
        self.repeats.append(int(repeat))
        return super().write_frame(pixels, repeat=repeat)
