"""The last part of a split render, which is also the plan: a measuring run that skips every
animation and forks waiting copies of itself (:mod:`.snapshots`), the choice of ranges, and the
woken copy that renders the last range and answers the first part's ``FREE``."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from scenes.render.manim_door import PlayHooks
from scenes.render.running.handoff import FolderHandoff, Handoff
from scenes.render.running.worker import JobFailed, worker_name
from scenes.render.splitting.contract import NOTHING, Name, PartResult
from scenes.render.splitting.costs import per_frame_seconds
from scenes.render.splitting.plan import hold_less_than, plan_costs, plan_gift, plan_parts
from scenes.render.splitting.snapshots import Snapshots
from scenes.render.splitting.waiting import RELAY_WAIT

__all__ = ["Tail"]


class Tail(PlayHooks):
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

    def prepare(self, scratch: Path) -> None:
        """Before the scene is built: the copies' folder, the relay, a first try's ranges."""
        self.snapshots = Snapshots(scratch)
        self.chosen = self.handoff.get(Name.RANGES)  # a retried task starts where the first try chose
        (scratch / "relay").mkdir()
        self.relay = FolderHandoff(scratch / "relay")

    def around_play(self, renderer, number: int, play) -> None:
        """Before each animation: fork a copy; after it, measure what it costs to draw. In the
        woken copy: before each animation, see whether the first part is free."""
        if self.in_copy:
            if number >= renderer.first_rendered:
                if self.rendering is None:
                    self.rendering = (number, time.perf_counter())
                    if (given := self.relay.get(Name.GIVEN)) is not None:  # a first try's answer
                        self._settle(renderer, given)
                if not self.answered:
                    self._answer(renderer, number, 0.0)
            return play()
        if number % self.stride == 0 and (woken_at := self.snapshots.take(number)) is not None:
            renderer.start_at(woken_at)  # the woken copy: skips to its range, renders it
            return self.around_play(renderer, number, play)
        cost = renderer.measured_play(play)
        self.skips.append(cost.skipped)
        drawn = 1 if cost.frozen else cost.shown
        # a rendered frame of a moving animation updates its mobjects, then draws what moves
        self.rows.append([drawn * (cost.draw + (0.0 if cost.frozen else cost.updating)), drawn, cost.shown - drawn])
        self.handoff.put(Name.ROWS, self.rows)
        self._keep_few_copies()

    def at_frame(self, renderer, number: int, fraction: float) -> None:
        """In the woken copy, at each frame of a moving animation (a held frame is written at
        once): see whether the first part is free."""
        if self.in_copy and not self.answered:
            self._answer(renderer, number, fraction)

    def _answer(self, renderer, number: int, fraction: float) -> None:
        """In the woken copy, at ``fraction`` of animation ``number`` (0 before it starts): once the
        first part is free, choose what it gets (:func:`plan_gift`), tell it, and settle."""
        if self.rendering is None or self.relay.get(Name.FREE) is None:
            return
        plan = self.relay.get(Name.PLAN)
        costs, first = plan["costs"], self.rendering[0]
        done = sum(costs[first:number]) + fraction * costs[number]
        spent = time.perf_counter() - self.rendering[1]
        rate = spent / done if done > 0 and spent > 1.0 else 1.0  # costs are estimated seconds
        untouched = number + 1 if fraction > 0 else number
        busy = (1 - fraction) * costs[number] * rate if fraction > 0 else 0.0
        given = plan_gift(costs, untouched, busy, rate, plan["skips"], plan["end"] + 1)
        given = NOTHING if given >= len(costs) else given
        self.relay.put(Name.GIVEN, given)
        self._settle(renderer, given)

    def _settle(self, renderer, given: int) -> None:
        """In the woken copy: stop before the animations given away (Manim's own
        ``upto_animation_number``), and look no more."""
        self.answered = True
        if given != NOTHING:
            renderer.end_after(given - 1)

    def _keep_few_copies(self) -> None:
        """End the waiting copies the last range cannot start from, but the latest of them (the
        nearest copy before a range's start skips up to it); and past ``MAX_COPIES`` keep every
        second one (each holds the memory the scene has changed since: some 30 MB at 1080p).

        The last range starts no earlier than the first animation at which the cost reaches
        (n − 1)/n of the total (see :func:`plan_parts`), so a copy taken where the rows up to it
        hold less than that share (:func:`hold_less_than`) is of no use. A retried task, which
        keeps the ranges the first try chose, needs only the nearest copy before their last start."""
        waiting = sorted(self.snapshots.waiting)
        if self.chosen is not None:
            start = self.chosen[-1][0]
            keep = max((number for number in waiting if number <= start), default=None)
            self.snapshots.end([number for number in waiting if number != keep])
        elif len(self.rows) >= self.parts:
            useless = [number for number in waiting
                       if hold_less_than(self.rows, number, self.parts - 1, self.parts)]
            self.snapshots.end(useless[:-1])
        waiting = sorted(self.snapshots.waiting)
        while len(waiting) > self.MAX_COPIES:
            self.stride *= 2
            self.snapshots.end([number for number in waiting[1:] if number % self.stride])
            waiting = sorted(self.snapshots.waiting)

    def finish(self, render, settings) -> PartResult:
        """In the parent, after the measuring run: choose the ranges, wake the copy at the start of
        the last one, pass the first part's word to it and its answer back, and return what it
        rendered."""
        try:
            convert, encode, held = per_frame_seconds(render.pixels(), settings)
            costs = plan_costs({"rows": self.rows, "drawn": convert + encode, "held": held})
            ranges = self.handoff.get(Name.RANGES)  # a retried task keeps what the first try chose
            if ranges is None:
                done = self.handoff.get(Name.PROGRESS) or 0
                ranges = plan_parts(costs, self.parts, lead_extra=sum(costs[:done]))
                self.handoff.put(Name.RANGES, ranges)
            self.handoff.put(Name.END, ranges[0][1])
            if self.handoff.get(Name.STOP):
                raise JobFailed("the client stopped this split render")
            if len(ranges) == 1:
                return PartResult(worker=worker_name())
            self.relay.put(Name.PLAN, {"costs": costs, "skips": self.skips, "end": ranges[0][1]})
            if (given := self.handoff.get(Name.GIVEN)) is not None:  # a first try's answer stands
                self.relay.put(Name.GIVEN, given)
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
                given = self.relay.get(Name.GIVEN)
                self._pass(self.handoff, NOTHING if given is None else given)  # the copy rendered to its end
        finally:
            self.snapshots.end_all()

    def _serve(self, handoff: Handoff, stop: threading.Event) -> None:
        """In a thread of the parent while the woken copy renders: pass the first part's ``FREE``
        to the copy and its ``GIVEN`` back. It waits on the hand-off rather than polling it (a
        scheduler asked ten times a second took some 4 % of the copy's core)."""
        try:
            while not stop.is_set():
                if (free := handoff.wait(Name.FREE, RELAY_WAIT)) is not None and not stop.is_set():
                    self.relay.put(Name.FREE, free)
                    break
            while not stop.is_set():
                if (given := self.relay.wait(Name.GIVEN, RELAY_WAIT)) is not None:
                    self._pass(handoff, given)
                    return
        except Exception:  # the copy ended and its folder is gone, or the client closed: the parent answers
            pass

    def _pass(self, handoff: Handoff, given: int) -> None:
        """Put the answer under ``GIVEN`` once: a first try's answer, the copy's, or ``NOTHING``."""
        with self.passing:
            if not self.passed:
                handoff.put(Name.GIVEN, given)
                self.passed = True

