"""The page's words: the UI text of ``scenes/web/ui.toml``, Typst inline math as Unicode, file sizes
as each language writes numbers, the unified formula as SVG, and the cues of a subtitle file."""

from __future__ import annotations

import html
import re
import tomllib
from pathlib import Path

from babel.numbers import format_decimal

from scenes.kit.numbers import BABEL_LOCALES
from scenes.kit.typography import typeset
from scenes.render.site.model import LANGS, WEB_DIR

__all__ = ["ui_text", "inline_math", "kilobytes", "formula_svgs", "read_cues"]


def ui_text() -> dict[str, dict[str, str]]:
    """The page's and widgets' words: ``{key: {lang: text}}`` from ``scenes/web/ui.toml``, each set
    with its language's no-break spaces (``scenes.kit.typography``)."""
    with open(WEB_DIR / "ui.toml", "rb") as handle:
        table = tomllib.load(handle)
    for key, entry in table.items():
        missing = [lang for lang in LANGS if not entry.get(lang)]
        if missing:
            raise ValueError(f"ui.toml: {key!r} has no text for {', '.join(missing)}")
    return {key: {lang: typeset(text, lang) for lang, text in entry.items()} for key, entry in table.items()}


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


def kilobytes(size_bytes: int, lang: str) -> str:
    """A file size in kilobytes (1000 bytes), the number written the way ``lang`` writes numbers
    (the unit comes from ui.toml's ``page.kilobytes``).

    >>> kilobytes(221_576, "en"), kilobytes(1_234_567, "ru"), kilobytes(840, "ru")
    ('222', '1\xa0235', '0,8')
    """
    value = size_bytes / 1000
    pattern = "#,##0" if value >= 10 else "#,##0.#"
    return format_decimal(value, format=pattern, locale=BABEL_LOCALES[lang])


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


def _vtt_time(text: str) -> float:
    parts = text.strip().replace(",", ".").split(":")
    seconds = 0.0
    for part in parts:
        seconds = seconds * 60 + float(part)
    return seconds


_NOT_A_TIMESTAMP = re.compile(r"<(?!(?:\d+:)?\d{2}:\d{2}\.\d{3}>)[^>]+>")


def read_cues(path: Path, keep_timestamps: bool = False) -> list[tuple[float, float, str]]:
    """(start, end, text) of every cue of a WebVTT or SRT file; tags are dropped, except, with
    ``keep_timestamps``, WebVTT's word timestamps (``<00:00:01.200>``, which a VTTCue reads)."""
    text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    cues = []
    for block in re.split(r"\n\s*\n", text):
        lines = [line for line in block.split("\n") if line.strip()]
        for i, line in enumerate(lines):
            if "-->" in line:
                start, end = line.split("-->")
                end = end.strip().split(" ")[0]
                body = "\n".join(lines[i + 1 :])
                body = (_NOT_A_TIMESTAMP if keep_timestamps else re.compile(r"<[^>]+>")).sub("", body)
                cues.append((_vtt_time(start), _vtt_time(end), html.unescape(body)))
                break
    return cues
