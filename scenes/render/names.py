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


def gif_name(scene_id: str, spec: SceneSpec, width: int, fmt: str = "gif", lossless: bool = False) -> str:
    """``<id>/<id>.<lang>.<theme>[.<tag>].<width>px.gif`` (the real pixel width), ``….webp``,
    ``….lossless.webp`` or ``….loop.mp4`` for the other web animations."""
    suffix = {"gif": "gif", "webp": "lossless.webp" if lossless else "webp", "mp4": "loop.mp4"}[fmt]
    return f"{_stem(scene_id, spec)}.{width}px.{suffix}"


def lecture_name(lang: str, theme: str, settings: RenderSettings, tag: str | None = None) -> str:
    """``lecture/lecture.<lang>.<theme>[.<tag>][.voice-<voice>].<quality>.mp4``."""
    return (f"lecture/lecture.{lang}.{theme}" + (f".{tag}" if tag else "") + voice_tag(settings.voice)
            + f".{settings.quality_label}.mp4")
