"""The render pipeline: jobs, Manim runs, lossless frames, GIFs, video remux with chapters,
subtitles, the manifest and output names. No click here: the CLI (``scenes.cli``) and the
benchmark (``bench/``) both call these public functions.
"""

from scenes.render.checks import check_fonts, check_format, check_manim, check_output_folder, check_transparency
from scenes.render.errors import InputError
from scenes.render.jobs import RenderJob, RenderResult, Reporter, input_hash, run_jobs
from scenes.render.lecture import LectureResult, join_lecture, lecture_path
from scenes.render.manifest import Manifest
from scenes.render.manim_run import capture_lossless_frames
from scenes.render.names import artifact_name, gif_name, lecture_name, spec_tag
from scenes.render.settings import ANIMATION_FORMATS, FORMATS, QUALITIES, TRANSPARENT_FORMATS, GifOptions, RenderSettings, parse_resolution, parse_size
from scenes.render.specs import build_specs, parse_assignments, spec_class
from scenes.render.quality import method_name, ssim, ssim_of_animation
from scenes.render.video import frames_at, read_timed_frames, video_duration

__all__ = [
    "ANIMATION_FORMATS",
    "FORMATS",
    "GifOptions",
    "InputError",
    "LectureResult",
    "Manifest",
    "QUALITIES",
    "RenderJob",
    "RenderResult",
    "RenderSettings",
    "Reporter",
    "TRANSPARENT_FORMATS",
    "artifact_name",
    "build_specs",
    "capture_lossless_frames",
    "check_fonts",
    "check_format",
    "check_manim",
    "check_output_folder",
    "check_transparency",
    "frames_at",
    "gif_name",
    "input_hash",
    "join_lecture",
    "lecture_name",
    "lecture_path",
    "method_name",
    "parse_assignments",
    "parse_resolution",
    "parse_size",
    "read_timed_frames",
    "run_jobs",
    "spec_class",
    "spec_tag",
    "ssim",
    "ssim_of_animation",
    "video_duration",
]
