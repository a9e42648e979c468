"""Output names: predictable, one file per combination, and a custom spec never overwrites the default.

``<id>/<id>.<lang>.<theme>[.<spec tag>][.voice-<voice>].<quality>[.alpha].<ext>``; the spec tag is the first eight
hex digits of a hash of the spec's settings, present only when they differ from the defaults.
"""

from __future__ import annotations

import hashlib
import json

from scenes.kit.spec import SceneSpec
from scenes.render.settings import RenderSettings

__all__ = ["spec_tag", "artifact_name", "gif_name", "lecture_name", "voice_tag"]


def spec_tag(spec: SceneSpec) -> str | None:
    """None for the default settings of a scene, else 8 hex digits naming these settings."""
    settings = spec.settings_dict()
    if settings == type(spec)().settings_dict():
        return None
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:8]


def _stem(scene_id: str, spec: SceneSpec) -> str:
    tag = spec_tag(spec)
    return f"{scene_id}/{scene_id}.{spec.lang}.{spec.theme}" + (f".{tag}" if tag else "")


def artifact_name(scene_id: str, spec: SceneSpec, settings: RenderSettings) -> str:
    """The video or still of ``scene_id`` with ``spec`` and ``settings``.

    >>> from scenes.kit.spec import SceneSpec
    >>> artifact_name("radial-projection", SceneSpec(lang="zh", theme="light"), RenderSettings("h", "mp4"))
    'radial-projection/radial-projection.zh.light.1080p60.mp4'
    """
    alpha = ".alpha" if settings.transparent else ""
    return f"{_stem(scene_id, spec)}{voice_tag(settings.voice)}.{settings.quality_label}{alpha}.{settings.format}"


def voice_tag(voice: str) -> str:
    """``""`` for a silent render, ``.voice-en`` / ``.voice-ru``, or ``.voice-`` and 8 hex digits
    naming a voice file or recordings folder.

    >>> voice_tag("none"), voice_tag("en"), voice_tag("piper:/voices/zh.onnx")
    ('', '.voice-en', '.voice-ed375dc9')
    """
    if voice == "none":
        return ""
    if voice in ("en", "ru"):
        return f".voice-{voice}"
    return ".voice-" + hashlib.sha256(voice.encode()).hexdigest()[:8]


def gif_name(scene_id: str, spec: SceneSpec, width: int, fmt: str = "gif", lossless: bool = False, *,
             fps: int = 15, loop: int = 0, max_size: int | None = None, frames: tuple[int, int] | None = None) -> str:
    """``<id>/<id>.<lang>.<theme>[.<tag>].<width>px[.from<W>x<H>][.<fps>fps][.loop<n>][.max<size>].gif``
    (``width``: the real pixel width), ``….webp``, ``….lossless.webp`` or ``….loop.mp4`` for the
    other web animations. Every setting that changes the bytes is in the name, each only when it
    is not the default, so the default names stay short and two runs with different settings never
    replace each other: ``frames``, the size of the frames the animation is scaled from when they
    are not the default quality's (``-q``, ``--resolution``); the frame rate (default 15); the loop
    count (default 0, forever); the byte budget (``--max-size``).

    >>> from scenes.kit.spec import SceneSpec
    >>> gif_name("sphere-radii", SceneSpec(), 480)
    'sphere-radii/sphere-radii.en.dark.480px.gif'
    >>> gif_name("sphere-radii", SceneSpec(), 480, fps=30, loop=1, max_size=2_000_000, frames=(1920, 1080))
    'sphere-radii/sphere-radii.en.dark.480px.from1920x1080.30fps.loop1.max2MB.gif'
    """
    suffix = {"gif": "gif", "webp": "lossless.webp" if lossless else "webp", "mp4": "loop.mp4"}[fmt]
    parts = [f"{width}px"]
    if frames is not None:
        parts.append(f"from{frames[0]}x{frames[1]}")
    if fps != 15:
        parts.append(f"{fps}fps")
    if loop != 0:
        parts.append(f"loop{loop}")
    if max_size is not None:
        parts.append(f"max{_bytes_label(max_size)}")
    return f"{_stem(scene_id, spec)}.{'.'.join(parts)}.{suffix}"


def _bytes_label(size: int) -> str:
    """``2000000`` → ``2MB``, ``150000`` → ``150kB``, ``123456`` → ``123456B`` (exact, decimal units)."""
    for unit, factor in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if size % factor == 0:
            return f"{size // factor}{unit}"
    return f"{size}B"


def lecture_name(lang: str, theme: str, settings: RenderSettings, tag: str | None = None) -> str:
    """``lecture/lecture.<lang>.<theme>[.<tag>][.voice-<voice>].<quality>.mp4``."""
    return (f"lecture/lecture.{lang}.{theme}" + (f".{tag}" if tag else "") + voice_tag(settings.voice)
            + f".{settings.quality_label}.mp4")
