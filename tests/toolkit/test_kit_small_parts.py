"""Small kit parts that no other toolkit test reaches: a number format's language carried into the
scientific forms (CLDR: Russian and the decimal comma), fit_width's shrink-only rule read back from
the mobject, the layers' written names, a scene's display formula in the theme's colour."""

from __future__ import annotations

import sys
import types

import pytest
from manim import Line, Square, tempconfig

from scenes.kit.adapters import make_space_axes
from scenes.kit.base import NormGeoScene, fit_width
from scenes.kit.languages import layer_name
from scenes.kit.numbers import NumberFormat
from scenes.kit.registry import SceneEntry
from scenes.kit.spec import scene_id_of_module
from scenes.kit.theme import palette
from scenes.kit.widgets import wire_sphere
from scenes.layernorm_2d import LayerNorm2D, LayerNorm2DSpec


@pytest.mark.parametrize(("lang", "typst", "plain"), [
    ("en", "5.26 dot 10^(8)", "5.26·10⁸"),
    ("ru", "5,26 dot 10^(8)", "5,26·10⁸"),  # CLDR ru: decimal comma
    ("zh", "5.26 dot 10^(8)", "5.26·10⁸"),
])
def test_the_scientific_forms_keep_the_formats_language(lang, typst, plain):
    fmt = NumberFormat(lang)
    assert fmt.scientific(526315798.0) == typst
    assert fmt.plain_scientific(526315798.0) == plain
    assert fmt.scientific(0.0123) == ("0,0123" if lang == "ru" else "0.0123")


def test_fit_width_shrinks_a_wide_mobject_and_leaves_a_narrow_one():
    wide = Line([0, 0, 0], [4, 0, 0])
    assert fit_width(wide, 2.5) is wide and wide.width == pytest.approx(2.5)
    narrow = Square(side_length=1.0)
    assert fit_width(narrow, 2.5).width == pytest.approx(1.0)  # never enlarged
    exact = Square(side_length=2.5)
    assert fit_width(exact, 2.5).width == pytest.approx(2.5)


@pytest.mark.parametrize(("kind", "name"), [("layernorm", "LayerNorm"), ("rmsnorm", "RMSNorm"),
                                            ("batchnorm", "BatchNorm"), ("groupnorm", "GroupNorm")])
def test_layer_names_are_written_as_the_papers_write_them(kind, name):
    assert layer_name(kind) == name


def test_a_scenes_formula_is_display_math_in_the_themes_text_colour():
    with tempconfig({"dry_run": True, "verbosity": "ERROR", "progress_bar": "none"}):
        scene = LayerNorm2D(spec=LayerNorm2DSpec(theme="light"), skip_animations=True)
        scene.setup()
        drawn = scene.formula("x + y = 0", font_size=40)
        red = scene.formula("x", color="#d81b60")
    assert drawn.typst_code.strip().strip("$").strip() == "x + y = 0"
    assert drawn.get_fill_color().to_hex().lower() == palette("light").text.lower()
    assert red.get_fill_color().to_hex().lower() == "#d81b60"
    assert drawn.font_size == pytest.approx(40)
    assert scene.formula("x").font_size == pytest.approx(32)


def test_a_scene_class_is_named_by_its_module_and_the_kits_own_are_not():
    """A scene's id is its module's last name with hyphens (a class made in any module, here in a
    test module at test time); a class of the kit itself gets none of its own."""
    made_here = type("MadeHere", (NormGeoScene,), {"__module__": "tests.toolkit.made_at_test_time"})
    assert made_here.scene_id == "made-at-test-time"
    kits = type("KitsOwn", (NormGeoScene,), {"__module__": "scenes.kit.some_part"})
    assert "scene_id" not in vars(kits)
    assert scene_id_of_module("tests.toolkit.test_narration") == "test-narration"


def test_a_hyphenated_setting_names_its_field():
    """--set high-dim=8 (or a TOML key high-dim) sets the field high_dim."""
    assert LayerNorm2DSpec().with_overrides({"high-dim": "8"}).high_dim == 8
    assert LayerNorm2DSpec().with_overrides({"high_dim": 9}).high_dim == 9


def test_a_module_with_two_scene_classes_is_refused_by_its_count(monkeypatch):
    """The registry loads the one scene class a module defines; two is an error that says so."""
    module = types.ModuleType("scenes.two_scenes")
    for name in ("First", "Second"):
        setattr(module, name, type(name, (NormGeoScene,), {"__module__": "scenes.two_scenes"}))
    monkeypatch.setitem(sys.modules, "scenes.two_scenes", module)
    with pytest.raises(TypeError) as refused:
        SceneEntry("two-scenes").load()
    assert str(refused.value) == "scenes.two_scenes must define exactly one scene class, found 2"


def test_a_wire_sphere_is_five_latitudes_and_six_longitudes_of_72_points():
    rings = wire_sphere(make_space_axes(2.0, 4.0, palette("dark")), 1.0, "#ffffff")
    assert len(rings) == 11 and {len(ring.get_anchors()) for ring in rings} == {2 * 72}  # 72 segments, closed
