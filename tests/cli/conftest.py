"""CLI tests drive the click group in-process."""

import pytest
from click.testing import CliRunner

from scenes.cli.main import cli


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, [str(a) for a in args], catch_exceptions=False)

    return invoke
