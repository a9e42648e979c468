"""``--voice`` checked before anything renders: the voice exists, speaks every language asked for,
and, for recordings, every narrated step of every scene has one readable recording per language."""

from __future__ import annotations

from scenes.kit.registry import entry
from scenes.kit.text import text_file
from scenes.render.voice.choice import NoVoice, RecordingsFolder, check_language, parse_voice, speech_timeout
from scenes.render.voice.recordings import check_recordings

__all__ = ["check_voice"]


def check_voice(text: str, scene_ids: list[str], langs: tuple[str, ...]) -> str:
    """``text`` if a render of ``scene_ids`` in ``langs`` can be narrated with it, else an InputError."""
    voice = parse_voice(text)
    if isinstance(voice, NoVoice):
        return "none"
    speech_timeout()
    for lang in langs:
        check_language(voice, lang)
        if isinstance(voice, RecordingsFolder):
            for scene_id in scene_ids:
                check_recordings(voice, scene_id, text_file(entry(scene_id).text_file).steps(), lang)
    return text
