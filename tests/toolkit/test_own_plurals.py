"""Every Russian CLDR plural of the site's, the CLI's and the slides' words, filled at 1, 2, 5, 21,
22, 25 and 111 (issue 34: the `one` branch also serves 21 and 31, "# токен … обрезан" read wrong
there). The forms expected are written by hand from Russian grammar: the noun after the number
(1, 21 → the `one` form; 2, 22 → `few`; 5, 25, 111 → `many`), and the word agreeing with it."""

import tomllib
from pathlib import Path

import pytest

from scenes.kit.text import fill, plural_forms

ROOT = Path(__file__).resolve().parents[2]
FILES = ["scenes/web/ui.toml", "scenes/cli/spec_words.toml", "scenes/render/slides/words.toml",
         "scenes/kit/common.toml"]
NUMBERS = (1, 2, 5, 21, 22, 25, 111)


def forms(one: str, few: str, many: str) -> dict[int, str]:
    """"{n} word" for each number, by its category."""
    pick = {1: one, 2: few, 5: many, 21: one, 22: few, 25: many, 111: many}
    return {n: pick[n].replace("#", str(n)) for n in NUMBERS}


# (file, key, selector) → what the filled message holds for each number
EXPECTED = {
    ("scenes/web/ui.toml", "grid.axes.groupnorm", "groups"): forms("# группа", "# группы", "# групп"),
    ("scenes/web/ui.toml", "grid.error.one-per-group", "groups"): forms("При # группе", "При # группах",
                                                                        "При # группах"),
    ("scenes/web/ui.toml", "cond.figure", "n"): forms("и # шаг градиентного", "и # шага градиентного",
                                                      "и # шагов градиентного"),
    ("scenes/web/ui.toml", "cond.legend.raw", "n"): forms("# шаг", "# шага", "# шагов"),
    ("scenes/web/ui.toml", "cond.legend.standardized", "n"): forms("# шаг", "# шага", "# шагов"),
    ("scenes/web/ui.toml", "states.summary", "n"): forms("# вызов RMSNorm", "# вызова RMSNorm", "# вызовов RMSNorm"),
    ("scenes/web/ui.toml", "states.summary", "tokens"): forms("# токен по", "# токена по", "# токенов по"),
    ("scenes/web/ui.toml", "states.skipped", "n"): forms("Не показан # вызов других", "Не показаны # вызова других",
                                                         "Не показано # вызовов других"),
    ("scenes/web/ui.toml", "states.figure", "n"): forms("из # вызова,", "из # вызовов,", "из # вызовов,"),
    ("scenes/cli/spec_words.toml", "header", "n"): forms("# параметр (", "# параметра (", "# параметров ("),
    ("scenes/cli/spec_words.toml", "items", "n"): forms("# значение", "# значения", "# значений"),
    ("scenes/cli/spec_words.toml", "items-range", "high"): forms("1–# значение", "1–# значения", "1–# значений"),
}


def russian_plurals():
    """(file, key, selector, template) of every Russian plural in the files."""
    for name in FILES:
        for key, entry in tomllib.loads((ROOT / name).read_text(encoding="utf-8")).items():
            tables = [(key, entry)] if "ru" in entry else [(f"{key}.{sub}", t) for sub, t in entry.items()]
            for full_key, table in tables:
                for selector in plural_forms(table["ru"]):
                    yield name, full_key, selector, table["ru"]


def test_every_russian_plural_has_its_expected_forms_written_here():
    found = {(name, key, selector) for name, key, selector, _ in russian_plurals()}
    assert found == set(EXPECTED), found ^ set(EXPECTED)


@pytest.mark.parametrize("n", NUMBERS)
@pytest.mark.parametrize(("name", "key", "selector", "template"), list(russian_plurals()),
                         ids=lambda v: v if isinstance(v, str) and "{" not in v else "")
def test_a_russian_plural_agrees_with_its_number(name, key, selector, template, n):
    values = {"groups": 3, "n": 3, "tokens": 3, "high": 3, "low": "1", "kinds": "RMSNorm", "model": "M", "width": 4,
              "root": "2", "factor": "100", "size": 2, "scene": "x"}
    values[selector] = n if selector != "high" else str(n)
    assert EXPECTED[(name, key, selector)][n] in fill(template, "ru", values)
