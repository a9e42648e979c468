"""Render settings: quality presets, formats, pixel sizes, GIF options."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from scenes.render.errors import InputError

__all__ = ["QUALITIES", "DEFAULT_QUALITY", "FORMATS", "X264_PRESETS", "DEFAULT_ENCODER_PRESET", "MANIM_ENCODER_PRESET", "TRANSPARENT_FORMATS", "ANIMATION_FORMATS", "PRESET_SIZES", "RenderSettings", "GifOptions", "parse_size", "parse_resolution", "frames_for_width"]

# Manim's presets: flag → (manim quality name, label used in file names).
QUALITIES = {
    "l": ("low_quality", "480p15"),
    "m": ("medium_quality", "720p30"),
    "h": ("high_quality", "1080p60"),
    "k": ("fourk_quality", "2160p60"),
}
DEFAULT_QUALITY = "l"  # what every rendering command renders at without -q
FORMATS = ("mp4", "webm", "mov", "gif", "png")
# Web animations made from lossless frames (`normgeo gif --format`): a GIF, an animated WebP, or a
# small looping MP4 for <video autoplay muted loop playsinline>.
ANIMATION_FORMATS = ("gif", "webp", "mp4")
PRESET_SIZES = {"l": (854, 480), "m": (1280, 720), "h": (1920, 1080), "k": (3840, 2160)}
TRANSPARENT_FORMATS = ("mov", "webm", "png")
# x264's presets for H.264 videos (`--encoder-preset`): ours is veryfast, plain Manim's is x264's own
# default, medium; CRF stays Manim's 23 (see scenes/render/manim_door/encoder.py and docs/benchmarks.md).
X264_PRESETS = ("ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow")
DEFAULT_ENCODER_PRESET = "veryfast"
MANIM_ENCODER_PRESET = "medium"


@dataclass(frozen=True)
class RenderSettings:
    """Everything about a render that is not the scene's spec."""

    quality: str = "l"
    format: str = "mp4"
    transparent: bool = False
    resolution: tuple[int, int] | None = None
    encoder_preset: str = DEFAULT_ENCODER_PRESET
    voice: str = "none"  # --voice as given (scenes.render.voice.choice parses it); "none" is silent

    @property
    def quality_label(self) -> str:
        if self.resolution is None:
            return QUALITIES[self.quality][1]
        fps = QUALITIES[self.quality][1].split("p")[1]
        return f"{self.resolution[0]}x{self.resolution[1]}p{fps}"

    @property
    def pixel_size(self) -> tuple[int, int]:
        """The frame size in pixels: the resolution if given, else the preset's."""
        return self.resolution or PRESET_SIZES[self.quality]

    @property
    def manim_quality(self) -> str:
        return QUALITIES[self.quality][0]

    @property
    def narrated(self) -> bool:
        return self.voice != "none"

    def as_dict(self) -> dict:
        """The settings as a dict; a silent render's has no ``voice`` (its cache key and manifest
        record stay what they were before narration existed)."""
        settings = asdict(self)
        if not self.narrated:
            del settings["voice"]
        return settings


@dataclass(frozen=True)
class GifOptions:
    """What `normgeo gif` was asked for: width in pixels, frame rate, loop count, byte budget, the
    format (gif, webp or a looping mp4) and, for WebP, whether it is lossless."""

    width: int = 640
    fps: int = 15
    loop: int = 0
    max_size: int | None = None
    format: str = "gif"
    lossless: bool = False

    def as_dict(self) -> dict:
        return asdict(self)


def parse_resolution(text: str) -> tuple[int, int]:
    """``1080x1080`` → (1080, 1080); both sides even, between 16 and 7680.

    >>> parse_resolution("320x180")
    (320, 180)
    """
    width, sep, height = text.lower().partition("x")
    if not sep:
        raise ValueError("expected WIDTHxHEIGHT")
    size = int(width), int(height)
    if any(side < 16 or side > 7680 or side % 2 for side in size):
        raise ValueError("each side must be an even number of pixels between 16 and 7680")
    return size


def parse_size(text: str) -> int:
    """``2MB`` → 2000000, ``500k`` → 500000, ``123456`` → 123456 (decimal units).

    >>> parse_size("2MB"), parse_size("500k"), parse_size("1.5 mb")
    (2000000, 500000, 1500000)
    """
    cleaned = text.strip().lower().replace(" ", "").removesuffix("b")
    factor = 1
    for suffix, multiplier in (("k", 1_000), ("m", 1_000_000), ("g", 1_000_000_000)):
        if cleaned.endswith(suffix):
            cleaned, factor = cleaned[:-1], multiplier
            break
    value = float(cleaned)
    if value <= 0:
        raise ValueError("size must be positive")
    return int(value * factor)


def frames_for_width(width: int, quality: str, resolution: tuple[int, int] | None) -> tuple[int, int] | None:
    """The frame size a web animation ``width`` pixels wide is rendered at: the quality's own when
    it is wide enough (None), else the smallest preset size that is (the quality's frame rate is
    kept); an explicit ``--resolution`` narrower than ``width`` is refused in one line.

    >>> frames_for_width(640, "l", None), frames_for_width(1001, "l", None), frames_for_width(3840, "m", None)
    (None, (1280, 720), (3840, 2160))
    >>> frames_for_width(160, "l", (192, 108))
    (192, 108)
    """
    if resolution is not None:
        if resolution[0] < width:
            raise InputError(f"--width {width} is wider than the frames (--resolution {resolution[0]}x{resolution[1]}): "
                             f"give a --resolution at least {width} pixels wide, or a smaller --width")
        return resolution
    if PRESET_SIZES[quality][0] >= width:
        return None
    return next(size for size in PRESET_SIZES.values() if size[0] >= width)
