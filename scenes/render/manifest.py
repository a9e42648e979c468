"""``manifest.json`` in an output folder: every artefact with its scene, spec, settings and input hash.

Several ``normgeo`` processes may write into one folder at once: each change takes an exclusive
lock on the folder itself (``flock`` on its descriptor, so no lock file is left behind), re-reads the file, changes one entry and rewrites it atomically, so no
process loses another's entries. Each artefact is recorded the moment its file lands.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from pathlib import Path

from scenes.render.files import atomic_write_text

__all__ = ["Manifest", "MANIFEST_NAME"]

MANIFEST_NAME = "manifest.json"


class Manifest:
    """The manifest of ``out_dir``: artefact path (relative to the folder) → record."""

    def __init__(self, out_dir: Path):
        self.out_dir = Path(out_dir)
        self.path = self.out_dir / MANIFEST_NAME

    def _read(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        if not isinstance(data.get("artifacts"), dict):
            data["artifacts"] = {}
        return data

    @property
    def artifacts(self) -> dict[str, dict]:
        """Every record, as the file says now."""
        return self._read()["artifacts"]

    def get(self, relative_path: str) -> dict | None:
        return self.artifacts.get(relative_path)

    @contextlib.contextmanager
    def _locked(self):
        self.out_dir.mkdir(parents=True, exist_ok=True)
        folder = os.open(self.out_dir, os.O_RDONLY)
        try:
            fcntl.flock(folder, fcntl.LOCK_EX)
            yield
        finally:
            os.close(folder)  # closing the descriptor releases the lock

    def put(self, relative_path: str, record: dict) -> None:
        """Record one artefact (under the lock, re-reading what other processes wrote)."""
        with self._locked():
            data = self._read()
            data["artifacts"][relative_path] = record
            data["artifacts"] = dict(sorted(data["artifacts"].items()))
            atomic_write_text(self.path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
