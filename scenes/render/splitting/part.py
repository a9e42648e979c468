"""One scene rendered as several ranges of its animations, on several workers, and joined.

Manim numbers every ``play`` and ``wait`` of a scene; ``from_animation_number`` and
``upto_animation_number`` render only a range of them. The animations before the range are
*skipped*: they still run (every mobject ends where it would), but draw no frame. So a part starts
on exactly the frame an unsplit render shows there, and since Manim encodes each animation as a
segment of its own and joins the segments without re-encoding, the parts joined the same way
(PyAV remux) give the very frames of an unsplit render.

All parts of a job start at once and agree on the ranges through the job's hand-off
(:mod:`scenes.render.running.handoff`). The last part (:func:`render_tail`, :mod:`.tail`) is also the plan: it runs the
scene skipping everything, measures what each animation costs, forks a waiting copy of itself
before animations (:mod:`.snapshots`), chooses the ranges and wakes the copy nearest
the last range's start, which renders from there without building the scene again. The first
part (:func:`render_lead`, :mod:`.lead`) renders from animation 0 meanwhile, never past what the rows measured
so far guarantee it (:func:`.plan.lead_may_start`), and stops where the plan says; the ranges give it
what it has already done on top of its share. Parts in between (:func:`render_middle`) wait for
their range and re-run the scene up to it.

Ranges end between animations, and the estimates behind them are rough, so the first and last parts
rarely finish together. A late first part cannot be helped (the last part is past its range), an
early one can: with two parts the first range ends before the animation that crosses its mark,
and when the first part is done it says so (``FREE``); the last part, which knows how fast it is really going, answers
with the animations at its end that the first part should render (:func:`.plan.plan_gift`), skipping the
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

import time
from pathlib import Path

from scenes.render.manim_door import Narration, render_range
from scenes.render.media.video import concatenate
from scenes.render.running.handoff import Handoff
from scenes.render.running.job import JobPayload, job_from_payload
from scenes.render.running.worker import JobFailed, worker_name, worker_scratch
from scenes.render.splitting.contract import Name, PartResult, Run
from scenes.render.splitting.lead import Lead
from scenes.render.splitting.tail import Tail
from scenes.render.splitting.waiting import wait_for
from scenes.render.voice.choice import check_language, parse_voice
from scenes.render.voice.clip import Clip, SpeechError
from scenes.render.voice.narrator import Narrator
from scenes.render.voice.scene_speech import SceneSpeech

__all__ = ["render_part", "render_lead", "render_middle", "render_tail", "EPS", "NEVER"]

EPS = 1e-4  # seconds; clock values compared across one run are equal, this only absorbs rounding
NEVER = 10**9  # a from_animation_number no scene reaches: the tail's measuring run renders nothing


def render_part(payload: JobPayload, first: int, last: int, is_last: bool) -> PartResult:
    """Render animations ``first``…``last`` of the job's scene (to its end if ``is_last``). Returns
    each run of consecutive animations the part rendered (one here; the first part may have two,
    see :func:`.plan.plan_gift`) with its video as bytes, its duration and the cues and steps
    narrated in it, timed from the run's start (:func:`_run`). Runs on a worker."""
    return _render_animations(payload, first, -1 if is_last else last)


def render_lead(payload: JobPayload, handoff: Handoff, parts: int) -> PartResult:
    """The first part, started with the plan instead of after it: it renders from animation 0
    while the plan measures the scene, starts an animation only when :func:`.plan.lead_may_start` says
    that every plan the rows measured so far can lead to gives it to the first range, and ends its
    range after the animation the plan puts under ``END``. Before each animation it puts the number
    of animations it has done under ``PROGRESS`` (the plan gives it that much more to do). Then it
    says it is free (``FREE``) and renders what the last part gives it (``GIVEN``), if anything.
    Returns what :func:`render_part` does."""
    return _render_animations(payload, 0, -1, lead=Lead(handoff, parts))


def render_middle(payload: JobPayload, handoff: Handoff, number: int) -> PartResult:
    """Part ``number`` of neither end (``--split 3`` and more): waits for the plan's ranges, then
    renders its own; an empty result if the scene has too few animations for it."""
    ranges = wait_for(handoff, lambda rows: handoff.get(Name.RANGES))
    if number >= len(ranges) - 1:
        return PartResult(worker=worker_name())
    first, last = ranges[number]
    return render_part(payload, first, last, False)


def render_tail(payload: JobPayload, handoff: Handoff, parts: int) -> PartResult:
    """The plan and the last part in one task. It runs the scene skipping every animation (a few
    seconds), measuring what each costs (:func:`.plan.plan_costs`) and putting the rows under ``ROWS`` as
    it goes, and forks waiting copies of itself before animations (:mod:`.snapshots`; those the last
    range cannot start from end as soon as the rows show it). Then it chooses the ranges, the first
    part's head start counted, puts them under ``RANGES`` and the first part's last animation under
    ``END``, and wakes the copy nearest before the last range, which skips the few animations up to
    it and renders it: the last part neither builds the scene again nor re-runs what comes before.
    While it renders, it answers the first part's ``FREE`` with the animations it gives it
    (:func:`.plan.plan_gift`). Returns what :func:`render_part` does, or an empty result when the
    first part has the whole scene."""
    return _render_animations(payload, NEVER, -1, tail=Tail(handoff, parts))


def _render_animations(payload: JobPayload, first: int, upto: int, lead: Lead | None = None,
                       tail: Tail | None = None) -> PartResult:
    job = job_from_payload(payload)
    if not job.settings_for_output.narrated:
        return _render_range(payload, job, first, upto, lead, tail)
    voice = parse_voice(job.settings_for_output.voice)
    check_language(voice, job.spec.lang)
    try:
        with Narrator(voice) as narrator:
            # (the last part forks copies of itself as it goes: no thread making lines ahead then)
            speech = SceneSpeech(narrator, job.scene_id, job.spec.lang, ahead=tail is None)
            return _render_range(payload, job, first, upto, lead, tail, speech)
    except SpeechError as error:
        raise JobFailed(str(error)) from None


def _render_range(payload: JobPayload, job, first: int, upto: int, lead: Lead | None, tail: Tail | None,
                  speech: SceneSpeech | None = None) -> PartResult:
    """The part's animations rendered (with ``speech``: narrated, every step held as long as its
    speech, the skipped ones too, so that every part keeps the unsplit render's clock)."""
    started = time.monotonic()
    with worker_scratch("normgeo-part-") as scratch:
        settings = job.settings_for_output
        if tail is not None:
            tail.prepare(scratch)
        with render_range(job.scene_id, job.spec, settings, scratch, first, upto, hooks=lead or tail,
                          verbose=payload.verbose, speech=speech) as run:
            try:
                run.render()
            except BaseException as error:
                if tail is not None and tail.in_copy:
                    tail.snapshots.hand_over(error=error)  # does not return
                if tail is not None:
                    tail.snapshots.end_all()  # the measuring run failed: its copies are of no use
                raise
            if tail is not None and not tail.in_copy:
                return tail.finish(run, settings)
            artifact, segments, narration = run.artifact, run.segments, run.narration
        try:
            if artifact is None or not artifact.is_file() or not segments:
                raise RuntimeError(f"manim wrote no {settings.format} file for animations {first}–{upto}")
            clips = speech.clips if speech is not None else {}
            runs = tuple(_run(numbers, segments, narration, clips, scratch / f"run{numbers[0]}{artifact.suffix}")
                         for numbers in _consecutive(sorted(segments)))
            result = PartResult(runs, artifact.suffix, time.monotonic() - started, worker_name())
        except BaseException as error:
            if tail is not None and tail.in_copy:
                tail.snapshots.hand_over(error=error)
            raise
        if tail is not None and tail.in_copy:
            tail.snapshots.hand_over(result)
        return result


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


def _run(numbers: list[int], segments: dict[int, Path], narration: Narration, clips: dict[str, Clip],
         target: Path) -> Run:
    """One run of consecutive animations a part rendered: their segments joined (without
    re-encoding) as ``video``, its ``duration`` on the part's clock (whole frames: every animation
    in it was rendered), and the cues and steps narrated in it, timed from its start. A run ends
    where the next animation began, or with the scene if none did (then what came after the last
    animation is its own too). A step's speech goes with the run its caption was given in."""
    first, last, starts = numbers[0], numbers[-1], narration.play_starts
    begin = starts.get(first, 0.0)
    to_the_end = last + 1 not in starts
    end = narration.end_time if to_the_end else starts[last + 1]

    def mine(moment: float) -> bool:
        return moment >= begin - EPS and (to_the_end or moment < end - EPS)

    concatenate([segments[number] for number in numbers], target)
    return Run(first, last, to_the_end, target.read_bytes(), end - begin,
               tuple((at - begin, start - begin, stop - begin, content)
                     for at, start, stop, content in narration.cues if mine(at)),
               tuple({"key": step.key, "text": step.text, "start": step.start - begin, "end": step.end - begin}
                     for step in narration.steps if mine(step.start)),
               tuple((step, start - begin, clips[step]) for step, start in narration.spoken if mine(start)))

