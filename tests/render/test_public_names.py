"""The pipeline's public names: each listed in one place, each resolving to what its module defines."""

import importlib

import pytest

PACKAGES = ("scenes.render", "scenes.render.manim_door")


def test_no_name_is_exported_by_both_the_pipeline_and_the_door():
    pipeline, door = (set(importlib.import_module(name).__all__) for name in PACKAGES)
    assert pipeline and door and not pipeline & door


@pytest.mark.parametrize("package", PACKAGES)
def test_every_listed_name_resolves_and_others_do_not(package):
    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        module.nothing_here  # noqa: B018
