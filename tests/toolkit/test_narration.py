"""Narration through the kit's scene base, on a tiny real scene built in dry run: each step's
line becomes back-to-back cues that share the step's time by length, the hold is lengthened to the
reading time, no cue outlasts the start of the next step, and the recorded steps are what was
said, when. Expected times are worked out by hand in each test from the reading speeds."""

import datetime

import pytest
from manim import Dot, FadeIn, tempconfig

from scenes.kit.base import NormGeoScene, Step
from scenes.kit.claims import Outcome
from scenes.kit.spec import SceneSpec


class TestNarrationScene(NormGeoScene):
    """Says a short line (no animation), then a long one over a 2 s animation."""

    __test__ = False

    def construct(self):
        self.add(self.make_title())
        self.say("short", hold=0.5)
        self.say("long", FadeIn(Dot()), run_time=2.0, hold=0.5, x=self.fmt.vector([3.0, 4.0]))
        self.wait(0.25)


def build(lang: str, tmp_path):
    options = {"dry_run": True, "media_dir": str(tmp_path), "verbosity": "ERROR", "progress_bar": "none",
               "notify_outdated_version": False}
    with tempconfig(options):
        scene = TestNarrationScene(spec=SceneSpec(lang=lang), skip_animations=True)
        scene.render()
    return scene


def seconds(moment: datetime.timedelta) -> float:
    return moment.total_seconds()


@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_steps_are_what_was_said_and_when(lang, tmp_path):
    scene = build(lang, tmp_path)
    assert scene.scene_id == "test-narration"
    assert [step.key for step in scene.steps] == ["short", "long"]
    assert scene.narration == [step.text for step in scene.steps]
    short, long = scene.steps
    # "Short." is 6 characters: 0.32 s at 19/s, so it is held for the 1 s minimum (hold 0.5 is raised).
    assert short.start == 0.0 and short.end == pytest.approx(1.0)
    assert long.start == pytest.approx(1.0)
    reading = len(long.text) / {"en": 19.0, "zh": 7.5, "ru": 18.0}[lang]
    assert long.end == pytest.approx(1.0 + max(2.5, reading))
    assert float(scene.time) == pytest.approx(long.end + 0.25)
    assert long.as_dict() == {"key": "long", "text": long.text, "start": round(long.start, 3), "end": round(long.end, 3)}
    vector = {"en": "(3, 4)", "zh": "(3, 4)", "ru": "(3; 4)"}[lang]
    assert vector in long.text


@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_cues_tile_each_step_in_proportion_to_their_length(lang, tmp_path):
    scene = build(lang, tmp_path)
    cues = scene.renderer.file_writer.subcaptions
    short, long = scene.steps
    first = [cue for cue in cues if seconds(cue.start) < short.end - 1e-9]
    rest = [cue for cue in cues if seconds(cue.start) >= long.start - 1e-9]
    assert len(first) == 1 and first[0].content == short.text
    assert seconds(first[0].start) == 0.0 and seconds(first[0].end) == pytest.approx(1.0, abs=1e-6)
    assert len(rest) >= 2  # the long line does not fit one cue
    assert "".join(c.content.replace("\n", "") for c in rest).replace(" ", "") == long.text.replace(" ", "")
    assert seconds(rest[0].start) == pytest.approx(long.start, abs=1e-6)
    assert seconds(rest[-1].end) == pytest.approx(long.end, abs=1e-6)
    total = sum(len(c.content.replace("\n", "")) for c in rest)
    for cue, following in zip(rest, rest[1:]):
        assert seconds(cue.end) == pytest.approx(seconds(following.start), abs=1e-6)
    for cue in rest:
        share = len(cue.content.replace("\n", "")) / total * (long.end - long.start)
        assert seconds(cue.end) - seconds(cue.start) == pytest.approx(share, abs=1e-5)
    for cue, following in zip(cues, cues[1:]):
        assert cue.end <= following.start


def test_a_cue_longer_than_its_step_is_clipped_when_the_next_step_starts(tmp_path):
    """Frames round the scene's clock: the last cue of a step ends exactly when the next starts."""

    class Clipped(TestNarrationScene):
        __test__ = False

        def construct(self):
            self.caption("short", 0.0, 3.0)
            self.wait(1.0)  # the next step starts before the 3 s cue would end
            self.caption("short", 0.0, 1.0)
            self.wait(1.0)

    options = {"dry_run": True, "media_dir": str(tmp_path), "verbosity": "ERROR", "progress_bar": "none",
               "notify_outdated_version": False}
    with tempconfig(options):
        scene = Clipped(spec=SceneSpec(), skip_animations=True)
        scene.render()
    first, second = scene.renderer.file_writer.subcaptions
    assert seconds(first.end) == pytest.approx(1.0) and seconds(second.start) == pytest.approx(1.0)
    assert scene.steps[0] == Step("short", "Short.", 0.0, pytest.approx(1.0))
    assert seconds(second.end) == pytest.approx(2.0)


@pytest.mark.parametrize("through", ["caption", "say"])
@pytest.mark.parametrize(("value", "said", "shown"), [("true", "It holds at n = 3.", "holds at $n = 3$"),
                                                      ("false", "It fails at n = 3.", "fails at $n = 3$")])
def test_a_claim_says_and_shows_the_variant_its_outcome_names_with_its_values(tmp_path, through, value, said, shown):
    """A step's line and a shown text, each with a claim: the variant the outcome names, filled; the
    scene records every claim it made (what the claims tests read), and a common word is the shared file's."""

    class Verdict(TestNarrationScene):
        __test__ = False

        def construct(self):
            outcome = Outcome("holds", value)
            if through == "caption":
                self.caption("verdict", 0.0, 1.0, when=outcome, n=3)
            else:
                self.say("verdict", hold=1.0, when=outcome, n=3)
            self.label = self.text("verdict-label", when=outcome, n=3)
            self.common = self.words("common.unit-circle")

    options = {"dry_run": True, "media_dir": str(tmp_path), "verbosity": "ERROR", "progress_bar": "none",
               "notify_outdated_version": False}
    with tempconfig(options):
        scene = Verdict(spec=SceneSpec(lang="ru"), skip_animations=True)
        scene.render()
    russian = {"It holds at n = 3.": "При n = 3 это верно.", "It fails at n = 3.": "При n = 3 это неверно.",
               "holds at $n = 3$": "верно при $n = 3$", "fails at $n = 3$": "неверно при $n = 3$"}
    assert [(step.key, step.text) for step in scene.steps] == [("verdict", russian[said])]
    assert scene.label.typst_code == russian[shown]
    assert scene.claims_made == {"say.verdict": Outcome("holds", value), "verdict-label": Outcome("holds", value)}
    assert scene.common == "единичная окружность"


def test_a_step_is_on_record_from_its_start_while_its_animations_play(tmp_path):
    """While the long step's animation plays, the step is already recorded, with what it says and
    its start (its end is its start until the hold is known): what a split part sees mid-step."""

    class Watched(TestNarrationScene):
        __test__ = False

        def play(self, *animations, **kwargs):
            self.__dict__.setdefault("seen", []).append(self.steps[-1] if self.steps else None)
            super().play(*animations, **kwargs)

    options = {"dry_run": True, "media_dir": str(tmp_path), "verbosity": "ERROR", "progress_bar": "none",
               "notify_outdated_version": False}
    with tempconfig(options):
        scene = Watched(spec=SceneSpec(), skip_animations=True)
        scene.render()
    long = scene.steps[1]
    assert Step("long", long.text, 1.0, 1.0) in scene.seen  # as the FadeIn began
    assert long.start == 1.0 and long.end > long.start


def test_a_scene_refuses_a_spec_of_another_scene():
    from scenes.radial_projection import RadialProjectionSpec

    class Strict(NormGeoScene):
        __test__ = False
        spec_class = RadialProjectionSpec

    with pytest.raises(TypeError, match="Strict needs a RadialProjectionSpec, got SceneSpec"):
        Strict(spec=SceneSpec())
