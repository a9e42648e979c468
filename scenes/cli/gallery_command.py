"""``normgeo gallery``: an index.html showing everything rendered in the output folder."""

from __future__ import annotations

import click

from scenes.cli.errors import reports_bad_input
from scenes.cli.options import out_option
from scenes.render import check_output_folder, write_gallery

__all__ = ["gallery_command"]


@click.command("gallery")
@out_option
@reports_bad_input
def gallery_command(out_dir) -> None:
    """Write index.html in the output folder: each scene's videos (poster, subtitles), GIFs and stills,
    with a copy-paste embed snippet for each."""
    page, shown = write_gallery(check_output_folder(out_dir))
    click.echo(f"gallery: {page} ({shown} artefacts)")
