"""The render pipeline: no click here; the CLI (``scenes.cli``) and the benchmark (``bench/``) both
call these public functions. It is grouped in wings:

* :mod:`.manim_door`: the one door to Manim (renderer, cameras, file writers, still overlays, runs);
* :mod:`.running`: jobs, their cache key, producing on a worker, batching on the client, local and
  Dask executors, the hand-off between a split job's tasks;
* :mod:`.splitting`: one video as ranges of its animations on several workers, joined;
* :mod:`.media`: video remux, GIF, WebP, looping MP4, Manim's PNG frames, SSIM;
* :mod:`.site`: the static page and its publishing;
* :mod:`.voice`: narration (voices, speakers, loudness, the speech cache, the sound track);
* beside them: settings, names, specs, subtitles, the manifest, file installation, checks, the
  lecture and the batch every command runs (:mod:`.matrix`).

Names are loaded when first used, so that importing a light part (settings, names) does not load
Manim. Each name is listed in one place: the door's own (``check_manim``, ``run_manim``,
``capture_lossless_frames``, …) in :mod:`.manim_door`, imported from there.
"""

from scenes.render.lazy_names import lazy_getattr

# public name → the module that defines it
_WHERE = {
    "ANIMATION_FORMATS": "settings", "FORMATS": "settings", "QUALITIES": "settings", "TRANSPARENT_FORMATS": "settings",
    "GifOptions": "settings", "RenderSettings": "settings", "parse_resolution": "settings", "parse_size": "settings",
    "InputError": "errors",
    "check_fonts": "checks", "check_format": "checks", "check_output_folder": "checks", "check_transparency": "checks",
    "RenderJob": "running.job", "RenderResult": "running.job", "input_hash": "running.cache",
    "Reporter": "running.report", "run_jobs": "running.batch",
    "batch_jobs": "matrix", "render_batch": "matrix", "open_executor": "matrix",
    "LectureResult": "lecture", "join_lecture": "lecture", "lecture_path": "lecture",
    "Manifest": "manifest",
    "artifact_name": "names", "gif_name": "names", "lecture_name": "names", "spec_tag": "names",
    "build_specs": "specs", "parse_assignments": "specs", "spec_class": "specs",
    "method_name": "media.quality", "ssim": "media.quality", "ssim_of_animation": "media.quality",
    "frames_at": "media.video", "read_timed_frames": "media.video", "video_duration": "media.video",
}

__all__ = sorted(_WHERE)
__getattr__ = lazy_getattr(__name__, _WHERE)
