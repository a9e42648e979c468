"""``normgeo lecture``: every scene in lecture order joined into one video with chapters and subtitles."""

from __future__ import annotations

import sys

import click

from scenes.cli.errors import reports_bad_input
from scenes.cli.options import encoder_preset_option, lecture_scenes_option, render_options, voice_option
from scenes.cli.rendering import render_and_report
from scenes.kit.registry import LECTURE_ORDER
from scenes.render.settings import RenderSettings
from scenes.render.voice.checks import check_voice

__all__ = ["lecture_command"]


@click.command("lecture")
@lecture_scenes_option
@render_options
@encoder_preset_option
@voice_option
@reports_bad_input
def lecture_command(scene_ids, encoder_preset, voice, resolution, quality, **common) -> None:
    """Render every scene (cached ones are reused) and join them into one MP4 with a chapter per
    scene, plus .srt and .vtt subtitles for the whole lecture; one lecture per language × theme
    (`--lang all --theme all`: six); then refresh the site (`normgeo site`). `--scenes a,b` makes a
    short lecture of those scenes, in that order.

    \b
    Writes into the output folder only: each scene's render (as `normgeo
    render`), <out>/lecture/lecture.<lang>.<theme>[.<tag>]….mp4 with its
    .srt and .vtt, <out>/manifest.json, and the site <out>/site (replaced
    only if normgeo wrote it: see `normgeo site --help`). Nothing is deleted.
    """
    scenes = list(scene_ids or LECTURE_ORDER)
    voice = check_voice(voice, scenes, tuple(common["lang"]))
    settings = RenderSettings(quality, "mp4", False, resolution, encoder_preset, voice)
    from scenes.render.lecture import join_lecture  # (loads the pipeline only when the command runs)
    from scenes.render.site.publish import publish_site

    results = render_and_report(scenes, settings, exit_on_failure=False, site_hint=False, **common)
    if any(r.status == "failed" for r in results):
        click.echo("normgeo: the lecture needs every scene it joins; fix the failures above", err=True)
        sys.exit(1)
    per_lecture = len(scenes)
    for start in range(0, len(results), per_lecture):
        lecture = join_lecture([result.job for result in results[start:start + per_lecture]])
        if not common["quiet"]:
            click.echo(f"lecture: {lecture.path} ({lecture.duration / 60:.1f} min, {len(lecture.spans)} chapters, "
                       f"{lecture.path.stat().st_size / 1e6:.1f} MB) with .srt and .vtt")
    site = publish_site(common["out_dir"], default_lang=common["lang"][0])
    if not common["quiet"]:
        click.echo(f"site: {site.site_dir / 'index.html'} (open it in a browser; presenter mode: "
                   f"{site.site_dir / 'present.html'})")
