"""The site's folder: normgeo replaces only a site it wrote, and never the renders.

Every site carries a mark, ``.normgeo-site.json``, listing the files normgeo wrote into it. A site
is written into a folder that does not exist, an empty folder, or an earlier site of normgeo's
whose files are all listed in its mark (a site from before the mark: only the names a site has,
and its page loads ``assets/ng.js``). Anything else (a folder of the user's, a site the user
added a file to) is refused in one line, before anything is written: normgeo never deletes what
it did not write. The new site is built beside the folder and swapped in with one atomic
``renameat2(RENAME_EXCHANGE)`` where the file system has it (else two renames), so a reader
sees the old site or the new one, whole.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import shutil
from pathlib import Path

from scenes.render.errors import InputError
from scenes.render.files import FOLDER_MODE

__all__ = ["MARK", "check_apart_from_renders", "check_replaceable", "swap_in", "write_mark"]

MARK = ".normgeo-site.json"
_FORMAT = "normgeo-site"
_SITE_NAMES = re.compile(r"index(\.[a-z]{2})?\.html|present\.html|assets|media|widgets")
_AT_FDCWD, _RENAME_EXCHANGE = -100, 2
_LIBC = ctypes.CDLL(None, use_errno=True)


def _files(folder: Path) -> list[str]:
    """Every file and link under ``folder`` (not folders), as sorted POSIX paths relative to it."""
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*") if not path.is_dir()
                  or path.is_symlink())


def _listed(names: list[str], limit: int = 3) -> str:
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return f"{', '.join(names[:limit])}{more}"


def _marked_files(site_dir: Path) -> set[str] | None:
    """The files the mark lists, or None where there is no readable mark of normgeo's."""
    try:
        mark = json.loads((site_dir / MARK).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(mark, dict) or mark.get("format") != _FORMAT or not isinstance(mark.get("files"), list):
        return None
    return {str(name) for name in mark["files"]}


def _is_unmarked_site(site_dir: Path) -> bool:
    """A site normgeo wrote before sites were marked: only a site's names at the top, and its page's script."""
    names = [path.name for path in site_dir.iterdir()]
    if not all(_SITE_NAMES.fullmatch(name) for name in names) or "index.html" not in names:
        return False
    try:
        return 'src="assets/ng.js"' in (site_dir / "index.html").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def check_replaceable(site_dir: Path) -> None:
    """Refuse, in one line, a ``site_dir`` that holds anything normgeo did not write there."""
    if not site_dir.exists() and not site_dir.is_symlink():
        return
    if not site_dir.is_dir():
        raise InputError(f"{site_dir} is a file, not a folder: choose a new or empty folder for the site")
    found = _files(site_dir)
    if not found:
        return
    marked = _marked_files(site_dir)
    if marked is None:
        if _is_unmarked_site(site_dir):
            return
        raise InputError(f"{site_dir} is not a site normgeo wrote (it holds {_listed(found)}), so it is "
                         "left alone: choose a new or empty folder for the site")
    strangers = [name for name in found if name != MARK and name not in marked]
    if strangers:
        raise InputError(f"{site_dir} holds files normgeo did not write ({_listed(strangers)}), so the "
                         "site there is left alone: move them out, or choose another folder for the site")


def check_apart_from_renders(site_dir: Path, out_dir: Path) -> None:
    """Refuse a site folder that is, holds or lies inside the renders folder ``out_dir`` (symlinks
    resolved), except ``<out_dir>/site``, the default."""
    site, out = Path(site_dir).resolve(), Path(out_dir).resolve()
    where = f"the renders folder {out_dir}"
    if site == out:
        raise InputError(f"--site {site_dir} is {where}: the site goes to {Path(out_dir) / 'site'} (the default) "
                         f"or a folder outside {out_dir}")
    if out.is_relative_to(site):
        raise InputError(f"--site {site_dir} holds {where}: choose a folder outside {out_dir}")
    if site.is_relative_to(out) and site != out / "site":
        raise InputError(f"--site {site_dir} lies inside {where}: the site goes to {Path(out_dir) / 'site'} "
                         f"(the default) or a folder outside {out_dir}")


def write_mark(site_dir: Path) -> None:
    """Mark ``site_dir`` as normgeo's, listing every file in it (the mark's own name aside)."""
    mark = {"format": _FORMAT, "note": "written by `normgeo site`, which replaces this folder only while it "
                                       "holds no file but these", "files": _files(site_dir)}
    (site_dir / MARK).write_text(json.dumps(mark, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2``); False where the system or file system cannot."""
    renameat2 = getattr(_LIBC, "renameat2", None)
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(second))


def swap_in(staging: Path, site_dir: Path) -> None:
    """Put the built ``staging`` folder where ``site_dir`` is (replacing it) and delete the old one."""
    os.chmod(staging, FOLDER_MODE)
    if site_dir.is_dir() and _exchange(staging, site_dir):
        shutil.rmtree(staging, ignore_errors=True)  # now the old site
        return
    old = None
    if site_dir.exists():
        old = site_dir.with_name(f".{site_dir.name}.old-{os.getpid()}")
        os.replace(site_dir, old)
    try:
        os.replace(staging, site_dir)
    except OSError:
        if old is not None:
            os.replace(old, site_dir)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
