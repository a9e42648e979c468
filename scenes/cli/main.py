"""``normgeo``: the click group. Each command lives in its own module and is attached here."""

from __future__ import annotations

import click

import normgeo
from scenes.cli.lecture_command import lecture_command
from scenes.cli.list_command import list_command
from scenes.cli.render_command import gif_command, render_command, still_command
from scenes.cli.site_command import gallery_command, site_command
from scenes.cli.spec_command import spec_command
from scenes.cli.states_command import states_command
from scenes.cli.worker_command import worker_command

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(normgeo.__version__, prog_name="normgeo")
def cli() -> None:
    """Animations that explain the geometry of normalization layers.

    Start with `normgeo list`, then `normgeo render` (every scene, 480p15, into renders/).
    """


for command in (list_command, spec_command, render_command, still_command, gif_command, lecture_command, site_command,
                gallery_command, worker_command, states_command):
    cli.add_command(command)


def main() -> None:
    cli(prog_name="normgeo")
