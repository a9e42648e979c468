"""Writing files so that a reader never sees half of one: a hidden temporary name, then a rename."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

__all__ = ["atomic_write_text", "install_file"]


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def install_file(source: Path, target: Path) -> None:
    """Copy ``source`` next to ``target`` under a hidden name, then rename it into place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, partial_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    os.close(fd)
    partial = Path(partial_name)
    try:
        shutil.copyfile(source, partial)
        os.chmod(partial, 0o644)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
