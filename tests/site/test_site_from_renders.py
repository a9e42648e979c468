"""`normgeo site` on a folder of real renders: the page opens from disk in Chromium, every media
element loads, and the narrated text is what the render recorded."""

import json
import shlex

import pytest
from click.testing import CliRunner

from scenes.cli.main import cli

pytestmark = pytest.mark.render
TINY = ("--resolution", "192x108")


def normgeo(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("renders")
    for args in (("render", "scale-invariance"), ("still", "scale-invariance"), ("gif", "scale-invariance", "--width", 160),
                 ("gif", "scale-invariance", "--width", 160, "--format", "webp"),
                 ("gif", "scale-invariance", "--width", 160, "--format", "mp4"),
                 ("render", "layernorm-2d", "--lang", "ru")):
        normgeo(*args, *TINY, "--out", out, "--jobs", 1)
    return out


def test_site_from_real_renders_opens_from_disk(rendered, open_page):
    result = normgeo("site", "--out", rendered)
    assert "site:" in result.output and "present.html" in result.output
    index = rendered / "site" / "index.html"
    assert index.is_file() and (rendered / "site" / "present.html").is_file()
    page = open_page(index)
    page.wait_for_function("() => [...document.querySelectorAll('video')].every(v => v.readyState >= 1)", timeout=20000)
    text = page.inner_text("body")
    manifest = json.loads((rendered / "manifest.json").read_text())["artifacts"]
    record = manifest["scale-invariance/scale-invariance.en.dark.192x108p15.mp4"]
    for step in record["steps"][:2]:
        assert step["text"] in text
    positions = [text.find(title) for title in ("LayerNorm in 2-D", "Only the direction of the weights matters")]
    assert -1 not in positions and positions == sorted(positions)  # lecture order


def test_the_page_offers_gif_webp_and_looping_mp4_with_their_sizes(rendered, open_page):
    """The three web animations are linked with their sizes in kB (as Russian writes numbers on
    the Russian page), the shown one is the GIF, and the looping MP4's snippet is a muted,
    looping, inline <video>, whose file plays in Chromium."""
    normgeo("site", "--out", rendered)
    stem = rendered / "scale-invariance" / "scale-invariance.en.dark.160px.from192x108"
    sizes = {kind: (stem.parent / f"{stem.name}.{suffix}").stat().st_size
             for kind, suffix in (("gif", "gif"), ("webp", "webp"), ("loop", "loop.mp4"))}
    for page_name, unit, comma, space in (("index.html", "kB", ".", " "), ("index.ru.html", "КБ", ",", "\xa0")):
        page = open_page(rendered / "site" / page_name)
        figure = page.locator("#scale-invariance .ng-gif")
        links = figure.locator(".ng-formats a")
        assert [links.nth(i).get_attribute("data-format") for i in range(links.count())] == ["gif", "webp", "loop"]
        caption = figure.locator(".ng-formats").inner_text()
        for size in sizes.values():
            kilobytes = size / 1000
            number = f"{kilobytes:.0f}" if kilobytes >= 10 else f"{kilobytes:.1f}".rstrip("0").rstrip(".")
            assert f"{number.replace('.', comma)}{space}{unit}" in caption  # Russian: a no-break space
        assert figure.locator("img").get_attribute("src").endswith(".gif")
        snippet = figure.locator('.ng-snippet[data-snippet="loop"] textarea').input_value()
        assert snippet.startswith("<video src=") and "autoplay muted loop playsinline" in snippet
        assert ".mp4" in snippet
    loop_url = page.locator('#scale-invariance .ng-formats a[data-format="loop"]').get_attribute("href")
    ready = page.evaluate("""async (url) => {
        const video = document.createElement('video');
        video.muted = true; video.src = url;
        await new Promise((done, fail) => { video.onloadeddata = done; video.onerror = fail; });
        return [video.readyState, video.videoWidth];
    }""", loop_url)
    assert ready[0] >= 2 and ready[1] == 160


def test_gallery_is_retired_with_a_clear_message(rendered):
    result = CliRunner().invoke(cli, ["gallery", "--out", str(rendered)])
    assert result.exit_code == 0 and "now `normgeo site`" in result.output


def test_a_scene_not_rendered_in_the_pages_language_says_so_and_how_to_add_it(rendered, open_page):
    """layernorm-2d was rendered in Russian only: the English page says so (and how to add
    English); the Russian page has no such note for it, and neither page has one for a scene
    rendered in its own language."""
    normgeo("site", "--out", rendered)
    english = open_page(rendered / "site" / "index.html")
    note = english.locator("#layernorm-2d .ng-other-language")
    assert note.count() == 1
    text = note.inner_text()
    assert "Русский" in text and "normgeo render layernorm-2d --lang en --theme dark,light" in text and "`" not in text
    assert note.locator("code").inner_text() == "normgeo render layernorm-2d --lang en --theme dark,light"
    assert english.locator("#scale-invariance .ng-other-language").count() == 0
    russian = open_page(rendered / "site" / "index.ru.html")
    assert russian.locator("#layernorm-2d .ng-other-language").count() == 0
    notes = russian.locator("#scale-invariance .ng-other-language")
    assert notes.count() == 3 and all("English" in notes.nth(i).inner_text() for i in range(3))


def test_a_still_in_another_language_says_so_and_its_command_adds_it(tmp_path, open_page):
    """A video in English and a still in Chinese only (light theme): the English page says so under
    the still alone, and the command it shows, run as shown, renders the English still (not
    "cached"), after which the note is gone."""
    out = tmp_path / "renders"
    normgeo("render", "scale-invariance", *TINY, "--out", out, "--jobs", 1)
    normgeo("still", "scale-invariance", "--lang", "zh", "--theme", "light", *TINY, "--out", out, "--jobs", 1)
    normgeo("site", "--out", out)
    page = open_page(out / "site" / "index.html")
    assert page.locator("#scale-invariance .ng-video .ng-other-language").count() == 0
    note = page.locator("#scale-invariance .ng-still .ng-other-language")
    assert "中文" in note.inner_text()
    command = note.locator("code").inner_text()
    assert command == "normgeo still scale-invariance --lang en --theme dark,light"
    made = normgeo(*shlex.split(command)[1:], "--out", out, "--jobs", 1)
    assert "done: 2 made, 0 cached, 0 failed" in made.output, made.output
    normgeo("site", "--out", out)
    after = open_page(out / "site" / "index.html")
    assert after.locator("#scale-invariance .ng-still").locator(".ng-other-language, .ng-theme-only").count() == 0
