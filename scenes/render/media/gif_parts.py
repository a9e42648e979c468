"""The pieces of a GIF: libimagequant's palettes and remapping (through the cffi binding of the
``imagequant`` package), and the GIF's byte blocks (header, frame control, image data)."""

from __future__ import annotations

import math
import struct
from dataclasses import replace

import numpy as np
from PIL import GifImagePlugin, Image

__all__ = ["Quantizer", "LiqError", "gif_header", "gif_control", "gif_image_data"]


# --------------------------------------------------------------------------------------------
# libimagequant through the cffi binding of the ``imagequant`` package


def _liq():
    from imagequant._libimagequant import ffi, lib

    return ffi, lib


class LiqError(RuntimeError):
    pass


def _check(code, what):
    _, lib = _liq()
    if code != lib.LIQ_OK:
        raise LiqError(f"libimagequant {what} failed ({code})")


class Quantizer:
    """libimagequant attributes, a whole-animation histogram and the palettes made from it."""

    def __init__(self, params):  # a gif.GifParams
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
            raise LiqError("libimagequant could not take the image")
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


def gif_header(width: int, height: int, palette: np.ndarray, loop: int) -> bytes:
    bits = max(1, math.ceil(math.log2(max(2, len(palette)))))
    table = np.zeros((1 << bits, 3), dtype=np.uint8)
    table[: len(palette)] = palette[:, :3]
    data = b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80 | 0x70 | (bits - 1), 0, 0) + table.tobytes()
    if loop >= 0:
        data += b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"
    return data


def gif_control(delay_cs: int, transparent: int | None) -> bytes:
    flags = (1 << 2) | (1 if transparent is not None else 0)  # disposal 1: do not dispose
    return b"!\xf9\x04" + struct.pack("<BHB", flags, delay_cs, transparent or 0) + b"\x00"


def gif_image_data(indices: np.ndarray, offset: tuple[int, int], palette: np.ndarray | None) -> bytes:
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
