"""The bridge from a scene to the narrator: the base scene asks how long a step's line takes to say
(:class:`scenes.kit.base.Speech`); this answers from the narrator and keeps each step's clip, so that
the render can lay them on its sound track at the times the scene recorded (``scene.spoken``)."""

from __future__ import annotations

from scenes.render.voice.clip import Clip
from scenes.render.voice.narrator import Narrator

__all__ = ["SceneSpeech"]


class SceneSpeech:
    """``speech(step, line)`` for one scene in one language; ``clips`` holds what was said, by step."""

    def __init__(self, narrator: Narrator, scene_id: str, lang: str):
        self.narrator, self.scene_id, self.lang = narrator, scene_id, lang
        self.clips: dict[str, Clip] = {}

    def __call__(self, step: str, line: str) -> float:
        clip = self.narrator.speech(self.scene_id, step, self.lang, line)
        self.clips[step] = clip
        return clip.seconds
