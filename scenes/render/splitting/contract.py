"""What the tasks of one split render pass each other and the client: the hand-off's names, and a
part's result (its runs of consecutive animations, each with its video and narration).

The names, each put by one side: the plan's rows so far, the ranges it chose, the first part's
last animation, how many animations the first part has done, the first part's word that its range
is rendered, the last part's answer (the first animation it gives the first part, or
``NOTHING``), the client's word to stop.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from scenes.render.voice.clip import Clip

__all__ = ["Name", "HANDOFF_NAMES", "NOTHING", "Run", "PartResult"]

NOTHING = -1  # GIVEN when the last part keeps every animation of its range


class Name(StrEnum):
    """A name in a split job's hand-off (its value is the file or variable name)."""

    ROWS = "rows"
    RANGES = "ranges"
    END = "end"
    PROGRESS = "progress"
    FREE = "free"
    GIVEN = "given"
    STOP = "stop"
    PLAN = "plan"  # between the last part and its woken copy only: costs, skips, the first range's end


# the names the client forgets once a job's tasks are over (PLAN never reaches the client's hand-off)
HANDOFF_NAMES = tuple(name for name in Name if name is not Name.PLAN)


@dataclass(frozen=True)
class Run:
    """One run of consecutive animations ``first``…``last`` a part rendered: their segments joined
    as ``video`` (bytes), its ``duration`` on the part's clock, whether it goes ``to_the_end`` of
    the scene, and the cues (time asked, start, end, text) and steps narrated in it, timed from its
    start; in a voiced render, each of those steps' speech (step, start, clip), timed so too."""

    first: int
    last: int
    to_the_end: bool
    video: bytes
    duration: float
    cues: tuple[tuple[float, float, float, str], ...]
    steps: tuple[dict, ...]
    spoken: tuple[tuple[str, float, Clip], ...] = ()


@dataclass(frozen=True)
class PartResult:
    """What one part of a split render returns: its runs (none: the part had nothing to render),
    the videos' suffix, its seconds and its worker."""

    runs: tuple[Run, ...] = field(default=())
    suffix: str = ""
    seconds: float = 0.0
    worker: str = ""

    @property
    def empty(self) -> bool:
        return not self.runs
