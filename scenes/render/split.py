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
from scenes.render.executors import worker_name, worker_scratch
from scenes.render.manim_run import manim_options
from scenes.render.subtitles import srt_to_vtt
from scenes.render.video import concatenate

__all__ = ["plan_parts", "plan_job", "render_part", "join_parts"]

EPS = 1e-4  # seconds; clock values compared across one run are equal, this only absorbs rounding


def plan_parts(costs: list[float], parts: int) -> list[tuple[int, int]]:
    """Contiguous ranges ``(first, last)`` of animation numbers, at most ``parts`` of them, each
    with about the same total cost (never an empty one).

    >>> plan_parts([1, 1, 1, 1], 2)
    [(0, 1), (2, 3)]
    >>> plan_parts([5, 1, 1, 1, 1, 1], 2)
    [(0, 0), (1, 5)]
    >>> plan_parts([2.0], 3)
    [(0, 0)]
    """
    count = len(costs)
    parts = max(1, min(parts, count))
    total = float(sum(costs)) or 1.0
    ranges, first, elapsed = [], 0, 0.0
    for index, cost in enumerate(costs):
        elapsed += cost
        remaining_parts = parts - len(ranges) - 1
        if remaining_parts == 0:
            break
        # close this range once it reaches its share, leaving one animation per remaining part
        if elapsed >= total * (len(ranges) + 1) / parts - 1e-9 or count - index - 1 == remaining_parts:
            ranges.append((first, index))
            first = index + 1
    ranges.append((first, count - 1))
    return ranges


def plan_job(payload: dict) -> dict:
    """The duration and the estimated render cost of each animation of the job's scene, from a run
    that skips every animation (a few seconds): ``{"durations", "costs", "worker"}``. Runs on a
    worker.

    The cost of an animation is the frames it draws times the seconds to draw what moves in it
    (measured by drawing its last frame once) and to convert a frame for the encoder, plus the
    frames it shows times x264's CPU seconds per frame (measured on the scene's last frame). A
    wait with nothing moving draws one frame and shows many. Ranges of equal cost finish together;
    ranges of equal duration do not (a 3-D part draws several times slower than a caption)."""
    from manim import config, logger, tempconfig

    from scenes.render.jobs import job_from_payload

    with worker_scratch("normgeo-plan-") as scratch:
        job = job_from_payload(payload)
        options = manim_options(job.scene_id, job.settings_for_output, scratch, video=False) | {
            "dry_run": True, "write_to_movie": False}
        with tempconfig(options):
            logger.setLevel(config.verbosity)
            scene = entry(job.scene_id).load()(spec=job.spec, skip_animations=True)
            _draw_nothing_while_skipping(scene.renderer)
            plays = _record_play_costs(scene)
            scene.render()
            end = float(scene.time)
            frame_rate = float(config.frame_rate)
            camera = scene.renderer.camera
            camera.reset()
            camera.capture_mobjects(scene.mobjects)
            convert, encode = _per_frame_seconds(camera.pixel_array, job.settings_for_output)
        times = [play["start"] for play in plays] + [end]
        durations = [b - a for a, b in zip(times, times[1:])]
        costs = [(1 if play["frozen"] else max(1, round(duration * frame_rate))) * (play["draw"] + convert)
                 + duration * frame_rate * encode for play, duration in zip(plays, durations)]
        return {"durations": durations, "costs": costs, "worker": worker_name()}


def _record_play_costs(scene) -> list[dict]:
    """For each animation, in order: when it began, whether it is a wait with nothing moving, and
    the seconds it takes to draw its moving mobjects once (in their final state)."""
    renderer = scene.renderer
    original = renderer.play
    plays: list[dict] = []

    def play(*args, **kwargs):
        start = float(renderer.time)
        original(*args, **kwargs)
        frozen = bool(scene.animations) and scene.is_current_animation_frozen_frame()
        camera = renderer.camera
        began = time.perf_counter()
        camera.reset()
        camera.capture_mobjects(list(scene.moving_mobjects) + list(scene.foreground_mobjects))
        plays.append({"start": start, "frozen": frozen, "draw": time.perf_counter() - began})

    renderer.play = play
    return plays


def _per_frame_seconds(pixels, settings) -> tuple[float, float]:
    """(seconds to convert one drawn frame to YUV 4:2:0, CPU seconds x264 spends on one shown
    frame at ``settings.encoder_preset``), measured on ``pixels`` (an RGBA frame of the scene).
    Only H.264 output is measured for encoding; other codecs count conversion only."""
    import io

    import av

    from scenes.render.segment_encoder import encoder_config

    began = time.perf_counter()
    for _ in range(3):
        picture = av.VideoFrame.from_ndarray(pixels, format="rgba").reformat(format="yuv420p")
    convert = (time.perf_counter() - began) / 3
    options = encoder_config(settings.format, settings.transparent, settings.encoder_preset).get("video_encoder_options")
    if options is None:
        return convert, 0.0
    height, width = pixels.shape[:2]
    frames = 8
    with av.open(io.BytesIO(), "w", format="mp4") as container:
        stream = container.add_stream("libx264", rate=60, options=dict(options))
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        began = time.process_time()
        for number in range(frames):
            picture.pts = number
            for packet in stream.encode(picture):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
        encode = (time.process_time() - began) / frames
    return convert, encode


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
    """Render animations ``first``…``last`` of the job's scene. Returns the part's video as bytes,
    its duration, and the cues and steps narrated in it, timed from the part's start:
    ``{"video", "suffix", "duration", "cues", "steps", "seconds", "worker"}``. Runs on a worker."""
    from manim import config, logger, tempconfig

    from scenes.render.jobs import job_from_payload
    from scenes.render.segment_encoder import use_held_frame_encoder
    from scenes.render.path_cache import use_path_cache
    from scenes.render.still_overlay import use_still_overlays

    started = time.monotonic()
    with worker_scratch("normgeo-part-") as scratch:
        job = job_from_payload(payload)
        options = manim_options(job.scene_id, job.settings_for_output, scratch, verbose=payload.get("verbose", False)) | {
            "from_animation_number": first, "upto_animation_number": -1 if is_last else last,
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
        if artifact is None or not Path(artifact).is_file():
            raise RuntimeError(f"manim wrote no {job.settings_for_output.format} file for animations {first}–{last}")
        begin, end = starts.get(first, 0.0), ending["time"]

        def mine(moment: float) -> bool:
            return moment >= begin - EPS and (is_last or moment < end - EPS)

        cues = [(at - begin, start - begin, stop - begin, content) for at, start, stop, content in added if mine(at)]
        steps = [{"key": step.key, "text": step.text, "start": step.start - begin, "end": step.end - begin}
                 for step in ending["steps"] if mine(step.start)]
        return {"video": Path(artifact).read_bytes(), "suffix": Path(artifact).suffix, "duration": end - begin,
                "cues": cues, "steps": steps, "range": (first, last), "seconds": time.monotonic() - started,
                "worker": worker_name()}


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
