"""``normgeo``: the click group. Each command lives in its own module and is attached here.

Ctrl-C at any moment is one line and exit status 130: while the commands load (this module's
imports), before a batch starts and after it ends (the group's ``invoke``), and during a batch
(:func:`scenes.cli.rendering.render_and_report`, which says what happens to the files)."""

from __future__ import annotations

import sys

import click

INTERRUPTED = "normgeo: interrupted"


def _interrupted() -> None:
    click.echo(INTERRUPTED, err=True)
    sys.exit(130)


try:
    import normgeo
    from scenes.cli.lecture_command import lecture_command
    from scenes.cli.list_command import list_command
    from scenes.cli.render_command import gif_command, render_command, still_command
    from scenes.cli.site_command import gallery_command, site_command
    from scenes.cli.slides_command import slides_command
    from scenes.cli.spec_command import spec_command
    from scenes.cli.states_command import states_command
    from scenes.cli.worker_command import worker_command
except KeyboardInterrupt:  # Ctrl-C while the command line loads (about half a second)
    _interrupted()

__all__ = ["cli", "main", "INTERRUPTED"]


class NormgeoGroup(click.Group):
    """The group whose commands answer Ctrl-C with one line and exit 130, not click's "Aborted!"
    and exit 1."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            _interrupted()


@click.group(cls=NormgeoGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(normgeo.__version__, prog_name="normgeo")
def cli() -> None:
    """Animations that explain the geometry of normalization layers.

    Start with `normgeo list`, then `normgeo render` (every scene, 480p15, into renders/).
    """


for command in (list_command, spec_command, render_command, still_command, gif_command, lecture_command, site_command,
                gallery_command, slides_command, worker_command, states_command):
    cli.add_command(command)


def main() -> None:
    cli(prog_name="normgeo")
