"""A voice that loads while Manim does: before a render in this process, the CLI starts the Piper
child of its ``--voice`` (about a second of loading, on the other core) when the render will need it,
that is when a line the scenes will say whatever their settings is not in the speech cache; a warm
render starts nothing. The narrator then finds the child running (:mod:`.speakers`)."""

from __future__ import annotations

from scenes.render.voice.choice import PiperVoiceFile, parse_voice
from scenes.render.voice.narrator import Narrator
from scenes.render.voice.scene_speech import fixed_lines
from scenes.render.voice.speakers import piper_speaker

__all__ = ["start_early"]


def start_early(voice_text: str, scene_ids: list[str], langs: tuple[str, ...]) -> bool:
    """Start the Piper child of ``--voice voice_text`` now if a fixed line of one of ``scene_ids`` in
    ``langs`` is not in the speech cache; say whether it started."""
    voice = parse_voice(voice_text)
    if not isinstance(voice, PiperVoiceFile):
        return False
    narrator = Narrator(voice)  # (asks the cache; starts nothing)
    if not any(narrator.missing(lang, fixed_lines(scene_id, lang))
               for lang in langs if lang == voice.language for scene_id in scene_ids):
        return False
    piper_speaker(voice, narrator.cache.folder / "models").start()
    return True
