"""What the page template gets for one scene in one language: its words, steps, cues and media,
each media group in one language (``choose``), with the shown files' real language and theme."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from scenes.kit.typography import typeset
from scenes.render.site.choose import (ANIMATION_KINDS, STILL_KINDS, VIDEO_KINDS, language_for, only_theme, pick,
                                       real_themes)
from scenes.render.site.model import LANGS, THEMES, WIDGET_SIZE, SiteMedia, SiteScene, SiteStep
from scenes.render.site.placing import Placed
from scenes.render.site.words import inline_math, kilobytes, read_cues

__all__ = ["scene_view", "scene_text", "scene_steps", "shown_media"]

Words = Callable[..., str]  # t(lang, key, **values)


def scene_text(mapping: dict[str, str], lang: str, default_lang: str) -> str:
    return mapping.get(lang) or mapping.get(default_lang) or next(iter(mapping.values()), "")


def scene_steps(scene: SiteScene, lang: str, video_lang: str | None, default_lang: str) -> tuple[str, list[SiteStep]]:
    """The narrated steps a page shows: its own language's, else those of the video shown, else the default's."""
    for wanted in (lang, video_lang, default_lang, *LANGS):
        if wanted and scene.steps.get(wanted):
            return wanted, scene.steps[wanted]
    return lang, []


def shown_media(scene: SiteScene, lang: str, default_lang: str) -> dict[str, dict[str, SiteMedia]]:
    """kind → theme → the file shown on ``lang``'s page, every group in one language."""
    shown = {}
    for kinds in (VIDEO_KINDS, STILL_KINDS, ANIMATION_KINDS):
        group_lang = language_for(scene.media, kinds, lang, default_lang)
        for kind in kinds:
            shown[kind] = pick(scene.media, kind, group_lang)
    return shown


def _size(item: SiteMedia | None) -> tuple[int, int] | None:
    if item is None or not item.width or not item.height:
        return None
    return (int(item.width), int(item.height))


def _first(picked: dict[str, SiteMedia]) -> SiteMedia | None:
    return picked.get("dark") or picked.get("light")


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _media_view(scene: SiteScene, shown: dict[str, dict[str, SiteMedia]], placed: Placed, lang: str, t: Words) -> dict:
    def urls(picked: dict[str, SiteMedia]) -> dict[str, str]:
        return {theme: placed.url(scene, picked.get(theme)) for theme in THEMES} if picked else {}

    animation = shown["gif"] or shown["webp"]
    view = {kind: urls(shown[kind]) for kind in ("video", "still", "gif", "loop", "subtitles")}
    view.update({f"{kind}_size": _size(_first(shown[kind])) for kind in ("video", "still", "gif", "loop")})
    view["animation"] = urls(animation)
    view["animation_size"] = _size(_first(animation))
    view["animations"] = [{"kind": kind, "urls": urls(shown[kind]),
                           "size": t(lang, "page.kilobytes", size=kilobytes(_first(shown[kind]).size_bytes, lang))}
                          for kind in ANIMATION_KINDS if shown[kind]]
    view["poster"] = ({theme: placed.poster(scene, item) for theme, item in shown["video"].items()}
                      if shown["video"] else {})
    # what each shown file really is, so the page can say when it shows another theme or language
    view["media"] = {kind: {"lang": _first(picked).lang, "themes": real_themes(picked)}
                     for kind, picked in shown.items() if picked}
    view["only_theme"] = {kind: only_theme(picked) for kind, picked in shown.items() if picked}
    view["lang_notes"] = _lang_notes(scene.id, shown, lang, t)
    view["theme_notes"] = {figure: note for figure, note in _theme_notes(scene.id, shown, lang, t).items()
                           if figure not in view["lang_notes"]}  # (its language note's command adds both themes)
    return view


def _theme_notes(scene_id: str, shown: dict[str, dict[str, SiteMedia]], lang: str, t: Words) -> dict[str, dict]:
    """figure (video, still, animation) → the note its page shows when the figure was rendered in
    one theme only: that theme, and a sentence with the command that adds the other one."""
    animation_kind = next((kind for kind in ("gif", "webp", "loop") if shown[kind]), None)
    figures = {"video": "video", "still": "still", "animation": animation_kind}
    notes = {}
    for figure, kind in figures.items():
        only = only_theme(shown[kind]) if kind else None
        if only is None:
            continue
        other = THEMES[1 - THEMES.index(only)]
        command = _adding_command(scene_id, kind, _first(shown[kind]), other)
        notes[figure] = {"theme": only, "text": t(lang, f"page.theme-only.{figure}.{only}", command=command)}
    return notes


def _lang_notes(scene_id: str, shown: dict[str, dict[str, SiteMedia]], lang: str, t: Words) -> dict[str, str]:
    """figure (video, still, animation) → the note its page shows when the figure is shown in
    another language than the page's (nothing of that kind was rendered in it): the language shown
    and the command that renders that kind in the page's language in both themes (one command per
    web animation format shown, joined by ``&&``)."""
    kinds = {"video": ("video",), "still": ("still",), "animation": ANIMATION_KINDS}
    notes = {}
    for figure, group in kinds.items():
        present = [kind for kind in group if shown[kind]]
        if not present or _first(shown[present[0]]).lang == lang:
            continue
        shown_lang = _first(shown[present[0]]).lang
        both = ",".join(THEMES)
        command = " && ".join(_adding_command(scene_id, kind, _first(shown[kind]), both, lang) for kind in present)
        notes[figure] = t(lang, f"page.other-language.{figure}", language=t(shown_lang, "page.lang-name"),
                          command=command)
    return notes


def _adding_command(scene_id: str, kind: str, item: SiteMedia, theme: str = "", lang: str = "") -> str:
    """The command that renders ``item``'s kind of figure in ``theme`` (``dark,light``: both; "":
    the default) and ``lang`` ("": the default).

    >>> _adding_command("layernorm-2d", "loop", SiteMedia("loop", "en", "dark", Path("x"), 1, 480, 270), "light")
    'normgeo gif layernorm-2d --width 480 --format mp4 --theme light'
    >>> _adding_command("layernorm-2d", "still", SiteMedia("still", "zh", "light", Path("x"), 1), "light", "en")
    'normgeo still layernorm-2d --lang en --theme light'
    """
    options = (f" --lang {lang}" if lang else "") + (f" --theme {theme}" if theme else "")
    if kind == "still":
        return f"normgeo still {scene_id}{options}"
    if kind in ("gif", "webp", "loop"):
        fmt = {"gif": "", "webp": " --format webp", "loop": " --format mp4"}[kind]
        width = f" --width {int(item.width)}" if item.width else ""
        return f"normgeo gif {scene_id}{width}{fmt}{options}"
    return f"normgeo render {scene_id}{options}"


def _cues(shown: dict[str, dict[str, SiteMedia]], steps: list[SiteStep], steps_lang: str) -> tuple[list, str]:
    subtitles = _first(shown["subtitles"])
    if subtitles is not None:
        return read_cues(Path(subtitles.source), keep_timestamps=True), subtitles.lang
    return [(s.start, s.end, s.text) for s in steps], steps_lang


def scene_view(scene: SiteScene, lang: str, default_lang: str, placed: Placed, t: Words) -> dict:
    """The template's data for ``scene`` on ``lang``'s page."""
    shown = shown_media(scene, lang, default_lang)
    video_lang = _first(shown["video"]).lang if shown["video"] else None
    steps_lang, steps = scene_steps(scene, lang, video_lang, default_lang)
    cues, cue_lang = _cues(shown, steps, steps_lang)
    view = {
        "id": scene.id,
        "title": typeset(inline_math(scene_text(scene.titles, lang, default_lang)), lang),
        "description": typeset(inline_math(scene_text(scene.descriptions, lang, default_lang)), lang),
        "steps": [{"start": s.start, "end": s.end, "text": typeset(s.text, steps_lang), "clock": _clock(s.start)}
                  for s in steps],
        "cues": [[round(a, 3), round(b, 3), typeset(c, cue_lang)] for a, b, c in cues],
        "cue_lang": cue_lang,
        "widget": scene.widget,
        "widget_size": WIDGET_SIZE.get(scene.widget or "", (0, 0)),
    }
    view.update(_media_view(scene, shown, placed, lang, t))
    return view
