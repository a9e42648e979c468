"""Benchmark of ``normgeo slides`` on an output folder that holds a rendered lecture, side by side
in one run on this machine:

  1. each format (pptx, pdf, html) built from the folder: wall time and file size;
  2. the deck's clips cut as the deck cuts them (packets copied at the steps' keyframes) against the
     same clips decoded and encoded once (the fallback, x264 veryfast CRF 23): wall time and bytes,
     and how far the re-encoded pictures are from the rendered ones (mean absolute level, 0–255);
  3. LibreOffice Impress converting the deck to PDF (what the tests do): wall time and pages.

    PYTHONPATH=. .venv/bin/python bench/slides.py --out renders --lang en
    PYTHONPATH=. .venv/bin/python bench/slides.py --out renders --lang ru --formats pdf

Nothing here is a test.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import av
import numpy as np
import pypdf  # the test extra

from scenes.kit.registry import LECTURE_ORDER
from scenes.render.slides import FORMATS, SUFFIXES, build_slides
from scenes.render.slides.clips import _copy, _encode, keyframe_times
from scenes.render.media.video import video_duration as video_seconds
from scenes.render.slides.sources import deck_scenes


def _frames(path: Path) -> list[np.ndarray]:
    with av.open(str(path)) as container:
        return [frame.to_ndarray(format="rgb24") for frame in container.decode(video=0)]


def _clips(out: Path, lang: str, theme: str, work: Path) -> None:
    scenes = deck_scenes(out, list(LECTURE_ORDER), lang, theme, None, SUFFIXES["pptx"])
    copied = encoded = 0.0
    copied_bytes = encoded_bytes = 0
    differences, count, off_key = [], 0, 0
    for scene in scenes:
        keys = keyframe_times(scene.video)
        for number, step in enumerate(scene.steps):
            end = scene.steps[number + 1].start if number + 1 < len(scene.steps) else video_seconds(scene.video)
            if max(min(abs(k - t) for k in keys) for t in (step.start, end)) > 0.5 / scene.fps and \
                    end < video_seconds(scene.video):
                off_key += 1
                continue
            copy_path, encode_path = work / f"c{count}.mp4", work / f"e{count}.mp4"
            started = time.perf_counter()
            _copy(scene.video, step.start, end, copy_path)
            copied += time.perf_counter() - started
            started = time.perf_counter()
            _encode(scene.video, step.start, end, encode_path, scene.fps)
            encoded += time.perf_counter() - started
            copied_bytes += copy_path.stat().st_size
            encoded_bytes += encode_path.stat().st_size
            a, b = _frames(copy_path), _frames(encode_path)
            if a and b:
                differences.append(float(np.abs(a[-1].astype(int) - b[-1]).mean()))
            count += 1
    print(f"\nclips ({count} steps; {off_key} left out: not starting and ending on keyframes):")
    print(f"  copied     {copied:7.2f} s  {copied_bytes / 1e6:7.1f} MB")
    print(f"  re-encoded {encoded:7.2f} s  {encoded_bytes / 1e6:7.1f} MB  ({encoded / max(copied, 1e-9):.0f}× the time; "
          f"last frames {np.mean(differences):.2f} levels apart on average, at most {max(differences):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("renders"))
    parser.add_argument("--lang", default="en")
    parser.add_argument("--theme", default="dark")
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--no-clips", action="store_true", help="skip section 2")
    args = parser.parse_args()
    print(f"slides, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {platform.node()} "
          f"({platform.machine()}, {os.cpu_count()} CPUs), {args.out} ({args.lang}, {args.theme})")
    pptx = None
    for fmt in args.formats.split(","):
        started = time.perf_counter()
        report = build_slides(args.out, None, fmt, args.lang, args.theme)
        took = time.perf_counter() - started
        print(f"  {fmt:5} {took:7.2f} s  {report.path.stat().st_size / 1e6:7.1f} MB  "
              f"({report.scenes} scenes, {report.steps} steps; {report.detail})")
        pptx = report.path if fmt == "pptx" else pptx
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        if not args.no_clips:
            _clips(args.out, args.lang, args.theme, work)
        soffice = shutil.which("soffice")
        if pptx is not None and soffice:
            started = time.perf_counter()
            subprocess.run([soffice, f"-env:UserInstallation=file://{work}/profile", "--headless", "--convert-to",
                            "pdf", "--outdir", str(work), str(pptx)], capture_output=True, check=True)
            pages = len(pypdf.PdfReader(work / f"{pptx.stem}.pdf").pages)
            print(f"\nImpress: the deck to PDF in {time.perf_counter() - started:.1f} s, {pages} pages")


if __name__ == "__main__":
    main()
