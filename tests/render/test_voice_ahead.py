"""Lines made ahead (:meth:`Narrator.make_ahead`), with the real Piper voice in its own process: a
cold render's fixed lines are made on a thread while the scene goes on, each once; a line asked for
meanwhile is answered (before the rest); a warm cache starts nothing; the clips are the bytes the
line asked for alone gets; a scene's fixed lines are the lines its text file fixes."""

from __future__ import annotations

import json
import time

from scenes.kit.text import placeholders, text_file
from scenes.kit.registry import LECTURE_ORDER, entry
from scenes.render.voice.choice import parse_voice
from scenes.render.voice.narrator import Narrator
from scenes.render.voice.scene_speech import SceneSpeech, fixed_lines

LINES = ["The first line made ahead.", "The second line made ahead.", "The third line made ahead."]


def test_lines_made_ahead_are_made_once_and_equal_lines_asked_for(tmp_path):
    with Narrator(parse_voice("en"), tmp_path / "ahead") as ahead:
        assert ahead.make_ahead("en", LINES) == 3
        asked = ahead.speech("s", "other", "en", "A line nobody made ahead.")  # while the thread works
        clips = [ahead.speech("s", str(number), "en", line) for number, line in enumerate(LINES)]
    assert ahead.synthesized == 4  # each line once: asked lines the thread had made come from the cache
    with Narrator(parse_voice("en"), tmp_path / "alone") as alone:
        for line, clip in zip(LINES, clips):
            assert alone.speech("s", "x", "en", line).samples.tobytes() == clip.samples.tobytes()
        assert alone.speech("s", "y", "en", "A line nobody made ahead.").samples.tobytes() == asked.samples.tobytes()


def test_a_warm_cache_makes_nothing_ahead_and_starts_no_synthesizer(tmp_path):
    with Narrator(parse_voice("en"), tmp_path) as cold:
        for number, line in enumerate(LINES):
            cold.speech("s", str(number), "en", line)
    with Narrator(parse_voice("en"), tmp_path) as warm:
        assert warm.make_ahead("en", LINES) == 0
        assert warm.speaker is None and warm.synthesized == 0


def test_closing_stops_making_ahead_after_the_line_under_way(tmp_path):
    many = [f"Line number {number} of many made ahead." for number in range(12)]
    with Narrator(parse_voice("en"), tmp_path) as narrator:
        narrator.make_ahead("en", many)
        time.sleep(0.5)
    assert narrator.synthesized < len(many)  # it did not go on to the end
    assert not list(tmp_path.glob(".*partial"))


def test_a_scenes_fixed_lines_are_its_narrated_lines_without_placeholders():
    """Read from the TOML file directly: every ``say`` line of layernorm-2d in English without a
    ``{`` (its file escapes none); no scene's claim variant, though fixed, is among them."""
    import tomllib

    table = tomllib.loads(entry("layernorm-2d").text_file.read_text(encoding="utf-8"))["say"]
    plain = [step["en"] for step in table.values() if "en" in step and "{" not in step["en"]]
    assert fixed_lines("layernorm-2d", "en") == plain != []
    literal_variants = [(scene, messages[key]["en"]) for scene in LECTURE_ORDER
                        for messages in [text_file(entry(scene).text_file).messages] for key in messages
                        if key.startswith("say.") and "[" in key and not placeholders(messages[key]["en"])]
    assert literal_variants
    assert not any(line in fixed_lines(scene, "en") for scene, line in literal_variants)


def test_a_scene_speech_makes_its_fixed_lines_ahead_unless_told_not_to(tmp_path):
    with Narrator(parse_voice("en"), tmp_path / "no") as narrator:
        SceneSpeech(narrator, "layernorm-2d", "en", ahead=False)
        assert narrator.speaker is None
    with Narrator(parse_voice("en"), tmp_path / "yes") as narrator:
        SceneSpeech(narrator, "layernorm-2d", "en")
        deadline = time.monotonic() + 60
        while narrator.synthesized == 0 and time.monotonic() < deadline:  # nothing asked: the thread makes it
            time.sleep(0.05)
    assert narrator.synthesized >= 1


def test_a_line_asked_for_is_made_on_the_thread_before_the_fixed_lines_waiting_there(tmp_path):
    """The order the synthesizer was fed, read from the cache's files' times: the asked line is made
    second (the first fixed line was under way or done), ahead of the other fixed lines."""
    with Narrator(parse_voice("en"), tmp_path) as narrator:
        assert narrator.make_ahead("en", LINES) == 3
        assert narrator.ask("en", "A line the scene needs soon.") is True
        assert narrator.ask("en", "A line the scene needs soon.") is True  # (still queued: asked again, made once)
        deadline = time.monotonic() + 120
        while narrator.synthesized < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert narrator.ask("en", LINES[0]) is False  # made: nothing to ask
    assert narrator.synthesized == 4
    made = sorted(tmp_path.glob("*.json"), key=lambda path: path.stat().st_mtime_ns)
    texts = [json.loads(path.read_text(encoding="utf-8"))["text"] for path in made]
    assert texts.index("A line the scene needs soon.") <= 1 and texts[-1] == LINES[2]
