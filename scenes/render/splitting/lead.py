"""The first part of a split render: it renders from animation 0 while the plan measures, never
past what the rows measured so far guarantee it, stops where the plan says, and then renders what
the last part gives it."""

from __future__ import annotations

from scenes.render.manim_door import PlayHooks
from scenes.render.running.handoff import Handoff
from scenes.render.running.worker import JobFailed
from scenes.render.splitting.contract import NOTHING, Name
from scenes.render.splitting.plan import lead_may_start
from scenes.render.splitting.waiting import wait_for

__all__ = ["Lead"]


class Lead(PlayHooks):
    """The first part's side of the hand-off, asked before each of its animations; it skips the
    animations between its range and what the last part gives it, as Manim skips those before
    ``from_animation_number`` (they run, but draw and encode nothing)."""

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
            self.handoff.put(Name.PROGRESS, number)

            def ready(rows):
                end = self.handoff.get(Name.END)
                if end is not None:
                    if number - 1 > end:  # only if a retried plan measured differently
                        raise JobFailed(f"the first part rendered past its end ({end}); it must start again")
                    return end
                return self.GO_ON if lead_may_start(number, rows, self.parts) else None

            end = wait_for(self.handoff, ready)
            if end == self.GO_ON:
                return None
            self.end = end
        if number <= self.end:
            return None
        if self.given is None:
            drain()
            self.given = self.handoff.get(Name.GIVEN)  # a retried part keeps the first try's answer
            if self.given is None:
                self.handoff.put(Name.FREE, number)
                # the last part answers within a frame of hearing, at its next animation, or when it
                # ends; a retried last part measures the scene again, and each new row shows it alive
                self.given = wait_for(self.handoff, lambda rows: self.handoff.get(Name.GIVEN), on=Name.GIVEN)
            self.skipped.update(range(number, self.given))
        return self.end if self.given == NOTHING else None

    def around_play(self, renderer, number: int, play) -> None:
        """Once the animation to stop after is known and reached, Manim's own
        ``upto_animation_number`` ends the scene there (as if it had been given from the start)."""
        end = self.before(number, renderer.drain)
        if end is not None:
            renderer.end_after(end)
        play()

    def skips_animation(self, number: int) -> bool:
        return number in self.skipped
