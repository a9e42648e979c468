"""The static site: every scene in lecture order with its video, subtitles, narration, still,
GIF and live widget; presenter mode; each widget alone for embedding.

The folder works opened from disk (``file://``) and from any static host: no server code and
nothing fetched from the network. Plain classic scripts (Chromium refuses ES modules from
``file://``) and subtitles embedded in the page, added through the TextTrack API (Chromium
refuses ``<track src>`` from ``file://`` too).

>>> from pathlib import Path
>>> scene = SiteScene("conditioning", {"en": "Conditioning"}, {"en": ""}, {"en": []}, [], "conditioning")
>>> scene.widget
'conditioning'
"""

from __future__ import annotations

import errno
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from scenes.render.errors import InputError
from scenes.render.site.folder import check_replaceable, swap_in, write_mark
from scenes.render.site.model import (LANGS, MEDIA_KINDS, THEMES, WIDGET_FOR_SCENE, WIDGET_SIZE, WIDGETS, SiteLecture,
                                      SiteMedia, SiteReport, SiteScene, SiteStep)
from scenes.render.site.pages import write_pages
from scenes.render.site.placing import place_media
from scenes.render.site.words import formula_svgs, inline_math, kilobytes, read_cues, ui_text

__all__ = [
    "LANGS",
    "THEMES",
    "WIDGETS",
    "WIDGET_FOR_SCENE",
    "WIDGET_SIZE",
    "SiteStep",
    "SiteMedia",
    "SiteScene",
    "SiteLecture",
    "SiteReport",
    "build_site",
    "ui_text",
    "inline_math",
    "kilobytes",
    "read_cues",
    "formula_svgs",
]


#: what an unwritable place answers (read-only mount, permissions, immutable, full, a mount point)
UNWRITABLE = {errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.EBUSY}


def _why(error: OSError) -> str:
    if error.errno == errno.EBUSY:
        return "it is a mount point, which cannot be swapped for a new site: give a folder inside it"
    return str(error.strerror or error)


def _tree_bytes(root: Path) -> int:
    return sum(path.stat().st_size for path in root.rglob("*") if path.is_file())


def build_site(
    scenes: Sequence[SiteScene],
    site_dir: Path,
    lectures: Sequence[SiteLecture] = (),
    default_lang: str = "en",
) -> SiteReport:
    """Write the static site into ``site_dir``, atomically: built in a sibling folder, then swapped in.
    ``site_dir`` must be new, empty or an earlier site of normgeo's (:mod:`scenes.render.site.folder`):
    anything else is refused (``InputError``) before anything is written.

    ``index.html`` is the page in ``default_lang``, ``index.<lang>.html`` the page in each language,
    ``present.html`` presenter mode, ``widgets/<name>.html`` each widget alone (``?lang=``, ``?theme=``).
    Media are hard-linked (copied across file systems) into ``media/<scene>/``.
    """
    site_dir = Path(site_dir).resolve()
    if default_lang not in LANGS:
        raise ValueError(f"default_lang must be one of {', '.join(LANGS)}, got {default_lang!r}")
    ids = [scene.id for scene in scenes]
    if len(set(ids)) != len(ids):
        raise ValueError("scene ids must be unique")
    for scene in scenes:
        if scene.widget is not None and scene.widget not in WIDGETS:
            raise ValueError(f"scene {scene.id!r}: unknown widget {scene.widget!r} (known: {', '.join(WIDGETS)})")
        for item in scene.media:
            if item.kind not in MEDIA_KINDS:
                raise ValueError(f"scene {scene.id!r}: unknown media kind {item.kind!r}")
            if not Path(item.source).is_file():
                raise FileNotFoundError(f"scene {scene.id!r}: media file {item.source} does not exist")
    check_replaceable(site_dir)
    staging = None
    try:
        site_dir.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.building-", dir=site_dir.parent))
        placed = place_media(scenes, lectures, staging)
        pages = write_pages(scenes, staging, placed, lectures, default_lang, formula_svgs())
        write_mark(staging)
        check_replaceable(site_dir)  # again: a file may have come in while the site was built
        swap_in(staging, site_dir)
    except BaseException as error:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        if isinstance(error, OSError) and error.errno in UNWRITABLE:
            raise InputError(f"cannot write the site {site_dir}: {_why(error)}; nothing was changed") from None
        raise
    return SiteReport(site_dir, len(scenes), placed.count, placed.bytes, _tree_bytes(site_dir), pages)

