"""Exports against the best encoders, scene by scene, in one run: GIFs against gifski, WebP and a
looping MP4 at the same SSIM, and 1080p60 video against plain `manim render -qh`.

Animations. For each scene the frames (as shown, held frames with their repeat counts) are scaled
once to the width (Lanczos) and written as PNGs; gifski encodes those PNGs at ``--gifski-quality``;
normgeo encodes the same PNGs at the lowest quality whose SSIM is at least gifski's (a bisection on
quality). Then animated WebP (lossy at the same SSIM; lossless from the source; lossless of the
GIF's own frames, i.e. the same SSIM as the GIF) and a looping H.264 MP4 at the same SSIM when
4:2:0 chroma can reach it. SSIM is one method for everything (named in the output), matched by
time against the scaled lossless frames. Times are wall-clock seconds once the frames exist;
peak memory is the encoding process's maximum resident set.

Video. ``manim render -qh`` of the scene's file in a fresh folder (Manim's defaults: x264 preset
medium, CRF 23, one encoder in flight) against ``normgeo render SCENE -q h --jobs 1`` (its defaults),
both cold, wall seconds of the whole command; bytes of each file; SSIM of normgeo's video against
plain Manim's, frame by frame over every ``--video-every``-th frame. ``--k-scenes`` does the same at
2160p60 (``-qk``, ``-q k``) for the scenes named.

Frames are read from ``--frames-dir/<scene>/`` (``frames.json`` + PNGs, identical consecutive
frames stored once with a repeat count); a missing scene is captured there first.

gifski is not a dependency of normgeo: when it is not on PATH, the npm package ``gifski`` (which
ships a Debian binary) is installed into ``--cache``.

    .venv/bin/python bench/exports.py                              # every scene (about an hour)
    .venv/bin/python bench/exports.py --scenes radial-projection --no-video
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from scenes.kit.registry import LECTURE_ORDER, SCENES, entry  # noqa: E402
from scenes.render.manim_door import capture_lossless_frames  # noqa: E402
from scenes.render.media.quality import method_name, scale_frame, ssim_of_animation, ssim_of_videos  # noqa: E402

sys.path.insert(0, str(REPO / "bench"))
from plain_manim import BIN, MANIM_CFG, timed  # noqa: E402

VIDEO_QUALITIES = {"h": ("-qh", "1080p60"), "k": ("-qk", "2160p60")}


# ------------------------------------------------------------------------------------------
# scenes and their frames


def valid_scene_ids() -> list[str]:
    return [scene.id for scene in SCENES]


def capture(scene: str, folder: Path) -> None:
    """Render ``scene`` at 480p and store its frames as shown (PNG once per run of identical
    frames, with the repeat count) in ``folder``."""
    frames, fps = capture_lossless_frames(scene)
    folder.mkdir(parents=True, exist_ok=True)
    names, repeats, previous = [], [], None
    for frame in frames:
        if previous is not None and (frame is previous or np.array_equal(frame, previous)):
            repeats[-1] += 1
        else:
            name = f"{len(names):05d}.png"
            Image.fromarray(frame).save(folder / name, compress_level=1)
            names.append(name)
            repeats.append(1)
        previous = frame
    height, width = frames[0].shape[:2]
    (folder / "frames.json").write_text(json.dumps({"scene": scene, "fps": fps, "width": width, "height": height,
                                                    "frames": names, "repeats": repeats,
                                                    "total_frames": len(frames)}))


def stored_frames(folder: Path):
    """(RGB frame, seconds) pairs from a stored folder, one at a time."""
    meta = json.loads((folder / "frames.json").read_text())
    for name, count in zip(meta["frames"], meta["repeats"]):
        yield np.asarray(Image.open(folder / name).convert("RGB")), count / meta["fps"]


def write_scaled(folder: Path, out: Path, width: int) -> tuple[int, float]:
    """The frames scaled to ``width`` as PNGs in ``out``: ``d00000.png``… once per distinct frame
    (with ``durations.json``) and ``all/00000.png``… one per shown frame (links) for gifski."""
    meta = json.loads((folder / "frames.json").read_text())
    (out / "all").mkdir(parents=True, exist_ok=True)
    shown = 0
    durations = []
    for index, (name, count) in enumerate(zip(meta["frames"], meta["repeats"])):
        frame = scale_frame(np.asarray(Image.open(folder / name).convert("RGB")), width)
        distinct = out / f"d{index:05d}.png"
        Image.fromarray(frame).save(distinct, compress_level=1)
        durations.append(count / meta["fps"])
        for _ in range(count):
            os.link(distinct, out / "all" / f"{shown:05d}.png")
            shown += 1
    (out / "durations.json").write_text(json.dumps(durations))
    return shown, float(meta["fps"])


def scaled_frames(out: Path):
    durations = json.loads((out / "durations.json").read_text())
    for index, seconds in enumerate(durations):
        yield np.asarray(Image.open(out / f"d{index:05d}.png").convert("RGB")), seconds


# ------------------------------------------------------------------------------------------
# tools


def gifski_binary(cache: Path) -> str:
    found = shutil.which("gifski")
    if found:
        return found
    binary = cache / "node_modules" / "gifski" / "bin" / "debian" / "gifski"
    if not binary.exists():
        cache.mkdir(parents=True, exist_ok=True)
        print(f"installing gifski (npm package) into {cache} …", file=sys.stderr)
        subprocess.run(["npm", "install", "--silent", "--prefix", str(cache), "gifski"], check=True)
    return str(binary)


def _peak_mb(pid: int) -> float | None:
    """VmHWM of a running process: its own peak resident memory (not inherited from its parent at
    fork, which ``ru_maxrss`` would include)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return None


def run_measured_child(command: list[str]) -> tuple[float, float, str]:
    """Run ``command``; (wall seconds, peak resident MB of that process alone, stdout). The peak
    is sampled from /proc while it runs (the Python encoder child also reports its own at the end)."""
    started = time.monotonic()
    peak = 0.0
    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        process = subprocess.Popen(command, stdout=out_file, stderr=err_file)
        while process.poll() is None:
            peak = max(peak, _peak_mb(process.pid) or 0.0)
            time.sleep(0.02)
        seconds = time.monotonic() - started
        out_file.seek(0)
        err_file.seek(0)
        if process.returncode:
            raise RuntimeError(f"{' '.join(command[:3])} failed: {err_file.read().decode()[-2000:]}")
        return seconds, peak, out_file.read().decode()


def encode_in_child(kind: str, frames_dir: Path, target: Path, width: int, fps: int, **options) -> dict:
    """Encode in a fresh process (peak memory of that encode alone); its stats as a dict."""
    command = [sys.executable, __file__, "--encode-one", json.dumps({"kind": kind, "frames": str(frames_dir),
                                                                     "target": str(target), "width": width,
                                                                     "fps": fps, **options})]
    seconds, peak, out = run_measured_child(command)
    stats = json.loads(out.strip().splitlines()[-1])
    stats.update(wall_seconds=seconds, peak_mb=max(peak, stats.pop("own_peak_mb", 0.0) or 0.0))
    return stats


def encode_one(job: dict) -> None:
    """The ``--encode-one`` child: encode the scaled frames in ``job['frames']``."""
    from scenes.render.media.gif import encode_gif
    from scenes.render.media.loop import encode_loop_video
    from scenes.render.media.quality import decoded_frames
    from scenes.render.media.webp import encode_webp

    folder, target = Path(job["frames"]), Path(job["target"])
    source = decoded_frames(Path(job["source"])) if job.get("source") else scaled_frames(folder)
    if job["kind"] == "gif":
        stats = encode_gif(source, target, job["width"], job["fps"], quality=job["quality"])
    elif job["kind"] == "webp":
        stats = encode_webp(source, target, job["width"], job["fps"], quality=job["quality"],
                            lossless=job.get("lossless", False))
    else:
        stats = encode_loop_video(source, target, job["width"], job["fps"], crf=job["crf"], codec=job["kind"])
    print(json.dumps({"size_bytes": stats.size_bytes, "width": stats.width, "height": stats.height,
                      "frames": stats.frames, "duration_s": stats.duration_s, "own_peak_mb": _peak_mb(os.getpid())}))


# ------------------------------------------------------------------------------------------
# searches at a target SSIM


def measure(path: Path, scaled: Path, method: str) -> float:
    return ssim_of_animation(path, scaled_frames(scaled), method)


def search(make, low: int, high: int, target_ssim: float, higher_is_better: bool = True, limit: int = 7):
    """Bisection on an integer setting for the smallest file with SSIM ≥ ``target_ssim``.
    ``make(value) -> (stats, ssim)``. Returns (value, stats, ssim) of the best passing try, or of
    the highest-SSIM try when none passes (then flagged ``reached=False``)."""
    tried = {}

    def attempt(value):
        if value not in tried:
            tried[value] = make(value)
        return tried[value]

    best = None
    lo, hi = low, high
    best_value = high if higher_is_better else low
    stats, value_ssim = attempt(best_value)
    if value_ssim < target_ssim:
        return best_value, stats, value_ssim, False
    best = (best_value, stats, value_ssim)
    for _ in range(limit):
        if hi - lo <= 1:
            break
        middle = (lo + hi) // 2
        stats, value_ssim = attempt(middle)
        passes = value_ssim >= target_ssim
        if passes and stats["size_bytes"] <= best[1]["size_bytes"]:
            best = (middle, stats, value_ssim)
        if higher_is_better:
            lo, hi = (lo, middle) if passes else (middle, hi)
        else:
            lo, hi = (middle, hi) if passes else (lo, middle)
    return (*best, True)


# ------------------------------------------------------------------------------------------


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.node()} {platform.system()} {platform.release()}, {os.cpu_count()} cores ({cpu})"


def load() -> str:
    try:
        return " ".join(f"{value:.1f}" for value in os.getloadavg())
    except OSError:
        return "?"


def bench_scene(scene: str, args, gifski: str, work: Path, method: str) -> dict:
    source_folder = args.frames_dir / scene
    if not (source_folder / "frames.json").exists():
        capture(scene, source_folder)
    scaled = work / scene
    shown, fps = write_scaled(source_folder, scaled, args.width)
    duration = sum(json.loads((scaled / "durations.json").read_text()))
    row = {"scene": scene, "duration_s": round(duration, 2), "frames": shown}

    # gifski, from the PNGs of every shown frame
    gifski_gif = work / f"{scene}.gifski.gif"
    pngs = sorted(str(p) for p in (scaled / "all").glob("*.png"))
    gifski_command = [gifski, "--quiet", "--fps", str(int(fps)), "--quality", str(args.gifski_quality),
                      "--width", str(args.width), "-o", str(gifski_gif), *pngs]
    seconds, peak, _ = run_measured_child(gifski_command)
    gifski_ssim = measure(gifski_gif, scaled, method)
    row["gifski"] = {"bytes": gifski_gif.stat().st_size, "ssim": gifski_ssim, "seconds": seconds, "peak_mb": peak,
                     "quality": args.gifski_quality}
    print(f"  gifski q{args.gifski_quality}: {row['gifski']['bytes']:,} B, SSIM {gifski_ssim:.4f}, {seconds:.1f} s",
          file=sys.stderr)

    # normgeo at the lowest quality that is at least as good
    def make_gif(quality):
        target = work / f"{scene}.normgeo.q{quality}.gif"
        stats = encode_in_child("gif", scaled, target, args.width, int(fps), quality=quality)
        value = measure(target, scaled, method)
        print(f"  normgeo q{quality}: {stats['size_bytes']:,} B, SSIM {value:.4f}, {stats['wall_seconds']:.1f} s, "
              f"{stats['peak_mb']:.0f} MB", file=sys.stderr)
        return stats, value

    quality, stats, value, reached = search(make_gif, 1, 100, gifski_ssim, limit=args.steps)
    gif_path = work / f"{scene}.normgeo.q{quality}.gif"
    row["normgeo"] = {"bytes": stats["size_bytes"], "ssim": value, "seconds": stats["wall_seconds"],
                      "peak_mb": stats["peak_mb"], "quality": quality, "reached": reached,
                      "width": stats["width"], "duration_s": stats["duration_s"]}
    # the machine may be shared: time both again, alternating, and keep each one's fastest run
    for _ in range(args.timing_runs):
        seconds, peak, _ = run_measured_child(gifski_command)
        row["gifski"]["seconds"] = min(row["gifski"]["seconds"], seconds)
        again = encode_in_child("gif", scaled, work / f"{scene}.normgeo.timing.gif", args.width, int(fps),
                                quality=quality)
        row["normgeo"]["seconds"] = min(row["normgeo"]["seconds"], again["wall_seconds"])
        row["normgeo"]["peak_mb"] = max(row["normgeo"]["peak_mb"], again["peak_mb"])
    print(f"  timed: gifski {row['gifski']['seconds']:.1f} s, normgeo {row['normgeo']['seconds']:.1f} s "
          f"(fastest of {args.timing_runs + 1})", file=sys.stderr)

    if not args.no_webp:
        def make_webp(q):
            target = work / f"{scene}.q{q}.webp"
            stats = encode_in_child("webp", scaled, target, args.width, int(fps), quality=q)
            return stats, measure(target, scaled, method)

        q, stats, value, reached = search(make_webp, 0, 100, gifski_ssim, limit=args.steps)
        row["webp"] = {"bytes": stats["size_bytes"], "ssim": value, "quality": q, "reached": reached}
        lossless = encode_in_child("webp", scaled, work / f"{scene}.lossless.webp", args.width, int(fps),
                                   quality=100, lossless=True)
        row["webp_lossless"] = {"bytes": lossless["size_bytes"], "ssim": measure(work / f"{scene}.lossless.webp",
                                                                                 scaled, method)}
        of_gif = encode_in_child("webp", scaled, work / f"{scene}.gif-frames.lossless.webp", args.width, int(fps),
                                 quality=100, lossless=True, source=str(gif_path))
        row["webp_of_gif"] = {"bytes": of_gif["size_bytes"],
                              "ssim": measure(work / f"{scene}.gif-frames.lossless.webp", scaled, method)}
    if not args.no_video:
        def make_mp4(crf):
            target = work / f"{scene}.crf{crf}.mp4"
            stats = encode_in_child("h264", scaled, target, args.width, int(fps), crf=crf)
            return stats, measure(target, scaled, method)

        crf, stats, value, reached = search(make_mp4, 1, 40, gifski_ssim, higher_is_better=False, limit=args.steps)
        if not reached:  # 4:2:0 cannot get there: say how far it gets, at a sensible size
            crf = 16
            stats, value = make_mp4(crf)
        row["mp4"] = {"bytes": stats["size_bytes"], "ssim": value, "crf": crf, "reached": reached}
    return row


# ------------------------------------------------------------------------------------------
# video against plain Manim


def bench_video(scene: str, quality: str, work: Path, every: int) -> dict:
    """Plain ``manim render`` against ``normgeo render`` at ``quality`` (h or k), both cold."""
    flag, label = VIDEO_QUALITIES[quality]
    item = entry(scene)
    plain_dir = work / f"manim-{scene}-{quality}"
    shutil.rmtree(plain_dir, ignore_errors=True)
    plain_dir.mkdir(parents=True)
    (plain_dir / "manim.cfg").write_text(MANIM_CFG)
    plain_seconds = timed([str(BIN / "manim"), "render", flag, "--media_dir", str(plain_dir / "media"),
                           str(item.source_file), item.class_name], plain_dir)
    plain = next(p for p in (plain_dir / "media").rglob(f"{item.class_name}.mp4") if "partial" not in str(p))
    ours_dir = work / f"normgeo-{scene}-{quality}"
    shutil.rmtree(ours_dir, ignore_errors=True)
    ours_seconds = timed([str(BIN / "normgeo"), "render", scene, "-q", quality, "--jobs", "1", "--quiet",
                          "--out", str(ours_dir)], REPO)
    ours = next(ours_dir.rglob(f"*.{label}.mp4"))
    row = {"label": label, "manim_seconds": plain_seconds, "normgeo_seconds": ours_seconds,
           "manim_bytes": plain.stat().st_size, "normgeo_bytes": ours.stat().st_size,
           "ssim": ssim_of_videos(ours, plain, every=every)}
    print(f"  {label}: manim {plain_seconds:.1f} s {row['manim_bytes']:,} B; normgeo {ours_seconds:.1f} s "
          f"{row['normgeo_bytes']:,} B; SSIM {row['ssim']:.4f}", file=sys.stderr)
    shutil.rmtree(plain_dir, ignore_errors=True)
    shutil.rmtree(ours_dir, ignore_errors=True)
    return row


def video_table(rows: list[dict]) -> str:
    lines = ["| scene | video | plain manim: s / bytes | normgeo: s / bytes | time | bytes | SSIM vs Manim |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for row in rows:
        for video in row.get("video", []):
            lines.append(f"| {row['scene']} | {video['label']} | {video['manim_seconds']:.1f} / {video['manim_bytes']:,} | "
                         f"{video['normgeo_seconds']:.1f} / {video['normgeo_bytes']:,} | "
                         f"{video['normgeo_seconds'] / video['manim_seconds']:.2f}× | "
                         f"{video['normgeo_bytes'] / video['manim_bytes']:.2f}× | {video['ssim']:.4f} |")
    return "\n".join(lines)


def verdicts(rows: list[dict]) -> str:
    """The issue's targets, each PASS or MISS with the worst case."""
    out = []
    gif = [row for row in rows if "normgeo" in row]
    if gif:
        worst = max(gif, key=lambda row: row["normgeo"]["bytes"] / row["gifski"]["bytes"])
        ratio = worst["normgeo"]["bytes"] / worst["gifski"]["bytes"]
        ok = all(row["normgeo"]["reached"] and row["normgeo"]["bytes"] <= row["gifski"]["bytes"] for row in gif)
        out.append(f"GIF bytes ≤ gifski's at ≥ its SSIM, every scene: worst {worst['scene']} {ratio:.2f}× "
                   f"{'PASS' if ok else 'MISS'}")
        slow = max(gif, key=lambda row: row["normgeo"]["seconds"] / row["gifski"]["seconds"])
        times = slow["normgeo"]["seconds"] / slow["gifski"]["seconds"]
        out.append(f"GIF time ≤ 2× gifski's: worst {slow['scene']} {times:.2f}× {'PASS' if times <= 2 else 'MISS'}")
        peak = max(row["normgeo"]["peak_mb"] for row in gif)
        out.append(f"GIF peak memory < 300 MB: worst {peak:.0f} MB {'PASS' if peak < 300 else 'MISS'}")
    videos = [(row["scene"], video) for row in rows for video in row.get("video", [])]
    for label in sorted({video["label"] for _, video in videos}):
        mine = [(scene, video) for scene, video in videos if video["label"] == label]
        scene, worst = max(mine, key=lambda pair: pair[1]["normgeo_seconds"] / pair[1]["manim_seconds"])
        ratio = worst["normgeo_seconds"] / worst["manim_seconds"]
        total = sum(v["normgeo_seconds"] for _, v in mine) / sum(v["manim_seconds"] for _, v in mine)
        out.append(f"{label} time ≤ 0.6× plain Manim, every scene: worst {scene} {ratio:.2f}× (all together "
                   f"{total:.2f}×) {'PASS' if ratio <= 0.6 else 'MISS'}")
        low = min(v["ssim"] for _, v in mine)
        out.append(f"{label} SSIM ≥ 0.99 against plain Manim: lowest {low:.4f} {'PASS' if low >= 0.99 else 'MISS'}")
        big = max(v["normgeo_bytes"] / v["manim_bytes"] for _, v in mine)
        out.append(f"{label} bytes ≤ 1.2× plain Manim's: largest {big:.2f}× {'PASS' if big <= 1.2 else 'MISS'}")
    return "\n".join(out)


def table(rows: list[dict]) -> str:
    def kb(n):
        return f"{n / 1000:,.1f} kB"

    rows = [row for row in rows if "gifski" in row]
    lines = ["| scene | s | gifski: bytes / SSIM / s / MB | normgeo: bytes / SSIM / s / MB (q) | normgeo vs gifski "
             "| WebP lossy at ≥ SSIM | WebP lossless (source / GIF frames) | MP4 H.264 4:2:0 |",
             "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        g, n = row["gifski"], row["normgeo"]
        ratio = n["bytes"] / g["bytes"]
        mark = "" if n["reached"] else " (SSIM not reached)"
        webp = "-"
        if "webp" in row:
            w = row["webp"]
            webp = f"{kb(w['bytes'])} @ {w['ssim']:.4f} (q{w['quality']})" + ("" if w["reached"] else " not reached")
        lossless = "-"
        if "webp_lossless" in row:
            lossless = (f"{kb(row['webp_lossless']['bytes'])} @ {row['webp_lossless']['ssim']:.4f} / "
                        f"{kb(row['webp_of_gif']['bytes'])} @ {row['webp_of_gif']['ssim']:.4f}")
        video = "-"
        if "mp4" in row:
            m = row["mp4"]
            video = f"{kb(m['bytes'])} @ {m['ssim']:.4f} (crf {m['crf']})" + ("" if m["reached"] else ", SSIM not reachable")
        lines.append(
            f"| {row['scene']} | {row['duration_s']} | {g['bytes']:,} / {g['ssim']:.4f} / {g['seconds']:.1f} / "
            f"{g['peak_mb']:.0f} (q{g['quality']}) | {n['bytes']:,} / {n['ssim']:.4f} / {n['seconds']:.1f} / {n['peak_mb']:.0f} "
            f"(q{n['quality']}){mark} | {ratio:.0%} bytes, {n['seconds'] / g['seconds']:.1f}× time | {webp} | "
            f"{lossless} | {video} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", default=",".join(LECTURE_ORDER), help="comma-separated scene ids (default: all)")
    parser.add_argument("--frames-dir", type=Path, default=Path(tempfile.gettempdir()) / "normgeo-gif-frames")
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--gifski-quality", type=int, default=70)
    parser.add_argument("--steps", type=int, default=6, help="bisection steps per search")
    parser.add_argument("--timing-runs", type=int, default=2, help="extra alternating timing runs of both GIF encoders")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "normgeo" / "gifski")
    parser.add_argument("--method", default="ffmpeg", help="SSIM method: ffmpeg or skimage")
    parser.add_argument("--no-webp", action="store_true")
    parser.add_argument("--no-video", action="store_true", help="no looping MP4 in the animation comparison")
    parser.add_argument("--no-gif", action="store_true", help="skip the animation comparison (GIF, WebP, MP4)")
    parser.add_argument("--no-hd", action="store_true", help="skip the 1080p60 comparison with plain Manim")
    parser.add_argument("--video-every", type=int, default=6, help="SSIM of every n-th frame of the 1080p60 videos")
    parser.add_argument("--k-scenes", default="", help="comma-separated scenes also compared at 2160p60")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    parser.add_argument("--encode-one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.encode_one:
        encode_one(json.loads(args.encode_one))
        return 0
    method_name(args.method)
    names = [name.strip() for name in args.scenes.split(",") if name.strip()]
    valid = valid_scene_ids()
    k_names = [name.strip() for name in args.k_scenes.split(",") if name.strip()]
    unknown = [name for name in names + k_names if name not in valid]
    if unknown:
        print(f"unknown scene {', '.join(unknown)}; valid: {', '.join(valid)}", file=sys.stderr)
        return 2
    gifski = gifski_binary(args.cache) if not args.no_gif else "gifski"
    gifski_version = (subprocess.run([gifski, "--version"], capture_output=True, text=True).stdout.strip()
                      if not args.no_gif else "gifski not used")
    gifsicle = shutil.which("gifsicle")
    gifsicle_version = (subprocess.run([gifsicle, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
                        if gifsicle else "gifsicle absent")
    print(f"date: {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M UTC}")
    print(f"machine: {machine()}; load average at start {load()}")
    print(f"tools: {gifski_version}; {gifsicle_version}; Python {platform.python_version()}")
    print(f"quality: {method_name(args.method)}, matched by time against the lossless frames scaled to "
          f"{args.width} px (Lanczos)")
    rows = []
    with tempfile.TemporaryDirectory(prefix="normgeo-bench-gif-") as folder:
        for name in names:
            print(f"{name} …", file=sys.stderr)
            row = {"scene": name}
            if not args.no_gif:
                row = bench_scene(name, args, gifski, Path(folder), args.method)
            if not args.no_hd:
                row["video"] = [bench_video(name, "h", Path(folder), args.video_every)]
            if name in k_names:
                row.setdefault("video", []).append(bench_video(name, "k", Path(folder), args.video_every))
            rows.append(row)
            if args.json:  # after every scene: a long run that stops still leaves its rows
                args.json.write_text(json.dumps(rows, indent=2))
    print(f"load average at end {load()} (other work may have been running: times are indicative)")
    print(f"date at end: {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M UTC}")
    print(table(rows))
    print()
    print(video_table(rows))
    print()
    print(verdicts(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
