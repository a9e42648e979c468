"""The visual language read from what every scene draws (../shared/VISUAL.md, issue 33): its last
frame at 1920×1080 (the blog still and the handout's picture) holds at most 25 words besides the
title, every text holding a word has capitals at least 24 px high, and every colour drawn at the end
of each step is one of its theme's palette colours, a concept's or a neutral."""

import tempfile
from functools import cache

import pytest
from manim import tempconfig

from scenes.kit.frame_layout import frame_size
from scenes.kit.registry import entry, scene_ids
from tests.scenes.visual_budget import MAX_WORDS, MIN_WORD_PX, foreign_colours, frame_words, small_texts

FULL_HD = (1920, 1080)


def _checked_class(scene_class):
    """The scene, noting the colours that are no palette's at the end of every step (the moment the
    next step's narration starts) and on its last frame."""

    class Checked(scene_class):
        def begin_caption(self, step, *args, **kwargs):
            if self.steps:
                for colour, kinds in foreign_colours(self).items():
                    self.foreign.setdefault(colour, (self.steps[-1].key, kinds))
            return super().begin_caption(step, *args, **kwargs)

    Checked.__name__ = scene_class.__name__
    Checked.__module__ = scene_class.__module__
    return Checked


@cache
def built(scene_id: str, lang: str, theme: str = "dark"):
    """One dry-run build per (scene, language, theme) at 1920×1080, shared by the checks below."""
    scene_class = _checked_class(entry(scene_id).load())
    width, height = FULL_HD
    frame_width, frame_height = frame_size(width, height)
    with tempfile.TemporaryDirectory() as media, tempconfig({
        "dry_run": True, "media_dir": media, "verbosity": "ERROR", "progress_bar": "none",
        "notify_outdated_version": False, "pixel_width": width, "pixel_height": height,
        "frame_width": frame_width, "frame_height": frame_height,
    }):
        scene = scene_class(spec=scene_class.spec_class(lang=lang, theme=theme), skip_animations=True)
        scene.foreign = {}
        scene.render()
        for colour, kinds in foreign_colours(scene).items():
            scene.foreign.setdefault(colour, ("the last frame", kinds))
    return scene


@pytest.mark.parametrize("scene_id", scene_ids())
def test_last_frame_holds_at_most_25_words_besides_the_title(scene_id):
    """Numbers and maths are not counted; the narration and the subtitles carry the rest."""
    words = frame_words(built(scene_id, "en"))
    assert len(words) <= MAX_WORDS, f"{len(words)} words on the last frame: {' '.join(words)}"


# the builds these checks share: English on the dark theme, Russian (the longest text: a text narrowed to
# fit shrinks) on the light one
BUILDS = {"dark": "en", "light": "ru"}


@pytest.mark.parametrize("theme", sorted(BUILDS))
@pytest.mark.parametrize("scene_id", scene_ids())
def test_last_frame_text_is_readable_at_full_hd(scene_id, theme):
    """No text holding a word has capitals under 24 px at 1920×1080."""
    small = small_texts(built(scene_id, BUILDS[theme], theme))
    assert not small, f"text under {MIN_WORD_PX:g} px capitals: {small}"


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("scene_id", scene_ids())
def test_every_drawn_colour_is_a_concept_or_a_neutral(scene_id, theme):
    """Read back from every visible mobject at the end of every step: no colour outside the palette."""
    foreign = built(scene_id, BUILDS[theme], theme).foreign
    assert not foreign, f"colours outside the {theme} palette (colour: (step, mobjects)): {foreign}"
