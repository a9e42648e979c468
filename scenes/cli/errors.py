"""User-facing errors: one clear line on stderr and exit status 2, never a traceback."""

from __future__ import annotations

import functools

import click

from scenes.kit.registry import UnknownSceneError
from scenes.kit.spec import SpecError
from scenes.render.errors import InputError

__all__ = ["UsageProblem", "reports_bad_input"]


class UsageProblem(click.ClickException):
    """Bad input from the user (unknown id, bad value, unwritable folder, missing font)."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"normgeo: error: {self.format_message()}", err=True, file=file)


def reports_bad_input(command):
    """Turn the pipeline's and the kit's input errors into one ``normgeo: error:`` line, exit 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (InputError, SpecError, UnknownSceneError) as error:
            raise UsageProblem(str(error)) from None

    return wrapper
