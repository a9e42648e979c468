"""Each widget's page fits the iframe its embed snippet gives it, in every language and theme:
no scroll bar, nothing cut off at the bottom."""

import pytest

from scenes.render.site import WIDGET_SIZE


@pytest.mark.parametrize("name", [name for name in WIDGET_SIZE if name != "states"])  # (states: tested with a file)
def test_the_widget_fits_its_snippets_iframe(open_page, site, name):
    width, height = WIDGET_SIZE[name]
    snippet = open_page(site / "index.html").locator(f'.ng-snippet[data-widget-name="{name}"]').first
    assert (snippet.get_attribute("data-width"), snippet.get_attribute("data-height")) == (str(width), str(height))
    for lang in ("en", "zh", "ru"):
        for theme in ("dark", "light"):
            page = open_page(site / "widgets" / f"{name}.html", query=f"?lang={lang}&theme={theme}",
                             viewport=(width, 100))
            needed = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            assert needed[0] <= width and needed[1] <= height, (name, lang, theme, needed)
