"""Scene 8, ``normalization-axes`` (B2, B3, B8): the source's 4×4 grid under every layer."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, UL, FadeIn, FadeOut, Line, ReplacementTransform, VGroup

from normgeo import batch_norm, group_norm, layer_norm, parse_layer, rms_norm, statistic_groups, statistics_by_group
from scenes.kit.base import EDGE, SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.claims import claim
from scenes.kit.grids import cell_rectangles, number_cells, shade_groups
from scenes.kit.languages import layer_name
from scenes.kit.spec import SceneSpec, SpecError, Vectors, as_setting_text, setting
from scenes.kit.text import math_number
from scenes.kit.widgets import text_mobject

__all__ = ["NormalizationAxesSpec", "NormalizationAxes"]

TABLE_LAYERS = ("batchnorm", "layernorm", "rmsnorm", "groupnorm")
NOTED_LAYERS = ("batchnorm", "rmsnorm", "groupnorm")  # a note beside the icon: conv nets' axes, no centring
ICON_SIDE = 1.15  # the small shaded grid of each row of the comparison table
GRID_WIDTH = 4.8  # the widest the grid may be and leave room for its labels and the description
STACKED_GRID_WIDTH = 4.0  # in a square or tall frame: room for the batch label and the row statistics


@dataclass(frozen=True)
class NormalizationAxesSpec(SceneSpec):
    """The grid (rows = batch, columns = features; the source's values), ε, and GroupNorm's group counts."""

    values: Vectors = setting(((1.0, 2.0, 3.0, 10.0), (2.0, 4.0, 1.0, 8.0), (3.0, 1.0, 5.0, 12.0), (0.0, 3.0, 2.0, 9.0)),
                              low=-9999, high=9999, items=(2, 6))
    eps: float = setting(1e-5, low=1e-12, high=1)
    groups: tuple[int, ...] = setting((2, 1), low=1, high=6, items=(1, 4))  # validate() asks for exactly two

    @property
    def groups_repeat(self) -> bool:
        """Both group counts are the same (a grid of 2, 3 or 5 features allows only one): the second
        GroupNorm step then changes nothing."""
        return self.groups[0] == self.groups[1]

    def validate(self) -> None:
        rows = {len(row) for row in self.values}
        if len(rows) != 1 or not 2 <= rows.pop() <= 6:
            raise SpecError("values: give rows of 2 to 6 numbers each (one feature is not a valid LayerNorm width: "
                            "its σ is 0), all rows the same length")
        features = len(self.values[0])
        if len(self.groups) != 2:
            raise SpecError(f"groups: give exactly two group counts (the narration shows GroupNorm twice), "
                            f"got {as_setting_text(self.groups)}")
        if any(features % g for g in self.groups):
            raise SpecError(f"groups: each count must divide the number of features ({features}), "
                            f"got {as_setting_text(self.groups)}")
        zero_rows = [index + 1 for index, row in enumerate(self.values) if not any(row)]
        if zero_rows:
            raise SpecError(f"values: row {zero_rows[0]} is all zeros: RMSNorm divides it by its RMS, 0 (undefined at ε = 0)")
        if any(features // g < 2 for g in self.groups):
            raise SpecError("groups: every group needs at least two features (one value has σ = 0: undefined at ε = 0, "
                            "0 for any ε > 0)")


@dataclass(frozen=True)
class GridState:
    """One tab of the widget: its layer, the computed values and who shares μ and σ."""

    key: str
    layer: str
    values: np.ndarray
    labels: np.ndarray
    groups: int | None = None


class NormalizationAxes(NormGeoScene):
    """Step through none, BatchNorm, LayerNorm, RMSNorm and GroupNorm; end on the comparison table."""

    spec_class = NormalizationAxesSpec

    def construct(self) -> None:
        self.grid_states = self.states()
        self.show_raw_grid()
        for state in self.grid_states[1:]:
            self.switch_to(state)
        self.compare_layers()

    def states(self) -> list[GridState]:
        """Everything the scene shows, from the core: the grid under each layer and who shares μ and σ."""
        grid, eps = np.array(self.spec.values, dtype=float), self.spec.eps
        shape = grid.shape
        states = [
            GridState("none", "none", grid, statistic_groups("none", shape)),
            GridState("batchnorm", "batchnorm", batch_norm(grid, eps=eps), statistic_groups("batchnorm", shape)),
            GridState("layernorm", "layernorm", layer_norm(grid, eps=eps), statistic_groups("layernorm", shape)),
            GridState("rmsnorm", "rmsnorm", rms_norm(grid, eps=eps), statistic_groups("rmsnorm", shape)),
        ]
        for index, groups in enumerate(self.spec.groups):
            key = "groupnorm" if index == 0 else "groupnorm-again"
            states.append(GridState(key, "groupnorm", group_norm(grid, groups, eps=eps),
                                    statistic_groups("groupnorm", shape, num_groups=groups), groups))
        return states

    def show_raw_grid(self) -> None:
        """The batch as a grid of raw values, its axes named."""
        colors, first = self.palette, self.grid_states[0]
        title = self.make_title()
        columns = first.values.shape[1]  # more than four columns: narrower cells, the same grid width
        layout = self.layout
        width = layout.pick(GRID_WIDTH, STACKED_GRID_WIDTH)
        cells = cell_rectangles(first.values.shape, min(layout.pick(1.2, 1.0), width / columns), layout.pick(0.6, 1.0),
                                colors.muted)
        if layout.stacked:  # at the top, a little left of the middle (the row statistics go right of it)
            cells.next_to(np.array([-0.35, layout.figure_top, 0.0]), DOWN, buff=0.5)
        else:
            cells.move_to((-3.0, -0.2, 0))
        self.features = self.text("features", font_size=SMALL_SIZE, color=colors.muted)
        self.features.next_to(cells, UP, buff=0.15).align_to(cells, LEFT)
        self.batch = self.text("batch", font_size=SMALL_SIZE, color=colors.muted)
        self.batch.next_to(cells, LEFT, buff=0.2).align_to(cells, UP)
        self.cells = cells
        self.numbers, self.shading, self.info = self.numbers_for(first), self.shading_for(first), self.info_for(first)
        self.row_stats, self.row_means = VGroup(), None
        self.say("intro", FadeIn(title), FadeIn(cells), FadeIn(self.features), FadeIn(self.batch),
                 FadeIn(self.shading), FadeIn(self.numbers), FadeIn(self.info), run_time=1.5, hold=1.5)

    def switch_to(self, state: GridState) -> None:
        """One tab: the values, the shading and the description change to the next layer's; under
        RMSNorm each row's RMS and mean are shown beside the grid."""
        numbers, shading, info = self.numbers_for(state), self.shading_for(state), self.info_for(state)
        animations = [ReplacementTransform(self.numbers, numbers), ReplacementTransform(self.shading, shading),
                      ReplacementTransform(self.info, info)]
        values = {}
        if state.key == "rmsnorm":
            stats = statistics_by_group(state.values, state.labels)
            self.row_means, self.row_rms = stats.mean, stats.rms
            self.row_stats = self.row_statistics(stats, self.cells)
            animations.append(FadeIn(self.row_stats))
            fixed = self.fmt.fixed  # the means and RMS as the columns beside the grid show them
            values = {"means": self.words("means", when=claim(stats, "zero_means"), low=fixed(stats.mean.min(), 2),
                                          high=fixed(stats.mean.max(), 2)),
                      "rms": self.words("rms-claim", when=claim(stats, "unit_rms"), rms_low=fixed(stats.rms.min(), 2),
                                        rms_high=fixed(stats.rms.max(), 2), eps=self.fmt.plain_scientific(self.spec.eps))}
        elif self.row_stats:
            animations.append(FadeOut(self.row_stats))
            self.row_stats = VGroup()
        when = None
        if state.groups:
            values = {"groups": state.groups, "facts": self.group_facts(state)}
            when = claim(self.spec, "groups_repeat") if state.key == "groupnorm-again" else None
        self.say(state.key, *animations, run_time=1.2, hold=2.5 if state.key != "rmsnorm" else 4.0, when=when,
                 **values)
        self.numbers, self.shading, self.info = numbers, shading, info
        self.final_state = state

    def group_facts(self, state: GridState) -> str:
        """What this group count makes GroupNorm: LayerNorm itself (one group), and with two features
        per group whether every cell is ±1 (the core's ``pairs_of_signs``: the 2-D LayerNorm picture)."""
        stats = statistics_by_group(state.values, state.labels)
        facts = []
        if state.groups == 1:
            facts.append(self.words("fact.one-group"))
        if stats.cells_per_group == 2:
            facts.append(self.words("fact.pairs", when=claim(stats, "pairs_of_signs"),
                                    eps=self.fmt.plain_scientific(self.spec.eps)))
        return "".join(" " + fact if self.spec.lang != "zh" else fact for fact in facts)

    def compare_layers(self) -> None:
        """B8: the grid and its description give way to the table, one row per layer with a small grid
        shaded by the cells that share μ and σ (the last frame: the summary of the scene)."""
        grid_group = VGroup(self.cells, self.shading, self.numbers, self.features, self.batch, self.info)
        table = self.comparison_table()
        self.table = table
        self.say("table", FadeOut(grid_group), FadeIn(table, shift=UP * 0.2), run_time=1.5, hold=4.0)

    def numbers_for(self, state: GridState) -> VGroup:
        """The grid's numbers under ``state``, as written."""
        texts = [self.fmt.number(v, 2) if state.key == "none" else self.fmt.fixed(v, 2) for v in state.values.ravel()]
        return number_cells(state.values, texts, self.cells, self.spec.lang,
                            self.palette.text, SMALL_SIZE)

    def info_for(self, state: GridState) -> VGroup:
        """Right of the grid: the layer's name, what it averages over, and what the numbers are."""
        colors = self.palette
        name = self.text(f"state.{state.layer}", font_size=SMALL_SIZE + 8, color=colors.layer(state.layer),
                         groups=state.groups or 0)
        averaged = self.text("averaged-over", font_size=SMALL_SIZE, axes=self.words(f"axes.{state.layer}"))
        note = (self.text("raw-values", font_size=SMALL_SIZE - 2, color=colors.muted)
                if state.key == "none" else
                self.text("values", font_size=SMALL_SIZE - 2, color=colors.muted,
                          eps=self.fmt.scientific(self.spec.eps)))
        info = VGroup(name, averaged, note).arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        if self.layout.stacked:  # under the grid
            return fit_width(info, self.layout.content_width).next_to(self.cells, DOWN, buff=0.9).to_edge(LEFT, buff=EDGE)
        return fit_width(info, 3.7).to_edge(RIGHT, buff=0.45).align_to(self.cells, UP)

    def shading_for(self, state: GridState) -> VGroup:
        """The cells that share μ and σ, in one shade per group."""
        if state.key == "none":
            return VGroup(*(cell.copy().set_fill(self.palette.input, opacity=0.0).set_stroke(width=0)
                            for cell in self.cells))
        return shade_groups(self.cells, state.labels, self.palette.layer(state.layer))

    def row_statistics(self, stats, cells: VGroup) -> VGroup:
        """Columns right of the grid: each row's RMS and mean (computed by the core)."""
        colors, lang = self.palette, self.spec.lang
        cols = len(cells) // len(stats.mean)
        column = VGroup()
        for header_key, values, color in (("rms", stats.rms, colors.rmsnorm),
                                          ("mean", stats.mean, colors.emphasis)):
            header = self.text(header_key, font_size=SMALL_SIZE - 2, color=colors.muted)
            entries = VGroup(*(text_mobject(f"${math_number(self.fmt.fixed(v, 2))}$", lang, color, SMALL_SIZE)
                               .move_to(cells[r * cols + cols - 1]) for r, v in enumerate(values)))
            column.add(VGroup(header, entries))
        column[0][1].shift(RIGHT * 1.0)
        column[1][1].shift(RIGHT * 1.9)
        for header, entries in column:
            header.next_to(entries, UP, buff=0.15).align_to(cells, UP).shift(UP * (header.height + 0.15))
        return column

    def comparison_table(self) -> VGroup:
        """B8: layer (with what its small grid cannot show) / who shares μ and σ (the small grid, shaded)
        / depends on the batch / where it is used; each row's texts on one baseline. In a square or tall
        frame the last two share a column, one above the other, and the rows spread down the frame."""
        colors, lang, wide = self.palette, self.spec.lang, not self.layout.stacked
        size = SMALL_SIZE + 4
        shape = np.array(self.spec.values).shape
        cell = ICON_SIDE / max(shape)
        heads = [text_mobject(self.words(f"table.{k}"), lang, colors.muted, SMALL_SIZE + 2) for k in ("depends", "used")]
        rows = [[VGroup(), VGroup(), *heads] if wide else [VGroup(), VGroup(), VGroup(*heads).arrange(DOWN, aligned_edge=LEFT)]]
        for layer in TABLE_LAYERS:
            color = colors.layer(layer)
            groups = self.spec.groups[0] if layer == "groupnorm" else None
            labels = statistic_groups(layer, shape, num_groups=groups) if groups else statistic_groups(layer, shape)
            cells = cell_rectangles(shape, cell, cell, colors.muted).set_stroke(width=1)
            icon = VGroup(shade_groups(cells, labels, color), cells)
            name = VGroup(text_mobject(layer_name(layer), lang, color, size))
            if layer in NOTED_LAYERS:
                name.add(text_mobject(self.words(f"table.note.{layer}"), lang, colors.muted, SMALL_SIZE))
            name.arrange(DOWN, aligned_edge=LEFT, buff=0.12)
            facts = [text_mobject(self.words("depends.yes" if parse_layer(layer).depends_on_batch else "no"), lang,
                                  colors.text, size),
                     text_mobject(self.words(f"used.{layer}"), lang, colors.text, size)]
            rows.append([name, icon, *facts] if wide else [name, icon, VGroup(*facts).arrange(DOWN, aligned_edge=LEFT)])
        columns = len(rows[0])
        table = VGroup(*(c for row in rows for c in row))
        table.arrange_in_grid(rows=len(rows), cols=columns, buff=(0.7 if wide else 0.45, 0.3), col_alignments="l" * columns)
        if not wide:  # the rows spread down the frame
            room = self.layout.top - 1.2 - self.layout.bottom
            if table.height < 0.8 * room:
                table.arrange_in_grid(rows=len(rows), cols=columns, col_alignments="l" * columns,
                                      buff=(0.45, 0.3 + (0.8 * room - table.height) / (len(rows) - 1)))
        for row in rows:  # texts on the baseline of the layer's name (the icon stays centred in its row)
            if wide and row is not rows[0]:
                baseline = _baseline(row[0][0])
                for text in row[2:]:
                    text.shift(UP * (baseline - _baseline(text)))
            elif wide:
                row[3].shift(UP * (_baseline(row[2]) - _baseline(row[3])))
            elif row is not rows[0]:
                row[2].align_to(row[0], UP)
        rule = Line(table.get_corner(UL), table.get_corner(UL) + RIGHT * table.width, color=colors.muted, stroke_width=1.5)
        rule.set_y(VGroup(*rows[1]).get_top()[1] + 0.15)
        group = VGroup(table, rule)
        fit_width(group, min(13.2, self.layout.content_width))
        top = self.layout.top - 1.0
        return group.move_to((0, 0, 0)).set_y(min(group.get_y(), top - group.height / 2))


def _baseline(text) -> float:
    """The height of a text's baseline: the median bottom of its glyphs (most glyphs sit on it; a
    descender such as y or g hangs below)."""
    return float(np.median([glyph.get_bottom()[1] for glyph in text.family_members_with_points()]))
