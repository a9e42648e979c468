"""Languages and their fonts. The text itself lives beside each scene (see ``scenes.kit.text``)."""

from __future__ import annotations

__all__ = ["layer_name", "LANGUAGES", "DEFAULT_LANGUAGE", "LANGUAGE_NAMES", "typst_preamble", "check_language", "FONTS",
           "REQUIRED_SYSTEM_FONTS"]

LANGUAGES = ("en", "zh", "ru")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"en": "English", "zh": "中文", "ru": "Русский"}

# Libertinus (bundled with Typst) covers Latin and Cyrillic; CJK falls back to Noto (fonts-noto-cjk).
FONTS = {
    "en": ("Libertinus Serif",),
    "ru": ("Libertinus Serif",),
    "zh": ("Libertinus Serif", "Noto Sans CJK SC"),
}
REQUIRED_SYSTEM_FONTS = {"zh": "Noto Sans CJK SC"}


def check_language(lang: str) -> str:
    """``lang`` if it is one of LANGUAGES, else ``ValueError`` naming the known ones."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    return lang


def typst_preamble(lang: str) -> str:
    """Typst set-up for text in ``lang``: font fallback list and text language."""
    fonts = ", ".join(f'"{font}"' for font in FONTS[check_language(lang)])
    return f'#set text(font: ({fonts},), lang: "{lang}")'


LAYER_NAMES = {"none": "—", "l2": "L2", "rmsnorm": "RMSNorm", "layernorm": "LayerNorm", "batchnorm": "BatchNorm",
               "groupnorm": "GroupNorm"}


def layer_name(kind: str) -> str:
    """A layer's usual written name (the same in every language): ``"layernorm"`` → ``"LayerNorm"``."""
    return LAYER_NAMES[str(kind)]
