"""``normgeo slides``: a PowerPoint deck, a PDF handout or a single-file HTML deck of the rendered
scenes, in one language and theme."""

from __future__ import annotations

from pathlib import Path

import click

from scenes.cli.errors import reports_bad_input
from scenes.cli.options import chosen_voice, lang_option, one_of, out_option, scene_selection, theme_option
from scenes.render.checks import check_fonts
from scenes.render.settings import QUALITIES
from scenes.render.slides import FORMATS, build_slides

__all__ = ["slides_command"]


@click.command("slides")
@click.argument("scene_ids", nargs=-1)
@click.option("--format", "fmt", default="pptx", show_default=True, callback=one_of("slides format", FORMATS),
              help="pptx: one slide per step, its clip playing as the slide opens, the narration in the "
                   "speaker's notes; pdf: a handout, each step's last frame with its text; html: the presenter "
                   "page in one file, videos inside.")
@lang_option
@theme_option
@click.option("-q", "--quality", default=None, callback=one_of("quality", tuple(QUALITIES)),
              help="Use the renders of this quality (default: the best one rendered).")
@click.option("--voice", default="any", show_default=True, metavar="VOICE",
              help="any (a narrated video where there is one, else the silent one), none (silent only), or "
                   "the --voice the videos were narrated with (en, ru, piper:PATH.onnx, recordings:DIR).")
@out_option
@click.option("--quiet", is_flag=True, help="Print nothing but errors.")
@reports_bad_input
def slides_command(scene_ids, fmt, lang, theme, quality, voice, out_dir: Path, quiet: bool) -> None:
    """Make slides from the scenes rendered in the output folder (default: the whole lecture, in
    lecture order) into <out>/slides/. Nothing is rendered here: a missing video is one line with
    the command that renders it. A deck that mixes narrated and silent scenes says so.

    \b
    Reads the output folder; writes one file, <out>/slides/slides.<lang>.<theme>[.<tag>].<format>,
    replacing the deck of the same name (whole or not at all), and nothing else.
    """
    ids = scene_selection(tuple(scene_ids), False)
    if fmt == "pdf":
        check_fonts(lang)
    report = build_slides(out_dir, ids if scene_ids else None, fmt, lang, theme, chosen_voice(voice, "slides"),
                          quality)
    if not quiet:
        click.echo(f"{fmt}: {report.path} ({report.scenes} scenes, {report.steps} steps; {report.detail}, "
                   f"{report.path.stat().st_size / 1e6:.1f} MB)")
        if report.note:
            click.echo(f"note: {report.note}")
