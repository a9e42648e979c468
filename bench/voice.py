"""Benchmark of narration, side by side in one run on this machine:

  1. a narrated render of one scene against the silent one: cold (no line cached: every line
     synthesized; the voice prepared, that is its copy with alignments made once per voice file, as a
     render after the first finds it), first (an empty cache folder: the voice's copy made too, a
     machine's first narrated render) and warm (every line cached), rounds
     interleaved so that load hits all alike; targets: warm ≤ 1.15×, cold ≤ 1.5× the silent render's
     wall time; also per second of video, and the CPU time of the command and its processes (which
     the other users of a shared machine change far less than the wall time);
  2. synthesis speed per voice (real-time factor: seconds of synthesis plus loudness per second of
     speech) over real scene lines;
  3. the subtitle–speech alignment error of the narrated render: its WebVTT's cue starts against the
     onsets found in its own decoded audio (energy after ≥ 0.15 s of quiet), median (target ≤ 100 ms);
  4. its loudness and true peak read back with FFmpeg's ebur128 filter;
  5. with ``--lecture N``: the first N scenes of the lecture rendered narrated and joined as
     ``normgeo lecture --voice`` joins them (one track, chapters), read back: loudness (pyloudnorm
     and ebur128), true peak, and the joined WebVTT's alignment to the joined audio;
  6. with ``--read-lecture PATH``: a lecture MP4 that ``normgeo lecture --voice`` made, read back:
     its chapters against its output folder's manifest (each scene's length; each step's start,
     shifted to its chapter, against the lecture's cues), loudness and true peak (ebur128), the
     cues' alignment to the speech and whether any two cues overlap.

    PYTHONPATH=. .venv/bin/python bench/voice.py                       # layernorm-2d, en, 2 rounds
    PYTHONPATH=. .venv/bin/python bench/voice.py --scene radial-projection --rounds 3 --lang ru
    PYTHONPATH=. .venv/bin/python bench/voice.py --quality h --rounds 2       # the lecturer's 1080p60
    PYTHONPATH=. .venv/bin/python bench/voice.py --only-lecture --lecture 4     # section 5 alone
    PYTHONPATH=. .venv/bin/python bench/voice.py --read-lecture renders/lecture/lecture.en.dark.voice-en.480p15.mp4

Nothing here is a test.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import platform
import resource
import shutil
import statistics
import sys
import tempfile
import time
import tomllib
from datetime import datetime, timezone
from pathlib import Path

import av
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from plain_manim import BIN, timed  # noqa: E402

from scenes.kit.registry import LECTURE_ORDER, entry  # noqa: E402
from scenes.render.lecture import join_lecture  # noqa: E402
from scenes.render.running.cache import input_hash  # noqa: E402
from scenes.render.running.job import RenderJob  # noqa: E402
from scenes.render.running.produce import render_job  # noqa: E402
from scenes.render.settings import RenderSettings  # noqa: E402
from scenes.render.specs import spec_class  # noqa: E402
from scenes.render.voice.choice import parse_voice  # noqa: E402
from scenes.render.voice.loudness import integrated_loudness  # noqa: E402
from scenes.render.voice.narrator import Narrator  # noqa: E402
from scenes.render.voice.timed_text import parse_vtt  # noqa: E402
from tests.audio_readback import decoded_audio, ebur128, speech_onsets  # noqa: E402

VOICE_FOR = {"en": "en", "ru": "ru"}


QUALITY_NAME = {"l": "480p15", "m": "720p30", "h": "1080p60"}


PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def adopt_orphans() -> None:
    """Make this process the reaper of its descendants' orphans: a render leaves its sound process and
    Piper child to exit by themselves (it does not wait for them), and their CPU time counts only
    once this process has waited for them (:func:`reap_orphans`)."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def reap_orphans() -> None:
    """Wait for every child process left (orphans this process adopted)."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def render(scene: str, lang: str, voice: str, out: Path, cache: Path, quality: str = "l") -> tuple[float, float]:
    """(wall seconds until the command exits, CPU seconds of the command and every process it started:
    the worker, the sound process, Piper; those it does not wait for are waited for here)."""
    os.environ["NORMGEO_SPEECH_CACHE"] = str(cache)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timed([str(BIN / "normgeo"), "render", scene, "-q", quality, "--lang", lang, "--voice", voice,
                  "--out", str(out), "--jobs", "1", "--quiet"], ROOT)
    reap_orphans()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)








def alignment_errors(video: Path) -> tuple[np.ndarray, np.ndarray]:
    """(cue start → nearest onset, onset → nearest cue start or word timestamp), seconds."""
    samples, rate, _ = decoded_audio(video)
    found = speech_onsets(samples, rate)
    cues = parse_vtt(video.with_suffix(".vtt").read_text(encoding="utf-8"))
    starts = np.array([cue.start / 1000 for cue in cues])
    said = np.array(sorted([*starts, *(moment / 1000 for cue in cues for _, moment in cue.marks)]))
    return (np.array([np.min(np.abs(found - start)) for start in starts]),
            np.array([np.min(np.abs(said - onset)) for onset in found]))


def scene_lines(lang: str, count: int) -> list[str]:
    lines = []
    for path in sorted((ROOT / "scenes").glob("*.toml")):
        def walk(table):
            for key, value in table.items():
                if isinstance(value, dict):
                    walk(value)
                elif key == lang and isinstance(value, str) and "{" not in value:
                    lines.append(value)
        walk(tomllib.loads(path.read_text(encoding="utf-8")).get("say", {}))
    return lines[:count]


def real_time_factor(lang: str, count: int, cache: Path) -> tuple[float, float, float]:
    """(RTF, seconds of speech, seconds spent) for ``count`` lines synthesized into an empty cache."""
    lines = scene_lines(lang, count)
    with Narrator(parse_voice(VOICE_FOR[lang]), cache) as narrator:
        started = time.perf_counter()
        said = sum(narrator.speech("bench", str(i), lang, line).seconds for i, line in enumerate(lines))
        spent = time.perf_counter() - started
    return spent / said, said, spent


def lecture_part(count: int, lang: str, work: Path) -> None:
    """Section 5: the first ``count`` lecture scenes narrated and joined, read back."""
    os.environ["NORMGEO_SPEECH_CACHE"] = str(work / "lecture-speech")
    settings = RenderSettings("l", "mp4", voice=VOICE_FOR[lang])
    jobs = [RenderJob(scene_id, spec_class(scene_id)(lang=lang), settings, work / "lecture-out")
            for scene_id in LECTURE_ORDER[:count]]
    started = time.perf_counter()
    for job in jobs:
        result = render_job(job, input_hash(job))
        if result.status != "made":
            raise SystemExit(f"{job.scene_id}: {result.error}")
    rendered = time.perf_counter() - started
    lecture = join_lecture(jobs)
    joined = time.perf_counter() - started - rendered
    samples, rate, _ = decoded_audio(lecture.path)
    loudness, peak = ebur128(samples, rate)
    cue_errors, onset_errors = alignment_errors(lecture.path)
    with av.open(str(lecture.path)) as container:
        chapters = len(container.chapters())
    print(f"\nlecture, first {count} scenes ({', '.join(LECTURE_ORDER[:count])}), {lang}, 480p15: "
          f"{lecture.duration:.1f} s of video, {chapters} chapters, one {len(samples) / rate:.1f} s track; "
          f"rendered in {rendered:.0f} s, joined in {joined:.1f} s")
    print(f"  loudness read back: pyloudnorm {integrated_loudness(samples, rate):.2f} LUFS, ebur128 {loudness:.2f} LUFS, "
          f"true peak {peak:.2f} dBTP")
    print(f"  alignment: cue start → onset median {1000 * np.median(cue_errors):.0f} ms ({len(cue_errors)} cues); "
          f"onset → cue or word timestamp median {1000 * np.median(onset_errors):.0f} ms "
          f"(max {1000 * np.max(onset_errors):.0f} ms, {len(onset_errors)} onsets)")


def read_lecture(video: Path) -> None:
    """Section 6: a made lecture read back against its folder's manifest (``<folder>/manifest.json``)."""
    import json

    out_dir = video.parent.parent
    artifacts = json.loads((out_dir / "manifest.json").read_text(encoding="utf-8"))["artifacts"]
    stem = video.name.removeprefix("lecture.")  # <lang>.<theme>[.<tag>][.voice-<v>].<quality>.mp4
    lang, theme = stem.split(".")[:2]
    suffix = "." + ".".join(stem.split(".")[-3 if ".voice-" in stem else -2:])
    with av.open(str(video)) as container:
        chapters = [(float(c["start"] * c["time_base"]), float(c["end"] * c["time_base"])) for c in container.chapters()]
        titles = [c["metadata"]["title"] for c in container.chapters()]
        seconds = container.duration / 1e6
    by_title = {entry(scene).title(lang).replace("$", ""): scene for scene in LECTURE_ORDER}
    scenes = [by_title[title] for title in titles]  # the chapters name the scenes (a --scenes lecture too)
    records = [artifacts[f"{scene}/{scene}.{lang}.{theme}{suffix}"] for scene in scenes]
    starts = np.cumsum([0.0] + [record["duration_s"] for record in records[:-1]])
    chapter_error = max(abs(start - chapter[0]) for start, chapter in zip(starts, chapters))
    length_error = max(abs(record["duration_s"] - (end - start)) for record, (start, end) in zip(records, chapters))
    cues = parse_vtt(video.with_suffix(".vtt").read_text(encoding="utf-8"))
    cue_starts = np.array([cue.start / 1000 for cue in cues])
    step_starts = [chapter[0] + said["start"] for record, chapter in zip(records, chapters) for said in record["speech"]]
    # each spoken step's first cue starts when its first word is said, shortly after its speech starts
    step_to_cue = np.array([np.min(np.abs(cue_starts[cue_starts >= start - 0.002] - start)) for start in step_starts])
    overlaps = sum(before.end > after.start for before, after in zip(cues, cues[1:]))
    samples, rate, codec = decoded_audio(video)
    loudness, peak = ebur128(samples, rate)
    cue_errors, onset_errors = alignment_errors(video)
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}: {video}")
    print(f"  {seconds:.1f} s ({seconds / 60:.1f} min), {len(chapters)} chapters for {len(scenes)} scenes in the "
          f"manifest; one {codec} track of {len(samples) / rate:.1f} s")
    print(f"  chapters vs the manifest: start error max {1000 * chapter_error:.0f} ms, length error max "
          f"{1000 * length_error:.0f} ms; each spoken step's start → its first cue: median "
          f"{1000 * np.median(step_to_cue):.0f} ms, max {1000 * np.max(step_to_cue):.0f} ms ({len(step_starts)} steps)")
    print(f"  loudness (ebur128) {loudness:.2f} LUFS integrated {_mark(abs(loudness + 16) <= 1)}, true peak "
          f"{peak:.2f} dBTP {_mark(peak <= -1)}")
    print(f"  alignment: cue start → onset median {1000 * np.median(cue_errors):.0f} ms (max "
          f"{1000 * np.max(cue_errors):.0f} ms, {len(cue_errors)} cues) {_mark(np.median(cue_errors) <= 0.1)}; "
          f"onset → cue or word timestamp median {1000 * np.median(onset_errors):.0f} ms ({len(onset_errors)} onsets)")
    print(f"  overlapping cues: {overlaps} {_mark(overlaps == 0)}")


def _duration(video: Path) -> float:
    with av.open(str(video)) as container:
        return container.duration / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene", default="layernorm-2d")
    parser.add_argument("--lang", default="en", choices=sorted(VOICE_FOR))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--quality", "-q", default="l", choices=sorted(QUALITY_NAME),
                        help="of the narrated-against-silent renders (l 480p15, m 720p30, h 1080p60)")
    parser.add_argument("--lines", type=int, default=10, help="scene lines per voice for the real-time factor")
    parser.add_argument("--lecture", type=int, default=0, metavar="N", help="also join the first N lecture scenes")
    parser.add_argument("--only-lecture", action="store_true", help="only section 5")
    parser.add_argument("--read-lecture", type=Path, metavar="MP4", help="only section 6: read back this lecture")
    args = parser.parse_args()
    adopt_orphans()
    if args.read_lecture:
        read_lecture(args.read_lecture)
        return
    if args.only_lecture:
        with tempfile.TemporaryDirectory(prefix="normgeo-bench-voice-") as folder:
            lecture_part(args.lecture or 3, args.lang, Path(folder))
        return
    voice = VOICE_FOR[args.lang]
    machine = f"{platform.machine()}, {os.cpu_count()} cores"
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {machine}, load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="normgeo-bench-voice-") as folder:
        work = Path(folder)
        warm_cache = work / "warm-speech"
        render(args.scene, args.lang, voice, work / "prime", warm_cache, args.quality)  # fills the warm cache (and loads files)
        kinds = ("silent", "warm", "cold", "first")
        times: dict[str, list[float]] = {kind: [] for kind in kinds}
        cpu: dict[str, list[float]] = {kind: [] for kind in kinds}
        for number in range(args.rounds):
            for kind in kinds:  # interleaved: every kind sees the same load
                cache = warm_cache if kind in ("silent", "warm") else work / f"{kind}-speech-{number}"
                if kind == "cold":  # the voice prepared: only its copy with alignments, no line
                    shutil.copytree(warm_cache / "models", cache / "models")
                seconds, cpu_seconds = render(args.scene, args.lang, "none" if kind == "silent" else voice,
                                              work / f"{kind}-{number}", cache, args.quality)
                times[kind].append(seconds)
                cpu[kind].append(cpu_seconds)
                print(f"  round {number + 1}: {kind:6s} {seconds:6.1f} s wall, {cpu_seconds:6.1f} s CPU, load "
                      f"{os.getloadavg()[0]:.1f}", flush=True)
        silent = statistics.median(times["silent"])
        warm, cold, first = (statistics.median(times[kind]) for kind in ("warm", "cold", "first"))
        cpu_median = {kind: statistics.median(values) for kind, values in cpu.items()}
        stem = f"{args.scene}.{args.lang}.dark"
        narrated = work / "warm-0" / args.scene / f"{stem}.voice-{voice}.{QUALITY_NAME[args.quality]}.mp4"
        quiet = work / "silent-0" / args.scene / f"{stem}.{QUALITY_NAME[args.quality]}.mp4"
        quiet_seconds, narrated_seconds = _duration(quiet), _duration(narrated)
        cue_errors, onset_errors = alignment_errors(narrated)
        loudness, peak = ebur128(*decoded_audio(narrated)[:2])
        rtf = {lang: real_time_factor(lang, args.lines, work / f"rtf-{lang}") for lang in VOICE_FOR}
        if args.lecture:
            lecture_part(args.lecture, args.lang, work)
    per = {"silent": silent / quiet_seconds} | {kind: seconds / narrated_seconds
                                                for kind, seconds in (("warm", warm), ("cold", cold), ("first", first))}
    print(f"\n| {args.scene} {QUALITY_NAME[args.quality]}, {args.lang} | wall time, median of {args.rounds} | × silent | target | video "
          "| wall s per video s | × silent | CPU time | × silent |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|")
    print(f"| silent | {silent:.1f} s | 1.00 | | {quiet_seconds:.1f} s | {per['silent']:.2f} | 1.00 | "
          f"{cpu_median['silent']:.1f} s | 1.00 |")
    for kind, seconds, target in (("warm", warm, 1.15), ("cold", cold, 1.5), ("first", first, None)):
        said = {"warm": "warm speech cache", "cold": "cold speech cache", "first": "first ever (voice prepared too)"}
        aim = "" if target is None else f"≤ {target} {_mark(seconds / silent <= target)}"
        print(f"| narrated, {said[kind]} | {seconds:.1f} s | {seconds / silent:.2f} | {aim} | {narrated_seconds:.1f} s "
              f"| {per[kind]:.2f} | {per[kind] / per['silent']:.2f} | {cpu_median[kind]:.1f} s | {cpu_median[kind] / cpu_median['silent']:.2f} |")
    print(f"\nalignment: cue start → onset median {1000 * np.median(cue_errors):.0f} ms "
          f"(max {1000 * np.max(cue_errors):.0f} ms, {len(cue_errors)} cues) {_mark(np.median(cue_errors) <= 0.1)}; "
          f"onset → cue or word timestamp median {1000 * np.median(onset_errors):.0f} ms "
          f"(max {1000 * np.max(onset_errors):.0f} ms, {len(onset_errors)} onsets)")
    print(f"loudness read back (ebur128): {loudness:.1f} LUFS integrated, true peak {peak:.2f} dBTP")
    for lang, (factor, said, spent) in rtf.items():
        print(f"synthesis {VOICE_FOR[lang]} ({lang}): RTF {factor:.2f} ({said:.1f} s of speech in {spent:.1f} s, "
              f"{args.lines} lines)")


def _mark(ok: bool) -> str:
    return "PASS" if ok else "MISS"


if __name__ == "__main__":
    main()
