"""The cache key of a job: a hash of everything its output depends on, and whether the output
folder already holds that exact render."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import normgeo
from scenes.kit.registry import entry
from scenes.kit.text import COMMON_TEXT, SCENES_DIR
from scenes.render.manifest import Manifest
from scenes.render.manim_door import manim_version
from scenes.render.running.job import RenderJob
from scenes.render.voice.choice import voice_fingerprint

__all__ = ["source_files", "input_hash", "is_cached", "CORE_DIR", "KIT_DIR", "RENDER_DIR"]

CORE_DIR = Path(normgeo.__file__).resolve().parent
KIT_DIR = COMMON_TEXT.parent
RENDER_DIR = Path(__file__).resolve().parents[1]


def source_files(scene_id: str) -> list[Path]:
    """Everything a render's output depends on: the core, the kit (code and shared text), the
    pipeline that writes the files, and the scene's own module and text file."""
    scene = entry(scene_id)
    return [*sorted(CORE_DIR.glob("*.py")), *sorted(KIT_DIR.glob("*.py")), *sorted(KIT_DIR.glob("*.toml")),
            *sorted(RENDER_DIR.rglob("*.py")), scene.source_file, scene.text_file]


def input_hash(job: RenderJob) -> str:
    """SHA-256 of everything the output depends on: the sources above, the spec, the settings and
    the versions of manim and normgeo."""
    digest = hashlib.sha256()
    for path in source_files(job.scene_id):
        digest.update(str(path.relative_to(SCENES_DIR.parent)).encode())
        digest.update(path.read_bytes())
    meta = {
        "scene": job.scene_id,
        "spec": job.spec.as_dict(),
        "settings": job.settings_for_output.as_dict(),
        "gif": job.gif.as_dict() if job.gif else None,
        "manim": manim_version(),
        "normgeo": normgeo.__version__,
    }
    if job.settings_for_output.narrated:  # the voice's model file or the scene's recordings, by content
        meta["voice"] = voice_fingerprint(job.settings_for_output.voice, job.scene_id, job.spec.lang)
    for path in job.spec.input_files():  # a user's file, by content: changed in place, rendered again
        digest.update(path.read_bytes())
    digest.update(json.dumps(meta, sort_keys=True).encode())
    return digest.hexdigest()


def is_cached(job: RenderJob, manifest: Manifest, digest: str) -> bool:
    """True when the manifest says this exact input already produced the file, and it is there."""
    record = manifest.get(job.relative_path)
    if job.force or record is None or record.get("input_hash") != digest:
        return False
    return all((job.out_dir / name).is_file() for name in record.get("files", [job.relative_path]))
