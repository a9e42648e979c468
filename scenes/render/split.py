"""One scene rendered as several ranges of its animations, on several workers, and joined.

Manim numbers every ``play`` and ``wait`` of a scene; ``from_animation_number`` and
``upto_animation_number`` render only a range of them. The animations before the range are
*skipped*: they still run (every mobject ends where it would), but draw no frame. So a part starts
on exactly the frame an unsplit render shows there, and since Manim encodes each animation as a
segment of its own and joins the segments without re-encoding, the parts joined the same way
(PyAV remux) give the very frames of an unsplit render.

Subtitles need care. A skipped animation advances ``scene.time`` by its exact duration, a rendered
one by whole frames, so the clocks of two parts disagree by fractions of a frame before their
ranges; and every part's run adds *every* caption up to its end, the skipped ones included. So
each part keeps only the cues and narrated steps whose caption was given while its own range
played, measured from the part's start on its own clock; the join offsets them by the part's
start in the joined video, then clips them the way the narration does (a cue ends when the next
caption starts, and nothing outlasts the scene).
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import srt

from scenes.kit.registry import entry
from scenes.render.executors import JobFailed, worker_name, worker_scratch
from scenes.render.handoff import Handoff
from scenes.render.manim_run import manim_options
from scenes.render.subtitles import srt_to_vtt
from scenes.render.video import concatenate

__all__ = ["plan_parts", "plan_costs", "lead_may_start", "lead_extra", "plan_job", "render_part", "render_lead",
           "join_parts", "ROWS", "END", "PROGRESS"]

EPS = 1e-4  # seconds; clock values compared across one run are equal, this only absorbs rounding
# names in a split job's hand-off: the plan's rows so far, the first part's last animation, its progress
ROWS, END, PROGRESS = "rows", "end", "progress"


def plan_parts(costs: list[float], parts: int, lead_extra: float = 0.0) -> list[tuple[int, int]]:
    """Contiguous ranges ``(first, last)`` of animation numbers, at most ``parts`` of them, never an
    empty one, that finish together: the first range is rendered by a part that began
    ``lead_extra`` (in cost units) before the others, so it gets that much more and the others share
    the rest equally: with total cost T and n ranges, the first ends where its cost reaches
    (T + (n − 1)·lead_extra)/n.

    >>> plan_parts([1, 1, 1, 1], 2)
    [(0, 1), (2, 3)]
    >>> plan_parts([5, 1, 1, 1, 1, 1], 2)
    [(0, 0), (1, 5)]
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
        elapsed += cost
        remaining_parts = parts - len(ranges) - 1
        if remaining_parts == 0:
            break
        # close this range once it reaches its share, leaving one animation per remaining part
        if elapsed >= first_share + len(ranges) * rest_share - 1e-9 or count - index - 1 == remaining_parts:
            ranges.append((first, index))
            first = index + 1
    ranges.append((first, count - 1))
    return ranges


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
    0…``number``. The costs of :func:`plan_costs` weigh the three columns of a row with
    non-negative factors, and rows still to come only add, so it is enough that the rows before
    ``number`` hold less than a ``parts``-th of each column seen so far (the first range reaches
    at least that share), and that ``parts`` − 1 seen animations follow it (one for each other range).

    >>> rows = [[1, 1, 1]] * 10
    >>> lead_may_start(0, [], 2), lead_may_start(4, rows, 2), lead_may_start(5, rows, 2)
    (True, True, False)
    >>> lead_may_start(1, [[1, 1, 1]], 2)
    False
    """
    if number == 0:
        return True  # no range is empty: the first always holds animation 0
    if number > len(rows) - parts:
        return False
    before = [sum(column) for column in zip(*rows[:number])]
    seen = [sum(column) for column in zip(*rows)]
    # the first column has weight 1; a margin above plan_parts' rounding tolerance keeps it strict
    return before[0] * parts <= seen[0] - parts * 1e-6 and all(b * parts <= t for b, t in zip(before[1:], seen[1:]))


def lead_extra(plan: dict, progress: list[float] | None, costs: list[float], skipped: int = 0) -> float:
    """How far ahead the first part is, in cost units, when the next part renders its first
    animation: it began with the plan, and the next part first skips ``skipped`` animations, which
    takes about what the plan spent on them (``starts``: its seconds at each animation's start);
    seconds become cost units at the rate the first part has rendered so far (``progress``:
    animations done, seconds since its first began). 0 while it has finished none.

    >>> lead_extra({"seconds": 3.0, "starts": [1.0, 2.0, 2.5]}, [2, 4.0], [1.0, 1.0, 6.0], skipped=2)
    2.25
    """
    if not progress or progress[0] <= 0 or progress[1] <= 0:
        return 0.0
    done, seconds = int(progress[0]), float(progress[1])
    starts = plan["starts"] + [plan["seconds"]]
    ahead = plan["seconds"] + starts[min(skipped, len(starts) - 1)] - starts[0]
    return ahead * sum(costs[:done]) / seconds


def plan_job(payload: dict, handoff: Handoff | None = None) -> dict:
    """What each animation of the job's scene costs to render, from a run that skips every animation
    (a few seconds): ``{"rows", "drawn", "held", "durations", "starts", "seconds", "worker"}``, as
    :func:`plan_costs` and :func:`lead_extra` read them. Runs on a worker; the rows are also put in
    ``handoff`` as they are measured, so that the first part, already rendering, knows how far it
    may go.

    A row is (frames drawn × seconds to draw what moves, frames drawn, frames held). Drawing is
    measured by drawing the animation's last frame once; conversion and x264's CPU seconds per frame
    on the scene's last frame. A wait with nothing moving draws one frame and holds it. Ranges of
    equal cost finish together; ranges of equal duration do not (a 3-D part draws several times
    slower than a caption, a wait costs next to nothing)."""
    from manim import config, logger, tempconfig

    from scenes.render.jobs import job_from_payload

    started = time.monotonic()
    with worker_scratch("normgeo-plan-") as scratch:
        job = job_from_payload(payload)
        options = manim_options(job.scene_id, job.settings_for_output, scratch, video=False) | {
            "dry_run": True, "write_to_movie": False}
        with tempconfig(options):
            logger.setLevel(config.verbosity)
            scene = entry(job.scene_id).load()(spec=job.spec, skip_animations=True)
            _draw_nothing_while_skipping(scene.renderer)
            rows, durations, starts = [], [], []

            def measured(start: float, duration: float, frozen: bool, draw: float) -> None:
                starts.append(start - started)
                shown = max(1, round(duration * config.frame_rate))
                drawn = 1 if frozen else shown
                rows.append([drawn * draw, drawn, shown - drawn])
                durations.append(duration)
                if handoff is not None:
                    handoff.put(ROWS, rows)

            _measure_plays(scene, measured)
            scene.render()
            camera = scene.renderer.camera
            camera.reset()
            camera.capture_mobjects(scene.mobjects)
            convert, encode, encode_held = _per_frame_seconds(camera.pixel_array, job.settings_for_output)
        return {"rows": rows, "drawn": convert + encode, "held": encode_held, "durations": durations, "starts": starts,
                "seconds": time.monotonic() - started, "worker": worker_name()}


def _measure_plays(scene, measured) -> None:
    """After each animation: ``measured(began, duration, frozen, draw)``: when it began (monotonic
    clock), its duration, whether it is a wait with nothing moving, and the seconds to draw its
    moving mobjects once (in their final state)."""
    renderer = scene.renderer
    original = renderer.play

    def play(*args, **kwargs):
        began, start = time.monotonic(), float(renderer.time)
        original(*args, **kwargs)
        frozen = bool(scene.animations) and scene.is_current_animation_frozen_frame()
        camera = renderer.camera
        drawing = time.perf_counter()
        camera.reset()
        camera.capture_mobjects(list(scene.moving_mobjects) + list(scene.foreground_mobjects))
        measured(began, float(renderer.time) - start, frozen, time.perf_counter() - drawing)

    renderer.play = play


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
    the part's video as bytes, its duration, and the cues and steps narrated in it, timed from the
    part's start: ``{"video", "suffix", "duration", "cues", "steps", "seconds", "worker"}``. Runs
    on a worker."""
    return _render_animations(payload, first, -1 if is_last else last)


def render_lead(payload: dict, handoff: Handoff, parts: int) -> dict:
    """The first part, started together with the plan instead of after it: it renders from
    animation 0 while the plan measures the scene, starts an animation only when
    :func:`lead_may_start` says that every plan the measured rows can lead to gives it to the first
    range, and stops after the animation the client puts under ``end`` in ``handoff`` (−1: stop
    now). Before each animation it puts its ``progress`` (animations done, seconds since the first
    began) there for the client's balance. Returns what :func:`render_part` does."""
    return _render_animations(payload, 0, -1, lead=_Lead(handoff, parts))


class _Lead:
    """The first part's side of the hand-off, called before each of its animations."""

    POLL = 0.05  # seconds between looks at the hand-off while waiting for the plan
    PATIENCE = 600.0  # seconds without a new row or an end before giving up

    def __init__(self, handoff: Handoff, parts: int):
        self.handoff, self.parts = handoff, parts
        self.began: float | None = None

    def before(self, number: int) -> int | None:
        """The animation to stop after, once it is known and reached; else ``None`` (go on)."""
        now = time.monotonic()
        if self.began is None:
            self.began = now
        self.handoff.put(PROGRESS, [number, now - self.began])
        waited_since, seen = now, -1
        while True:
            end = self.handoff.get(END)
            if end is not None:
                if end < 0:
                    raise JobFailed("the client stopped this split render")
                if number - 1 > end:  # only if a retried plan measured differently
                    raise JobFailed(f"the first part rendered past its end ({end}); it must start again")
                return end if number > end else None
            rows = self.handoff.get(ROWS) or []
            if lead_may_start(number, rows, self.parts):
                return None
            if len(rows) != seen:
                waited_since, seen = time.monotonic(), len(rows)
            elif time.monotonic() - waited_since > self.PATIENCE:
                raise JobFailed(f"no plan arrived within {self.PATIENCE:g} s for the first part")
            time.sleep(self.POLL)


def _render_animations(payload: dict, first: int, upto: int, lead: _Lead | None = None) -> dict:
    from manim import config, logger, tempconfig

    from scenes.render.jobs import job_from_payload
    from scenes.render.path_cache import use_path_cache
    from scenes.render.segment_encoder import use_held_frame_encoder
    from scenes.render.still_overlay import use_still_overlays

    started = time.monotonic()
    with worker_scratch("normgeo-part-") as scratch:
        job = job_from_payload(payload)
        options = manim_options(job.scene_id, job.settings_for_output, scratch, verbose=payload.get("verbose", False)) | {
            "from_animation_number": first, "upto_animation_number": upto,
            "write_to_movie": True, "save_last_frame": False}
        # Manim writes the part's own .srt too (unused); srt logs the cues clipped to nothing there
        logging.getLogger("srt").setLevel(logging.ERROR)
        with tempconfig(options):
            logger.setLevel(config.verbosity)
            scene = entry(job.scene_id).load()(spec=job.spec)
            use_held_frame_encoder(scene.renderer.file_writer)
            use_still_overlays(scene)
            use_path_cache(scene.renderer.camera)
            _draw_nothing_while_skipping(scene.renderer)
            starts = _record_play_starts(scene)
            if lead is not None:
                _stop_where_told(scene.renderer, lead)
            added = _record_captions(scene)
            ending: dict = {}
            original_tear_down = scene.tear_down

            def tear_down():
                # before the scene clips the last cue and step at this part's end
                ending["time"], ending["steps"] = float(scene.time), list(scene.steps)
                original_tear_down()

            scene.tear_down = tear_down
            scene.render()
            artifact = scene.renderer.file_writer.output_plan.primary_artifact
            told = config.upto_animation_number  # Manim keeps "no end" (−1) as infinity
            last = -1 if told == float("inf") else int(told)
        if artifact is None or not Path(artifact).is_file():
            raise RuntimeError(f"manim wrote no {job.settings_for_output.format} file for animations {first}–{last}")
        is_last = last < 0
        begin, end = starts.get(first, 0.0), ending["time"]

        def mine(moment: float) -> bool:
            return moment >= begin - EPS and (is_last or moment < end - EPS)

        cues = [(at - begin, start - begin, stop - begin, content) for at, start, stop, content in added if mine(at)]
        steps = [{"key": step.key, "text": step.text, "start": step.start - begin, "end": step.end - begin}
                 for step in ending["steps"] if mine(step.start)]
        return {"video": Path(artifact).read_bytes(), "suffix": Path(artifact).suffix, "duration": end - begin,
                "cues": cues, "steps": steps, "range": (first, last), "seconds": time.monotonic() - started,
                "worker": worker_name()}


def _stop_where_told(renderer, lead: _Lead) -> None:
    """Before each animation, ask ``lead``; once it names the last animation, Manim's own
    ``upto_animation_number`` ends the scene there (as if it had been given from the start)."""
    from manim import config

    original = renderer.play

    def play(*args, **kwargs):
        end = lead.before(renderer.num_plays)
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
    """The parts of ``job`` (in order) as one video with its subtitles and narrated steps, in the
    shape :func:`scenes.render.jobs.produce` returns. Runs on the client."""
    scratch = Path(tempfile.mkdtemp(prefix="normgeo-join-"))
    try:
        suffix = parts[0]["suffix"]
        paths = []
        for number, part in enumerate(parts):
            path = scratch / f"part{number}{suffix}"
            path.write_bytes(part["video"])
            paths.append(path)
        joined = scratch / f"joined{suffix}"
        concatenate(paths, joined)
        # Offsets on the scene's clock (whole frames, as an unsplit render counts them), not from the
        # containers' timestamps, which are rounded to their time base.
        offsets = [sum(part["duration"] for part in parts[:number]) for number in range(len(parts))]
        total = sum(part["duration"] for part in parts)
        cues, steps = [], []
        for offset, part in zip(offsets, parts):
            cues += [(offset + at, offset + start, offset + stop, content) for at, start, stop, content in part["cues"]]
            steps += [dict(step, start=offset + step["start"], end=offset + step["end"]) for step in part["steps"]]
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
