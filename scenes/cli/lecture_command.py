"""``normgeo lecture``: every scene in lecture order joined into one video with chapters and subtitles."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from scenes.cli.common import (
    build_specs,
    check_fonts,
    check_manim,
    check_output_folder,
    lang_option,
    out_option,
    quality_option,
    theme_option,
)
from scenes.cli.render_command import run_jobs
from scenes.render.jobs import RenderJob, atomic_write_text, install_file
from scenes.render.settings import RenderSettings
from scenes.render.subtitles import join_subtitles, srt_to_vtt
from scenes.kit.languages import message
from scenes.kit.registry import SCENES

__all__ = ["lecture_command", "lecture_paths"]


def lecture_paths(out_dir: Path, lang: str, theme: str, settings: RenderSettings) -> Path:
    """``lecture/lecture.<lang>.<theme>.<quality>.mp4`` in the output folder."""
    return out_dir / "lecture" / f"lecture.{lang}.{theme}.{settings.quality_label}.mp4"


@click.command("lecture")
@lang_option
@theme_option
@quality_option
@out_option
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None, help="Scenes rendered at once (default: cores).")
@click.option("--force", is_flag=True, help="Re-render every scene.")
@click.option("--quiet", is_flag=True, help="Print nothing but errors.")
@click.option("--verbose", is_flag=True, help="Show Manim's own log.")
def lecture_command(lang, theme, quality, out_dir, jobs, force, quiet, verbose) -> None:
    """Render every scene (cached ones are reused) and join them into one MP4 with a chapter per
    scene, plus .srt and .vtt subtitles for the whole lecture."""
    from scenes.render.video import concatenate_with_chapters, video_duration

    check_manim()
    check_fonts(lang)
    out_dir = check_output_folder(Path(out_dir))
    ids = [scene.id for scene in SCENES]
    specs = build_specs(ids, lang, theme, {})
    settings = RenderSettings(quality, "mp4", False)
    render_jobs = [RenderJob(i, specs[i], settings, out_dir, force=force) for i in ids]
    results = run_jobs(render_jobs, jobs or os.cpu_count() or 1, verbose, quiet)
    if any(r.status == "failed" for r in results):
        click.echo("normgeo: the lecture needs every scene; fix the failures above", err=True)
        sys.exit(1)

    target = lecture_paths(out_dir, lang, theme, settings)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial.mp4")
    parts = [(job.target, message(f"scene.{job.scene_id}.title", lang).replace("$", "")) for job in render_jobs]
    try:
        spans = concatenate_with_chapters(parts, partial)
        install_file(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    subtitles = join_subtitles([(job.target.with_suffix(".srt").read_text(encoding="utf-8"), start)
                                for job, (start, _) in zip(render_jobs, spans)])
    atomic_write_text(target.with_suffix(".srt"), subtitles)
    atomic_write_text(target.with_suffix(".vtt"), srt_to_vtt(subtitles))
    duration = video_duration(target)
    if not quiet:
        click.echo(f"lecture: {target} ({duration / 60:.1f} min, {len(parts)} chapters, "
                   f"{target.stat().st_size / 1e6:.1f} MB) with .srt and .vtt")
