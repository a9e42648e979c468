"""One colour per concept (scenes/kit/theme.py, ../shared/VISUAL.md): the concepts stay apart in
normal vision and for the three kinds of colour-vision deficiency (simulated by colorspacious), the
light theme keeps each concept's hue (darker), notes are readable, and the palette is the only place
a colour is written."""

import itertools
import re
from pathlib import Path

import numpy as np
import pytest
from colorspacious import cspace_convert

from scenes.kit.site_data import contrast
from scenes.kit.theme import CONCEPTS, THEMES

ROOT = Path(__file__).resolve().parents[2]
VIEWS = [None, "deuteranomaly", "protanomaly", "tritanomaly"]
# CAM02-UCS ΔE between any two concepts, in every view (about 5 is "just noticeable" side by side)
LEAST_DIFFERENCE = 9.0


def _rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])


def _ucs(colour: str, view) -> np.ndarray:
    rgb = _rgb(colour)
    if view is not None:
        rgb = np.clip(cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": view, "severity": 100}, "sRGB1"), 0, 1)
    return cspace_convert(rgb, "sRGB1", "CAM02-UCS")


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_two_concepts_stay_apart(theme, view):
    palette = THEMES[theme]
    for a, b in itertools.combinations(CONCEPTS, 2):
        difference = float(np.linalg.norm(_ucs(getattr(palette, a), view) - _ucs(getattr(palette, b), view)))
        assert difference >= LEAST_DIFFERENCE, \
            f"{theme}, {view or 'normal vision'}: {a} and {b} differ by ΔE {difference:.1f}"


def test_the_light_theme_keeps_each_hue_darker():
    dark, light = THEMES["dark"], THEMES["light"]
    for concept in CONCEPTS:
        (j_dark, c_dark, h_dark), (j_light, c_light, h_light) = (
            cspace_convert(_rgb(getattr(p, concept)), "sRGB1", "JCh") for p in (dark, light))
        assert j_light < j_dark, concept
        if min(c_dark, c_light) > 15:  # a neutral has no hue to keep
            assert abs((h_dark - h_light + 180) % 360 - 180) <= 12, f"{concept}: hue {h_dark:.0f}° → {h_light:.0f}°"


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_notes_read_and_concepts_show_against_the_background(theme):
    palette = THEMES[theme]
    for ground in (palette.background, palette.panel):
        assert contrast(palette.muted, ground) >= 4.5
        assert contrast(palette.text, ground) >= 7
        for concept in CONCEPTS:
            assert contrast(getattr(palette, concept), ground) >= 2.9, concept


HEX = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")
NAMED = re.compile(r"\b(?:WHITE|BLACK|GRE[YA]|RED|GREEN|BLUE|YELLOW|ORANGE|PINK|PURPLE|TEAL|GOLD|MAROON)(?:_[A-E])?\b")
# the palette itself; the site's form-error colours, which the videos never show
WHERE_COLOUR_IS_WRITTEN = {"scenes/kit/theme.py", "scenes/kit/site_data.py"}
SEARCHED = ("scenes/*.py", "scenes/kit/*.py", "scenes/web/*", "scenes/render/slides/*", "scenes/notebook/*.py",
            "scenes/notebook/*.js")


def _colours_in(path: Path, line: str) -> list[str]:
    """Hex colours in a line (in Python, only inside a string: a ``#`` also starts a comment), and
    Manim's colour constants in Python code."""
    if path.suffix != ".py":
        return HEX.findall(line)
    code = line.split("#", 1)[0]
    return [h for h in HEX.findall(line) if f'"{h}' in line or f"'{h}" in line] + NAMED.findall(code)


def test_the_palette_is_the_only_place_a_colour_is_written():
    """No hex colour or Manim colour constant in the scenes, the kit, the site's scripts and styles,
    the slides or the notebook widgets."""
    found = []
    for path in sorted({p for pattern in SEARCHED for p in ROOT.glob(pattern)}):
        name = str(path.relative_to(ROOT))
        if not path.is_file() or path.suffix not in {".py", ".js", ".css", ".html", ".typ", ".toml"} \
                or name in WHERE_COLOUR_IS_WRITTEN:
            continue
        found += [f"{name}:{number}: {line.strip()[:90]}"
                  for number, line in enumerate(path.read_text().splitlines(), 1) if _colours_in(path, line)]
    assert not found, "colours written outside the palette:\n" + "\n".join(found)
