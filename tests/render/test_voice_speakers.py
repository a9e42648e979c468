"""A process's Piper speakers, with the real voice in its own process: narrators one after another in
one process share one child (a batch loads the voice once); a forked copy of the process never
writes to its parent's child; the CLI's early start starts the child before any line is asked when a
fixed line is missing from the cache, and nothing when the cache holds them all; the child patches
the aligned copy of the voice itself."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scenes.render.voice.choice import parse_voice
from scenes.render.voice.early_start import start_early
from scenes.render.voice.narrator import Narrator
from scenes.render.voice.scene_speech import fixed_lines
from scenes.render.voice.speakers import close_speakers, piper_speaker


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"


@pytest.fixture(autouse=True)
def own_speakers():
    """Each test starts with no speaker in this process and ends its children."""
    close_speakers()
    yield
    close_speakers()


def test_narrators_in_one_process_share_one_piper_child_which_outlives_them(tmp_path):
    with Narrator(parse_voice("en"), tmp_path) as first:
        first.speech("s", "a", "en", "The first scene's line.")
        pid = first.speaker.child_pid
    assert pid is not None and _running(pid)  # closing the narrator left the process's speaker running
    with Narrator(parse_voice("en"), tmp_path) as second:
        clip = second.speech("s", "b", "en", "The second scene's line.")
        assert second.speaker is first.speaker and second.speaker.child_pid == pid
    assert clip.words_from == "alignment" and second.synthesized == 1
    assert len(list((tmp_path / "models").glob("*.onnx"))) == 1  # the child patched its copy once
    close_speakers()
    assert not _running(pid)


def test_a_forked_copy_starts_its_own_speaker_and_never_uses_its_parents(tmp_path):
    voice = parse_voice("en")
    parents = piper_speaker(voice, tmp_path)
    parents.start()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the copy: report whether it got a fresh, unstarted speaker, then leave at once
        mine = piper_speaker(voice, tmp_path)
        os.write(write, b"fresh" if mine is not parents and mine.child_pid is None else b"shared")
        os._exit(0)
    os.close(write)
    answer = os.read(read, 16)
    os.waitpid(child, 0)
    assert answer == b"fresh"
    assert piper_speaker(voice, tmp_path) is parents and _running(parents.child_pid)


def test_early_start_starts_piper_before_any_line_when_a_fixed_line_is_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("NORMGEO_SPEECH_CACHE", str(tmp_path))
    assert start_early("en", ["layernorm-2d"], ("en",)) is True
    speaker = piper_speaker(parse_voice("en"), tmp_path / "models")
    assert speaker.child_pid is not None and _running(speaker.child_pid)


def test_early_start_starts_nothing_for_a_warm_cache_a_silent_voice_or_another_language(tmp_path, monkeypatch):
    monkeypatch.setenv("NORMGEO_SPEECH_CACHE", str(tmp_path))
    with Narrator(parse_voice("en")) as narrator:
        for number, line in enumerate(fixed_lines("layernorm-2d", "en")):
            narrator.speech("layernorm-2d", str(number), "en", line)
    close_speakers()
    assert start_early("en", ["layernorm-2d"], ("en",)) is False
    assert piper_speaker(parse_voice("en"), tmp_path / "models").child_pid is None
    assert start_early("en", ["layernorm-2d", "radial-projection"], ("en",)) is True  # one scene still cold
    close_speakers()
    assert start_early("none", ["radial-projection"], ("en",)) is False
    assert start_early("ru", ["radial-projection"], ("ru",)) is False  # Festival: nothing to load ahead
    assert start_early("en", ["radial-projection"], ("zh",)) is False  # the voice speaks none of them
    assert piper_speaker(parse_voice("en"), tmp_path / "models").child_pid is None
