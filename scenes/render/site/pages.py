"""The site's pages: the scripts and styles, ``index.<lang>.html`` per language, presenter mode and
each widget alone."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from scenes.kit.typography import typeset
from scenes.render.site.choose import VIDEO_KINDS, language_for, pick
from scenes.render.site.model import LANGS, SCRIPTS, WEB_DIR, WIDGET_SIZE, WIDGETS, SiteLecture, SiteScene
from scenes.render.site.placing import Placed
from scenes.render.site.views import scene_steps, scene_text, scene_view
from scenes.render.site.words import inline_math, read_cues, ui_text

__all__ = ["write_pages", "self_contained"]


def _json_for_script(value) -> str:
    """JSON safe inside <script>: no "</" can close the tag."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(WEB_DIR), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["tojson_script"] = _json_for_script
    return env


def _words(text: dict[str, dict[str, str]]) -> Callable[..., str]:
    def t(lang: str, key: str, **values) -> str:
        entry = text.get(key)
        if entry is None:
            raise KeyError(f"ui.toml has no key {key!r}")
        return entry[lang].format(**values) if values else entry[lang]

    return t


def _write_assets(out: Path, text: dict, formulas: dict[str, str]) -> None:
    (out / "assets").mkdir(parents=True)
    for source in (*WEB_DIR.glob("*.js"), *WEB_DIR.glob("*.css")):  # every script and style of scenes/web
        shutil.copyfile(source, out / "assets" / source.name)
    from scenes.kit.site_data import site_assets  # the palette and the grid, from the kit (manim only when a site is built)

    for name, content in site_assets().items():
        (out / "assets" / name).write_text(content, encoding="utf-8")
    (out / "assets" / "text.js").write_text("window.NORMGEO_TEXT = " + _json_for_script(text) + ";\n", encoding="utf-8")
    (out / "assets" / "formulas.js").write_text(
        "window.NORMGEO_FORMULAS = " + _json_for_script(formulas) + ";\n", encoding="utf-8")


def self_contained(html: str, assets: Path, prefix: str = "../assets/") -> str:
    """``html`` with each style and script it links from ``prefix`` (``../assets/`` from a widget's
    page, ``assets/`` from the presenter's) written into it, so that the page works copied anywhere
    on its own (a blog's folder, a static host, an e-mail) with nothing beside it. A ``</script`` or
    ``</style`` inside one (in a string) would close the tag early: it is written with ``<\\/``,
    the same string to JavaScript and CSS.

    >>> import tempfile; folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.js").write_text("s = '</script>';"), (folder / "p.css").write_text("p{}")
    >>> print(self_contained('<link rel="stylesheet" href="../assets/p.css"><script src="../assets/a.js"></script>', folder))
    <style>p{}</style><script>s = '<\\/script>';</script>
    """
    quoted = re.escape(prefix)
    link = re.compile(rf'<link rel="stylesheet" href="{quoted}([\w.-]+\.css)">')
    script = re.compile(rf'<script src="{quoted}([\w.-]+\.js)"></script>')

    def inline(tag: str):
        closing = re.compile(f"</({tag})", re.IGNORECASE)
        return lambda match: (f"<{tag}>" + closing.sub(r"<\\/\1", (assets / match.group(1)).read_text(encoding="utf-8"))
                              + f"</{tag}>")

    return script.sub(inline("script"), link.sub(inline("style"), html))


def _write_index_pages(env, scenes, out, placed, lectures, default_lang, t) -> list[str]:
    pages = []
    for lang in LANGS:
        views = [scene_view(scene, lang, default_lang, placed, t) for scene in scenes]
        page = env.get_template("index.html.j2").render(
            lang=lang, langs=LANGS, default_lang=default_lang, scenes=views,
            t=lambda key, lang=lang, **values: t(lang, key, **values),
            lang_names={code: t(code, "page.lang-name") for code in LANGS},
            page_for={code: ("index.html" if code == default_lang else f"index.{code}.html") for code in LANGS},
            scripts=[*SCRIPTS],
            has_lecture=bool(lectures) or any(v["video"] for v in views),
        )
        for name in [f"index.{lang}.html"] + (["index.html"] if lang == default_lang else []):
            (out / name).write_text(page, encoding="utf-8")
            pages.append(name)
    return pages


def _word_cues(subtitles: dict) -> list:
    """The cues of the shown video's subtitles, WebVTT word timestamps kept (the presenter's captions)."""
    item = subtitles.get("dark") or subtitles.get("light")
    if item is None:
        return []
    return [[round(a, 3), round(b, 3), typeset(text, item.lang)]
            for a, b, text in read_cues(Path(item.source), keep_timestamps=True)]


def _deck(scenes: Sequence[SiteScene], lectures: Sequence[SiteLecture], placed: Placed, default_lang: str) -> dict:
    """Presenter mode's data: every language's steps, videos and their posters, the lecture (with
    its poster) when there is one."""
    deck = {"scenes": [], "lectures": {}}
    for scene in scenes:
        entry = {"id": scene.id, "titles": {}, "steps": {}, "steps_lang": {}, "cues": {}, "video": {}, "poster": {}}
        for lang in LANGS:
            video_lang = language_for(scene.media, VIDEO_KINDS, lang, default_lang)
            entry["titles"][lang] = typeset(inline_math(scene_text(scene.titles, lang, default_lang)), lang)
            steps_lang, steps = scene_steps(scene, lang, video_lang, default_lang)
            entry["steps"][lang] = [[s.start, s.end, typeset(s.text, steps_lang), s.key] for s in steps]
            entry["steps_lang"][lang] = steps_lang  # the language the steps' text is in (a recording's)
            entry["cues"][lang] = _word_cues(pick(scene.media, "subtitles", video_lang))
            videos = pick(scene.media, "video", video_lang)
            entry["video"][lang] = {theme: placed.url(scene, item) for theme, item in videos.items()}
            entry["poster"][lang] = {theme: placed.poster(scene, item) for theme, item in videos.items()}
        deck["scenes"].append(entry)
    for lecture in lectures:
        deck["lectures"].setdefault(lecture.lang, {})[lecture.theme] = {
            "video": placed.lectures[(lecture.lang, lecture.theme)],
            "poster": placed.lecture_posters[(lecture.lang, lecture.theme)],
            "chapters": [[float(a), float(b)] for a, b in lecture.chapters],
        }
    return deck


def write_pages(scenes: Sequence[SiteScene], out: Path, placed: Placed, lectures: Sequence[SiteLecture],
                default_lang: str, formulas: dict[str, str]) -> list[str]:
    """Write every page and asset into ``out`` (``formulas``: name → SVG); the names of the pages written."""
    env, text = _environment(), ui_text()
    t = _words(text)
    _write_assets(out, text, formulas)
    pages = _write_index_pages(env, scenes, out, placed, lectures, default_lang, t)
    (out / "present.html").write_text(
        env.get_template("present.html.j2").render(deck=_deck(scenes, lectures, placed, default_lang),
                                                   default_lang=default_lang, t=lambda key: t(default_lang, key)),
        encoding="utf-8")
    pages.append("present.html")
    (out / "widgets").mkdir()
    for name, script in WIDGETS.items():  # each widget page alone, with its scripts and styles inside
        page = env.get_template("widget.html.j2").render(name=name, script=script, default_lang=default_lang,
                                                         titles={code: t(code, f"widget.{name}") for code in LANGS})
        (out / "widgets" / f"{name}.html").write_text(self_contained(page, out / "assets"), encoding="utf-8")
        pages.append(f"widgets/{name}.html")
    return pages
