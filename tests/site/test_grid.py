"""The grid widget shows exactly what normgeo's core computes, and refuses bad input politely."""

from __future__ import annotations

import numpy as np
import pytest

import normgeo
from scenes.batchnorm_geometry import BatchNormGeometrySpec
from scenes.kit.site_data import SOURCE_GRID as KIT_GRID
from scenes.normalization_axes import NormalizationAxesSpec
from tests.site.conftest import PageProblems, assert_close, axe_violations, number_text

SOURCE_GRID = np.array([[1, 2, 3, 10], [2, 4, 1, 8], [3, 1, 5, 12], [0, 3, 2, 9]], dtype=float)
LAYERS = ("none", "batchnorm", "layernorm", "rmsnorm", "groupnorm")

# Runs many inputs in one page evaluation, each through the widget's own input handlers
# (value set, then the "input"/"change" event; tabs clicked), and reads back what the DOM shows.
DRIVE = """
(cases) => {
  const root = document.querySelector('[data-widget="grid"]');
  const fire = (node, type) => node.dispatchEvent(new Event(type, {bubbles: true}));
  const read = () => {
    const out = [], groups = [];
    for (let r = 0; r < 4; r++) {
      out.push([]); groups.push([]);
      for (let c = 0; c < 4; c++) {
        const cell = root.querySelector(`[data-out-row="${r}"][data-out-col="${c}"]`);
        out[r].push(cell.hasAttribute('data-value') ? cell.getAttribute('data-value') : null);
        groups[r].push(Number(cell.getAttribute('data-group')));
      }
    }
    const stat = (name) => [0, 1, 2, 3].map((r) => {
      const node = root.querySelector(`[data-stat="${name}"][data-row="${r}"]`);
      return node.hasAttribute('data-value') ? node.getAttribute('data-value') : null;
    });
    return {out, groups, rms: stat('rms'), mean: stat('mean'), message: root.querySelector('[data-out="message"]').textContent,
            text: root.textContent, groupsShown: root.getAttribute('data-groups')};
  };
  return cases.map((c) => {
    root.querySelector(`button[data-layer="${c.layer}"]`).click();
    if (c.groups !== undefined) { const s = root.querySelector('[data-control="groups"]'); s.value = String(c.groups); fire(s, 'change'); }
    const eps = root.querySelector('[data-control="eps"]'); eps.value = c.eps; fire(eps, 'input');
    for (let r = 0; r < 4; r++) for (let c2 = 0; c2 < 4; c2++) {
      const input = root.querySelector(`input[data-row="${r}"][data-col="${c2}"]`);
      input.value = c.texts[r][c2]; fire(input, 'input');
    }
    return read();
  });
}
"""


def core(layer: str, x: np.ndarray, eps: float, groups: int = 2) -> np.ndarray:
    if layer == "none":
        return x
    if layer == "batchnorm":
        return normgeo.batch_norm(x, eps=eps)
    if layer == "layernorm":
        return normgeo.layer_norm(x, eps=eps)
    if layer == "rmsnorm":
        return normgeo.rms_norm(x, eps=eps)
    return normgeo.group_norm(x, groups, eps=eps)


def random_grid(rng: np.random.Generator) -> np.ndarray:
    kind = rng.integers(4)
    if kind == 0:
        return rng.integers(-20, 21, (4, 4)).astype(float)
    if kind == 1:
        return rng.standard_normal((4, 4)) * 10.0 ** rng.uniform(-3, 3)
    if kind == 2:  # very different magnitudes side by side
        return rng.standard_normal((4, 4)) * 10.0 ** rng.uniform(-100, 100, (4, 4))
    return rng.uniform(-1, 1, (4, 4)) + rng.uniform(-5, 5)


def random_eps(rng: np.random.Generator) -> float:
    return float(rng.choice([0.0, 1e-5, 1e-3, 0.5, 10.0 ** rng.uniform(-12, 1)]))


@pytest.fixture(scope="module")
def grid_page(browser, site):
    context = browser.new_context(viewport={"width": 900, "height": 900})
    page = context.new_page()
    problems = PageProblems(page)  # console errors, page errors, any request but file:/data:/blob:
    page.goto((site / "widgets" / "grid.html").as_uri() + "?lang=en")
    yield page
    context.close()
    problems.check()


def test_source_grid_is_the_default_and_every_layer_matches_the_core(grid_page):
    """Out of the box the grid holds the lesson's numbers; each tab, clicked, shows the core's output."""
    page = grid_page
    page.reload()
    texts = [[page.locator(f'input[data-row="{r}"][data-col="{c}"]').input_value() for c in range(4)] for r in range(4)]
    assert np.array([[float(v) for v in row] for row in texts]).tolist() == SOURCE_GRID.tolist()
    eps = float(page.locator('[data-control="eps"]').input_value())
    for layer in LAYERS:
        page.locator(f'button[data-layer="{layer}"]').click()
        assert page.locator(f'button[data-layer="{layer}"]').get_attribute("aria-pressed") == "true"
        shown = [[float(page.locator(f'[data-out-row="{r}"][data-out-col="{c}"]').get_attribute("data-value")) for c in range(4)] for r in range(4)]
        assert_close(shown, core(layer, SOURCE_GRID, eps), layer)


def test_rmsnorm_row_rms_is_one_and_row_means_are_not(grid_page):
    """B3: under RMSNorm every row's RMS is 1 (up to ε) and its mean is 0.75, 0.81, 0.78, 0.72."""
    page = grid_page
    page.reload()
    page.locator('button[data-layer="rmsnorm"]').click()
    rms = [float(page.locator(f'[data-stat="rms"][data-row="{r}"]').get_attribute("data-value")) for r in range(4)]
    mean = [float(page.locator(f'[data-stat="mean"][data-row="{r}"]').get_attribute("data-value")) for r in range(4)]
    out = normgeo.rms_norm(SOURCE_GRID, eps=1e-5)
    stats = normgeo.statistics_by_group(out, normgeo.statistic_groups("layernorm", (4, 4)))
    assert_close(rms, stats.rms, "row RMS")
    assert_close(mean, stats.mean, "row mean")
    assert np.round(mean, 2).tolist() == [0.75, 0.81, 0.78, 0.72]
    assert page.locator('[data-out-row="0"][data-out-col="0"]').inner_text() == "0.187"


def test_typing_a_cell_and_choosing_groups_by_hand(grid_page):
    page = grid_page
    page.reload()
    cell = page.locator('input[data-row="2"][data-col="1"]')
    cell.click()
    cell.press("Control+a")
    cell.press_sequentially("-7.25")
    page.locator('button[data-layer="groupnorm"]').click()
    page.locator('[data-control="groups"]').select_option("1")
    eps_box = page.locator('[data-control="eps"]')
    eps_box.fill("0.001")
    x = SOURCE_GRID.copy()
    x[2, 1] = -7.25
    shown = [[float(page.locator(f'[data-out-row="{r}"][data-out-col="{c}"]').get_attribute("data-value")) for c in range(4)] for r in range(4)]
    assert_close(shown, normgeo.group_norm(x, 1, eps=0.001), "groupnorm, 1 group")
    assert page.locator('[data-widget="grid"]').get_attribute("data-groups") == "1"


@pytest.mark.parametrize("layer", LAYERS)
def test_random_inputs_match_the_core(grid_page, layer):
    """At least 200 seeded random grids per layer (values, ε, groups) through the widget's handlers."""
    rng = np.random.default_rng(["none", "batchnorm", "layernorm", "rmsnorm", "groupnorm"].index(layer) + 100)
    cases, grids = [], []
    for _ in range(220):
        x = random_grid(rng)
        eps = random_eps(rng)
        groups = int(rng.choice([1, 2]))
        grids.append((x, eps, groups))
        cases.append({"layer": layer, "groups": groups, "eps": number_text(eps), "texts": [[number_text(v) for v in row] for row in x]})
    results = grid_page.evaluate(DRIVE, cases)
    degenerate = 0
    for (x, eps, groups), result in zip(grids, results):
        labels = normgeo.statistic_groups(layer, (4, 4), num_groups=groups if layer == "groupnorm" else None)
        try:
            expected = core(layer, x, eps, groups)
        except (normgeo.ZeroVarianceError, normgeo.ZeroVectorError):
            # a constant group at ε = 0: the widget says so, leaves that group empty, shows the others
            degenerate += 1
            assert result["message"], "a degenerate group must be explained"
            for label in np.unique(labels):
                mask = labels == label
                shown = [result["out"][r][c] for r, c in zip(*np.nonzero(mask))]
                try:
                    group = normgeo.normalize(x[mask], centre=layer != "rmsnorm", eps=eps)
                except (normgeo.ZeroVarianceError, normgeo.ZeroVectorError):
                    assert shown == [None] * len(shown)
                else:
                    assert_close([float(v) for v in shown], group, f"{layer} group {label}")
            continue
        assert result["message"] == "", result["message"]
        shown = np.array([[float(v) for v in row] for row in result["out"]])
        assert_close(shown, expected, f"{layer} ε={eps} groups={groups}")
        assert np.array(result["groups"]).tolist() == labels.tolist()
        if layer == "rmsnorm":
            stats = normgeo.statistics_by_group(normgeo.rms_norm(x, eps=eps), normgeo.statistic_groups("layernorm", (4, 4)))
            assert_close([float(v) for v in result["rms"]], stats.rms, "row RMS")
            assert_close([float(v) for v in result["mean"]], stats.mean, "row mean")
        else:
            assert result["rms"] == [None] * 4
        assert "NaN" not in result["text"] and "Infinity" not in result["text"]
    assert degenerate < 20


BAD = [("abc", "not a number"), ("", "empty"), ("1e300", "too large"), ("1e999", "too large")]


@pytest.mark.parametrize(("text", "reason"), BAD)
def test_a_bad_cell_is_marked_and_the_other_groups_keep_their_values(grid_page, text, reason):
    page = grid_page
    page.reload()
    page.locator('button[data-layer="layernorm"]').click()
    cell = page.locator('input[data-row="1"][data-col="2"]')
    cell.fill(text)
    assert cell.get_attribute("aria-invalid") == "true"
    message = page.locator('[data-out="message"]').inner_text()
    assert "Row 2, column 3" in message and reason in message
    expected = normgeo.layer_norm(SOURCE_GRID, eps=1e-5)
    for r in range(4):
        for c in range(4):
            out = page.locator(f'[data-out-row="{r}"][data-out-col="{c}"]')
            if r == 1:
                assert out.get_attribute("data-value") is None and out.inner_text() == "—"
            else:
                assert_close(float(out.get_attribute("data-value")), expected[r, c])
    text_shown = page.locator('[data-widget="grid"]').inner_text()
    assert "NaN" not in text_shown and "Infinity" not in text_shown
    cell.fill("4")  # repaired: everything comes back
    assert cell.get_attribute("aria-invalid") is None
    assert page.locator('[data-out="message"]').inner_text() == ""


def test_a_constant_row_at_eps_zero_is_refused_with_sigma_zero(grid_page):
    page = grid_page
    page.reload()
    for c in range(4):
        page.locator(f'input[data-row="3"][data-col="{c}"]').fill("5")
    page.locator('[data-control="eps"]').fill("0")
    page.locator('button[data-layer="layernorm"]').click()
    message = page.locator('[data-out="message"]').inner_text()
    assert "Row 4" in message and "σ = 0" in message
    x = SOURCE_GRID.copy()
    x[3] = 5
    expected = normgeo.layer_norm(x[:3], eps=0.0)
    for r in range(3):
        for c in range(4):
            assert_close(float(page.locator(f'[data-out-row="{r}"][data-out-col="{c}"]').get_attribute("data-value")), expected[r, c])
    assert page.locator('[data-out-row="3"][data-out-col="0"]').get_attribute("data-value") is None
    with pytest.raises(normgeo.ZeroVarianceError):
        normgeo.layer_norm(x, eps=0.0)
    # BatchNorm on the same grid: no column is constant, everything is computed
    page.locator('button[data-layer="batchnorm"]').click()
    assert page.locator('[data-out="message"]').inner_text() == ""
    shown = [[float(page.locator(f'[data-out-row="{r}"][data-out-col="{c}"]').get_attribute("data-value")) for c in range(4)] for r in range(4)]
    assert_close(shown, normgeo.batch_norm(x, eps=0.0))


@pytest.mark.parametrize("eps_text", ["-1", "x", "", "1e300"])
def test_bad_eps_is_marked(grid_page, eps_text):
    page = grid_page
    page.reload()
    page.locator('button[data-layer="batchnorm"]').click()
    box = page.locator('[data-control="eps"]')
    box.fill(eps_text)
    assert box.get_attribute("aria-invalid") == "true"
    assert page.locator('[data-out="message"]').inner_text().startswith("ε:")
    assert page.locator("[data-out-row][data-value]").count() == 0
    assert "NaN" not in page.locator('[data-widget="grid"]').inner_text()


def test_only_group_counts_that_leave_two_values_are_offered(grid_page):
    """4 features: 1 and 2 groups (4 would leave one value per group, which normalizes to 0 at
    ε > 0 and not at all at ε = 0); a script asking for 4 anyway is refused with the reason."""
    page = grid_page
    page.reload()
    page.locator('button[data-layer="groupnorm"]').click()
    options = page.locator('[data-control="groups"] option').all_inner_texts()
    assert options == [str(g) for g in range(1, 5) if 4 % g == 0 and 4 // g >= 2] == ["1", "2"]
    for groups in (1, 2):
        page.locator('[data-control="groups"]').select_option(str(groups))
        assert page.locator('[data-out="message"]').inner_text() == ""
    page.evaluate("document.querySelector('[data-widget=grid]').ngWidget.set({groups: 4})")
    message = page.locator('[data-out="message"]').inner_text()
    assert "4 groups leave one value per group" in message and "ε > 0" in message
    assert page.locator('[data-widget="grid"]').get_attribute("data-groups") == "2"
    shown = [[float(page.locator(f'[data-out-row="{r}"][data-out-col="{c}"]').get_attribute("data-value")) for c in range(4)] for r in range(4)]
    assert_close(shown, normgeo.group_norm(SOURCE_GRID, 2, eps=1e-5))


def test_keyboard_and_formula_parts(grid_page):
    page = grid_page
    page.reload()
    tab = page.locator('button[data-layer="batchnorm"]')
    tab.focus()
    page.keyboard.press("Enter")
    assert tab.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    assert page.locator('button[data-layer="layernorm"]').get_attribute("aria-pressed") == "true"
    formula = page.locator(".ng-formula")
    for part in ("centre", "scale", "affine"):
        assert formula.locator(f'svg [data-part="{part}"]').count() > 0
        page.locator(f'button[data-part="{part}"]').hover()
        assert formula.get_attribute("data-lit") == part
        assert page.locator(f'button[data-part="{part}"]').get_attribute("aria-pressed") == "true"
    page.locator('button[data-part="scale"]').focus()
    assert formula.get_attribute("data-lit") == "scale"


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_no_serious_accessibility_violation(grid_page, site, lang, theme):
    grid_page.goto((site / "widgets" / "grid.html").as_uri() + f"?lang={lang}&theme={theme}")
    assert grid_page.evaluate("document.documentElement.lang") == lang
    assert axe_violations(grid_page) == []
    for layer in ("rmsnorm", "groupnorm"):  # text on every layer's shading, the formula's lit part
        grid_page.locator(f'button[data-layer="{layer}"]').click()
        grid_page.locator('button[data-part="centre"]').click()
        assert axe_violations(grid_page) == [], layer


@pytest.mark.parametrize(("lang", "cell", "one_group", "two_groups", "batch"), [
    ("en", "0.187", "a group of features (1 group of 4 per row)", "a group of features (2 groups of 2 per row)", "batch ↓ / features →"),
    ("zh", "0.187", "一组特征（每行 1 组，每组 4 个）", "一组特征（每行 2 组，每组 2 个）", "批次 ↓ / 特征 →"),
    ("ru", "0,187", "группе признаков (1 группа по 4 в строке)", "группе признаков (2 группы по 2 в строке)", "батч ↓ / признаки →"),
])
def test_the_shown_text_in_each_language(grid_page, site, lang, cell, one_group, two_groups, batch):
    """The displayed words and numbers, not only data-*: the decimal comma in Russian, the plural
    of the group count (CLDR: one / few), the glossary's word for the batch."""
    page = grid_page
    page.goto((site / "widgets" / "grid.html").as_uri() + f"?lang={lang}")
    page.locator('button[data-layer="rmsnorm"]').click()
    assert page.locator('[data-out-row="0"][data-out-col="0"]').inner_text() == cell
    assert page.locator('[data-stat="mean"][data-row="0"]').inner_text() == ("0,749" if lang == "ru" else "0.749")
    page.locator('button[data-layer="groupnorm"]').click()
    page.locator('[data-control="groups"]').select_option("1")
    assert page.locator('[data-out="averaged-over"]').inner_text() == one_group
    page.locator('[data-control="groups"]').select_option("2")
    assert page.locator('[data-out="averaged-over"]').inner_text() == two_groups
    assert page.locator("th.ng-axis").first.inner_text() == batch
    page.locator('[data-control="eps"]').fill("1e-300")
    page.locator('input[data-row="0"][data-col="0"]').fill("2.5e-200")
    page.locator('button[data-layer="none"]').click()
    assert page.locator('[data-out-row="0"][data-out-col="0"]').inner_text() == ("2,5·10⁻²⁰⁰" if lang == "ru" else "2.5·10⁻²⁰⁰")


def test_the_lessons_grid_is_one_set_of_numbers():
    """The widget's default comes from the kit (scenes/kit/site_data.SOURCE_GRID); the scenes that
    show the same grid start from the same numbers, and they are the lesson's."""
    assert np.array(KIT_GRID).tolist() == SOURCE_GRID.tolist()
    assert np.array(NormalizationAxesSpec().values).tolist() == SOURCE_GRID.tolist()
    assert np.array(BatchNormGeometrySpec().values).tolist() == SOURCE_GRID.tolist()
