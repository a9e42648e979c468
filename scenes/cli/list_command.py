"""``normgeo list``: scene ids in lecture order with a one-line description."""

from __future__ import annotations

import json

import click

from scenes.cli.options import lang_option
from scenes.kit.registry import SCENES
from scenes.kit.text import SCENES_DIR

__all__ = ["list_command"]


@click.command("list")
@lang_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable: id, title, description, source and text file, class.")
def list_command(lang: str, as_json: bool) -> None:
    """List the scenes in lecture order."""
    if as_json:
        rows = [
            {
                "id": scene.id,
                "title": scene.title(lang),
                "description": scene.description(lang),
                "file": str(scene.source_file.relative_to(SCENES_DIR.parent)),
                "text": str(scene.text_file.relative_to(SCENES_DIR.parent)),
                "class": scene.class_name,
            }
            for scene in SCENES
        ]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    width = max(len(scene.id) for scene in SCENES)
    for number, scene in enumerate(SCENES, start=1):
        click.echo(f"{number:2d}. {scene.id:<{width}}  {scene.description(lang)}")
