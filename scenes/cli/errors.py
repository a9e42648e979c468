"""User-facing errors: one clear line on stderr and exit status 2, never a traceback."""

from __future__ import annotations

import click

__all__ = ["UsageProblem"]


class UsageProblem(click.ClickException):
    """Bad input from the user (unknown id, bad value, unwritable folder, missing font)."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"normgeo: error: {self.format_message()}", err=True, file=file)
