"""Waiting on a split job's hand-off: looking, or waiting on a name, until a value is ready, and
giving up when the client stops the job or the plan shows no progress."""

from __future__ import annotations

import time

from scenes.render.running.handoff import Handoff
from scenes.render.running.worker import JobFailed
from scenes.render.splitting.contract import Name

__all__ = ["wait_for", "POLL", "RELAY_WAIT", "PATIENCE"]

POLL = 0.05  # seconds between looks at the hand-off while waiting
RELAY_WAIT = 1.0  # seconds one wait on the hand-off lasts before the waiter looks whether it should stop
# Seconds a waiting part gives the plan to measure its next animation (a dry run takes well under a
# second for one) before taking it for dead and failing, so that Dask runs the part again later.
PATIENCE = 120.0

def wait_for(handoff: Handoff, ready, on: Name | None = None):
    """``ready(rows)`` (given the plan's rows so far) once it is not ``None``, looking every
    ``POLL`` seconds, or between waits of ``RELAY_WAIT`` on the name ``on`` (which the scheduler
    answers when it is set, without polling). ``JobFailed`` if the client stopped the job first,
    or if the plan put no new row for ``PATIENCE`` seconds (its worker died: Dask tries this part
    again later, by when the plan's retry may have run)."""
    waited, seen = 0.0, -1
    while True:
        if handoff.get(Name.STOP):
            raise JobFailed("the client stopped this split render")
        rows = handoff.get(Name.ROWS) or []
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

