"""Every `normgeo …` command written in the README and in docs/ is one the command line takes: its
command, options, choices and scene ids parse (nothing is rendered: click builds the command's
context, which runs each option's conversion and check, but not the command)."""

import re
import shlex
from pathlib import Path

import click
import pytest

from scenes.cli.main import cli
from scenes.kit.registry import scene_ids

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"```(?:bash|sh|console)?\n(.*?)```", re.S)
SPAN = re.compile(r"`(normgeo [^`]+)`")
# a line of a synopsis rather than a command: alternatives, optional parts, placeholders
SYNOPSIS = re.compile(r"[|\[\]…<>]|\b(?:ID|FILE|DIR|PATH|HOST|PX|SCENE|V|L|T|Q|N)\b")


def _split(line: str) -> list[list[str]]:
    """The simple commands of a shell line (quotes kept together, split at && || ; |)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    commands, words = [], []
    for token in lexer:
        if token in {"&&", "||", ";", "|", "&"}:
            commands.append(words)
            words = []
        else:
            words.append(token)
    return [*commands, words]


def _commands(text: str) -> list[tuple[str, ...]]:
    found = []
    lines = [line.split(" #", 1)[0].strip() for block in FENCE.findall(text) for line in block.splitlines()]
    lines += [span for span in SPAN.findall(text) if not SYNOPSIS.search(span[len("normgeo"):])]
    for line in lines:
        if not re.search(r"(^|[\s;&|])normgeo\s", line):
            continue
        for words in _split(line):
            while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):  # NAME=value before a command
                words.pop(0)
            if words and words[0] == "normgeo":
                found.append(tuple(words))
    return found


COMMANDS = sorted({(doc.name, command) for doc in DOCUMENTS for command in _commands(doc.read_text())})
IDS = [f"{document}: {shlex.join(command)}" for document, command in COMMANDS]


def test_the_documents_show_commands():
    assert len(COMMANDS) >= 20, COMMANDS


@pytest.mark.parametrize(("document", "command"), COMMANDS, ids=IDS)
def test_a_documented_command_parses(document, command):
    """A bare `normgeo NAME` (naming a command in prose) needs only the command to exist."""
    args = list(command[1:])
    if len(args) == 1 and not args[0].startswith("-"):
        assert args[0] in cli.commands, f"{document}: no command {args[0]!r}"
        return
    with cli.make_context("normgeo", list(args), resilient_parsing=False) as group:
        name, sub, rest = cli.resolve_command(group, [*group._protected_args, *group.args])
        assert sub is not None, f"{document}: no command {name!r}"
        try:
            with sub.make_context(name, rest, parent=group) as context:
                params = context.params
        except click.exceptions.Exit:  # --help and --version end parsing successfully
            return
    named = list(params.get("scene_ids") or ()) + ([params["scene_id"]] if params.get("scene_id") else [])
    unknown = [i for i in named if i not in scene_ids() and i != "my-scene"]  # my-scene: "Adding a scene"'s example
    assert not unknown, f"{document}: unknown scene ids {unknown}"
