"""Render settings shared by the commands: quality presets, formats, output names."""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["QUALITIES", "FORMATS", "RenderSettings", "artifact_name"]

# Manim's presets: flag → (manim quality name, label used in file names).
QUALITIES = {
    "l": ("low_quality", "480p15"),
    "m": ("medium_quality", "720p30"),
    "h": ("high_quality", "1080p60"),
    "k": ("fourk_quality", "2160p60"),
}
FORMATS = ("mp4", "webm", "mov", "gif", "png")
TRANSPARENT_FORMATS = ("mov", "webm", "png")


@dataclass(frozen=True)
class RenderSettings:
    """Everything about a render that is not the scene's spec."""

    quality: str = "l"
    format: str = "mp4"
    transparent: bool = False

    @property
    def quality_label(self) -> str:
        return QUALITIES[self.quality][1]

    @property
    def manim_quality(self) -> str:
        return QUALITIES[self.quality][0]

    def as_dict(self) -> dict:
        return asdict(self)


def artifact_name(scene_id: str, lang: str, theme: str, settings: RenderSettings, suffix: str | None = None) -> str:
    """``<id>/<id>.<lang>.<theme>.<quality>[.alpha].<ext>``: predictable, one file per combination.

    >>> artifact_name("radial-projection", "zh", "light", RenderSettings("h", "mp4"))
    'radial-projection/radial-projection.zh.light.1080p60.mp4'
    """
    alpha = ".alpha" if settings.transparent else ""
    extension = suffix or settings.format
    return f"{scene_id}/{scene_id}.{lang}.{theme}.{settings.quality_label}{alpha}.{extension}"
