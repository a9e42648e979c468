"""``normgeo site``: a static page of everything rendered, with live widgets and a presenter mode."""

from __future__ import annotations

from pathlib import Path

import click

from scenes.cli.errors import reports_bad_input
from scenes.cli.options import chosen_voice, out_option, page_lang_option, site_voice_option
from scenes.render.errors import InputError
from scenes.render.manifest import MANIFEST_NAME
from scenes.render.site.publish import publish_site

__all__ = ["site_command", "gallery_command"]


def _build(out_dir: Path, site_dir: Path | None, lang: str, voice: str | None = None) -> None:
    if not (Path(out_dir) / MANIFEST_NAME).is_file():
        raise InputError(f"{out_dir} holds no {MANIFEST_NAME}: nothing was rendered there "
                         "(render first, e.g. `normgeo render`, or pass the folder you rendered into with --out)")
    report = publish_site(out_dir, site_dir, lang, voice)  # reads out_dir: it may be read-only
    click.echo(f"site: {report.site_dir / 'index.html'} ({report.scenes} scenes, {report.media_files} media files, "
               f"{report.total_bytes / 1e6:.1f} MB); presenter mode: {report.site_dir / 'present.html'}")


@click.command("site")
@out_option
@click.option("--site", "site_dir", type=click.Path(path_type=Path), default=None,
              help="Where to write the site (default: <out>/site): a new or empty folder, or a site normgeo "
                   "wrote before (it holds a .normgeo-site.json), which is replaced whole. Refused: a folder "
                   "holding anything else, and the renders folder, a folder holding it or inside it.")
@page_lang_option
@site_voice_option
@reports_bad_input
def site_command(out_dir: Path, site_dir: Path | None, lang: str, voice: str) -> None:
    """Build a static site from what the output folder holds: per scene its video (the narrated one
    where there is one) with subtitles, narrated text, still, GIF with embed snippets and live widget;
    presenter mode. Opens from disk.

    \b
    Reads the output folder (--out) and writes nothing in it but <out>/site.
    Writes only the site folder: built beside it, then swapped in at once, so
    the folder holds the old site or the new one, whole. It never deletes a
    file normgeo did not write: a folder of yours is refused, and so is a
    site you added a file to (move it out first).
    """
    _build(out_dir, site_dir, lang, chosen_voice(voice, "the site"))


@click.command("gallery", hidden=True)
@out_option
@reports_bad_input
def gallery_command(out_dir: Path) -> None:
    """Retired: the gallery is now `normgeo site` (this builds the site)."""
    click.echo("normgeo: `gallery` is now `normgeo site`; building the site", err=True)
    _build(out_dir, None, "en")
