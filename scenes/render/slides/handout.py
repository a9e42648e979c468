"""The PDF handout, typeset by Typst: a title page, the scenes as a table of contents, then per
scene its title, description and every step's last frame with its narration, in the deck's
language (the videos' fonts: Libertinus, Noto Sans CJK for Chinese).

The words reach Typst as data (``json("deck.json")``), never as markup, so no text needs escaping;
Russian gets its no-break spaces ("1 %", "— …", ``scenes.kit.typography``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import typst

from scenes.kit.languages import typst_preamble
from scenes.kit.typography import typeset
from scenes.render.slides.clips import frame_before
from scenes.render.slides.sources import DeckScene
from scenes.render.slides.words import deck_words

__all__ = ["HandoutReport", "write_handout", "TEMPLATE"]

TEMPLATE = Path(__file__).with_name("handout.typ")
FRAME_WIDTH = 1280  # pixels of a frame in the handout (a 1080p frame is scaled down: 170 mm at 190 dpi)


@dataclass(frozen=True)
class HandoutReport:
    """What :func:`write_handout` made: its pages and the frames in it."""

    pages: int
    frames: int


def write_handout(scenes: Sequence[DeckScene], target: Path, lang: str, work: Path) -> HandoutReport:
    """Write the handout of ``scenes`` to the PDF ``target``; frames and the Typst source go in ``work``."""
    words = {key: typeset(text, lang) for key, text in deck_words(lang).items()}
    data = {"title": words["title"], "subtitle": words["handout.subtitle"], "contents": words["contents"],
            "scenes": []}
    frames = 0
    for scene in scenes:
        steps = []
        for number, step in enumerate(scene.steps, 1):
            image = frame_before(scene.video, step.end)
            if image.width > FRAME_WIDTH:
                image = image.resize((FRAME_WIDTH, round(image.height * FRAME_WIDTH / image.width)))
            name = f"{scene.id}.{number}.png"
            image.save(work / name, format="PNG", optimize=True)
            steps.append({"image": name, "text": typeset(step.text, lang)})
            frames += 1
        data["scenes"].append({"title": typeset(scene.title, lang), "description": typeset(scene.description, lang),
                               "steps": steps})
    (work / "deck.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    source = work / "handout.typ"
    source.write_text(typst_preamble(lang) + "\n" + TEMPLATE.read_text(encoding="utf-8"), encoding="utf-8")
    pdf = typst.compile(str(source), root=str(work), format="pdf")
    target.write_bytes(pdf)
    return HandoutReport(_page_count(pdf), frames)


def _page_count(pdf: bytes) -> int:
    """Pages of a PDF Typst wrote: its page objects, ``/Type /Page`` (not ``/Pages``)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))
