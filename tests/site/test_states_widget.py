"""states: a states file read in Chromium (nothing uploaded) shows, per normalization call, the
statistics normgeo.layer_profile and depth_summary compute on the same file read by
normgeo_models.states_file; the drawn points of the ‖x‖₂ plot sit where their values say; a bad
file shows one clear message and no table."""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import numpy as np
import pytest

from normgeo import depth_summary, layer_profile
from normgeo_models.states_file import read_states
from scenes.render.site import WIDGET_FOR_SCENE, SiteScene, build_site
from scenes.kit.real_states import token_label
from tests.site.conftest import PageProblems, axe_violations

STATES = Path(__file__).resolve().parents[2] / "scenes" / "states"
FILES = ["minilm.safetensors", "smollm2.safetensors"]

READ = """
() => {
  const root = document.querySelector('[data-widget="states"]');
  const rows = [...root.querySelectorAll('tr[data-layer]')].map((tr) => {
    const cells = {};
    tr.querySelectorAll('td[data-stat]').forEach((td) => {
      cells[td.getAttribute('data-stat')] = {value: td.getAttribute('data-value'), text: td.textContent,
                                             token: td.getAttribute('data-token'), bound: td.getAttribute('data-bound')};
    });
    return cells;
  });
  const svg = root.querySelector('svg[data-plot]');
  const points = svg ? [...svg.querySelectorAll('circle[data-series]')].map((c) => ({
    series: c.getAttribute('data-series'), layer: +c.getAttribute('data-layer'), value: c.getAttribute('data-value'),
    cx: +c.getAttribute('cx'), cy: +c.getAttribute('cy')})) : [];
  return {state: root.getAttribute('data-state'), rows, points, plot: svg ? svg.getAttribute('data-plot') : null,
          error: root.querySelector('[data-out="error"]').textContent, summary: root.querySelector('[data-out="summary"]').textContent,
          text: root.textContent};
}
"""


@pytest.fixture(scope="module")
def states_page(browser, site):
    context = browser.new_context(viewport={"width": 1000, "height": 1000})
    page = context.new_page()
    problems = PageProblems(page)  # console errors, page errors, any request but file:/data:/blob:
    page.goto((site / "widgets" / "states.html").as_uri() + "?lang=en")
    yield page
    context.close()
    problems.check()


def load(page, path: Path) -> dict:
    page.set_input_files('[data-control="file"]', str(path))
    page.wait_for_function("() => ['shown', 'refused'].includes(document.querySelector('[data-widget=states]').getAttribute('data-state'))")
    return page.evaluate(READ)


def core_summary(path: Path):
    states = read_states(path)
    layers = [layer for layer in states.layers if layer.kind in ("rmsnorm", "layernorm")]
    profiles = [layer_profile(layer.tokens(), layer.eps, layer.kind == "layernorm", layer.weight, layer.bias,
                              None if layer.output is None else layer.tokens("output"), 10.0) for layer in layers]
    return states, profiles, depth_summary(profiles)


def close(shown, expected, what: str, rel: float = 1e-12) -> None:
    """|shown − expected| ≤ rel·max|expected| over the column (a mean share near 0 keeps the column's scale)."""
    shown = np.asarray(shown, dtype=float)
    expected = np.asarray(expected, dtype=float)
    assert shown.shape == expected.shape, what
    defined = np.isfinite(expected)  # NaN where the core has nothing (no output captured, a γᵢ = 0): shown as "—"
    assert (np.isfinite(shown) == defined).all(), f"{what}: JS {shown} but the core says {expected}"
    shown, expected = shown[defined], expected[defined]
    if not expected.size:
        return
    bound = rel * np.max(np.abs(expected))
    worst = np.max(np.abs(shown - expected))
    assert worst <= bound, f"{what}: JS {shown} but the core says {expected} (off by {worst:.3g} > {bound:.3g})"


@pytest.mark.parametrize("name", FILES)
def test_the_shown_statistics_are_the_cores(states_page, name):
    path = STATES / name
    result = load(states_page, path)
    assert result["state"] == "shown", result["error"]
    states, profiles, summary = core_summary(path)
    rows = result["rows"]
    assert len(rows) == len(profiles)

    def column(stat):
        return [float("nan") if row[stat]["value"] is None else float(row[stat]["value"]) for row in rows]

    for stat, expected in (("median-norm", summary.median_norms), ("max-norm", summary.max_norms),
                           ("largest-ratio", summary.largest_ratios), ("median-share", summary.median_shares),
                           ("max-share", summary.max_shares), ("median-angle", summary.median_angles),
                           ("max-angle", summary.max_angles), ("min-radius", summary.min_radii),
                           ("max-radius", summary.max_radii), ("min-measured", summary.min_measured),
                           ("max-measured", summary.max_measured), ("ratio", summary.ratios)):
        close(column(stat), expected, f"{name} {stat}")
    assert [int(row["massive-count"]["value"]) for row in rows] == summary.massive_counts.tolist()
    assert [int(row["max-norm"]["token"]) for row in rows] == summary.max_tokens.tolist()
    assert [int(row["ratio"]["bound"]) for row in rows] == [p.dimension.rank_bound for p in profiles]
    # the shown token is the file's token at that index, as the scenes write it
    for row, index in zip(rows, summary.max_tokens):
        assert row["max-norm"]["text"].endswith(f"({token_label(states.tokens[index])}, #{index + 1})"), row["max-norm"]["text"]
    assert "NaN" not in result["text"] and "undefined" not in result["text"] and "Infinity" not in result["text"]
    # a dash is explained exactly when one is shown (MiniLM's last LayerNorm has γᵢ = 0 in 3 places)
    assert ("— marks what normgeo cannot compute" in result["text"]) == bool(np.isnan(summary.min_measured).any() or np.isnan(summary.median_angles).any())


@pytest.mark.parametrize("name", FILES)
def test_the_drawn_points_are_the_norms_on_a_log_scale(states_page, name):
    path = STATES / name
    result = load(states_page, path)
    _, _, summary = core_summary(path)
    plot = json.loads(result["plot"])
    for series, expected in (("median", summary.median_norms), ("max", summary.max_norms)):
        points = sorted((p for p in result["points"] if p["series"] == series), key=lambda p: p["layer"])
        assert [p["layer"] for p in points] == list(range(len(expected)))
        close([float(p["value"]) for p in points], expected, f"{name} {series} points")
        # read back from where the point is drawn: log₁₀ v = lo + (y0 − cy)/(y0 − y1)·(hi − lo)
        drawn = [10 ** (plot["lo"] + (plot["y0"] - p["cy"]) / (plot["y0"] - plot["y1"]) * (plot["hi"] - plot["lo"])) for p in points]
        np.testing.assert_allclose(drawn, expected, rtol=1e-9)
        np.testing.assert_allclose([p["cx"] for p in points], [plot["x0"] + k * plot["dx"] for k in range(len(expected))])
        assert plot["lo"] <= math.log10(expected.min()) and math.log10(expected.max()) <= plot["hi"]


def test_smollm2_shows_its_massive_token(states_page):
    """The first token of SmolLM2 is massive in the middle calls: the count column says so."""
    result = load(states_page, STATES / "smollm2.safetensors")
    counts = [int(row["massive-count"]["value"]) for row in result["rows"]]
    _, _, summary = core_summary(STATES / "smollm2.safetensors")
    assert counts == summary.massive_counts.tolist() and max(counts) >= 1


def truncated(tmp_path: Path) -> Path:
    data = (STATES / "minilm.safetensors").read_bytes()
    path = tmp_path / "truncated.safetensors"
    path.write_bytes(data[: len(data) // 2])
    return path


def random_bytes(tmp_path: Path) -> Path:
    path = tmp_path / "random.safetensors"
    path.write_bytes(np.random.default_rng(0).integers(0, 256, 4096, dtype=np.uint8).tobytes())
    return path


def with_nan(tmp_path: Path) -> Path:
    """The shipped file with one float16 entry of layer 3's input set to NaN (bytes edited in place)."""
    data = bytearray((STATES / "minilm.safetensors").read_bytes())
    length = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8 : 8 + length])
    entry = header["layers/003/input"]
    assert entry["dtype"] == "F16"
    at = 8 + length + entry["data_offsets"][0] + 2 * 7
    data[at : at + 2] = struct.pack("<e", float("nan"))
    path = tmp_path / "nan.safetensors"
    path.write_bytes(bytes(data))
    return path


def other_dtype(tmp_path: Path) -> Path:
    from safetensors.numpy import save_file

    path = tmp_path / "ints.safetensors"
    save_file({"layers/000/input": np.ones((3, 4), dtype=np.int32)}, str(path), metadata={"normgeo": "{}"})
    return path


@pytest.mark.parametrize(("make", "says"), [
    (random_bytes, "random.safetensors: not a safetensors file"),
    (truncated, "truncated.safetensors: the file ends before its tensors do"),
    (with_nan, "nan.safetensors: layer encoder.layer.1.attention.output.LayerNorm input holds NaN at entry 7"),
    (other_dtype, "ints.safetensors: tensor layers/000/input is I32"),
])
def test_a_bad_file_shows_one_clear_message(states_page, tmp_path, make, says):
    path = make(tmp_path)
    with pytest.raises(Exception):
        read_states(path)  # the core refuses it too
    result = load(states_page, path)
    assert result["state"] == "refused"
    assert says in result["error"], result["error"]
    assert result["rows"] == [] and result["points"] == [] and result["summary"] == ""
    # after a refusal, a good file is shown again
    assert load(states_page, STATES / "minilm.safetensors")["state"] == "shown"


@pytest.mark.parametrize("name", ["states.npz", "states.npy", "model.pt"])
def test_numpy_and_pickle_files_are_refused_with_the_reason(states_page, tmp_path, name):
    path = tmp_path / name
    path.write_bytes(b"\x93NUMPY" + b"\0" * 64)
    result = load(states_page, path)
    assert result["state"] == "refused"
    assert result["error"].startswith(name + ": ")
    assert ("not in the browser" in result["error"]) if name.startswith("states") else ("never opened" in result["error"])


@pytest.mark.parametrize(("lang", "summary", "header"), [
    ("en", "all-MiniLM-L6-v2: 13 LayerNorm calls, 12 tokens of n = 384 features, √n ≈ 19.596.", "median ‖x‖₂"),
    ("zh", "all-MiniLM-L6-v2：LayerNorm 调用 13 次，12 个 token，每个 n = 384 个特征，√n ≈ 19.596。", "‖x‖₂ 中位数"),
    ("ru", "all-MiniLM-L6-v2: 13 вызовов LayerNorm, 12 токенов по n = 384 признаков, √n ≈ 19,596.", "медиана ‖x‖₂"),
])
def test_the_shown_text_in_each_language(states_page, site, lang, summary, header):
    states_page.goto((site / "widgets" / "states.html").as_uri() + f"?lang={lang}")
    result = load(states_page, STATES / "minilm.safetensors")
    assert result["summary"].startswith(summary), result["summary"]
    assert header in states_page.locator('[data-widget="states"] thead').inner_text()
    if lang == "ru":
        assert "," in result["rows"][0]["median-norm"]["text"]


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_no_serious_accessibility_violation(states_page, site, lang, theme):
    states_page.goto((site / "widgets" / "states.html").as_uri() + f"?lang={lang}&theme={theme}")
    assert axe_violations(states_page) == []
    load(states_page, STATES / "smollm2.safetensors")
    assert axe_violations(states_page) == []


def test_the_widget_is_on_the_real_states_scenes_section(open_page, tmp_path):
    """On the lecture page the real-states-rmsnorm section carries the drop zone, with its hint."""
    scene = SiteScene("real-states-rmsnorm", {"en": "Real states"}, {"en": "Real states"}, {"en": []}, [],
                      WIDGET_FOR_SCENE["real-states-rmsnorm"])
    build_site([scene], tmp_path / "site")
    page = open_page(tmp_path / "site" / "index.en.html")
    section = page.locator("#real-states-rmsnorm")
    assert section.locator(".ng-widget-hint").inner_text().startswith("Drop a states file")
    page.set_input_files('#real-states-rmsnorm [data-control="file"]', str(STATES / "smollm2.safetensors"))
    page.wait_for_function("() => document.querySelector('#real-states-rmsnorm [data-widget=states]').getAttribute('data-state') === 'shown'")
    assert section.locator("tr[data-layer]").count() == len(read_states(STATES / "smollm2.safetensors").layers)


CALL = "([name, calls]) => calls.map((args) => NormGeo.math[name](...args))"


def token_cases():
    """Seeded states (tokens, n) from 1e-150 to 1e150, with a mean part, a massive token, few tokens."""
    rng = np.random.default_rng(24)
    cases = []
    for tokens, n, scale, shift in ((5, 4, 1.0, 0.0), (12, 384, 3.0, 0.2), (10, 576, 1e150, -1.0), (3, 2, 1e-150, 5.0),
                                    (9, 16, 1.0, 40.0), (2, 7, 1e-3, 0.0)):
        states = scale * (rng.normal(size=(tokens, n)) + shift)
        states[0] *= 300.0 if scale < 1e100 else 1.0
        cases.append(states)
    return cases


def test_the_per_token_functions_are_the_cores(states_page):
    """ng-math.js's token_norms, mean_share, token_centring_angles, normalized_radius, massive_tokens and
    participation_ratio against normgeo's on seeded states; null exactly where the core raises."""
    import normgeo

    def js(name, calls):
        return states_page.evaluate(CALL, [name, [[np.asarray(a).tolist() if isinstance(a, np.ndarray) else a for a in c] for c in calls]])

    cases = token_cases()
    for name in ("token_norms", "mean_share", "token_centring_angles"):
        for shown, states in zip(js(name, [[s] for s in cases]), cases):
            close(shown, getattr(normgeo, name)(states), name)
    for eps in (0.0, 1e-5, 1.0):
        for centre in (False, True):
            for shown, states in zip(js("normalized_radius", [[s, eps, centre] for s in cases]), cases):
                close(shown, normgeo.normalized_radius(states, eps, centre), f"normalized_radius ε={eps} centre={centre}")
    for shown, states in zip(js("massive_tokens", [[normgeo.token_norms(s), 10.0] for s in cases]), cases):
        expected = normgeo.massive_tokens(normgeo.token_norms(states), 10.0)
        assert tuple(shown["indices"]) == expected.indices
        close([shown["median"]], [expected.median], "median")
        close(shown["ratios"], expected.ratios, "ratios")
        close([shown["largest_ratio"]], [expected.largest_ratio], "largest ratio")
    for shown, states in zip(js("participation_ratio", [[s] for s in cases]), cases):
        expected = normgeo.participation_ratio(states)
        close([shown["ratio"]], [expected.ratio], "participation ratio", rel=1e-11)
        assert (shown["rank_bound"], shown["tokens"], shown["n"]) == (expected.rank_bound, expected.tokens, expected.n)
    # where the core raises, the JavaScript returns null
    zero = np.array([[1.0, 2.0], [0.0, 0.0]])
    constant = np.array([[1.0, 2.0], [3.0, 3.0]])
    assert js("mean_share", [[zero]]) == [None]
    assert js("token_centring_angles", [[constant]]) == [None]
    assert js("normalized_radius", [[zero, 0.0, False], [constant, 0.0, True], [constant, 1e-5, True]])[:2] == [None, None]
    assert js("participation_ratio", [[np.ones((3, 4))], [np.ones((1, 4))]]) == [None, None]
    assert js("massive_tokens", [[[0.0, 0.0, 1.0], 10.0]]) == [None]
    for error, call in ((normgeo.ZeroVectorError, lambda: normgeo.mean_share(zero)),
                        (normgeo.ZeroVarianceError, lambda: normgeo.token_centring_angles(constant)),
                        (normgeo.ZeroVectorError, lambda: normgeo.normalized_radius(zero, 0.0, False)),
                        (normgeo.ZeroVarianceError, lambda: normgeo.normalized_radius(constant, 0.0, True)),
                        (normgeo.ZeroVectorError, lambda: normgeo.participation_ratio(np.ones((3, 4)))),
                        (normgeo.ShapeError, lambda: normgeo.participation_ratio(np.ones((1, 4)))),
                        (normgeo.ZeroVectorError, lambda: normgeo.massive_tokens([0.0, 0.0, 1.0]))):
        with pytest.raises(error):
            call()


def test_a_file_dropped_on_the_zone_is_read(states_page, site):
    """A real drop event (a DataTransfer holding the file's bytes) on the drop zone shows the same table."""
    import base64

    states_page.goto((site / "widgets" / "states.html").as_uri() + "?lang=en")
    data = base64.b64encode((STATES / "minilm.safetensors").read_bytes()).decode()
    states_page.evaluate("""(data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'dropped.safetensors'));
      document.querySelector('.ng-drop').dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, bubbles: true, cancelable: true}));
    }""", data)
    states_page.wait_for_function("() => document.querySelector('[data-widget=states]').getAttribute('data-state') === 'shown'")
    result = states_page.evaluate(READ)
    _, _, summary = core_summary(STATES / "minilm.safetensors")
    close([float(row["median-norm"]["value"]) for row in result["rows"]], summary.median_norms, "dropped median norms")


@pytest.mark.parametrize(("name", "layer_property"), [("minilm.safetensors", "--ln"), ("smollm2.safetensors", "--rms")])
def test_the_curves_wear_the_videos_colours(states_page, name, layer_property):
    """As in the real-states scenes: the median token in its layer's colour, the largest in the neutral
    emphasis (statistics are not layers: never another layer's hue)."""
    load(states_page, STATES / name)
    shown = states_page.evaluate("""(prop) => {
      const root = document.querySelector('[data-widget=states]');
      const style = getComputedStyle(root);
      const line = (s) => getComputedStyle(root.querySelector(`polyline[data-line=${s}]`)).stroke;
      const probe = document.createElement('span'); root.appendChild(probe);
      const colour = (v) => { probe.style.color = `var(${v})`; return getComputedStyle(probe).color; };
      return {median: line('median'), max: line('max'), layer: colour(prop), emphasis: colour('--emphasis')};
    }""", layer_property)
    assert shown["median"] == shown["layer"] and shown["max"] == shown["emphasis"], shown
