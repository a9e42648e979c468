"""A voice that loads while Manim does: before a narrated render in this process, the CLI starts the
sound process (:mod:`.sound_process`: loudness and the sound track, about a second of imports) and
the Piper child of its ``--voice`` (about a second of loading), both on the other core, the Piper
child only when the render will need it, that is when a line the scenes will say whatever their
settings is not in the speech cache (a warm render starts no synthesizer). The render then finds
them running (:mod:`.speakers`)."""

from __future__ import annotations

from scenes.render.voice.choice import PiperVoiceFile, parse_voice
from scenes.render.voice.narrator import Narrator
from scenes.render.voice.scene_speech import fixed_lines
from scenes.render.voice.sound_process import sound_process
from scenes.render.voice.speakers import piper_speaker

__all__ = ["start_early"]


def start_early(voice_text: str, scene_ids: list[str], langs: tuple[str, ...]) -> bool:
    """Start the sound process, and the Piper child of ``--voice voice_text`` if a fixed line of one of
    ``scene_ids`` in ``langs`` is not in the speech cache; say whether that started."""
    sound_process().start()
    voice = parse_voice(voice_text)
    if not isinstance(voice, PiperVoiceFile):
        return False
    narrator = Narrator(voice)  # (asks the cache; starts nothing)
    if not any(narrator.missing(lang, fixed_lines(scene_id, lang))
               for lang in langs if lang == voice.language for scene_id in scene_ids):
        return False
    piper_speaker(voice, narrator.cache.folder / "models").start()
    return True
