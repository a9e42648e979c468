"""The base scene's own record of its narration, which a split render joins parts by, and its cues
as Manim writes them: clipped where the next caption starts (frames round the scene's clock)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from manim import Circle, Create, tempconfig

from scenes.kit.base import NormGeoScene

LINES = {"say.first": "One short line.", "say.second": "Another line, a little longer than one second.", "say.third": "The end."}


class Narrated(NormGeoScene):
    scene_id = "radial-projection"  # any scene's text file; the lines are the test's own

    def words(self, key: str, when=None, **values) -> str:
        return LINES[key]

    def construct(self):
        self.say("first", Create(Circle()), run_time=0.1, hold=0.0)
        self.say("second", hold=0.05)
        self.say("third", run_time=0.2, hold=0.0)


def render(skip: bool):
    with tempconfig({"frame_rate": 15, "pixel_width": 64, "pixel_height": 36, "disable_caching": True,
                     "progress_bar": "none", "verbosity": "ERROR", "write_to_movie": False}):
        scene = Narrated(spec=Narrated.spec_class(), skip_animations=skip)
        scene.render()
    return scene


@pytest.mark.parametrize("skip", [True, False])
def test_cues_end_where_the_next_caption_starts_or_the_scene_ends(skip):
    scene = render(skip)
    cues = scene.renderer.file_writer.subcaptions
    starts = [step.start for step in scene.steps]
    assert [cue.content.replace("\n", " ") for cue in cues] == list(LINES.values())  # (a cue breaks long lines)
    for cue, (at, start, end, text), following in zip(cues, scene.cues, [*starts[1:], scene.end_time]):
        assert cue.content == text and cue.start == timedelta(seconds=start)
        # planned to end at ``end``; never past the next caption (or the scene's end)
        assert cue.end == min(timedelta(seconds=end), max(cue.start, timedelta(seconds=following)))
    for before, after in zip(cues, cues[1:]):
        assert before.end <= after.start
    # rendered, the second step's hold is whole frames, shorter than planned: its cue is clipped
    clipped = [cue.end < timedelta(seconds=end) for cue, (_, _, end, _) in zip(cues, scene.cues)]
    assert clipped == [False, not skip, False]


def test_a_rendered_scene_records_when_each_animation_began_and_its_end():
    """Rendered (frames round each animation's length), the records are on the scene's own clock:
    each play's start, and the end with the steps as they stood before the end clipped them."""
    scene = render(skip=False)
    assert sorted(scene.play_starts) == list(range(len(scene.play_starts))) and scene.play_starts[0] == 0.0
    assert list(scene.play_starts.values()) == sorted(scene.play_starts.values())
    assert scene.end_time == pytest.approx(float(scene.time))
    assert [step.key for step in scene.steps_at_end] == ["first", "second", "third"]
    assert [at for at, *_ in scene.cues] == [step.start for step in scene.steps]
