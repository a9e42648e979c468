"""Measure the static site: its weight without media, and how long each widget takes to redraw.

    .venv/bin/python bench/site.py                  # a site of 18 scenes with lecture-length text, no media
    .venv/bin/python bench/site.py --site renders/site   # also weigh an existing site (media excluded)

Prints the bytes of everything but media (target: ≤ 1.5 MB) and, per widget, the redraw times
recorded by its performance measures ("normgeo:<widget>") over 300 inputs in Debian's Chromium
(target: each within 16 ms). Nothing here is a test.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scenes.render.site import WIDGET_FOR_SCENE, SiteScene, SiteStep, build_site  # noqa: E402

SCENE_IDS = [
    "radial-projection", "sphere-radii", "layernorm-hyperplane", "layernorm-2d", "direction-not-length",
    "degrees-of-freedom", "unified-formula", "normalization-axes", "conditioning", "scale-invariance",
    "covariate-shift", "batch-dependence", "prenorm-postnorm", "epsilon-and-affine", "rmsnorm-vs-layernorm",
    "layernorm-gradient", "batchnorm-geometry", "dynamic-tanh",
]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SENTENCE = {"en": "The vector slides along its ray until it stops on the sphere of radius one. ",
            "zh": "向量沿着射线滑动，直到停在半径为一的球面上。",
            "ru": "Вектор скользит по лучу, пока не остановится на сфере радиуса один. "}

INPUTS = {
    "grid": """(n) => { const r = document.querySelector('[data-widget]'); const layers = ['batchnorm','layernorm','rmsnorm','groupnorm','none'];
       for (let i = 0; i < n; i++) { r.querySelector(`[data-layer="${layers[i % 5]}"]`).click();
         const cell = r.querySelector(`input[data-row="${i % 4}"][data-col="${(i >> 2) % 4}"]`); cell.value = String(Math.sin(i) * 10); cell.dispatchEvent(new Event('input')); } }""",
    "vector-2d": """(n) => { const r = document.querySelector('[data-widget]');
       for (let i = 0; i < n; i++) { for (const [k, v] of [['x1', Math.cos(i)*2], ['eps', i % 7 / 10]]) { const f = r.querySelector(`[data-control="${k}"]`); f.value = String(v); f.dispatchEvent(new Event('input')); } } }""",
    "layernorm-3d": """(n) => { const r = document.querySelector('[data-widget]');
       for (let i = 0; i < n; i++) { const f = r.querySelector('[data-control="x2"]'); f.value = String(Math.sin(i) * 3); f.dispatchEvent(new Event('input'));
         r.querySelector('svg').dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'})); } }""",
    "conditioning": """(n) => { const r = document.querySelector('[data-widget]');
       for (let i = 0; i < n; i++) { for (const [k, v] of [['scale', (i % 80) * 0.05], ['rho', ((i * 7) % 189 - 90) / 100]]) { const f = r.querySelector(`[data-control="${k}"]`); f.value = String(v); f.dispatchEvent(new Event('input')); } } }""",
}


def tree_bytes(root: Path, skip_media: bool = True) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and not (skip_media and "media" in p.relative_to(root).parts))


def lecture_like_scenes() -> list[SiteScene]:
    scenes = []
    for scene_id in SCENE_IDS:
        steps = {lang: [SiteStep(i * 6.0, i * 6.0 + 5.5, SENTENCE[lang] * 3) for i in range(8)] for lang in SENTENCE}
        titles = {lang: f"{scene_id} — $mu$, $sigma$" for lang in SENTENCE}
        scenes.append(SiteScene(scene_id, titles, titles, steps, [], WIDGET_FOR_SCENE.get(scene_id)))
    return scenes


def redraw_times(site: Path) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    times = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 900, "height": 900})
        for widget, script in INPUTS.items():
            page.goto((site / "widgets" / f"{widget}.html").as_uri())
            page.evaluate("performance.clearMeasures()")
            page.evaluate(script, 300)
            times[widget] = page.evaluate(f"performance.getEntriesByName('normgeo:{widget}').map((m) => m.duration)")
        browser.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="also weigh this existing site folder (media excluded)")
    args = parser.parse_args()
    print(f"normgeo site benchmark, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC")
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        report = build_site(lecture_like_scenes(), site)
        weight = tree_bytes(site)
        verdict = "PASS" if weight <= 1.5e6 else "MISS"
        print(f"site without media, {report.scenes} scenes × 3 languages: {weight / 1e6:.3f} MB ({weight} bytes)  [{verdict}: ≤ 1.5 MB]")
        assets = tree_bytes(site / "assets")
        print(f"  of which scripts, styles, UI text and the Typst formula: {assets / 1e3:.1f} kB")
        if args.site:
            existing = tree_bytes(args.site)
            print(f"{args.site} without media: {existing / 1e6:.3f} MB  [{'PASS' if existing <= 1.5e6 else 'MISS'}: ≤ 1.5 MB]")
        print("redraw per input event (performance measures \"normgeo:<widget>\", 300 rounds of 2 inputs each):")
        for widget, durations in redraw_times(site).items():
            ordered = sorted(durations)
            p95 = ordered[int(0.95 * (len(ordered) - 1))]
            slow = sum(1 for d in ordered if d > 16)
            verdict = "PASS" if slow == 0 else "MISS"
            print(f"  {widget:<13} n={len(ordered):4d}  median {statistics.median(ordered):6.2f} ms  p95 {p95:6.2f} ms"
                  f"  max {ordered[-1]:6.2f} ms  over 16 ms: {slow}  [{verdict}: every redraw ≤ 16 ms]")
        print(f"  (load average while measuring: {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
