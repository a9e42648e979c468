"""What the site is built from: the scenes with their media, steps and lectures, the widgets and
their sizes, and the report of a build."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from scenes.kit.languages import LANGUAGES

__all__ = ["WEB_DIR", "LANGS", "THEMES", "MEDIA_KINDS", "WIDGETS", "WIDGET_FOR_SCENE", "WIDGET_SIZE", "SCRIPTS",
           "SiteStep", "SiteMedia", "SiteScene", "SiteLecture", "SiteReport"]

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
LANGS = LANGUAGES
THEMES = ("dark", "light")
MEDIA_KINDS = ("video", "gif", "webp", "loop", "still", "subtitles")

#: widget name → its script in ``scenes/web``
WIDGETS = {
    "grid": "grid.js",
    "vector-2d": "vector2d.js",
    "layernorm-3d": "layernorm3d.js",
    "conditioning": "conditioning.js",
    "states": "states.js",
}

#: which scene shows which widget (the glue passes ``SiteScene.widget`` from this)
WIDGET_FOR_SCENE = {
    "normalization-axes": "grid",
    "unified-formula": "grid",
    "sphere-radii": "vector-2d",
    "layernorm-2d": "vector-2d",
    "layernorm-hyperplane": "layernorm-3d",
    "conditioning": "conditioning",
    "real-states-rmsnorm": "states",
}

#: the size a widget's iframe needs, for the embed snippet (CSS pixels): its page at that width in
#: its tallest language (Russian: the longest words), with no scroll bar (tests/site/test_widget_sizes.py)
WIDGET_SIZE = {
    "grid": (760, 770),
    "vector-2d": (760, 600),
    "layernorm-3d": (760, 560),
    "conditioning": (760, 570),
    "states": (760, 900),
}

SCRIPTS = ("ng.js", *WIDGETS.values())


@dataclass(frozen=True)
class SiteStep:
    """One narrated step of a scene: seconds from the scene video's start, its narration, and its
    key (``say.<key>`` in the scene's text file; a recording of it is ``<scene>/<key>.<lang>.wav``)."""

    start: float
    end: float
    text: str
    key: str = ""


@dataclass(frozen=True)
class SiteMedia:
    """One rendered file of a scene: ``kind`` is video, gif, webp, loop (the small looping MP4 of
    ``normgeo gif --format mp4``), still or subtitles (a VTT)."""

    kind: str
    lang: str
    theme: str
    source: Path
    size_bytes: int
    width: int | None = None
    height: int | None = None


@dataclass(frozen=True)
class SiteScene:
    """A scene as the site shows it; titles and descriptions may hold Typst math between ``$``."""

    id: str
    titles: dict[str, str]
    descriptions: dict[str, str]
    steps: dict[str, list[SiteStep]]
    media: list[SiteMedia]
    widget: str | None = None


@dataclass(frozen=True)
class SiteLecture:
    """The joined lecture video of one language and theme, with each scene's (start, end) in it."""

    lang: str
    theme: str
    video: Path
    chapters: list[tuple[float, float]]


@dataclass(frozen=True)
class SiteReport:
    """What ``build_site`` wrote."""

    site_dir: Path
    scenes: int
    media_files: int
    media_bytes: int
    total_bytes: int
    pages: list[str] = field(default_factory=list)

    @property
    def page_bytes(self) -> int:
        """Bytes of everything but the media (pages, scripts, styles)."""
        return self.total_bytes - self.media_bytes
