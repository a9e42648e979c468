"""Checks made before any rendering starts, each failing with one line that says how to fix it."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from scenes.kit.languages import REQUIRED_SYSTEM_FONTS
from scenes.render.errors import InputError
from scenes.render.settings import FORMATS, TRANSPARENT_FORMATS

__all__ = ["check_output_folder", "check_fonts", "check_format", "check_transparency"]


def check_output_folder(out_dir: Path) -> Path:
    """Create ``out_dir`` if needed and prove it is writable."""
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out_dir, prefix=".write-test-"):
            pass
    except OSError as error:
        raise InputError(f"cannot write to output folder {out_dir}: {error.strerror or error}") from None
    return out_dir


def check_fonts(lang: str) -> None:
    """A language whose glyphs need a system font (Chinese) fails early if it is missing."""
    font = REQUIRED_SYSTEM_FONTS.get(lang)
    if font is None or os.environ.get("NORMGEO_SKIP_FONT_CHECK"):
        return
    if shutil.which("fc-list") is None:
        raise InputError(f"cannot check for the font {font!r} (fc-list is missing): install fontconfig and fonts-noto-cjk")
    listed = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True, check=False).stdout
    if font not in listed:
        raise InputError(f"missing system font {font!r} for --lang {lang}: install it with apt-get install fonts-noto-cjk")


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return fmt


def check_transparency(fmt: str, transparent: bool) -> None:
    if transparent and fmt not in TRANSPARENT_FORMATS:
        raise InputError(f"--transparent needs an alpha-capable format ({', '.join(TRANSPARENT_FORMATS)}), not {fmt}")
