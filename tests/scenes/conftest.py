"""Shared fixtures for scene tests: one scratch media folder for the whole session, so Typst's
SVG cache is reused between builds."""

import pytest


@pytest.fixture(scope="session")
def media_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("media")
