"""One scene rendered as several ranges of its animations, on several workers, and joined.

Manim numbers every ``play`` and ``wait`` of a scene; ``from_animation_number`` and
``upto_animation_number`` render only a range of them. The animations before the range are
*skipped*: they still run (every mobject ends where it would), but draw no frame. So a part starts
on exactly the frame an unsplit render shows there, and since Manim encodes each animation as a
segment of its own and joins the segments without re-encoding, the parts joined the same way
(PyAV remux) give the very frames of an unsplit render.

All parts of a job start at once and agree on the ranges through the job's hand-off
(:mod:`scenes.render.handoff`). The last part (:func:`render_tail`) is also the plan: it runs the
scene skipping everything, measures what each animation costs, forks a waiting copy of itself
before animations (:mod:`scenes.render.snapshots`), chooses the ranges and wakes the copy nearest
the last range's start, which renders from there without building the scene again. The first
part (:func:`render_lead`) renders from animation 0 meanwhile, never past what the rows measured
so far guarantee it (:func:`lead_may_start`), and stops where the plan says; the ranges give it
what it has already done on top of its share. Parts in between (:func:`render_middle`) wait for
their range and re-run the scene up to it.

Ranges end between animations, and the estimates behind them are rough, so the first and last parts
rarely finish together. A late first part cannot be helped (the last part is past its range), an
early one can: with two parts the first range ends before the animation that crosses its mark,
and when the first part is done it says so (``FREE``); the last part, which knows how fast it is really going, answers
with the animations at its end that the first part should render (:func:`plan_gift`), skipping the
ones between, and stops before them. So a part may hand back more than one run of consecutive
animations, and the client joins every run in order.

Subtitles need care. A skipped animation advances ``scene.time`` by its exact duration, a rendered
one by whole frames, so the clocks of two parts disagree by fractions of a frame before their
ranges; and every part's run adds *every* caption up to its end, the skipped ones included. So
each part keeps only the cues and narrated steps whose caption was given while one of its runs
played, measured from the run's start on its own clock; the join offsets them by the run's
start in the joined video, then clips them the way the narration does (a cue ends when the next
caption starts, and nothing outlasts the scene).
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

import srt

from scenes.kit.registry import entry
from scenes.render.executors import JobFailed, worker_name, worker_scratch
from scenes.render.handoff import FolderHandoff, Handoff
from scenes.render.manim_run import manim_options, use_pipeline_drawing
from scenes.render.snapshots import Snapshots
from scenes.render.subtitles import srt_to_vtt
from scenes.render.video import concatenate

__all__ = ["plan_parts", "plan_costs", "plan_gift", "lead_may_start", "render_part", "render_lead", "render_middle",
           "render_tail", "join_parts", "ROWS", "RANGES", "END", "PROGRESS", "FREE", "GIVEN", "NOTHING", "STOP",
           "HANDOFF_NAMES"]

EPS = 1e-4  # seconds; clock values compared across one run are equal, this only absorbs rounding
# A split job's hand-off: the plan's rows so far, the ranges it chose, the first part's last animation,
# how many animations the first part has done, the first part's word that its range is rendered, the
# last part's answer (the first animation it gives the first part, or NOTHING), the client's word to stop.
ROWS, RANGES, END, PROGRESS, FREE, GIVEN, STOP = "rows", "ranges", "end", "progress", "free", "given", "stop"
HANDOFF_NAMES = (ROWS, RANGES, END, PROGRESS, FREE, GIVEN, STOP)
NOTHING = -1  # GIVEN when the last part keeps every animation of its range
NEVER = 10**9  # a from_animation_number no scene reaches: the tail's measuring run renders nothing
POLL = 0.05  # seconds between looks at the hand-off while waiting
RELAY_WAIT = 1.0  # seconds one wait on the hand-off lasts before the waiter looks whether it should stop
# Seconds a waiting part gives the plan to measure its next animation (a dry run takes well under a
# second for one) before taking it for dead and failing, so that Dask runs the part again later.
PATIENCE = 120.0
# The share of the last part's remaining time a gift must save (in the last part's reckoning) before
# animations are given to the first part: it also starts a segment and a still image of its own.
GIFT_MARGIN = 0.05


def plan_parts(costs: list[float], parts: int, lead_extra: float = 0.0) -> list[tuple[int, int]]:
    """Contiguous ranges ``(first, last)`` of animation numbers, at most ``parts`` of them, never an
    empty one, that finish as nearly together as whole animations allow: the first range is
    rendered by a part that is ``lead_extra`` (in cost units) ahead of the others, so it gets that
    much more and the others share the rest equally. With total cost T and n ranges, the first
    should end where its cost reaches (T + (n − 1)·lead_extra)/n, the k-th a further
    (T − that)/(n − 1) on. Of two ranges, the first ends before the animation that crosses its
    mark: when the first part is done early the last part can give it animations (see
    :func:`plan_gift`), a late one cannot be helped. Otherwise each range ends before or after that
    animation, whichever lands nearer (a middle part that runs late cannot be helped either).

    >>> plan_parts([1, 1, 1, 1], 2)
    [(0, 1), (2, 3)]
    >>> plan_parts([5, 1, 1, 1, 1, 1], 2)
    [(0, 0), (1, 5)]
    >>> plan_parts([3, 3, 1, 1], 2)
    [(0, 0), (1, 3)]
    >>> plan_parts([1, 3, 1, 1], 2), plan_parts([1, 3, 1, 1, 1, 1], 3)
    ([(0, 0), (1, 3)], [(0, 1), (2, 2), (3, 5)])
    >>> plan_parts([2.0], 3)
    [(0, 0)]
    >>> plan_parts([1] * 8, 2, lead_extra=2)
    [(0, 4), (5, 7)]
    """
    count = len(costs)
    parts = max(1, min(parts, count))
    total = float(sum(costs)) or 1.0
    first_share = min(total, (total + (parts - 1) * max(0.0, lead_extra)) / parts)
    rest_share = (total - first_share) / (parts - 1) if parts > 1 else 0.0
    ranges, first, elapsed = [], 0, 0.0
    for index, cost in enumerate(costs):
        remaining_parts = parts - len(ranges) - 1
        if remaining_parts == 0:
            break
        mark = first_share + len(ranges) * rest_share
        crosses = elapsed + cost > mark + 1e-9
        if index > first and crosses and ((parts == 2 and not ranges) or mark - elapsed < elapsed + cost - mark):
            ranges.append((first, index - 1))  # the first of two, or nearer the mark without this animation
            first = index
            remaining_parts -= 1
            if remaining_parts == 0:
                break
            mark += rest_share
        elapsed += cost
        # close after this animation once it reaches the mark, leaving one animation per remaining part
        if elapsed >= mark - 1e-9 or count - index - 1 == remaining_parts:
            ranges.append((first, index))
            first = index + 1
    ranges.append((first, count - 1))
    return ranges


def plan_gift(costs: list[float], untouched: int, busy: float, rate: float, skips: list[float], lead_from: int,
              margin: float = GIFT_MARGIN) -> int:
    """The first animation the last part gives the first part, which is free: the first part
    renders it and every one after it, the last part stops before it. ``untouched`` is the first
    animation the last part has not begun, ``busy`` the seconds it still needs for the one it is in,
    ``rate`` its real seconds per unit of estimated cost so far; the first part skips from
    ``lead_from`` up to the gift, at ``skips`` seconds each. Returns the choice whose later finish is
    earliest, giving as little as that allows, or ``len(costs)`` (nothing) unless the gift saves
    more than ``margin`` of what the last part would need alone.

    >>> plan_gift([4, 4, 1, 1, 2], untouched=2, busy=0.0, rate=1.0, skips=[0.0] * 5, lead_from=1)
    4
    >>> plan_gift([4, 4, 1, 1, 2], untouched=4, busy=0.1, rate=1.0, skips=[0.0] * 5, lead_from=1)
    5
    """
    count = len(costs)
    keep_all = busy + rate * sum(costs[untouched:])
    best, chosen = keep_all, count
    for gift in range(count - 1, untouched - 1, -1):
        kept = busy + rate * sum(costs[untouched:gift])
        given = sum(skips[lead_from:gift]) + rate * sum(costs[gift:])
        if max(kept, given) < best - 1e-9:
            best, chosen = max(kept, given), gift
    return chosen if best < keep_all * (1 - margin) else count


def plan_costs(plan: dict) -> list[float]:
    """The estimated cost of each animation from a plan's rows (seconds drawing what moves, frames
    drawn, frames held): drawing, plus each drawn frame's conversion and encoding (``drawn``
    seconds), plus each held frame's encoding (``held``: a wait shows one frame many times, and
    x264 is quick with a frame equal to the one before).

    >>> plan_costs({"rows": [[0.5, 10, 0], [0.1, 1, 120]], "drawn": 0.01, "held": 0.001})
    [0.6, 0.23]
    """
    return [round(drawing + drawn * plan["drawn"] + held * plan["held"], 12) for drawing, drawn, held in plan["rows"]]


def lead_may_start(number: int, rows: list[list[float]], parts: int) -> bool:
    """Whether the first part may render animation ``number`` knowing only the plan's first rows:
    only if every plan the remaining rows can complete gives the first range at least animations
    0…``number``. The first range's mark is at least a ``parts``-th of the total, and
    :func:`plan_parts` ends a range at the latest just before the animation that crosses its mark;
    so it is enough that the rows up to ``number`` hold less than that share of the rows seen
    (:func:`_hold_less_than`), and that ``parts`` − 1 seen animations follow it (one for each
    other range).

    >>> rows = [[1, 1, 1]] * 10
    >>> lead_may_start(0, [], 2), lead_may_start(3, rows, 2), lead_may_start(4, rows, 2)
    (True, True, False)
    >>> lead_may_start(1, [[1, 1, 1]], 2)
    False
    """
    if number == 0:
        return True  # no range is empty: the first always holds animation 0
    if number > len(rows) - parts:
        return False
    return _hold_less_than(rows, number, 1, parts)


def _hold_less_than(rows: list[list[float]], number: int, share: int, parts: int) -> bool:
    """Whether rows 0…``number`` hold less than ``share``/``parts`` of every column of ``rows``, so
    less than that share of the cost whatever non-negative factors :func:`plan_costs` gives the
    columns, and whatever rows still come (they only add). The first column has factor 1; a margin
    above :func:`plan_parts`' rounding tolerance keeps it strict.

    >>> _hold_less_than([[1, 1, 0]] * 4, 0, 1, 2), _hold_less_than([[1, 1, 0]] * 4, 1, 1, 2)
    (True, False)
    """
    upto = [sum(column) for column in zip(*rows[:number + 1])]
    seen = [sum(column) for column in zip(*rows)]
    return upto[0] * parts <= seen[0] * share - parts * 1e-6 and \
        all(u * parts <= t * share for u, t in zip(upto[1:], seen[1:]))


def _per_frame_seconds(pixels, settings) -> tuple[float, float, float]:
    """(seconds to convert one drawn frame to YUV 4:2:0, CPU seconds x264 spends on a frame that
    differs from the one before, and on a frame repeated unchanged) at ``settings.encoder_preset``,
    measured on ``pixels`` (an RGBA frame of the scene), after a few frames to warm the encoder.
    Only H.264 output is measured for encoding; other codecs count conversion only."""
    import io

    import av
    import numpy as np

    from scenes.render.segment_encoder import encoder_config

    began = time.perf_counter()
    for _ in range(3):
        picture = av.VideoFrame.from_ndarray(pixels, format="rgba").reformat(format="yuv420p")
    convert = (time.perf_counter() - began) / 3
    options = encoder_config(settings.format, settings.transparent, settings.encoder_preset).get("video_encoder_options")
    if options is None:
        return convert, 0.0, 0.0
    height, width = pixels.shape[:2]

    def encoding(pictures) -> float:
        """CPU seconds of a whole encode of ``pictures``, flushed (x264 works frames ahead)."""
        began = time.process_time()
        with av.open(io.BytesIO(), "w", format="mp4") as container:
            stream = container.add_stream("libx264", rate=60, options=dict(options))
            stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
            for number, frame in enumerate(pictures):
                frame.pts = number
                for packet in stream.encode(frame):
                    container.mux(packet)
            for packet in stream.encode():
                container.mux(packet)
        return time.process_time() - began

    # the scene's frame moved a few pixels each time stands for an animation's frames
    frames = 8
    moving = [av.VideoFrame.from_ndarray(np.ascontiguousarray(np.roll(pixels, 3 * step, axis=1)), format="rgba")
              .reformat(format="yuv420p") for step in range(frames)]
    alone = encoding([picture])  # the encoder's start and one key frame
    changing = max(0.0, encoding(moving) - alone) / (frames - 1)
    held = max(0.0, encoding([picture] * frames) - alone) / (frames - 1)
    return convert, changing, held


def _draw_nothing_while_skipping(renderer) -> None:
    """Manim draws a skipped animation anyway (its static image, then one frame of what moves),
    only to throw the pixels away: a full frame per animation before a part's range. Drawing
    waits until the renderer stops skipping; the first animation it renders saves its own static
    image, so nothing drawn before is ever shown."""
    original = renderer.update_frame

    def update_frame(*args, **kwargs):
        if renderer.skip_animations:
            return None
        return original(*args, **kwargs)

    renderer.update_frame = update_frame


def _record_play_starts(scene) -> dict[int, float]:
    """Animation number → scene time when it began (on this run's clock)."""
    renderer = scene.renderer
    original = renderer.play
    starts: dict[int, float] = {}

    def play(*args, **kwargs):
        starts.setdefault(renderer.num_plays, float(renderer.time))
        return original(*args, **kwargs)

    renderer.play = play
    return starts


def render_part(payload: dict, first: int, last: int, is_last: bool) -> dict:
    """Render animations ``first``…``last`` of the job's scene (to its end if ``is_last``). Returns
    each run of consecutive animations the part rendered (one here; the first part may have two,
    see :func:`plan_gift`) with its video as bytes, its duration and the cues and steps
    narrated in it, timed from the run's start (:func:`_run`): ``{"runs", "suffix", "seconds",
    "worker"}``. Runs on a worker."""
    return _render_animations(payload, first, -1 if is_last else last)


def render_lead(payload: dict, handoff: Handoff, parts: int) -> dict:
    """The first part, started with the plan instead of after it: it renders from animation 0
    while the plan measures the scene, starts an animation only when :func:`lead_may_start` says
    that every plan the rows measured so far can lead to gives it to the first range, and ends its
    range after the animation the plan puts under ``END``. Before each animation it puts the number
    of animations it has done under ``PROGRESS`` (the plan gives it that much more to do). Then it
    says it is free (``FREE``) and renders what the last part gives it (``GIVEN``), if anything.
    Returns what :func:`render_part` does."""
    return _render_animations(payload, 0, -1, lead=_Lead(handoff, parts))


def render_middle(payload: dict, handoff: Handoff, number: int) -> dict:
    """Part ``number`` of neither end (``--split 3`` and more): waits for the plan's ranges, then
    renders its own; ``{"empty": True}`` if the scene has too few animations for it."""
    ranges = _wait_for(handoff, lambda rows: handoff.get(RANGES))
    if number >= len(ranges) - 1:
        return {"empty": True, "seconds": 0.0, "worker": worker_name()}
    first, last = ranges[number]
    return render_part(payload, first, last, False)


def render_tail(payload: dict, handoff: Handoff, parts: int) -> dict:
    """The plan and the last part in one task. It runs the scene skipping every animation (a few
    seconds), measuring what each costs (:func:`plan_costs`) and putting the rows under ``ROWS`` as
    it goes, and forks waiting copies of itself before animations (:mod:`snapshots`; those the last
    range cannot start from end as soon as the rows show it). Then it chooses the ranges, the first
    part's head start counted, puts them under ``RANGES`` and the first part's last animation under
    ``END``, and wakes the copy nearest before the last range, which skips the few animations up to
    it and renders it: the last part neither builds the scene again nor re-runs what comes before.
    While it renders, it answers the first part's ``FREE`` with the animations it gives it
    (:func:`plan_gift`). Returns what :func:`render_part` does, or ``{"empty": True}`` when the
    first part has the whole scene."""
    return _render_animations(payload, NEVER, -1, tail=_Tail(handoff, parts))


def _wait_for(handoff: Handoff, ready, on: str | None = None):
    """``ready(rows)`` (given the plan's rows so far) once it is not ``None``, looking every
    ``POLL`` seconds, or between waits of ``RELAY_WAIT`` on the name ``on`` (which the scheduler
    answers when it is set, without polling). ``JobFailed`` if the client stopped the job first,
    or if the plan put no new row for ``PATIENCE`` seconds (its worker died: Dask tries this part
    again later, by when the plan's retry may have run)."""
    waited, seen = 0.0, -1
    while True:
        if handoff.get(STOP):
            raise JobFailed("the client stopped this split render")
        rows = handoff.get(ROWS) or []
        if (value := ready(rows)) is not None:
            return value
        if len(rows) != seen:
            waited, seen = 0.0, len(rows)
        elif waited > PATIENCE:
            raise JobFailed(f"the other parts showed no progress for {PATIENCE:g} s; this part will start again")
        if on is None:
            time.sleep(POLL)
        else:
            handoff.wait(on, RELAY_WAIT)
        waited += POLL if on is None else RELAY_WAIT


class _Lead:
    """The first part's side of the hand-off, called before each of its animations."""

    GO_ON = -1  # no end known yet, but the rows so far leave this animation to the first part

    def __init__(self, handoff: Handoff, parts: int):
        self.handoff, self.parts = handoff, parts
        self.end: int | None = None  # the last animation of its own range, once the plan is known
        self.given: int | None = None  # the last part's answer once it is free: the first animation given, or NOTHING
        self.skipped: set[int] = set()  # the animations between its range and what it was given

    def before(self, number: int, drain) -> int | None:
        """The animation to stop after, once it is known and reached; else ``None`` (go on). Past
        its own range, ``drain()`` (the encoding still under way) first: free means free."""
        if self.end is None:
            self.handoff.put(PROGRESS, number)

            def ready(rows):
                end = self.handoff.get(END)
                if end is not None:
                    if number - 1 > end:  # only if a retried plan measured differently
                        raise JobFailed(f"the first part rendered past its end ({end}); it must start again")
                    return end
                return self.GO_ON if lead_may_start(number, rows, self.parts) else None

            end = _wait_for(self.handoff, ready)
            if end == self.GO_ON:
                return None
            self.end = end
        if number <= self.end:
            return None
        if self.given is None:
            drain()
            self.given = self.handoff.get(GIVEN)  # a retried part keeps the first try's answer
            if self.given is None:
                self.handoff.put(FREE, number)
                # the last part answers within a frame of hearing, at its next animation, or when it
                # ends; a retried last part measures the scene again, and each new row shows it alive
                self.given = _wait_for(self.handoff, lambda rows: self.handoff.get(GIVEN), on=GIVEN)
            self.skipped.update(range(number, self.given))
        return self.end if self.given == NOTHING else None


class _Tail:
    """The last part's side: the measuring run, its forked copies, the choice of ranges, and in
    the woken copy the answer to the first part's ``FREE``."""

    MAX_COPIES = 8

    def __init__(self, handoff: Handoff, parts: int):
        self.handoff, self.parts = handoff, parts
        self.rows: list[list[float]] = []
        self.skips: list[float] = []  # seconds the measuring run took over each (skipped) animation
        self.snapshots: Snapshots | None = None
        self.stride = 1  # a copy is taken before every stride-th animation
        self.chosen: list | None = None  # the ranges a first try chose, if this is a retry
        # The woken copy must not touch the Dask client, so it talks to its parent through files in
        # ``relay`` (the same names), and a thread of the parent passes them on (``_serve``).
        self.relay: FolderHandoff | None = None
        self.answered = False  # in the copy: GIVEN is settled
        self.passed = False  # in the parent: the answer has gone to the first part
        self.passing = threading.Lock()
        self.rendering: tuple[int, float] | None = None  # in the copy: (first animation rendered, when)

    @property
    def in_copy(self) -> bool:
        return self.snapshots is not None and self.snapshots.in_copy

    def install(self, scene, scratch: Path) -> None:
        """Before each animation: fork a copy; after it, measure what it costs to draw. In the
        woken copy: before each animation and at each frame of a moving one (a held frame is
        written at once), see whether the first part is free."""
        from manim import config

        self.snapshots = Snapshots(scratch)
        self.chosen = self.handoff.get(RANGES)  # a retried task starts where the first try chose
        (scratch / "relay").mkdir()
        self.relay = FolderHandoff(scratch / "relay")
        renderer = scene.renderer
        original = renderer.play
        original_update = scene.update_to_time
        updating = 0.0  # seconds in this animation's one update (a skipped animation jumps to its end)

        def update_to_time(t):
            nonlocal updating
            began = time.perf_counter()
            original_update(t)
            updating += time.perf_counter() - began
            if self.in_copy and not self.answered and not renderer.skip_animations:
                duration = float(scene.duration)
                self._answer(renderer.num_plays, min(1.0, t / duration) if duration > 0 else 0.0)

        scene.update_to_time = update_to_time

        def play(*args, **kwargs):
            nonlocal updating
            number = renderer.num_plays
            if self.in_copy:
                if number >= config.from_animation_number:
                    if self.rendering is None:
                        self.rendering = (number, time.perf_counter())
                        if (given := self.relay.get(GIVEN)) is not None:  # a first try's answer
                            self._settle(given)
                    if not self.answered:
                        self._answer(number, 0.0)
                return original(*args, **kwargs)
            if number % self.stride == 0 and (woken_at := self.snapshots.take(number)) is not None:
                config.from_animation_number = woken_at  # the woken copy: skips to its range, renders it
                return play(*args, **kwargs)
            start, updating, skipping = float(renderer.time), 0.0, time.perf_counter()
            original(*args, **kwargs)
            self.skips.append(time.perf_counter() - skipping)
            frozen = bool(scene.animations) and scene.is_current_animation_frozen_frame()
            camera = renderer.camera
            began = time.perf_counter()
            camera.reset()
            camera.capture_mobjects(list(scene.moving_mobjects) + list(scene.foreground_mobjects))
            draw = time.perf_counter() - began
            shown = max(1, round((float(renderer.time) - start) * config.frame_rate))
            drawn = 1 if frozen else shown
            # a rendered frame of a moving animation updates its mobjects, then draws what moves
            self.rows.append([drawn * (draw + (0.0 if frozen else updating)), drawn, shown - drawn])
            self.handoff.put(ROWS, self.rows)
            self._keep_few_copies()

        renderer.play = play

    def _answer(self, number: int, fraction: float) -> None:
        """In the woken copy, at ``fraction`` of animation ``number`` (0 before it starts): once the
        first part is free, choose what it gets (:func:`plan_gift`), tell it, and settle."""
        if self.rendering is None or self.relay.get(FREE) is None:
            return
        plan = self.relay.get("plan")
        costs, first = plan["costs"], self.rendering[0]
        done = sum(costs[first:number]) + fraction * costs[number]
        spent = time.perf_counter() - self.rendering[1]
        rate = spent / done if done > 0 and spent > 1.0 else 1.0  # costs are estimated seconds
        untouched = number + 1 if fraction > 0 else number
        busy = (1 - fraction) * costs[number] * rate if fraction > 0 else 0.0
        given = plan_gift(costs, untouched, busy, rate, plan["skips"], plan["end"] + 1)
        given = NOTHING if given >= len(costs) else given
        self.relay.put(GIVEN, given)
        self._settle(given)

    def _settle(self, given: int) -> None:
        """In the woken copy: stop before the animations given away (Manim's own
        ``upto_animation_number``), and look no more."""
        from manim import config

        self.answered = True
        if given != NOTHING:
            config.upto_animation_number = given - 1

    def _keep_few_copies(self) -> None:
        """End the waiting copies the last range cannot start from, but the latest of them (the
        nearest copy before a range's start skips up to it); and past ``MAX_COPIES`` keep every
        second one (each holds the memory the scene has changed since: some 30 MB at 1080p).

        The last range starts no earlier than the first animation at which the cost reaches
        (n − 1)/n of the total (see :func:`plan_parts`), so a copy taken where the rows up to it
        hold less than that share (:func:`_hold_less_than`) is of no use. A retried task, which
        keeps the ranges the first try chose, needs only the nearest copy before their last start."""
        waiting = sorted(self.snapshots.waiting)
        if self.chosen is not None:
            start = self.chosen[-1][0]
            keep = max((number for number in waiting if number <= start), default=None)
            self.snapshots.end([number for number in waiting if number != keep])
        elif len(self.rows) >= self.parts:
            useless = [number for number in waiting
                       if _hold_less_than(self.rows, number, self.parts - 1, self.parts)]
            self.snapshots.end(useless[:-1])
        waiting = sorted(self.snapshots.waiting)
        while len(waiting) > self.MAX_COPIES:
            self.stride *= 2
            self.snapshots.end([number for number in waiting[1:] if number % self.stride])
            waiting = sorted(self.snapshots.waiting)

    def finish(self, scene, settings) -> dict:
        """In the parent, after the measuring run: choose the ranges, wake the copy at the start of
        the last one, pass the first part's word to it and its answer back, and return what it
        rendered."""
        try:
            camera = scene.renderer.camera
            camera.reset()
            camera.capture_mobjects(scene.mobjects)
            convert, encode, held = _per_frame_seconds(camera.pixel_array, settings)
            costs = plan_costs({"rows": self.rows, "drawn": convert + encode, "held": held})
            ranges = self.handoff.get(RANGES)  # a retried task keeps what the first try chose
            if ranges is None:
                done = self.handoff.get(PROGRESS) or 0
                ranges = plan_parts(costs, self.parts, lead_extra=sum(costs[:done]))
                self.handoff.put(RANGES, ranges)
            self.handoff.put(END, ranges[0][1])
            if self.handoff.get(STOP):
                raise JobFailed("the client stopped this split render")
            if len(ranges) == 1:
                return {"empty": True, "seconds": 0.0, "worker": worker_name()}
            self.relay.put("plan", {"costs": costs, "skips": self.skips, "end": ranges[0][1]})
            if (given := self.handoff.get(GIVEN)) is not None:  # a first try's answer stands
                self.relay.put(GIVEN, given)
                self.passed = True
            first = ranges[-1][0]
            nearest = max(number for number in self.snapshots.waiting if number <= first)
            self.snapshots.wake(nearest, first)
            stop = threading.Event()
            threading.Thread(target=self._serve, args=(self.handoff.for_thread(), stop), daemon=True).start()
            try:
                return self.snapshots.result(nearest)
            except RuntimeError as error:
                raise JobFailed(str(error)) from None
            finally:
                stop.set()  # the thread ends within RELAY_WAIT, on its own
                given = self.relay.get(GIVEN)
                self._pass(self.handoff, NOTHING if given is None else given)  # the copy rendered to its end
        finally:
            self.snapshots.end_all()

    def _serve(self, handoff: Handoff, stop: threading.Event) -> None:
        """In a thread of the parent while the woken copy renders: pass the first part's ``FREE``
        to the copy and its ``GIVEN`` back. It waits on the hand-off rather than polling it (a
        scheduler asked ten times a second took some 4 % of the copy's core)."""
        try:
            while not stop.is_set():
                if (free := handoff.wait(FREE, RELAY_WAIT)) is not None and not stop.is_set():
                    self.relay.put(FREE, free)
                    break
            while not stop.is_set():
                if (given := self.relay.wait(GIVEN, RELAY_WAIT)) is not None:
                    self._pass(handoff, given)
                    return
        except Exception:  # the copy ended and its folder is gone, or the client closed: the parent answers
            pass

    def _pass(self, handoff: Handoff, given: int) -> None:
        """Put the answer under ``GIVEN`` once: a first try's answer, the copy's, or ``NOTHING``."""
        with self.passing:
            if not self.passed:
                handoff.put(GIVEN, given)
                self.passed = True


def _render_animations(payload: dict, first: int, upto: int, lead: _Lead | None = None,
                       tail: _Tail | None = None) -> dict:
    from manim import config, logger, tempconfig

    from scenes.render.jobs import job_from_payload

    started = time.monotonic()
    with worker_scratch("normgeo-part-") as scratch:
        job = job_from_payload(payload)
        options = manim_options(job.scene_id, job.settings_for_output, scratch, verbose=payload.get("verbose", False)) | {
            "from_animation_number": first, "upto_animation_number": upto,
            "write_to_movie": True, "save_last_frame": False,
            # Manim prunes all but 100 segments once it has combined its movie; the runs are joined
            # from the segments after that (they go with the scratch folder anyway)
            "max_files_cached": -1}
        # Manim writes the part's own .srt too (unused); srt logs the cues clipped to nothing there
        logging.getLogger("srt").setLevel(logging.ERROR)
        with tempconfig(options):
            logger.setLevel(config.verbosity)
            scene = entry(job.scene_id).load()(spec=job.spec)
            use_pipeline_drawing(scene)
            _draw_nothing_while_skipping(scene.renderer)
            starts = _record_play_starts(scene)
            if lead is not None:
                _stop_where_told(scene.renderer, lead)
                _skip_these(scene.renderer, lead.skipped)
            if tail is not None:
                tail.install(scene, scratch)
            added = _record_captions(scene)
            ending: dict = {}
            original_tear_down = scene.tear_down

            def tear_down():
                # before the scene clips the last cue and step at this part's end
                ending["time"], ending["steps"] = float(scene.time), list(scene.steps)
                original_tear_down()

            scene.tear_down = tear_down
            try:
                scene.render()
            except BaseException as error:
                if tail is not None and tail.in_copy:
                    tail.snapshots.hand_over(error=error)  # does not return
                if tail is not None and tail.snapshots is not None:
                    tail.snapshots.end_all()  # the measuring run failed: its copies are of no use
                raise
            if tail is not None and not tail.in_copy:
                return tail.finish(scene, job.settings_for_output)
            artifact = scene.renderer.file_writer.output_plan.primary_artifact
            segments = {number: Path(path) for number, path in enumerate(scene.renderer.file_writer.partial_movie_files)
                        if path is not None}  # animation number → its segment; none for a skipped one
        try:
            if artifact is None or not Path(artifact).is_file() or not segments:
                raise RuntimeError(f"manim wrote no {job.settings_for_output.format} file for animations "
                                   f"{first}–{upto}")
            suffix = Path(artifact).suffix
            runs = [_run(numbers, segments, starts, ending, added, scratch / f"run{numbers[0]}{suffix}")
                    for numbers in _consecutive(sorted(segments))]
            result = {"runs": runs, "suffix": suffix, "seconds": time.monotonic() - started, "worker": worker_name()}
        except BaseException as error:
            if tail is not None and tail.in_copy:
                tail.snapshots.hand_over(error=error)
            raise
        if tail is not None and tail.in_copy:
            tail.snapshots.hand_over(result)
        return result


def _skip_these(renderer, skipped: set[int]) -> None:
    """Have the renderer skip the animations numbered in ``skipped`` (which may grow while the scene
    runs), as Manim skips those before ``from_animation_number``: they run, but draw and encode
    nothing."""
    original = renderer.update_skipping_status

    def update_skipping_status():
        original()
        if renderer.num_plays in skipped:
            renderer.skip_animations = True

    renderer.update_skipping_status = update_skipping_status


def _consecutive(numbers: list[int]) -> list[list[int]]:
    """``numbers`` (ascending) cut where they skip one.

    >>> _consecutive([0, 1, 2, 5, 7, 8])
    [[0, 1, 2], [5], [7, 8]]
    """
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return runs


def _run(numbers: list[int], segments: dict[int, Path], starts: dict[int, float], ending: dict,
         added: list, target: Path) -> dict:
    """One run of consecutive animations a part rendered: their segments joined (without
    re-encoding) as ``video``, its ``duration`` on the part's clock (whole frames: every animation
    in it was rendered), and the cues and steps narrated in it, timed from its start. A run ends
    where the next animation began, or with the scene if none did (then what came after the last
    animation is its own too)."""
    first, last = numbers[0], numbers[-1]
    begin = starts.get(first, 0.0)
    to_the_end = last + 1 not in starts
    end = ending["time"] if to_the_end else starts[last + 1]

    def mine(moment: float) -> bool:
        return moment >= begin - EPS and (to_the_end or moment < end - EPS)

    concatenate([segments[number] for number in numbers], target)
    return {"first": first, "last": last, "to_the_end": to_the_end, "video": target.read_bytes(), "duration": end - begin,
            "cues": [(at - begin, start - begin, stop - begin, content)
                     for at, start, stop, content in added if mine(at)],
            "steps": [{"key": step.key, "text": step.text, "start": step.start - begin, "end": step.end - begin}
                      for step in ending["steps"] if mine(step.start)]}


def _stop_where_told(renderer, lead: _Lead) -> None:
    """Before each animation, ask ``lead``; once it names the last animation, Manim's own
    ``upto_animation_number`` ends the scene there (as if it had been given from the start)."""
    from manim import config

    original = renderer.play

    def play(*args, **kwargs):
        end = lead.before(renderer.num_plays, renderer.file_writer.join_all_encode_jobs)
        if end is not None:
            config.upto_animation_number = end
        return original(*args, **kwargs)

    renderer.play = play


def _record_captions(scene) -> list[tuple[float, float, float, str]]:
    """(scene time when added, start, end as asked, text) of every subtitle cue, in order."""
    manager = scene._get_manager()
    original = manager.add_subcaption
    added: list[tuple[float, float, float, str]] = []

    def add_subcaption(content: str, duration: float = 1, offset: float = 0) -> None:
        now = float(scene.time)
        added.append((now, now + offset, now + offset + duration, content))
        original(content, duration, offset)

    manager.add_subcaption = add_subcaption
    return added


def join_parts(job, parts: list[dict]) -> dict:
    """The parts of ``job`` as one video with its subtitles and narrated steps, in the shape
    :func:`scenes.render.jobs.produce` returns: every run of every part, in the order of their
    animations, each animation exactly once. Runs on the client."""
    scratch = Path(tempfile.mkdtemp(prefix="normgeo-join-"))
    try:
        suffix = parts[0]["suffix"]
        runs = sorted((run for part in parts for run in part["runs"]), key=lambda run: run["first"])
        expected = 0
        for run in runs:  # every animation once, in order, up to the scene's end
            if run["first"] < expected:
                raise RuntimeError(f"the parts rendered animations {run['first']}–{expected - 1} twice")
            if run["first"] > expected:
                raise RuntimeError(f"the parts rendered animations {expected}–{run['first'] - 1} nowhere")
            expected = run["last"] + 1
        if not runs[-1]["to_the_end"]:
            raise RuntimeError(f"the parts rendered nothing after animation {expected - 1}, before the scene's end")
        paths = []
        for run in runs:
            path = scratch / f"run{run['first']}{suffix}"
            path.write_bytes(run["video"])
            paths.append(path)
        joined = scratch / f"joined{suffix}"
        concatenate(paths, joined)
        # Offsets on the scene's clock (whole frames, as an unsplit render counts them), not from the
        # containers' timestamps, which are rounded to their time base.
        offsets = [sum(run["duration"] for run in runs[:number]) for number in range(len(runs))]
        total = sum(run["duration"] for run in runs)
        cues, steps = [], []
        for offset, run in zip(offsets, runs):
            cues += [(offset + at, offset + start, offset + stop, content) for at, start, stop, content in run["cues"]]
            steps += [dict(step, start=offset + step["start"], end=offset + step["end"]) for step in run["steps"]]
        moments = sorted(step["start"] for step in steps)
        for number, step in enumerate(steps):
            limit = steps[number + 1]["start"] if number + 1 < len(steps) else total
            step["end"] = max(step["start"], min(step["end"], limit))
        subtitles = []
        for at, start, stop, content in cues:
            limit = min([moment for moment in moments if moment > at + EPS] + [total])
            subtitles.append(srt.Subtitle(len(subtitles), timedelta(seconds=start),
                                          max(timedelta(seconds=start), min(timedelta(seconds=stop),
                                                                             timedelta(seconds=limit))), content))
        files = {job.relative_path: joined.read_bytes()}
        if subtitles:
            text = srt.compose(subtitles)
            srt_name = str(Path(job.relative_path).with_suffix(".srt"))
            files[srt_name] = text.encode("utf-8")
            files[str(Path(srt_name).with_suffix(".vtt"))] = srt_to_vtt(text).encode("utf-8")
        rounded = [{"key": s["key"], "text": s["text"], "start": round(s["start"], 3), "end": round(s["end"], 3)}
                   for s in steps]
        workers = sorted({part["worker"] for part in parts})
        return {"files": files, "duration": total, "extra": {"steps": rounded, "split_parts": len(parts)},
                "seconds": sum(part["seconds"] for part in parts), "worker": ", ".join(workers)}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
