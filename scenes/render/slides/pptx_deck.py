"""The PowerPoint deck (python-pptx): a title slide; per scene a section slide (its title and
description) and one slide per narrated step, whose clip (from its start to the next step's, the
last to the video's end) fills the slide, plays as it opens
(with its voice when the video is narrated) and has the step's narration as the speaker's notes;
before it plays (and printed) the slide shows the step's last frame.
Each scene is a PowerPoint section too."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import av
from lxml import etree
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.oxml.ns import qn
from pptx.util import Emu, Pt

from scenes.kit.theme import palette
from scenes.render.slides.autoplay import play_on_open
from scenes.render.slides.clips import cut_clip, frame_before, keyframe_times
from scenes.render.slides.sources import DeckScene
from scenes.render.slides.words import deck_words

__all__ = ["PptxReport", "write_pptx", "SLIDE_WIDTH", "SLIDE_HEIGHT"]

SLIDE_WIDTH, SLIDE_HEIGHT = Emu(12_192_000), Emu(6_858_000)  # 13.333 × 7.5 in, 16:9
BLANK_LAYOUT = 6
SECTIONS_URI = "{521415D9-36F7-43E2-AB2F-B90AF26B5E84}"
P14 = "http://schemas.microsoft.com/office/powerpoint/2010/main"


@dataclass(frozen=True)
class PptxReport:
    """What :func:`write_pptx` made: slides in all, step slides, clips copied and re-encoded."""

    slides: int
    steps: int
    copied: int
    encoded: int


def _background(slide, colour: str) -> None:
    fill = slide.background.fill
    fill.solid()
    fill.fore_color.rgb = RGBColor.from_string(colour.lstrip("#"))


def _text(slide, text: str, top: float, height: float, size: int, colour: str, bold: bool = False) -> None:
    """A text box across the slide, ``top`` and ``height`` as fractions of its height."""
    margin = int(SLIDE_WIDTH * 0.08)
    box = slide.shapes.add_textbox(Emu(margin), Emu(int(SLIDE_HEIGHT * top)), Emu(SLIDE_WIDTH - 2 * margin),
                                   Emu(int(SLIDE_HEIGHT * height)))
    frame = box.text_frame
    frame.word_wrap = True
    run = frame.paragraphs[0].add_run()
    run.text = text
    run.font.size, run.font.bold = Pt(size), bold
    run.font.color.rgb = RGBColor.from_string(colour.lstrip("#"))


def _fit(width: int, height: int) -> tuple[int, int, int, int]:
    """left, top, width, height (EMU) of a ``width`` × ``height`` picture as large as the slide allows, centred."""
    scale = min(SLIDE_WIDTH / width, SLIDE_HEIGHT / height)
    w, h = int(width * scale), int(height * scale)
    return (SLIDE_WIDTH - w) // 2, (SLIDE_HEIGHT - h) // 2, w, h


def _add_sections(presentation, sections: list[tuple[str, list[int]]]) -> None:
    """PowerPoint sections (``p14:sectionLst``): (name, slide ids) each."""
    root = presentation.part._element
    ext_list = root.find(qn("p:extLst"))
    if ext_list is None:
        ext_list = etree.SubElement(root, qn("p:extLst"))
    ext = etree.SubElement(ext_list, qn("p:ext"), uri=SECTIONS_URI)
    section_list = etree.SubElement(ext, f"{{{P14}}}sectionLst", nsmap={"p14": P14})
    for name, slide_ids in sections:
        section = etree.SubElement(section_list, f"{{{P14}}}section", name=name,
                                   id="{" + str(uuid.uuid5(uuid.NAMESPACE_URL, name)).upper() + "}")
        ids = etree.SubElement(section, f"{{{P14}}}sldIdLst")
        for slide_id in slide_ids:
            etree.SubElement(ids, f"{{{P14}}}sldId", id=str(slide_id))


def write_pptx(scenes: Sequence[DeckScene], target: Path, lang: str, theme: str, work: Path) -> PptxReport:
    """Write the deck of ``scenes`` to ``target``; clips and posters are made in the folder ``work``."""
    colours, words = palette(theme), deck_words(lang)
    presentation = Presentation()
    presentation.slide_width, presentation.slide_height = SLIDE_WIDTH, SLIDE_HEIGHT
    layout = presentation.slide_layouts[BLANK_LAYOUT]
    opening = presentation.slides.add_slide(layout)
    _background(opening, colours.background)
    _text(opening, words["title"], 0.34, 0.18, 44, colours.text, bold=True)
    _text(opening, words["slides.subtitle"], 0.55, 0.2, 20, colours.muted)
    sections, steps, copied = [(words["title"], [opening.slide_id])], 0, 0
    for scene in scenes:
        section = presentation.slides.add_slide(layout)
        _background(section, colours.background)
        _text(section, scene.title, 0.3, 0.2, 40, colours.text, bold=True)
        _text(section, scene.description, 0.52, 0.35, 20, colours.muted)
        section.notes_slide.notes_text_frame.text = scene.description
        ids = [section.slide_id]
        with av.open(str(scene.video)) as container:
            width, height = container.streams.video[0].width, container.streams.video[0].height
        keys = keyframe_times(scene.video)  # read once per video, not once per step
        for number, step in enumerate(scene.steps, 1):
            # to the next step's start (or the video's end): an animation between two steps' narrations
            # stays in the deck, and both ends are keyframes
            end = scene.steps[number].start if number < len(scene.steps) else None
            clip = cut_clip(scene.video, step.start, end, work / f"{scene.id}.{number}.mp4", scene.fps, keys)
            poster = work / f"{scene.id}.{number}.png"  # the step's last frame: what a printed deck shows
            frame_before(scene.video, step.end).save(poster, format="PNG")
            slide = presentation.slides.add_slide(layout)
            _background(slide, colours.background)
            movie = slide.shapes.add_movie(str(clip.path), *map(Emu, _fit(width, height)),
                                           poster_frame_image=str(poster), mime_type="video/mp4")
            movie.name = f"{scene.id} {number}"
            play_on_open(slide._element, movie.shape_id, clip.seconds)
            slide.notes_slide.notes_text_frame.text = step.text
            ids.append(slide.slide_id)
            steps, copied = steps + 1, copied + clip.copied
        sections.append((scene.title, ids))
    _add_sections(presentation, sections)
    presentation.save(str(target))
    return PptxReport(len(presentation.slides), steps, copied, steps - copied)
