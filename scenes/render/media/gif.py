"""Small, sharp GIFs from a stream of (frame, seconds) pairs.

How a GIF gets small here, in the order it happens:

1. Frames are scaled (Lanczos) and thinned to the frame rate; a frame equal to the one before
   only lengthens that frame's delay. Delays are whole centiseconds, rounded on the running
   total, so the GIF lasts exactly as long as the source (to 10 ms).
2. First pass: each frame is compared with the previous one, and only the pixels that changed
   go into one colour histogram for the whole animation (libimagequant, the quantizer inside
   gifski and pngquant). Frames are spooled to a temporary file, zlib-compressed, so memory
   holds a frame or two whatever the length.
3. That histogram becomes the global palette (up to 255 colours and a transparent one), so
   frames carry no palette of their own (gifski pays up to 768 bytes a frame for one). The
   palette starts at the quality's size and doubles while six frames spread over the animation,
   mapped onto it, fall short of the quality's SSIM (``GifParams.min_palette_ssim``, FFmpeg's
   SSIM): most scenes keep 32–64 colours, a scene of many thin coloured strokes gets 128. Local palettes
   for frames the global one serves badly exist (``GifParams.max_remap_error``) but are off:
   on Manim scenes they cost more bytes than they bought SSIM.
4. Second pass: each frame is cropped to the rectangle that changed; inside it, pixels that did
   not change, or whose change the viewer would hardly see, are transparent ("do not dispose" +
   transparency), which LZW compresses to almost nothing. "Hardly see" follows SSIM's
   luminance term: the allowed step grows with brightness (``_visible``), so the dark
   background is kept exact while bright text and fills may lag a few levels behind a fade.
   libimagequant remaps the rest onto the global palette, with the shown frame as its
   background, so it too may choose transparency where that is closer.
5. ``gifsicle -O3`` recompresses, with ``--lossy`` below quality 100.

``quality`` (1..100, as in gifski) sets the smallest palette, the palette's SSIM floor, the
tolerance and the LZW loss together (``params_for_quality``). The palette size is the strongest
lever: Manim scenes are a few flat colours plus anti-aliasing, and 32–64 well-chosen colours make
far longer LZW runs than 256 at nearly the same SSIM; the floor keeps a scene that needs more
from losing what no later step can give back.

The file is written under a temporary name beside the target and renamed into place; on any
failure nothing is left behind.
"""

from __future__ import annotations

import math
import os
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from PIL import GifImagePlugin, Image

from scenes.render.media.quality import FfmpegSsim, scale_frame, timed_frames

__all__ = ["GifStats", "GifParams", "encode_gif", "params_for_quality",
           "smallest_reachable_size", "SizeEstimate", "fit_gif_to_size", "SizeSearch", "gifsicle_path"]


@dataclass(frozen=True)
class GifStats:
    """What ``encode_gif`` wrote."""

    path: Path
    size_bytes: int
    width: int
    height: int
    frames: int  # GIF frames (held frames merged)
    source_frames: int  # (frame, seconds) pairs read
    duration_s: float  # sum of the GIF's delays
    quality: int
    encode_seconds: float
    local_palettes: int = 0


@dataclass(frozen=True)
class GifParams:
    """The knobs behind one ``quality`` value."""

    dither: float = 0.0  # libimagequant's dithering level, 0..1
    lossy: int = 0  # gifsicle --lossy
    max_remap_error: float = 1e9  # above this (MSE, 0..255 RGB) a frame gets a local palette; 1e9: never
    background_tolerance: int = 0  # a changed pixel within this of what is shown stays transparent
    speed: int = 4  # libimagequant speed 1 (best) .. 10 (fastest)
    colors: int = 256  # smallest global palette (one entry is the transparent colour)
    min_palette_ssim: float = 0.0  # the palette doubles (to 256) while sample frames on it fall below this
    relative_tolerance: float = 0.0  # like background_tolerance, scaled by brightness (see _visible)


_NO_LOCAL_PALETTES = 1e8  # a max_remap_error this large turns local palettes off


def params_for_quality(quality: int) -> GifParams:
    """Quality 1..100 (like gifski's) as encoder settings: 100 is exact LZW on a 256-colour global
    palette; going down, the smallest palette shrinks (128 from 94, 64 from 84, 32 from 69, 16
    below 40) and may grow again while frames mapped onto it stay under SSIM 1 − (100 − quality)
    · 10⁻⁴ (0.997 at 70), a larger brightness-relative step may stay unsent and the LZW loss grows
    (tuned on Manim scenes against gifski, at equal FFmpeg SSIM).

    >>> params_for_quality(70).colors, params_for_quality(70).min_palette_ssim
    (64, 0.997)
    """
    quality = int(min(100, max(1, quality)))
    loss = 100 - quality
    colors = 256 if quality >= 95 else 128 if quality >= 85 else 64 if quality >= 70 else 32 if quality >= 40 else 16
    return GifParams(
        dither=0.0,
        lossy=int(round(loss * 0.5)),
        max_remap_error=1e9,
        relative_tolerance=loss * 0.003,
        colors=colors,
        min_palette_ssim=round(1.0 - loss * 1e-4, 6),
    )


def gifsicle_path() -> str | None:
    return shutil.which("gifsicle")


# --------------------------------------------------------------------------------------------
# libimagequant through the cffi binding of the ``imagequant`` package


def _liq():
    from imagequant._libimagequant import ffi, lib

    return ffi, lib


class _LiqError(RuntimeError):
    pass


def _check(code, what):
    _, lib = _liq()
    if code != lib.LIQ_OK:
        raise _LiqError(f"libimagequant {what} failed ({code})")


class _Quantizer:
    """libimagequant attributes, a whole-animation histogram and the palettes made from it."""

    def __init__(self, params: GifParams):
        self.ffi, self.lib = _liq()
        self.params = params
        self.attr = self.lib.liq_attr_create()
        _check(self.lib.liq_set_speed(self.attr, params.speed), "set_speed")
        _check(self.lib.liq_set_max_colors(self.attr, params.colors), "set_max_colors")
        self.histogram = self.lib.liq_histogram_create(self.attr)
        _check(self.lib.liq_histogram_add_fixed_color(self.histogram, self._color(0, 0, 0, 0), 0.0), "fixed colour")
        self.global_result = None

    def _color(self, r, g, b, a):
        return self.ffi.new("liq_color*", (r, g, b, a))[0]

    def image(self, rgba: np.ndarray):
        rgba = np.ascontiguousarray(rgba)
        height, width = rgba.shape[:2]
        image = self.lib.liq_image_create_rgba(self.attr, self.ffi.from_buffer(rgba), width, height, 0.0)
        if image == self.ffi.NULL:
            raise _LiqError("libimagequant could not take the image")
        return image, rgba

    def add_to_histogram(self, rgba: np.ndarray) -> None:
        image, _buffer = self.image(rgba)
        try:
            _check(self.lib.liq_histogram_add_image(self.histogram, self.attr, image), "histogram")
        finally:
            self.lib.liq_image_destroy(image)

    def make_global_palette(self) -> np.ndarray:
        result = self.ffi.new("liq_result**")
        _check(self.lib.liq_histogram_quantize(self.histogram, self.attr, result), "global palette")
        self.global_result = result[0]
        self.lib.liq_set_dithering_level(self.global_result, self.params.dither)
        return self._palette(self.global_result)

    def _palette(self, result) -> np.ndarray:
        palette = self.lib.liq_get_palette(result)
        return np.array([(e.r, e.g, e.b, e.a) for e in palette.entries[0:palette.count]], dtype=np.uint8)

    def remap(self, rgba: np.ndarray, background: np.ndarray | None, result=None) -> tuple[np.ndarray, float]:
        """Indices of ``rgba`` in ``result``'s palette (the global one by default), with pixels
        that ``background`` already shows well made transparent; and the remapping error."""
        result = result or self.global_result
        image, buffer = self.image(rgba)
        background_buffer = None
        try:
            if background is not None:
                back, background_buffer = self.image(background)
                _check(self.lib.liq_image_set_background(image, back), "background")
            height, width = rgba.shape[:2]
            out = np.empty(width * height, dtype=np.uint8)
            _check(self.lib.liq_write_remapped_image(result, image, self.ffi.from_buffer(out), out.size), "remap")
            return out.reshape(height, width), float(self.lib.liq_get_remapping_error(result))
        finally:
            self.lib.liq_image_destroy(image)
            del buffer, background_buffer

    def local(self, rgba: np.ndarray, background: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, float]:
        """A palette of just this region's colours, and its indices."""
        image, buffer = self.image(rgba)
        background_buffer = None
        result = self.ffi.new("liq_result**")
        try:
            if background is not None:
                back, background_buffer = self.image(background)
                _check(self.lib.liq_image_set_background(image, back), "background")
            _check(self.lib.liq_image_quantize(image, self.attr, result), "local palette")
            self.lib.liq_set_dithering_level(result[0], self.params.dither)
            height, width = rgba.shape[:2]
            out = np.empty(width * height, dtype=np.uint8)
            _check(self.lib.liq_write_remapped_image(result[0], image, self.ffi.from_buffer(out), out.size), "remap")
            error = float(self.lib.liq_get_remapping_error(result[0]))
            return out.reshape(height, width), self._palette(result[0]), error
        finally:
            if result[0] != self.ffi.NULL:
                self.lib.liq_result_destroy(result[0])
            self.lib.liq_image_destroy(image)
            del buffer, background_buffer

    def start_over(self, colors: int) -> None:
        """An empty histogram for a palette of ``colors``, the same settings otherwise."""
        self.close()
        self.__init__(replace(self.params, colors=colors))

    def close(self) -> None:
        if self.global_result is not None:
            self.lib.liq_result_destroy(self.global_result)
            self.global_result = None
        if self.histogram is not None:
            self.lib.liq_histogram_destroy(self.histogram)
            self.histogram = None
        if self.attr is not None:
            self.lib.liq_attr_destroy(self.attr)
            self.attr = None


# --------------------------------------------------------------------------------------------
# GIF container (frame data itself is LZW-coded by Pillow's C encoder)


def _header(width: int, height: int, palette: np.ndarray, loop: int) -> bytes:
    bits = max(1, math.ceil(math.log2(max(2, len(palette)))))
    table = np.zeros((1 << bits, 3), dtype=np.uint8)
    table[: len(palette)] = palette[:, :3]
    data = b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80 | 0x70 | (bits - 1), 0, 0) + table.tobytes()
    if loop >= 0:
        data += b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"
    return data


def _control(delay_cs: int, transparent: int | None) -> bytes:
    flags = (1 << 2) | (1 if transparent is not None else 0)  # disposal 1: do not dispose
    return b"!\xf9\x04" + struct.pack("<BHB", flags, delay_cs, transparent or 0) + b"\x00"


def _image_data(indices: np.ndarray, offset: tuple[int, int], palette: np.ndarray | None) -> bytes:
    """Image descriptor (with a local colour table when ``palette`` is given) and LZW data."""
    height, width = indices.shape
    image = Image.frombuffer("P", (width, height), np.ascontiguousarray(indices).tobytes(), "raw", "P", 0, 1)
    if palette is not None:
        image.putpalette(palette[:, :3].tobytes())
        return b"".join(GifImagePlugin.getdata(image, offset, include_color_table=True))
    image.putpalette(b"\0\0\0")
    return b"".join(GifImagePlugin.getdata(image, offset))


# --------------------------------------------------------------------------------------------
# Spool: the scaled frames of pass one, compressed in a temporary file


MIN_DELAY_CS = 2


class _Spool:
    def __init__(self, directory: Path):
        self.file = tempfile.TemporaryFile(dir=directory)
        self.entries: list[tuple[int, int, int, int]] = []  # offset, length, start_cs, end_cs

    def add(self, frame: np.ndarray, start_cs: int, end_cs: int) -> None:
        if len(self.entries) > 1 and self.entries[-1][3] - self.entries[-1][2] < MIN_DELAY_CS:
            # browsers show a delay under 2 cs as 10 cs: such a frame gives way to the next one
            start_cs = self.entries.pop()[2]
        data = zlib.compress(frame.tobytes(), 1)
        offset = self.file.seek(0, os.SEEK_END)
        self.file.write(data)
        self.entries.append((offset, len(data), start_cs, end_cs))

    def extend_last(self, end_cs: int) -> None:
        offset, length, start_cs, _ = self.entries[-1]
        self.entries[-1] = (offset, length, start_cs, end_cs)

    def frames(self, shape) -> Iterator[tuple[np.ndarray, int]]:
        for offset, length, start_cs, end_cs in self.entries:
            self.file.seek(offset)
            data = zlib.decompress(self.file.read(length))
            yield np.frombuffer(data, dtype=np.uint8).reshape(shape), end_cs - start_cs

    def close(self):
        self.file.close()


def _bbox(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    rows = np.flatnonzero(mask.any(axis=1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(mask.any(axis=0))
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def _changed(frame: np.ndarray, previous: np.ndarray) -> np.ndarray:
    """Pixels that differ in any channel (three flat comparisons: faster than ``.any(axis=2)``)."""
    differs = frame != previous
    return differs[..., 0] | differs[..., 1] | differs[..., 2]


def _rgba(frame: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """RGBA for libimagequant; pixels outside ``mask`` fully transparent (0, 0, 0, 0)."""
    out = np.empty(frame.shape[:2] + (4,), dtype=np.uint8)
    out[..., :3] = frame
    if mask is None:
        out[..., 3] = 255
    else:
        keep = mask.view(np.uint8)
        out[..., :3] *= keep[..., None]
        np.multiply(keep, 255, out=out[..., 3])
    return out


# --------------------------------------------------------------------------------------------


def encode_gif(frames: Iterable[tuple[np.ndarray, float]], target: Path, width: int, fps: float = 15,
               loop: int = 0, quality: int = 70, params: GifParams | None = None) -> GifStats:
    """Encode (RGB uint8 frame, seconds shown) pairs, read once from any iterable, as a GIF of
    ``width`` pixels (never wider than the frames) at most ``fps`` frames a second, looping
    ``loop`` times (0: forever, -1: play once). ``quality`` 1..100 as in gifski; ``params``
    overrides it. Written atomically to ``target``."""
    started = time.monotonic()
    params = params or params_for_quality(quality)
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    spool = _Spool(target.parent)
    quantizer = _Quantizer(params)
    fd, raw_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".raw.gif", dir=target.parent)
    os.close(fd)
    raw = Path(raw_name)
    final = raw.with_suffix(".opt.gif")
    try:
        shape, source_count = _first_pass(frames, width, fps, spool, quantizer)
        palette = _fitted_palette(spool, shape, quantizer, params)
        transparent = int(np.flatnonzero(palette[:, 3] == 0)[0]) if (palette[:, 3] == 0).any() else None
        written, local_count, duration_cs = _second_pass(spool, shape, palette, transparent, quantizer, params, loop, raw)
        _optimize(raw, final, params, loop)
        os.chmod(final, 0o644)
        os.replace(final, target)
    except BaseException:
        final.unlink(missing_ok=True)
        raise
    finally:
        raw.unlink(missing_ok=True)
        spool.close()
        quantizer.close()
    height, out_width = shape[:2]
    return GifStats(target, target.stat().st_size, out_width, height, written, source_count, duration_cs / 100.0,
                    quality, time.monotonic() - started, local_count)


def _first_pass(frames, width, fps, spool: _Spool, quantizer: _Quantizer):
    previous = None
    count = 0

    def counted():
        nonlocal count
        for item in frames:
            count += 1
            yield item

    for frame, start_cs, end_cs in timed_frames(counted(), min(float(fps), 50.0), 100):
        if frame is None:
            if spool.entries:
                spool.extend_last(end_cs)
            continue
        if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] < 3:
            raise ValueError("frames must be RGB uint8 arrays")
        scaled = scale_frame(frame, width)
        if previous is not None and scaled.shape != previous.shape:
            raise ValueError("all frames must have one size")
        if not _add_changes(quantizer, scaled, previous):
            spool.extend_last(end_cs)
            continue
        spool.add(scaled, start_cs, end_cs)
        previous = scaled
    if previous is None:
        raise ValueError("no frames to encode")
    return previous.shape, count


def _add_changes(quantizer: _Quantizer, frame: np.ndarray, previous: np.ndarray | None) -> bool:
    """Add the pixels of ``frame`` that differ from ``previous`` (all, for the first frame) to the
    histogram; False when none do."""
    if previous is None:
        quantizer.add_to_histogram(_rgba(frame, None))
        return True
    mask = _changed(frame, previous)
    box = _bbox(mask)
    if box is None:
        return False
    y0, y1, x0, x1 = box
    quantizer.add_to_histogram(_rgba(frame[y0:y1, x0:x1], mask[y0:y1, x0:x1]))
    return True


PALETTE_SAMPLES = 6  # frames, spread over the animation, that a palette must serve


def _fitted_palette(spool: _Spool, shape, quantizer: _Quantizer, params: GifParams) -> np.ndarray:
    """The global palette: ``params.colors`` entries, doubled (up to 256; the histogram is built
    again from the spool, libimagequant consumes it) while the sample frames mapped onto it have a
    mean FFmpeg SSIM under ``params.min_palette_ssim``."""
    palette = quantizer.make_global_palette()
    colors = params.colors
    if colors >= 256 or params.min_palette_ssim <= 0:
        return palette
    picks = set(np.linspace(0, len(spool.entries) - 1, min(PALETTE_SAMPLES, len(spool.entries))).round().astype(int))
    samples = [frame for index, (frame, _) in enumerate(spool.frames(shape)) if index in picks]
    compare = FfmpegSsim()
    while colors < 256:
        indices = [quantizer.remap(_rgba(frame, None), None)[0] for frame in samples]
        if np.mean([compare(palette[i][..., :3], frame) for i, frame in zip(indices, samples)]) >= params.min_palette_ssim:
            break
        colors = min(256, colors * 2)
        quantizer.start_over(colors)
        previous = None
        for frame, _ in spool.frames(shape):
            _add_changes(quantizer, frame, previous)
            previous = frame
        palette = quantizer.make_global_palette()
    return palette


def _second_pass(spool, shape, palette, transparent, quantizer, params: GifParams, loop, raw: Path):
    height, width = shape[:2]
    canvas = None
    previous = None
    local_count = written = duration = 0
    pending = None  # (bytes without control block, transparent index) of the frame before
    pending_delay = 0
    with open(raw, "wb") as out:
        out.write(_header(width, height, palette, loop))

        def flush():
            if pending is not None:
                data, index = pending
                out.write(_control(pending_delay, index) + data)

        for frame, delay in spool.frames(shape):
            if canvas is None:  # the first frame, whole, on the global palette
                indices, _ = quantizer.remap(_rgba(frame, None), None)
                data, index = _image_data(indices, (0, 0), None), None
                canvas = palette[indices][..., :3].copy()
                pending, pending_delay = (data, index), delay
                previous = frame
                written += 1
                duration += delay
                continue
            changed = _changed(frame, previous)
            box = _bbox(changed)
            if box is not None and (params.background_tolerance or params.relative_tolerance):
                y0, y1, x0, x1 = box
                changed[y0:y1, x0:x1] &= _visible(frame[y0:y1, x0:x1], canvas[y0:y1, x0:x1], params)
                box = _bbox(changed[y0:y1, x0:x1])
                if box is not None:
                    box = (box[0] + y0, box[1] + y0, box[2] + x0, box[3] + x0)
            previous = frame
            if box is None:
                pending_delay += delay
                duration += delay
                continue
            y0, y1, x0, x1 = box
            crop = _rgba(frame[y0:y1, x0:x1], changed[y0:y1, x0:x1])
            back = _rgba(canvas[y0:y1, x0:x1], None)
            indices, _ = quantizer.remap(crop, back)
            palette_used, local = palette, None
            if params.max_remap_error < _NO_LOCAL_PALETTES and (
                    error := _error(frame[y0:y1, x0:x1], canvas[y0:y1, x0:x1], palette, indices)) > params.max_remap_error:
                local_indices, local_palette, _ = quantizer.local(crop, back)
                local_error = _error(frame[y0:y1, x0:x1], canvas[y0:y1, x0:x1], local_palette, local_indices)
                if local_error < error:
                    indices, palette_used, local = local_indices, local_palette, local_palette
                    local_count += 1
            alpha = palette_used[indices][..., 3]
            index = None
            if (alpha == 0).any():
                index = int(np.flatnonzero(palette_used[:, 3] == 0)[0])
            region = canvas[y0:y1, x0:x1]
            shown = alpha > 0
            if not shown.any():
                pending_delay += delay
                duration += delay
                continue
            region[shown] = palette_used[indices[shown]][:, :3]
            flush()
            pending = (_image_data(indices, (x0, y0), local), index)
            pending_delay = delay
            written += 1
            duration += delay
        flush()
        out.write(b";")
    return written, local_count, duration


def _visible(frame: np.ndarray, shown: np.ndarray, params: GifParams) -> np.ndarray:
    """Pixels where ``shown`` is too far from ``frame`` to keep. SSIM's luminance term punishes a
    difference d at brightness v about as d² / (2v² + C1), so the same step is far more visible on
    the dark background than on bright text: the allowed step grows with brightness."""
    difference = np.abs(frame.astype(np.int16) - shown)
    if params.relative_tolerance:
        value = frame.astype(np.float32)
        allowed = params.background_tolerance + params.relative_tolerance * np.sqrt(2 * value * value + 6.5025)
        return (difference > allowed).any(axis=2)
    return difference.max(axis=2) > params.background_tolerance


def _error(frame: np.ndarray, shown_before: np.ndarray, palette: np.ndarray, indices: np.ndarray) -> float:
    """Mean squared error (RGB, 0..255) of what the region shows after this frame."""
    colors = palette[indices]
    shown = np.where(colors[..., 3:] > 0, colors[..., :3], shown_before).astype(np.int32)
    return float(((shown - frame) ** 2).mean())


def _optimize(raw: Path, final: Path, params: GifParams, loop: int) -> None:
    gifsicle = gifsicle_path()
    if gifsicle is None:
        shutil.copyfile(raw, final)
        return
    command = [gifsicle, "-O3", "--no-warnings", "--no-comments", "--no-names", "--no-extensions"]
    command.append("--loopcount=forever" if loop == 0 else ("--no-loopcount" if loop < 0 else f"--loopcount={loop}"))
    if params.lossy:
        command.append(f"--lossy={params.lossy}")
    subprocess.run([*command, str(raw), "-o", str(final)], check=True, capture_output=True)


# --------------------------------------------------------------------------------------------
# A size budget


FLOOR_QUALITY = 1  # the lowest quality a search goes to


@dataclass(frozen=True)
class SizeEstimate:
    """The smallest GIF this encoder makes of these frames at this width and frame rate: an
    encode at the lowest quality (so exact, not a guess), made before any search."""

    smallest_bytes: int
    width: int
    quality: int
    seconds: float

    def reachable(self, max_size: int) -> bool:
        return self.smallest_bytes <= max_size


@dataclass(frozen=True)
class SizeSearch:
    """Outcome of ``fit_gif_to_size``: ``met`` tells whether ``result`` fits the budget; when it
    does not, ``result`` is the smallest GIF that could be made (written to the target)."""

    result: GifStats
    met: bool
    max_size: int
    smallest_bytes: int
    tried: tuple[tuple[int, int], ...]  # (quality, bytes)


def smallest_reachable_size(frames: Iterable[tuple[np.ndarray, float]], width: int, fps: float = 15,
                            loop: int = 0) -> SizeEstimate:
    """How small a GIF of these frames can get (at ``FLOOR_QUALITY``): compare with a budget
    before searching, and refuse at once when it is larger."""
    with tempfile.TemporaryDirectory(prefix="normgeo-gif-floor-") as folder:
        stats = encode_gif(frames, Path(folder) / "floor.gif", width, fps, loop, quality=FLOOR_QUALITY)
    return SizeEstimate(stats.size_bytes, stats.width, FLOOR_QUALITY, stats.encode_seconds)


def fit_gif_to_size(frames_factory, target: Path, width: int, max_size: int, fps: float = 15, loop: int = 0,
                    max_quality: int = 90, estimate: SizeEstimate | None = None) -> SizeSearch:
    """The best-quality GIF no larger than ``max_size`` bytes, written to ``target``.
    ``frames_factory()`` returns a new iterable of (frame, seconds) pairs each time (one per
    encode). The floor is estimated first (or taken from ``estimate``): when even it does not fit,
    the floor GIF itself is written, ``met=False``, and nothing else is tried. Otherwise a
    bisection on quality (about six encodes) keeps the best GIF that fits."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{target.name}.", dir=target.parent) as folder:
        floor_path = Path(folder) / "floor.gif"
        if estimate is None:
            floor = encode_gif(frames_factory(), floor_path, width, fps, loop, quality=FLOOR_QUALITY)
            estimate = SizeEstimate(floor.size_bytes, floor.width, FLOOR_QUALITY, floor.encode_seconds)
        else:
            floor = None
        tried: list[tuple[int, int]] = [(FLOOR_QUALITY, estimate.smallest_bytes)]
        if not estimate.reachable(max_size):
            result = floor or encode_gif(frames_factory(), floor_path, width, fps, loop, quality=FLOOR_QUALITY)
            return SizeSearch(_install(result, target), False, max_size, result.size_bytes, tuple(tried))
        best = floor
        low, high = FLOOR_QUALITY, max_quality  # ``low`` fits, ``high`` is still to try
        probe_quality = high
        while True:
            probe = encode_gif(frames_factory(), Path(folder) / f"q{probe_quality}.gif", width, fps, loop,
                               quality=probe_quality)
            tried.append((probe_quality, probe.size_bytes))
            if probe.size_bytes <= max_size:
                best, low = probe, probe_quality
            else:
                high = probe_quality
            if high - low <= 3 or best is probe and probe_quality == max_quality:
                break
            probe_quality = (low + high) // 2
        if best is None:  # only the estimate was given and nothing above the floor fits
            best = encode_gif(frames_factory(), floor_path, width, fps, loop, quality=FLOOR_QUALITY)
        return SizeSearch(_install(best, target), True, max_size, min(size for _, size in tried), tuple(tried))


def _install(stats: GifStats, target: Path) -> GifStats:
    os.replace(stats.path, target)
    return GifStats(target, stats.size_bytes, stats.width, stats.height, stats.frames, stats.source_frames,
                    stats.duration_s, stats.quality, stats.encode_seconds, stats.local_palettes)
