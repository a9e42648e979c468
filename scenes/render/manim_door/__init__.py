"""The pipeline's one door to Manim: everything that extends or drives Manim lives here.

Manim is extended only through its public injection points: a renderer subclass handed to a scene
as ``Scene(renderer=…)`` (:mod:`.renderer`), which builds the pipeline's cameras and file writer
through ``CairoRenderer(camera_class=…, file_writer_class=…)`` (:mod:`.cameras`, :mod:`.writer`,
:mod:`.encoder`), and the still overlays it draws (:mod:`.overlay`). :mod:`.run` runs a scene with
them inside a scratch folder; :mod:`.version` checks, once before anything renders, that Manim is
the version these subclasses are written against. No other file of the pipeline imports Manim
(``tests/render/test_manim_door.py`` proves it). Names load when first used.
"""

from scenes.render.lazy_names import lazy_getattr

# public name → the module of the door that defines it (loaded when first used: Manim loads only
# when something renders, not when the CLI starts)
_WHERE = {
    "ENCODERS_IN_FLIGHT": "encoder", "X264_THREADS": "encoder", "encoder_config": "encoder",
    "PlayCost": "renderer", "PlayHooks": "renderer",
    "ManimOutput": "run", "Narration": "run", "RangeRender": "run", "capture_lossless_frames": "run",
    "manim_options": "run", "render_range": "run", "run_manim": "run",
    "SUPPORTED_MANIM": "version", "check_manim": "version", "manim_version": "version",
}

__all__ = sorted(_WHERE)
__getattr__ = lazy_getattr(__name__, _WHERE)
