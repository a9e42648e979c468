"""`--split N`: one scene as N ranges of its animations, joined without re-encoding.

What Manim 0.22 does with skipped animations is checked here too, because the join depends on it:
a skipped animation still runs (its mobjects end where they would) and advances ``scene.time``
by its exact duration, while a rendered one advances it by whole frames; every caption up to the
end of a part is added, the skipped ones included."""

import numpy as np
import pytest
from click.testing import CliRunner

from scenes.cli.main import cli
from hypothesis import given, settings
from hypothesis import strategies as st

from scenes.render.splitting import lead_may_start, plan_costs, plan_parts
from tests.helpers import assert_split_equals_unsplit

TINY = ("--resolution", "192x108")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("durations", [[1.0] * 7, [0.1, 5, 0.2, 0.3, 4, 1, 1, 1], [3.0, 0.0, 0.0], [2.0]])
@pytest.mark.parametrize("parts", [1, 2, 3, 5])
def test_plan_covers_every_animation_once_in_order(durations, parts):
    """The ranges are contiguous, non-empty, cover 0…n−1 and number min(parts, n)."""
    ranges = plan_parts(durations, parts)
    assert len(ranges) == min(parts, len(durations))
    assert ranges[0][0] == 0 and ranges[-1][1] == len(durations) - 1
    assert all(first <= last for first, last in ranges)
    assert all(b[0] == a[1] + 1 for a, b in zip(ranges, ranges[1:]))


def test_plan_balances_durations():
    """Eight equal animations in two parts: four each."""
    assert plan_parts([1.0] * 8, 2) == [(0, 3), (4, 7)]


def test_manim_skipped_animations_advance_the_clock_by_their_exact_duration(tmp_path):
    """At 15 fps a wait of 0.1 s draws int(0.1·15) = 1 frame (clock +1/15) when rendered, but
    advances the clock by 0.1 when skipped; captions given while skipping are still recorded."""
    from manim import Scene, tempconfig

    class Waits(Scene):
        def construct(self):
            self.add_subcaption("first", duration=0.1)
            self.wait(0.1)
            self.add_subcaption("second", duration=0.1)
            self.wait(0.1)

    def clock(first):
        options = {"media_dir": str(tmp_path / str(first)), "frame_rate": 15, "pixel_width": 32, "pixel_height": 18,
                   "disable_caching": True, "progress_bar": "none", "verbosity": "ERROR",
                   "from_animation_number": first}
        with tempconfig(options):
            scene = Waits()
            scene.render()
            return float(scene.time), [c.content for c in scene.renderer.file_writer.subcaptions]

    assert clock(0) == (pytest.approx(2 / 15), ["first", "second"])
    assert clock(1) == (pytest.approx(0.1 + 1 / 15), ["first", "second"])


def test_a_part_draws_nothing_before_its_range_and_shows_the_same_frames(tmp_path):
    """Manim draws every skipped animation (static image and one frame) and throws it away; the
    pipeline's renderer of a part draws nothing before ``from_animation_number``, and its frames are unchanged."""
    from manim import Circle, Create, Scene, Square, Transform, tempconfig

    from manim.camera.camera import Camera
    from manim.scene.scene_file_writer import SceneFileWriter

    from scenes.render.manim_door.renderer import PipelineRenderer

    class Three(Scene):
        def construct(self):
            circle = Circle()
            self.play(Create(circle), run_time=0.2)
            self.play(Transform(circle, Square()), run_time=0.2)
            self.play(circle.animate.shift([1, 0, 0]), run_time=0.2)

    def part(guarded):
        options = {"media_dir": str(tmp_path / str(guarded)), "frame_rate": 15, "pixel_width": 64, "pixel_height": 36,
                   "disable_caching": True, "progress_bar": "none", "verbosity": "ERROR", "from_animation_number": 2}
        frames, skipped_draws = [], 0
        with tempconfig(options):
            scene = Three(renderer=PipelineRenderer(camera_class=Camera, file_writer_class=SceneFileWriter,
                                                    draws_while_skipping=not guarded))
            renderer = scene.renderer
            capture = renderer.camera.capture_mobjects

            def counted(*args, **kwargs):
                nonlocal skipped_draws
                skipped_draws += renderer.skip_animations
                return capture(*args, **kwargs)

            renderer.camera.capture_mobjects = counted
            add_frame = renderer.add_frame

            def recorded(frame, num_frames=1):
                if not renderer.skip_animations:  # Manim hands skipped frames over too, and drops them
                    frames.append(frame.copy())
                return add_frame(frame, num_frames)

            renderer.add_frame = recorded
            scene.render()
        return frames, skipped_draws

    plain, plain_draws = part(False)
    guarded, guarded_draws = part(True)
    assert plain_draws > 0 and guarded_draws == 0
    assert len(guarded) == len(plain) == 3
    assert all(np.array_equal(a, b) for a, b in zip(plain, guarded))


@pytest.mark.render
def test_split_render_equals_the_unsplit_one_and_shares_its_cache(tmp_path):
    """scale-invariance in 3 parts on 2 processes: the decoded frames, the .srt and the narrated
    steps equal an unsplit render's; the input hash is the same, so each is the other's cache."""
    whole, parts = tmp_path / "whole", tmp_path / "split"
    assert run("render", "scale-invariance", *TINY, "--jobs", 1, "--out", whole).exit_code == 0
    again = run("render", "scale-invariance", *TINY, "--split", 2, "--out", whole)
    assert "0 made, 1 cached" in again.output  # the split count is not an input
    result = run("render", "scale-invariance", *TINY, "--jobs", 2, "--split", 3, "--out", parts)
    assert result.exit_code == 0, result.output
    name = "scale-invariance/scale-invariance.en.dark.192x108p15.mp4"
    records = assert_split_equals_unsplit(whole, parts, name)
    assert (parts / name.replace(".mp4", ".vtt")).read_text(encoding="utf-8").startswith("WEBVTT")
    assert records[1]["split_parts"] == 3
    assert records[0]["input_hash"] == records[1]["input_hash"]


rows_strategy = st.lists(st.tuples(st.floats(0, 10), st.integers(1, 100), st.integers(0, 500)).map(list),
                         min_size=1, max_size=25)


@given(seen=rows_strategy, later=st.lists(st.tuples(st.floats(0, 10), st.integers(1, 100), st.integers(0, 500))
                                         .map(list), max_size=25),
       parts=st.integers(2, 5), drawn=st.floats(1e-4, 0.1), held=st.floats(0, 0.01), data=st.data())
def test_the_first_part_never_starts_an_animation_the_plan_gives_to_another(seen, later, parts, drawn, held, data):
    """Whatever rows the plan measures after the first part decided (and whatever per-frame
    seconds and head start it ends with), every animation :func:`lead_may_start` allowed on the rows
    seen so far lands in the first range."""
    rows = seen + later
    costs = plan_costs({"rows": rows, "drawn": drawn, "held": held})
    allowed = [number for number in range(len(seen)) if lead_may_start(number, seen, parts)]
    done = data.draw(st.integers(0, max(allowed) + 1 if allowed else 0))
    ranges = plan_parts(costs, parts, lead_extra=sum(costs[:done]))
    assert all(number <= ranges[0][1] for number in allowed)


@given(costs=st.lists(st.floats(0.01, 10), min_size=1, max_size=30), parts=st.integers(1, 6),
       extra=st.floats(0, 50))
def test_ranges_cover_every_animation_once_whatever_the_head_start(costs, parts, extra):
    ranges = plan_parts(costs, parts, lead_extra=extra)
    assert len(ranges) == min(parts, len(costs))
    assert ranges[0][0] == 0 and ranges[-1][1] == len(costs) - 1
    assert all(first <= last for first, last in ranges)
    assert all(b[0] == a[1] + 1 for a, b in zip(ranges, ranges[1:]))


def test_a_middle_part_without_a_range_renders_nothing(tmp_path):
    """--split 3 on a scene the plan cuts in two: the middle part hands back an empty part."""
    from scenes.render.running.handoff import FolderHandoff
    from scenes.render.splitting import Name, render_middle

    handoff = FolderHandoff(tmp_path)
    handoff.put(Name.RANGES, [[0, 3], [4, 9]])
    assert render_middle(None, handoff, 1).empty


def test_a_waiting_part_gives_up_when_the_client_stops_the_job(tmp_path):
    from scenes.render.running.worker import JobFailed
    from scenes.render.running.handoff import FolderHandoff
    from scenes.render.splitting import Name, render_middle

    handoff = FolderHandoff(tmp_path)
    handoff.put(Name.STOP, True)
    with pytest.raises(JobFailed, match="stopped"):
        render_middle(None, handoff, 1)


@settings(max_examples=15, deadline=None)
@given(rows=st.lists(st.tuples(st.floats(0.001, 10), st.integers(1, 100), st.integers(0, 500)).map(list),
                     min_size=2, max_size=40),
       parts=st.integers(2, 4), drawn=st.floats(1e-4, 0.1), held=st.floats(0, 0.01), done=st.integers(0, 3))
def test_the_last_part_always_has_a_copy_at_or_before_its_start(rows, parts, drawn, held, done):
    """The measuring run forks before animations and ends the copies it cannot need (and every
    second one past the cap): at most MAX_COPIES + 1 wait, and one of them is at or before the
    start of the last range, whatever the per-frame seconds and the first part's progress."""
    import tempfile

    from scenes.render.running.handoff import FolderHandoff
    from scenes.render.splitting.snapshots import Snapshots
    from scenes.render.splitting.tail import Tail

    tail = Tail(FolderHandoff(tempfile.mkdtemp()), parts)
    tail.snapshots = Snapshots(tempfile.mkdtemp())
    try:
        for number, row in enumerate(rows):
            if number % tail.stride == 0 and tail.snapshots.take(number) is not None:
                tail.snapshots.hand_over()  # a copy: never woken here
            tail.rows.append(row)
            tail._keep_few_copies()
            assert len(tail.snapshots.waiting) <= tail.MAX_COPIES + 1
        costs = plan_costs({"rows": rows, "drawn": drawn, "held": held})
        ranges = plan_parts(costs, parts, lead_extra=sum(costs[:min(done, len(costs))]))
        if len(ranges) > 1:
            assert any(number <= ranges[-1][0] for number in tail.snapshots.waiting)
    finally:
        tail.snapshots.end_all()


def _scene_payload(tmp_path, scene="scale-invariance"):
    from scenes.render import RenderJob, RenderSettings, build_specs
    from scenes.render.running.job import job_payload

    job = RenderJob(scene, build_specs([scene], "en", "dark", {})[scene], RenderSettings("l", "mp4", resolution=(192, 108)),
                    tmp_path / "out")
    return job, job_payload(job, "test")


def _spans(part) -> list[tuple[int, int]]:
    return [(run.first, run.last) for run in part.runs]


def lead_and_tail_on_two_workers(payload, ranges: list) -> tuple:
    """The first and last parts of ``payload``'s scene as two calls on a two-process pool, with
    ``ranges`` and their end already in the hand-off (as a first try of the plan leaves them):
    (first part, last part, the last part's answer)."""
    from scenes.render.running.executor import LocalExecutor
    from scenes.render.splitting import Name, render_lead, render_tail

    with LocalExecutor(2) as executor:
        handoff = executor.handoff("job")
        handoff.put(Name.RANGES, ranges)
        handoff.put(Name.END, ranges[0][1])
        executor.submit("tail", render_tail, payload, handoff, 2)
        executor.submit("lead", render_lead, payload, handoff, 2)
        outcomes = {outcome.key: outcome for outcome in executor.outcomes()}
        assert all(outcome.error is None for outcome in outcomes.values()), outcomes
        return outcomes["lead"].value, outcomes["tail"].value, handoff.get(Name.GIVEN)


@pytest.mark.render
def test_a_first_part_done_early_renders_what_the_last_part_gives_it(tmp_path):
    """Two real worker processes, and a plan that gives the first part animation 0 only: it is
    free at once, the last part gives it the end of its range, and the runs of both, joined, are
    the frames, cues and steps of the scene rendered in one part. Every render has a process of its
    own (``in_fresh_process``)."""
    from scenes.render.splitting import join_parts, render_part
    from tests.helpers import assert_joined_equals_whole, in_fresh_process

    job, payload = _scene_payload(tmp_path)
    alone = in_fresh_process(render_part, payload, 0, 0, True)
    count = alone.runs[-1].last + 1
    assert _spans(alone) == [(0, count - 1)] and count >= 6
    lead, tail, given = in_fresh_process(lead_and_tail_on_two_workers, payload, [[0, 0], [1, count - 1]])
    assert 1 < given < count
    assert _spans(lead) == [(0, 0), (given, count - 1)] and _spans(tail) == [(1, given - 1)]
    assert_joined_equals_whole(join_parts(job, [alone]), join_parts(job, [lead, tail]), tmp_path)


@pytest.mark.render
def test_a_retried_part_keeps_the_answer_of_the_first_try(tmp_path):
    """Ranges, end and gift already in the hand-off (a first try left them): the last part stops
    before the gift without waiting for the first part, the first part skips to it without asking,
    and the join is unchanged."""
    from scenes.render.running.handoff import FolderHandoff
    from scenes.render.splitting import Name, join_parts, render_lead, render_part, render_tail
    from tests.helpers import assert_joined_equals_whole, in_fresh_process

    job, payload = _scene_payload(tmp_path)
    alone = in_fresh_process(render_part, payload, 0, 0, True)
    count = alone.runs[-1].last + 1
    end, gift = count // 2 - 1, count - 2
    (tmp_path / "handoff").mkdir()
    handoff = FolderHandoff(tmp_path / "handoff")
    handoff.put(Name.RANGES, [[0, end], [end + 1, count - 1]])
    handoff.put(Name.END, end)
    handoff.put(Name.GIVEN, gift)
    tail = in_fresh_process(render_tail, payload, handoff, 2)
    lead = in_fresh_process(render_lead, payload, handoff, 2)
    assert _spans(lead) == [(0, end), (gift, count - 1)] and _spans(tail) == [(end + 1, gift - 1)]
    assert_joined_equals_whole(join_parts(job, [alone]), join_parts(job, [lead, tail]), tmp_path)


def test_the_join_refuses_parts_that_miss_or_repeat_an_animation_or_the_end():
    from scenes.render.splitting import PartResult, Run, join_parts

    def part(*spans, to_the_end=True):
        runs = [Run(a, b, to_the_end and number == len(spans) - 1, b"", 0.0, (), ()) for number, (a, b) in enumerate(spans)]
        return PartResult(tuple(runs), ".mp4")

    with pytest.raises(RuntimeError, match="animations 3–3 nowhere"):
        join_parts(None, [part((0, 2)), part((4, 5))])
    with pytest.raises(RuntimeError, match="animations 5–5 twice"):
        join_parts(None, [part((0, 2), (5, 5)), part((3, 5))])
    with pytest.raises(RuntimeError, match="nothing after animation 4"):
        join_parts(None, [part((0, 2)), part((3, 4), to_the_end=False)])


@settings(max_examples=300, deadline=None)
@given(costs=st.lists(st.floats(0, 10), min_size=1, max_size=25), data=st.data(), busy=st.floats(0, 10),
       rate=st.floats(0.1, 3), skip=st.floats(0, 0.5))
def test_a_gift_never_makes_the_later_of_the_two_parts_finish_later(costs, data, busy, rate, skip):
    """Whatever the estimates, the last part's speed and the first part's cost of skipping to it,
    the gift lies after what the last part has begun and, reckoned in those terms, the later of
    the two parts finishes earlier than with no gift by at least ``GIFT_MARGIN`` of the latter (or
    there is none)."""
    from scenes.render.splitting import GIFT_MARGIN, plan_gift

    untouched = data.draw(st.integers(0, len(costs)))
    lead_from = data.draw(st.integers(0, untouched))
    skips = [skip] * len(costs)
    gift = plan_gift(costs, untouched, busy, rate, skips, lead_from)
    assert untouched <= gift <= len(costs)
    keep_all = busy + rate * sum(costs[untouched:])
    if gift < len(costs):
        later = max(busy + rate * sum(costs[untouched:gift]), skip * (gift - lead_from) + rate * sum(costs[gift:]))
        assert later < keep_all * (1 - GIFT_MARGIN)


@pytest.mark.render
def test_a_part_keeps_its_segments_until_it_has_joined_them(tmp_path):
    """Manim deletes all but ``max_files_cached`` segments once it has combined its movie, and a
    part joins its runs from the segments after that: with the cache at 2, a part of a scene with
    more animations still hands back all of them (a part of more than 100 animations failed)."""
    from manim import tempconfig

    from scenes.render.splitting import render_part

    job, payload = _scene_payload(tmp_path)
    with tempconfig({"max_files_cached": 2}):
        part = render_part(payload, 0, 0, True)
    assert len(part.runs) == 1 and part.runs[0].last >= 5 and part.runs[0].to_the_end
