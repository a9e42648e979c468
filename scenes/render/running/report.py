"""What a batch tells its caller as it goes (light: the CLI's display subclasses it without
loading Manim)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scenes.render.running.job import RenderJob, RenderResult

__all__ = ["Reporter"]


class Reporter:
    """What a batch tells its caller as it goes; the CLI shows it, the benchmark ignores it."""

    def cached(self, job: RenderJob) -> None:
        """``job``'s inputs are unchanged and its files are there."""

    def started(self, job: RenderJob) -> None:
        """``job`` (or its first part) was handed to a worker."""

    def finished(self, result: RenderResult) -> None:
        """``result.job`` was made or failed."""

    def ran(self, worker: str, label: str, ok: bool) -> None:
        """A worker finished one task (a job, a part of a split job, or its plan)."""

    def busy(self, running: dict[str, int]) -> None:
        """Tasks running now per worker (only when the executor can tell)."""
