"""Writing files so that a reader never sees half of one: a hidden temporary name beside the
target, then a rename; on any failure (Ctrl-C included) the temporary file is removed and the
target is left as it was."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["FILE_MODE", "FOLDER_MODE", "atomic_target", "atomic_write_bytes", "atomic_write_text", "install_file"]


def _umask() -> int:
    mask = os.umask(0o022)  # the only way to read it is to set it: put it straight back
    os.umask(mask)
    return mask


#: the mode of every file normgeo writes: rw-r--r-- less what the user's umask takes away
FILE_MODE = 0o644 & ~_umask()
#: the mode of a folder normgeo builds whole (the site): rwxr-xr-x less the umask
FOLDER_MODE = 0o755 & ~_umask()


@contextmanager
def atomic_target(target: Path, suffix: str = ".partial") -> Iterator[Path]:
    """A hidden temporary path beside ``target`` to write; renamed onto ``target`` (:data:`FILE_MODE`) when
    the block ends, removed when it raises. ``suffix`` ends the temporary name (an encoder may
    choose its container by it)."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
    os.close(fd)
    temporary = Path(name)
    try:
        yield temporary
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through :func:`atomic_target`."""
    with atomic_target(path) as temporary:
        temporary.write_bytes(data)


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through :func:`atomic_target`."""
    with atomic_target(path) as temporary:
        temporary.write_text(text, encoding="utf-8")


def install_file(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` through :func:`atomic_target`."""
    with atomic_target(target) as partial:
        shutil.copyfile(source, partial)
