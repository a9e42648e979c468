"""Batching jobs on the client: skip what is cached, hand the rest to an executor (whole, or as the
parts of a split job), join parts, install results as they come, report as it goes.

A file appears in the output folder only when complete; an interrupted or failed render leaves the
earlier good file (if any) untouched and no scratch files behind. Each artefact is recorded in the
folder's manifest with a hash of its inputs the moment it lands, so an unchanged render is skipped
and an interrupted batch keeps what it finished.
"""

from __future__ import annotations

from scenes.render.manifest import Manifest
from scenes.render.running.cache import input_hash, is_cached
from scenes.render.running.executor import Executor, LocalExecutor, Outcome
from scenes.render.running.handoff import Handoff
from scenes.render.running.job import RenderJob, RenderResult, is_splittable, job_payload
from scenes.render.running.produce import install_or_fail, produce
from scenes.render.running.report import Reporter
from scenes.render.running.worker import failure_reason
from scenes.render.splitting import HANDOFF_NAMES, Name, PartResult, join_parts, render_lead, render_middle, render_tail

__all__ = ["Reporter", "run_jobs"]


def run_jobs(render_jobs: list[RenderJob], workers: int = 1, verbose: bool = False,
             reporter: Reporter | None = None, executor: Executor | None = None, split: int = 1) -> list[RenderResult]:
    """Render every job whose inputs changed and return one result per job, in the order given. A
    failing job does not stop the others.

    Jobs run on ``executor`` (kept open; a Dask cluster, say) or else in up to ``workers`` local
    processes. Cached jobs are never sent. With ``split`` > 1 each video is rendered as up to
    ``split`` ranges of its animations on as many workers, and the parts are joined here without
    re-encoding; the artefact and its input hash are the same as an unsplit render's.
    """
    batch = _Batch(render_jobs, reporter or Reporter(), split)
    if batch.pending:
        own = executor is None
        tasks = sum(split if batch.splits(job) else 1 for job, _ in batch.pending.values())
        executor = LocalExecutor(min(workers, tasks)) if own else executor
        try:
            batch.run(executor, verbose)
        finally:
            if own:
                executor.close()
    return [batch.results[index] for index in range(len(render_jobs))]


class _Batch:
    """The state of one :func:`run_jobs`: results so far, the jobs still to make, their parts."""

    def __init__(self, render_jobs: list[RenderJob], reporter: Reporter, split: int):
        self.reporter, self.split = reporter, split
        self.results: dict[int, RenderResult] = {}
        self.pending: dict[int, tuple[RenderJob, str]] = {}
        self.announced: set[int] = set()
        self.failed: set[int] = set()
        self.parts: dict[int, dict[int, PartResult]] = {}
        self.handoffs: dict[int, Handoff] = {}
        for index, job in enumerate(render_jobs):
            digest = input_hash(job)
            manifest = Manifest(job.out_dir)
            if is_cached(job, manifest, digest):
                record = manifest.get(job.relative_path)
                self.results[index] = RenderResult(job, "cached", files=tuple(record["files"]), record=record)
                reporter.cached(job)
            else:
                self.pending[index] = (job, digest)

    def splits(self, job: RenderJob) -> bool:
        return self.split > 1 and is_splittable(job)

    def run(self, executor: Executor, verbose: bool) -> None:
        executor.on_start = self.on_start
        self.submit(executor, verbose)
        try:
            for outcome in executor.outcomes(lambda: self.reporter.busy(executor.running())):
                self.take(outcome)
        except KeyboardInterrupt:
            for index in self.handoffs:
                try:
                    self.stop_parts(index)
                except Exception:  # the scheduler may be gone; its tasks with it
                    pass
            executor.cancel()
            raise

    def submit(self, executor: Executor, verbose: bool) -> None:
        """A split job's parts all start at once: the last measures the scene and chooses the
        ranges (``render_tail``), the first renders meanwhile and learns where to stop, the others
        wait for their range; they pass these through the job's hand-off."""
        split = self.split
        for index, (job, digest) in self.pending.items():
            payload = job_payload(job, digest, verbose)
            if not self.splits(job):
                executor.submit(("whole", index), produce, payload)
                continue
            handoff = self.handoffs[index] = executor.handoff(f"job{index}")
            self.parts[index] = {}
            # the tail first: the others wait on what it measures, so it must never queue behind them
            executor.submit(("part", index, split - 1), render_tail, payload, handoff, split)
            executor.submit(("part", index, 0), render_lead, payload, handoff, split)
            for number in range(1, split - 1):
                executor.submit(("part", index, number), render_middle, payload, handoff, number)

    def on_start(self, key) -> None:
        index = key[1]
        if index not in self.announced:
            self.announced.add(index)
            self.reporter.started(self.pending[index][0])

    def take(self, outcome: Outcome) -> None:
        kind, index = outcome.key[0], outcome.key[1]
        job, digest = self.pending[index]
        self.reporter.ran(outcome.worker, job.scene_id if kind == "whole" else f"{job.scene_id} {kind}",
                          outcome.error is None)
        if index in self.failed:
            return
        if outcome.error is not None:
            self.fail(index, outcome.error)
            self.stop_parts(index)
        elif kind == "whole":
            self.finish(index, install_or_fail(job, digest, outcome.value))
        else:
            self.parts[index][outcome.key[2]] = outcome.value
            self.join_when_complete(index)

    def join_when_complete(self, index: int) -> None:
        job, digest = self.pending[index]
        if len(self.parts[index]) < self.split:
            return
        ordered = [self.parts[index][number] for number in range(self.split)]
        try:
            joined = join_parts(job, [part for part in ordered if not part.empty])
        except Exception as error:
            self.fail(index, failure_reason(error))
            return
        self.handoffs[index].discard(HANDOFF_NAMES)
        self.finish(index, install_or_fail(job, digest, joined))

    def stop_parts(self, index: int) -> None:
        if index in self.handoffs:
            self.handoffs[index].put(Name.STOP, True)

    def finish(self, index: int, result: RenderResult) -> None:
        if index in self.results:
            return
        self.results[index] = result
        self.reporter.finished(result)

    def fail(self, index: int, reason: str) -> None:
        self.failed.add(index)
        self.finish(index, RenderResult(self.pending[index][0], "failed", error=reason))
