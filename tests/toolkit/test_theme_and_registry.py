"""Themes are looked up at run time; the registry lists the scenes in lecture order."""

import dataclasses

import pytest

from scenes.kit.registry import SCENES, UnknownSceneError, entry, scene_ids
from scenes.kit.theme import THEMES, palette

CONTENT_ORDER = [
    "radial-projection",
    "sphere-radii",
    "layernorm-hyperplane",
    "layernorm-2d",
    "direction-not-length",
    "degrees-of-freedom",
]


def test_each_theme_defines_every_colour_as_hex():
    """Both palettes fill every field with a #rrggbb colour; the backgrounds differ."""
    for theme in THEMES.values():
        for field in dataclasses.fields(theme):
            value = getattr(theme, field.name)
            assert field.name == "name" or (value.startswith("#") and len(value) == 7)
    assert palette("dark").background != palette("light").background


def test_layer_colours_are_distinct_within_a_theme():
    """L2, RMSNorm, LayerNorm, BatchNorm and GroupNorm can be told apart."""
    for theme in THEMES.values():
        colours = [theme.layer(k) for k in ("l2", "rmsnorm", "layernorm", "batchnorm", "groupnorm")]
        assert len(set(colours)) == 5


def test_unknown_theme_raises():
    with pytest.raises(ValueError, match="known: dark, light"):
        palette("neon")


def test_registry_follows_the_lecture_order_of_content_md():
    """The scene ids, in CONTENT.md's order, each loading a class whose scene_id matches."""
    assert [i for i in scene_ids() if i in CONTENT_ORDER] == CONTENT_ORDER  # in order, others between
    order = scene_ids()
    # Where CONTENT.md and the issue place the five scenes beyond the sources.
    assert order.index("epsilon-and-affine") == order.index("layernorm-hyperplane") + 1
    assert order.index("rmsnorm-vs-layernorm") in (order.index("sphere-radii") + 1, order.index("layernorm-2d") + 1)
    assert order.index("layernorm-gradient") == order.index("scale-invariance") - 1
    assert order.index("batchnorm-geometry") == order.index("normalization-axes") + 1
    assert order.index("real-states-rmsnorm") == order.index("degrees-of-freedom") + 1  # issue 24
    assert order.index("real-states-layernorm") == order.index("real-states-rmsnorm") + 1
    assert len(set(order)) == len(order)
    assert {path.stem.replace("_", "-") for path in SCENES[0].source_file.parent.glob("*.py")} - {"--init--"} == set(order)
    for scene in SCENES:
        cls = scene.load()
        assert cls.scene_id == scene.id and cls.__name__ == scene.class_name
        assert scene.source_file.is_file()


def test_unknown_scene_suggests_the_closest_id():
    with pytest.raises(UnknownSceneError, match="did you mean 'sphere-radii'"):
        entry("sphere-radius")


def test_scene_files_import_manim_explicitly():
    """No ``from manim import *`` anywhere in scenes/."""
    for scene in SCENES:
        assert "import *" not in scene.source_file.read_text()


def test_the_scenes_folder_holds_scene_modules_and_their_text_only():
    """scenes/<scene>.py and scenes/<scene>.toml for each scene of the lecture order, nothing else at
    that level but the package's __init__; each scene has a test that imports its module."""
    from pathlib import Path

    from scenes.kit.text import SCENES_DIR

    modules = {p.stem for p in SCENES_DIR.glob("*.py")} - {"__init__"}
    texts = {p.stem for p in SCENES_DIR.glob("*.toml")}
    expected = {scene.id.replace("-", "_") for scene in SCENES}
    assert modules == expected and texts == expected
    tests = "\n".join(p.read_text() for p in (Path(__file__).parents[1] / "scenes").glob("test_*.py"))
    for name in expected:
        assert f"from scenes.{name} import" in tests, name


def test_the_render_pipeline_does_not_know_click():
    """scenes/render is called by the CLI and the benchmark; the CLI's click stays in scenes/cli."""
    from pathlib import Path

    import scenes.render

    for path in Path(scenes.render.__file__).parent.rglob("*.py"):
        source = path.read_text()
        assert "import click" not in source and "from click" not in source, path.name
