"""The bridge from a scene to the narrator: the base scene asks how long a step's line takes to say
(:class:`scenes.kit.base.Speech`); this answers from the narrator and keeps each step's clip, so that
the render can lay them on its sound track at the times the scene recorded (``scene.spoken``); given
a track (:class:`~.sound_process.SoundTrack`), it places each clip on it as the scene says it."""

from __future__ import annotations

from scenes.kit.registry import entry
from scenes.kit.text import fill, placeholders, text_file
from scenes.render.voice.clip import Clip
from scenes.render.voice.narrator import Narrator
from scenes.render.voice.sound_process import SoundTrack

__all__ = ["SceneSpeech", "fixed_lines"]


def fixed_lines(scene_id: str, lang: str) -> list[str]:
    """The narrated lines of ``scene_id`` in ``lang`` that no setting changes, in file order (not a
    claim's variants: the settings choose which one is said, and the others would hold the speaker).

    >>> "In two dimensions the zero-mean hyperplane is the line x + y = 0." in fixed_lines("layernorm-2d", "en")
    True
    """
    messages = text_file(entry(scene_id).text_file).messages
    templates = [languages[lang] for key, languages in messages.items() if key.startswith("say.") and "[" not in key
                 and lang in languages]
    return [fill(template, lang) for template in templates if not placeholders(template)]


class SceneSpeech:
    """``speech(step, line, start)`` for one scene in one language; ``clips`` holds what was said, by step.
    With ``ahead``, the scene's fixed lines (:func:`fixed_lines`) the cache lacks are made ahead
    (:meth:`Narrator.make_ahead`), and a line the scene asks for (``ask``) before them; not in a
    process that forks while it renders (there ``ask`` does nothing, and the line is made when needed)."""

    def __init__(self, narrator: Narrator, scene_id: str, lang: str, ahead: bool = True,
                 track: SoundTrack | None = None):
        self.narrator, self.scene_id, self.lang, self.ahead, self.track = narrator, scene_id, lang, ahead, track
        self.clips: dict[str, Clip] = {}
        if ahead:
            narrator.make_ahead(lang, fixed_lines(scene_id, lang))

    def ask(self, step: str, line: str) -> None:
        if self.ahead:
            self.narrator.ask(self.lang, line)

    def __call__(self, step: str, line: str, start: float) -> float:
        clip = self.narrator.speech(self.scene_id, step, self.lang, line)
        self.clips[step] = clip
        if self.track is not None:
            self.track.place(start, clip)
        return clip.seconds
