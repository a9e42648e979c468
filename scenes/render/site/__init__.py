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

import html
import json
import os
import re
import shutil
import tempfile
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from babel.numbers import format_decimal
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from scenes.kit.languages import LANGUAGES
from scenes.kit.numbers import BABEL_LOCALES

__all__ = [
    "LANGS",
    "WIDGETS",
    "WIDGET_FOR_SCENE",
    "SiteStep",
    "SiteMedia",
    "SiteScene",
    "SiteLecture",
    "SiteReport",
    "build_site",
    "ui_text",
    "inline_math",
]

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

#: the size a widget's iframe needs, for the embed snippet (CSS pixels)
WIDGET_SIZE = {
    "grid": (760, 770),
    "vector-2d": (760, 540),
    "layernorm-3d": (760, 530),
    "conditioning": (760, 530),
    "states": (760, 900),
}

SCRIPTS = ("ng.js", *WIDGETS.values())


@dataclass(frozen=True)
class SiteStep:
    """One narrated step of a scene: seconds from the scene video's start, and its narration."""

    start: float
    end: float
    text: str


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


# ---------------------------------------------------------------------------- text


def ui_text() -> dict[str, dict[str, str]]:
    """The page's and widgets' words: ``{key: {lang: text}}`` from ``scenes/web/ui.toml``."""
    with open(WEB_DIR / "ui.toml", "rb") as handle:
        table = tomllib.load(handle)
    for key, entry in table.items():
        missing = [lang for lang in LANGS if not entry.get(lang)]
        if missing:
            raise ValueError(f"ui.toml: {key!r} has no text for {', '.join(missing)}")
    return table


_MATH_WORDS = {
    "mu": "μ", "sigma": "σ", "epsilon": "ε", "gamma": "γ", "beta": "β", "kappa": "κ", "rho": "ρ",
    "lambda": "λ", "eta": "η", "alpha": "α", "dot": "·", "times": "×", "approx": "≈", "in": "∈",
    "RR": "ℝ", "infinity": "∞", "sqrt": "√", "quad": " ", "arrow.r": "→", "minus": "−",
}


def inline_math(text: str) -> str:
    """Typst inline math between ``$`` turned into Unicode text (the titles use μ and σ).

    >>> inline_math("Which cells share $mu$ and $sigma$")
    'Which cells share μ and σ'
    >>> inline_math("radius $sqrt(2)$, $hat(x) - mu dot bold(1)$")
    'radius √2, x̂ − μ · 𝟏'
    """

    def convert(match: re.Match) -> str:
        body = match.group(1).strip()
        body = re.sub(r"hat\((\w)\)", lambda m: m.group(1) + "\u0302", body)
        body = re.sub(r"bold\(1\)", "𝟏", body)
        body = re.sub(r"sqrt\((\w+)\)", r"√\1", body)
        body = re.sub(r"norm\((\w+)\)", r"‖\1‖", body)
        body = re.sub(r"\^(\d)", lambda m: "⁰¹²³⁴⁵⁶⁷⁸⁹"[int(m.group(1))], body)
        body = re.sub(r"_(\d)", lambda m: "₀₁₂₃₄₅₆₇₈₉"[int(m.group(1))], body)
        body = re.sub(r"[A-Za-z][A-Za-z.]*", lambda m: _MATH_WORDS.get(m.group(0), m.group(0)), body)
        body = body.replace(" - ", " − ").replace('"', "")
        return body

    return re.sub(r"\$([^$]*)\$", convert, text)


# ---------------------------------------------------------------------------- formula (Typst → SVG)

_PART_COLOURS = {"centre": "#010101", "scale": "#020202", "affine": "#030303"}


def _unified_formula_source() -> str:
    """The videos' unified formula (``scenes.kit.formulas``), each ``{{ expr : part }}`` coloured by part."""
    try:
        from scenes.kit.formulas import FORMULAS

        template = FORMULAS["unified"]
    except (ImportError, KeyError):  # the toolkit moved: the same formula, written out
        template = (
            "hat(x) = {{ x - mu : centre }} / {{ sqrt(sigma^2 + epsilon) : scale }} , quad y = {{ gamma hat(x) + beta : affine }}"
        )

    def colour(match: re.Match) -> str:
        return f'#text(fill: rgb("{_PART_COLOURS[match.group(2)]}"))[${match.group(1)}$]'

    return re.sub(r"\{\{\s*(.+?)\s*:\s*(centre|scale|affine)\s*\}\}", colour, template)


def formula_svgs() -> dict[str, str]:
    """The unified formula as the videos set it (Typst), its three parts tagged ``data-part``."""
    import typst

    source = (
        "#set page(width: auto, height: auto, margin: 3pt, fill: none)\n"
        "#set text(size: 17pt)\n"
        f"$ {_unified_formula_source()} $\n"
    )
    svg = typst.compile(source.encode(), format="svg").decode()
    svg = re.sub(r"<\?xml[^>]*>\s*", "", svg)
    for part, colour in _PART_COLOURS.items():
        svg = svg.replace(f'fill="{colour}"', f'fill="currentColor" data-part="{part}"')
        svg = svg.replace(f'stroke="{colour}"', f'stroke="currentColor" data-part="{part}"')
    svg = svg.replace('fill="#000000"', 'fill="currentColor"').replace('stroke="#000000"', 'stroke="currentColor"')
    svg = svg.replace('id="', 'id="ngf-').replace('href="#', 'href="#ngf-')
    width = re.search(r'width="([\d.]+)pt"', svg)
    height = re.search(r'height="([\d.]+)pt"', svg)
    if width and height:  # CSS pixels, so the page's font size does not matter
        svg = svg.replace(f'width="{width.group(1)}pt"', f'width="{float(width.group(1)) * 4 / 3:.1f}"', 1)
        svg = svg.replace(f'height="{height.group(1)}pt"', f'height="{float(height.group(1)) * 4 / 3:.1f}"', 1)
    return {"unified": svg}


# ---------------------------------------------------------------------------- subtitles


def _vtt_time(text: str) -> float:
    parts = text.strip().replace(",", ".").split(":")
    seconds = 0.0
    for part in parts:
        seconds = seconds * 60 + float(part)
    return seconds


def read_cues(path: Path) -> list[tuple[float, float, str]]:
    """(start, end, text) of every cue of a WebVTT or SRT file."""
    text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    cues = []
    for block in re.split(r"\n\s*\n", text):
        lines = [line for line in block.split("\n") if line.strip()]
        for i, line in enumerate(lines):
            if "-->" in line:
                start, end = line.split("-->")
                end = end.strip().split(" ")[0]
                body = "\n".join(lines[i + 1 :])
                body = re.sub(r"<[^>]+>", "", body)
                cues.append((_vtt_time(start), _vtt_time(end), html.unescape(body)))
                break
    return cues


# ---------------------------------------------------------------------------- building


def _place(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _pick(media: Iterable[SiteMedia], kind: str, lang: str, default_lang: str) -> dict[str, SiteMedia]:
    """theme → the media of ``kind`` in ``lang`` (else the default language, else any)."""
    chosen: dict[str, SiteMedia] = {}
    for wanted in (lang, default_lang, None):
        for item in media:
            if item.kind == kind and (wanted is None or item.lang == wanted) and item.theme not in chosen:
                chosen[item.theme] = item
        if chosen:
            break
    if len(chosen) == 1:  # one theme only: show it in both
        (only,) = chosen.values()
        chosen = {theme: only for theme in THEMES}
    return chosen


def _text(mapping: dict[str, str], lang: str, default_lang: str) -> str:
    return mapping.get(lang) or mapping.get(default_lang) or next(iter(mapping.values()), "")


def _tree_bytes(root: Path) -> int:
    return sum(path.stat().st_size for path in root.rglob("*") if path.is_file())


def _json_for_script(value) -> str:
    """JSON safe inside <script>: no "</" can close the tag."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def build_site(
    scenes: Sequence[SiteScene],
    site_dir: Path,
    lectures: Sequence[SiteLecture] = (),
    default_lang: str = "en",
) -> SiteReport:
    """Write the static site into ``site_dir``, atomically: built in a sibling folder, then swapped in.

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
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.building-", dir=site_dir.parent))
    try:
        report = _write(scenes, staging, lectures, default_lang)
        _swap_in(staging, site_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return SiteReport(site_dir, report.scenes, report.media_files, report.media_bytes, _tree_bytes(site_dir), report.pages)


def _swap_in(staging: Path, site_dir: Path) -> None:
    old = None
    if site_dir.exists():
        old = site_dir.with_name(f".{site_dir.name}.old-{os.getpid()}")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(site_dir, old)
    os.replace(staging, site_dir)
    os.chmod(site_dir, 0o755)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(WEB_DIR),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["tojson_script"] = _json_for_script
    return env


def _write(scenes: Sequence[SiteScene], out: Path, lectures: Sequence[SiteLecture], default_lang: str) -> SiteReport:
    env = _environment()
    text = ui_text()
    (out / "assets").mkdir(parents=True)
    (out / "widgets").mkdir()
    for source in (*WEB_DIR.glob("*.js"), *WEB_DIR.glob("*.css")):  # every script and style of scenes/web
        shutil.copyfile(source, out / "assets" / source.name)
    from scenes.kit.site_data import site_assets  # the palette and the grid, from the kit (manim only when a site is built)
    for name, content in site_assets().items():
        (out / "assets" / name).write_text(content, encoding="utf-8")
    (out / "assets" / "text.js").write_text(
        "window.NORMGEO_TEXT = " + _json_for_script(text) + ";\n", encoding="utf-8"
    )
    (out / "assets" / "formulas.js").write_text(
        "window.NORMGEO_FORMULAS = " + _json_for_script(formula_svgs()) + ";\n", encoding="utf-8"
    )

    # media: media/<scene>/<kind>.<lang>.<theme><suffix>
    placed: dict[tuple[str, int], str] = {}
    media_files = media_bytes = 0
    for scene in scenes:
        for index, item in enumerate(scene.media):
            source = Path(item.source)
            relative = f"media/{scene.id}/{item.kind}.{item.lang}.{item.theme}{source.suffix.lower()}"
            if (out / relative).exists():  # two files of one kind, language and theme: keep both
                relative = f"media/{scene.id}/{item.kind}.{item.lang}.{item.theme}.{index}{source.suffix.lower()}"
            _place(source, out / relative)
            placed[(scene.id, index)] = relative
            media_files += 1
            media_bytes += (out / relative).stat().st_size
    lecture_files = {}
    for lecture in lectures:
        relative = f"media/lecture/lecture.{lecture.lang}.{lecture.theme}{Path(lecture.video).suffix.lower()}"
        _place(Path(lecture.video), out / relative)
        lecture_files[(lecture.lang, lecture.theme)] = relative
        media_files += 1
        media_bytes += (out / relative).stat().st_size

    def url(scene: SiteScene, item: SiteMedia | None) -> str:
        """The media file's address inside the site."""
        if item is None:
            return ""
        return placed[(scene.id, scene.media.index(item))]

    def t(lang: str, key: str, **values) -> str:
        entry = text.get(key)
        if entry is None:
            raise KeyError(f"ui.toml has no key {key!r}")
        return entry[lang].format(**values) if values else entry[lang]

    pages = []
    present_scenes = []
    for lang in LANGS:
        views = []
        for scene in scenes:
            steps = scene.steps.get(lang) or scene.steps.get(default_lang) or []
            video = _pick(scene.media, "video", lang, default_lang)
            still = _pick(scene.media, "still", lang, default_lang)
            gif = _pick(scene.media, "gif", lang, default_lang)
            webp = _pick(scene.media, "webp", lang, default_lang)
            loop = _pick(scene.media, "loop", lang, default_lang)
            subtitles = _pick(scene.media, "subtitles", lang, default_lang)
            subtitle_item = next(iter(subtitles.values()), None)
            if subtitle_item is not None:
                cues = read_cues(Path(subtitle_item.source))
                cue_lang = subtitle_item.lang
            else:
                cues = [(s.start, s.end, s.text) for s in steps]
                cue_lang = lang
            def _urls(picked: dict[str, SiteMedia], scene=scene) -> dict[str, str]:
                return {theme: url(scene, picked.get(theme)) for theme in THEMES} if picked else {}

            shown_langs = {item.lang for item in (*video.values(), *still.values(), *gif.values(), *webp.values(),
                                                  *loop.values())}
            if steps:
                shown_langs.add(lang if scene.steps.get(lang) else default_lang)
            other_lang = next(iter(sorted(shown_langs - {lang})), None)
            title = inline_math(_text(scene.titles, lang, default_lang))
            any_gif = gif.get("light") or gif.get("dark")
            animations = [{"kind": kind, "urls": _urls(picked),
                           "size": t(lang, "page.kilobytes",
                                     size=kilobytes(next(iter(picked.values())).size_bytes, lang))}
                          for kind, picked in (("gif", gif), ("webp", webp), ("loop", loop)) if picked]
            shown = gif or webp
            any_shown = shown.get("light") or shown.get("dark") if shown else None
            any_loop = loop.get("light") or loop.get("dark")
            views.append(
                {
                    "id": scene.id,
                    "title": title,
                    "description": inline_math(_text(scene.descriptions, lang, default_lang)),
                    "steps": [
                        {"start": s.start, "end": s.end, "text": s.text, "clock": _clock(s.start)} for s in steps
                    ],
                    "video": _urls(video),
                    "video_size": _size(next(iter(video.values()), None)),
                    "still": _urls(still),
                    "still_size": _size(next(iter(still.values()), None)),
                    "gif": _urls(gif),
                    "gif_size": _size(any_gif),
                    "loop": _urls(loop),
                    "loop_size": _size(any_loop),
                    "animation": _urls(shown) if shown else {},
                    "animation_size": _size(any_shown),
                    "animations": animations,
                    "subtitles": _urls(subtitles),
                    "cues": [[round(a, 3), round(b, 3), c] for a, b, c in cues],
                    "cue_lang": cue_lang,
                    "widget": scene.widget,
                    "other_lang": t(lang, "page.other-language", language=t(other_lang, "page.lang-name"),
                                    id=scene.id, code=lang) if other_lang else "",
                    "widget_size": WIDGET_SIZE.get(scene.widget or "", (0, 0)),
                }
            )
            if lang == LANGS[0]:
                present_scenes.append(scene)
        page = env.get_template("index.html.j2").render(
            lang=lang,
            langs=LANGS,
            default_lang=default_lang,
            scenes=views,
            t=lambda key, **values: t(lang, key, **values),
            lang_names={code: t(code, "page.lang-name") for code in LANGS},
            page_for={code: ("index.html" if code == default_lang else f"index.{code}.html") for code in LANGS},
            scripts=[*SCRIPTS],
            has_lecture=bool(lectures) or any(v["video"] for v in views),
        )
        names = [f"index.{lang}.html"] + (["index.html"] if lang == default_lang else [])
        for name in names:
            (out / name).write_text(page, encoding="utf-8")
            pages.append(name)

    # presenter mode: every language's steps and videos, the lecture when there is one
    deck = {"scenes": [], "lectures": {}}
    for scene in scenes:
        entry = {"id": scene.id, "titles": {}, "steps": {}, "video": {}}
        for lang in LANGS:
            entry["titles"][lang] = inline_math(_text(scene.titles, lang, default_lang))
            steps = scene.steps.get(lang) or scene.steps.get(default_lang) or []
            entry["steps"][lang] = [[s.start, s.end, s.text] for s in steps]
            entry["video"][lang] = {theme: url(scene, item) for theme, item in _pick(scene.media, "video", lang, default_lang).items()}
        deck["scenes"].append(entry)
    for lecture in lectures:
        deck["lectures"].setdefault(lecture.lang, {})[lecture.theme] = {
            "video": lecture_files[(lecture.lang, lecture.theme)],
            "chapters": [[float(a), float(b)] for a, b in lecture.chapters],
        }
    (out / "present.html").write_text(
        env.get_template("present.html.j2").render(deck=deck, default_lang=default_lang, t=lambda key: t(default_lang, key)),
        encoding="utf-8",
    )
    pages.append("present.html")

    for name, script in WIDGETS.items():
        width, height = WIDGET_SIZE[name]
        (out / "widgets" / f"{name}.html").write_text(
            env.get_template("widget.html.j2").render(
                name=name, script=script, default_lang=default_lang, titles={code: t(code, f"widget.{name}") for code in LANGS}
            ),
            encoding="utf-8",
        )
        pages.append(f"widgets/{name}.html")
    return SiteReport(out, len(scenes), media_files, media_bytes, _tree_bytes(out), pages)


def kilobytes(size_bytes: int, lang: str) -> str:
    """A file size in kilobytes (1000 bytes), the number written the way ``lang`` writes numbers
    (the unit comes from ui.toml's ``page.kilobytes``).

    >>> kilobytes(221_576, "en"), kilobytes(1_234_567, "ru"), kilobytes(840, "ru")
    ('222', '1\xa0235', '0,8')
    """
    value = size_bytes / 1000
    pattern = "#,##0" if value >= 10 else "#,##0.#"
    return format_decimal(value, format=pattern, locale=BABEL_LOCALES[lang])


def _size(item: SiteMedia | None) -> tuple[int, int] | None:
    if item is None or not item.width or not item.height:
        return None
    return (int(item.width), int(item.height))


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
