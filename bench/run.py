"""Benchmark: normgeo against plain `manim` on the same scenes, on this machine, in one run.

    .venv/bin/python bench/run.py                 # everything (about 40 minutes on 2 cores)
    .venv/bin/python bench/run.py --quick         # two scenes, no 1080p60
    .venv/bin/python bench/run.py --scenes radial-projection,conditioning --skip-hd

Prints, side by side:
  1. each scene: plain `manim render -ql` (cold) against `normgeo render -q l` (cold) and warm;
  2. the lecture at 480p: sequential plain manim against `normgeo render --all --jobs 2`,
     and a warm re-render of everything;
  3. GIFs: bytes and SSIM (against the lossless frames) of Manim's `--format gif` and `normgeo gif`;
  4. render seconds per second of video at 480p15 and 1080p60;
  5. before/after for the 3-D scene: Manim's shaded Sphere and Arrow3D against the wire-frame style.
Targets (from the issue) are checked and printed as PASS/MISS. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scenes.kit.registry import SCENES, entry  # noqa: E402
from scenes.render import frames_at, read_timed_frames, ssim  # noqa: E402
from scenes.render.manim_door import capture_lossless_frames  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from plain_manim import BIN, MANIM_CFG, timed  # noqa: E402

SECTIONS = {"scene", "lecture", "gif", "hd", "surface"}


def plain_manim(scene_id: str, workdir: Path, fmt: str = "mp4", quality: str = "-ql") -> tuple[float, Path]:
    """`manim render -ql --format FMT scenes/<file>.py <Class>` in a fresh folder (cold)."""
    scene = entry(scene_id)
    media = workdir / f"manim-{scene_id}-{fmt}"
    shutil.rmtree(media, ignore_errors=True)
    media.mkdir(parents=True)
    (media / "manim.cfg").write_text(MANIM_CFG)
    seconds = timed([str(BIN / "manim"), "render", quality, "--format", fmt, "--media_dir", str(media / "media"),
                     str(scene.source_file), scene.class_name], media)
    return seconds, media


def normgeo(args: list[str], out: Path) -> float:
    return timed([str(BIN / "normgeo"), *args, "--out", str(out), "--quiet"], ROOT)


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())["artifacts"]


def row(*cells, widths=(24, 12, 12, 12, 12, 12)) -> str:
    return "".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", help="comma-separated scene ids (default: all)")
    parser.add_argument("--quick", action="store_true", help="two scenes, no 1080p60")
    parser.add_argument("--skip-hd", action="store_true", help="skip the 1080p60 timings")
    parser.add_argument("--skip-gif", action="store_true", help="skip the GIF comparison")
    parser.add_argument("--sections", default="scene,lecture,gif,hd,surface",
                        help="which parts to run (comma-separated): scene, lecture, gif, hd, surface")
    args = parser.parse_args()
    ids = [s.id for s in SCENES]
    if args.scenes:
        ids = args.scenes.split(",")
        unknown = [i for i in ids if i not in {s.id for s in SCENES}]
        if unknown:
            parser.error(f"unknown scene(s) {', '.join(unknown)}; valid: {', '.join(s.id for s in SCENES)}")
    elif args.quick:
        ids = ["radial-projection", "normalization-axes"]
    skip_hd = args.skip_hd or args.quick
    sections = set(args.sections.split(","))
    if not sections <= SECTIONS:
        parser.error(f"unknown section(s) {', '.join(sorted(sections - SECTIONS))}; valid: {', '.join(sorted(SECTIONS))}")

    work = Path(tempfile.mkdtemp(prefix="normgeo-bench-"))
    print(f"normgeo benchmark, {time.strftime('%Y-%m-%d %H:%M')} on {platform.node()}: {os.cpu_count()} cores, "
          f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"scratch: {work}\n")

    # 1. per scene, cold and warm, and 4. per-second cost at 480p15
    plain_total, per_scene = 0.0, {}
    if "scene" in sections:
        print("1. one scene at 480p15 (wall seconds): plain manim cold | normgeo cold | normgeo warm")
        print(row("scene", "manim", "normgeo", "warm", "video s", "render/s"))
    for scene_id in ids if "scene" in sections else []:
        manim_s, _ = plain_manim(scene_id, work)
        plain_total += manim_s
        out = work / f"cold-{scene_id}"
        cold = normgeo(["render", scene_id, "-q", "l", "--jobs", "1"], out)
        warm = normgeo(["render", scene_id, "-q", "l"], out)
        record = next(iter(manifest(out).values()))
        per_scene[scene_id] = {"manim": manim_s, "cold": cold, "warm": warm, "video": record["duration_s"],
                               "render": record["render_seconds"]}
        print(row(scene_id, f"{manim_s:.1f}", f"{cold:.1f}", f"{warm:.2f}", f"{record['duration_s']:.1f}",
                  f"{record['render_seconds'] / record['duration_s']:.2f}"))
    if per_scene:
        worst = max(v["render"] / v["video"] for v in per_scene.values())
        print(f"   target: every scene within 5× real time at 480p15 → worst {worst:.2f}× {verdict(worst <= 5)}\n")

    # 2. the lecture
    if "lecture" in sections and per_scene:
        lecture(ids, work, plain_total)
    if "gif" in sections and not args.skip_gif:
        gifs(ids, work)
    if "hd" in sections and not skip_hd:
        hd(ids, work)
    if "surface" in sections and "layernorm-hyperplane" in ids:
        surface(work)
    shutil.rmtree(work, ignore_errors=True)


def lecture(ids, work, plain_total) -> None:
    print("2. all selected scenes at 480p15")
    lecture_out = work / "lecture"
    parallel = normgeo(["render", *ids, "-q", "l", "--jobs", "2"], lecture_out)
    warm_all = normgeo(["render", *ids, "-q", "l"], lecture_out)
    print(row("sequential plain manim", f"{plain_total:.1f} s", widths=(40, 12)))
    print(row("normgeo --jobs 2 (cold)", f"{parallel:.1f} s", widths=(40, 12)))
    print(row("normgeo warm re-render of all", f"{warm_all:.2f} s", widths=(40, 12)))
    print(f"   target: ≤ 0.6× sequential plain manim → {parallel / plain_total:.2f}× {verdict(parallel <= 0.6 * plain_total)}")
    print(f"   target: warm re-render < 3 s → {warm_all:.2f} s {verdict(warm_all < 3)}\n")


def gifs(ids, work) -> None:
    print("3. blog GIFs: Manim --format gif against normgeo gif (640 px, 15 fps)")
    print(row("scene", "manim KB", "SSIM", "normgeo KB", "SSIM", "ratio"))
    gif_out = work / "gifs"
    normgeo(["gif", *ids, "--jobs", "2"], gif_out)
    records = manifest(gif_out)
    total_manim = total_ours = 0
    all_good = True
    for scene_id in ids:
        _, gif_media = plain_manim(scene_id, work, "gif")
        manim_gif = next(gif_media.rglob("*.gif"))
        lossless, fps = capture_lossless_frames(scene_id)
        shown = frames_at(read_timed_frames(manim_gif), np.arange(len(lossless)) / fps)
        manim_ssim = float(np.mean([ssim(a, b) for a, b in list(zip(shown, lossless))[::2]]))
        ours = records[f"{scene_id}/{scene_id}.en.dark.640px.gif"]
        total_manim += manim_gif.stat().st_size
        total_ours += ours["size_bytes"]
        all_good &= ours["gif"]["ssim"] >= 0.98
        print(row(scene_id, f"{manim_gif.stat().st_size / 1e3:.0f}", f"{manim_ssim:.3f}", f"{ours['size_bytes'] / 1e3:.0f}",
                  f"{ours['gif']['ssim']:.3f}", f"{ours['size_bytes'] / manim_gif.stat().st_size:.2f}"))
    print(f"   total: Manim {total_manim / 1e6:.1f} MB, normgeo {total_ours / 1e6:.2f} MB "
          f"({total_ours / total_manim:.3f}×) → ≤ 0.4× {verdict(total_ours <= 0.4 * total_manim)}; "
          f"every normgeo GIF SSIM ≥ 0.98 {verdict(all_good)}\n")

def hd(ids, work) -> None:
    print("4. render seconds per second of video: 480p15 against 1080p60 (normgeo, --jobs 2)")
    ratios = {}
    for quality in ("l", "h"):
        out = work / f"quality-{quality}"
        normgeo(["render", *ids, "-q", quality, "--jobs", "2"], out)
        ratios[quality] = {r["scene"]: r["render_seconds"] / r["duration_s"] for r in manifest(out).values()}
    print(row("scene", "480p15", "1080p60"))
    for scene_id in ids:
        print(row(scene_id, f"{ratios['l'][scene_id]:.2f}", f"{ratios['h'][scene_id]:.2f}"))
    print()


def surface(work) -> None:
    """Cost of drawing the final frame of layernorm-hyperplane in both styles (a full render of the
    surface style takes over half an hour: ~1 ms per face per frame, ~1,600 faces)."""
    from manim import tempconfig

    from scenes.layernorm_hyperplane import LayerNormHyperplane, LayerNormHyperplaneSpec

    print("5. layernorm-hyperplane, drawing its final frame at 480p: Manim's Sphere and Arrow3D (before) "
          "against wire frames and flat tips (after)")
    costs = {}
    for style in ("surface", "wire"):
        options = {"media_dir": str(work / f"style-{style}"), "dry_run": True, "verbosity": "ERROR",
                   "progress_bar": "none", "quality": "low_quality"}
        with tempconfig(options):
            scene = LayerNormHyperplane(spec=LayerNormHyperplaneSpec(style=style), skip_animations=True)
            scene.render()
            camera = scene.renderer.camera
            started = time.perf_counter()
            for _ in range(5):
                camera.reset()
                camera.capture_mobjects(scene.mobjects)
            costs[style] = (time.perf_counter() - started) / 5
    for style, label in (("surface", "surface (before)"), ("wire", "wire frame (after)")):
        print(row(label, f"{costs[style] * 1000:.0f} ms/frame", f"{costs[style] * 15:.1f}× real time at 15 fps",
                  widths=(40, 16, 30)))
    print(f"   {costs['surface'] / costs['wire']:.0f}× cheaper, same geometry\n")


if __name__ == "__main__":
    main()
