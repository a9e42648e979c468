"""The pipeline's one door to Manim: everything that extends or drives Manim lives here.

Manim is extended only through its public injection points: a renderer subclass handed to a scene
as ``Scene(renderer=…)`` (:mod:`.renderer`), which builds the pipeline's cameras and file writer
through ``CairoRenderer(camera_class=…, file_writer_class=…)`` (:mod:`.cameras`, :mod:`.writer`,
:mod:`.encoder`), and the still overlays it draws (:mod:`.overlay`). :mod:`.run` runs a scene with
them inside a scratch folder; :mod:`.version` checks, once before anything renders, that Manim is
the version these subclasses are written against. No other file of the pipeline imports Manim
(``tests/render/test_manim_door.py`` proves it).
"""

from scenes.render.manim_door.encoder import ENCODERS_IN_FLIGHT, X264_THREADS, encoder_config
from scenes.render.manim_door.renderer import PlayCost, PlayHooks
from scenes.render.manim_door.run import (
    ManimOutput,
    Narration,
    RangeRender,
    capture_lossless_frames,
    manim_options,
    render_range,
    run_manim,
)
from scenes.render.manim_door.version import SUPPORTED_MANIM, check_manim, manim_version

__all__ = ["ENCODERS_IN_FLIGHT", "X264_THREADS", "encoder_config", "PlayCost", "PlayHooks", "ManimOutput", "Narration",
           "RangeRender", "capture_lossless_frames", "manim_options", "render_range", "run_manim", "SUPPORTED_MANIM",
           "check_manim", "manim_version"]
