"""Animated WebP, lossy or lossless: the modern drop-in for a GIF in an ``<img>``.

Frames are streamed into libwebp's animation encoder (``WebPAnimEncoder``, through Pillow's
binding, the same calls as ``Image.save(..., save_all=True)`` but without holding every frame
first): it stores only the rectangle that changed and decides per frame whether blending over the
previous one is smaller. Held frames become one frame with a longer duration (milliseconds,
rounded on the running total, so the file lasts exactly as long as the source).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from scenes.render.files import atomic_write_bytes
from scenes.render.media.quality import scaled_timed_frames

__all__ = ["WebpStats", "encode_webp"]


@dataclass(frozen=True)
class WebpStats:
    path: Path
    size_bytes: int
    width: int
    height: int
    frames: int
    source_frames: int
    duration_s: float
    lossless: bool
    quality: int
    encode_seconds: float


def encode_webp(frames: Iterable[tuple[np.ndarray, float]], target: Path, width: int, fps: float = 15,
                loop: int = 0, quality: int = 80, lossless: bool = False, method: int = 4) -> WebpStats:
    """Encode (RGB uint8 frame, seconds shown) pairs, read once, as an animated WebP of ``width``
    pixels (never wider than the frames), at most ``fps`` frames a second. ``quality`` 0..100 is
    libwebp's (for ``lossless`` it is the effort); ``method`` 0..6 trades time for size. ``loop``
    0 plays forever. Written atomically to ``target``."""
    from PIL import _webp  # Pillow's libwebp binding, as used by WebPImagePlugin._save_all

    started = time.monotonic()
    target = Path(target)
    encoder = None
    previous = None
    count = written = 0
    end_ms = 0
    kmin, kmax = (9, 17) if lossless else (3, 5)  # gif2webp's keyframe defaults
    size = None
    for scaled, start_ms, stop_ms in scaled_timed_frames(frames, width, min(float(fps), 100.0), 1000):
        count += 1
        end_ms = stop_ms
        if scaled is None or previous is not None and np.array_equal(scaled, previous):
            continue
        if encoder is None:
            size = (scaled.shape[1], scaled.shape[0])
            encoder = _webp.WebPAnimEncoder(size, 0xFF000000, loop, False, kmin, kmax, False, False)
        image = Image.fromarray(scaled).convert("RGBA")
        encoder.add(image.getim(), start_ms, lossless, float(quality), 100.0, method)
        previous = scaled
        written += 1
    if encoder is None:
        raise ValueError("no frames to encode")
    encoder.add(None, end_ms, lossless, float(quality), 100.0, 0)
    data = encoder.assemble(b"", b"", b"")
    if data is None:
        raise OSError("libwebp returned no data")
    atomic_write_bytes(target, data)
    return WebpStats(target, len(data), size[0], size[1], written, count, end_ms / 1000.0, lossless, quality,
                     time.monotonic() - started)
