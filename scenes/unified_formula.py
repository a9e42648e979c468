"""Scene 9, ``unified-formula`` (B1): x̂ = (x − μ)/√(σ² + ε), y = γx̂ + β over different axes."""

from __future__ import annotations

from dataclasses import dataclass

from manim import DOWN, LEFT, PI, RIGHT, UP, FadeIn, FadeOut, VGroup, Write

from normgeo import Layer, statistic_groups
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.grids import cell_rectangles, shade_groups
from scenes.kit.languages import layer_name
from scenes.kit.spec import SceneSpec, SpecError, setting
from scenes.kit.widgets import text_mobject

__all__ = ["UnifiedFormulaSpec", "UnifiedFormula"]

TABLE_WIDTH = 12.5  # the three-column table; a narrower frame puts each description under its row
MAX_CELL = 0.5  # a grid's cell at most this wide
ROW_GAP = 0.3  # between the layers' rows
AXIS_LABEL_ROOM = 0.45  # above the first grid: its "features →"

PARTS = ("centre", "scale", "affine")
LAYERS = (Layer.BATCHNORM, Layer.LAYERNORM, Layer.RMSNORM, Layer.GROUPNORM)


@dataclass(frozen=True)
class UnifiedFormulaSpec(SceneSpec):
    """The grid drawn for each layer (rows = batch, columns = features) and GroupNorm's groups."""

    batch: int = setting(4, low=2, high=8)
    features: int = setting(4, low=2, high=8)
    groups: int = setting(2, low=1, high=8)

    def validate(self) -> None:
        if self.features % self.groups:
            raise SpecError(f"groups: must divide the number of features ({self.features}), got {self.groups}")


class UnifiedFormula(NormGeoScene):
    """The formula with its three parts lit in turn; each layer as a partition of the grid."""

    spec_class = UnifiedFormulaSpec

    def construct(self) -> None:
        self.write_formula()
        self.lay_out_part_labels()
        for part in PARTS:
            self.light_part(part)
        self.lay_out_layer_rows()
        self.explain_axes()
        for layer in LAYERS:
            self.show_layer(layer)

    def write_formula(self) -> None:
        title = self.make_title()
        formula = self.formula(FORMULAS["unified"], font_size=44)
        fit_width(formula, self.layout.content_width).next_to(title, DOWN, buff=self.layout.pick(0.45, 0.9)).set_x(0)
        self.formula_mobject = formula
        self.say("intro", FadeIn(title), Write(formula), run_time=1.5, hold=0.5)

    def lay_out_part_labels(self) -> None:
        """A name under each part of the formula: centre, scale, affine. Centring takes the colour of
        the direction 1 (it removes μ·1); scale and affine are no concept: neutral, lit one at a time."""
        colors, formula = self.palette, self.formula_mobject
        self.part_colors = {"centre": colors.ones, "scale": colors.emphasis, "affine": colors.emphasis}
        labels = VGroup()
        for part in PARTS:
            label = self.text(f"part.{part}", font_size=SMALL_SIZE + 2, color=self.part_colors[part])
            labels.add(label.next_to(formula.select(part), DOWN, buff=0.3))
        if self.layout.content_width < TABLE_WIDTH:  # a narrow frame: one row under the formula
            fit_width(labels.arrange(RIGHT, buff=0.6), self.layout.content_width).next_to(formula, DOWN, buff=0.35)
        self.part_labels = labels
        self.labels_by_part = dict(zip(PARTS, labels))

    def light_part(self, part: str) -> None:
        """One part of the formula lit, with its name; the neutral part lit before it goes back to the
        text colour, the parts not yet lit wait in the muted one."""
        colors, formula = self.palette, self.formula_mobject
        changes = [formula.select(part).animate.set_color(self.part_colors[part]),
                   FadeIn(self.labels_by_part[part], shift=UP * 0.1)]
        index = PARTS.index(part)
        if index == 0:
            changes += [formula.select(p).animate.set_color(colors.muted) for p in PARTS[1:]]
        elif PARTS[index - 1] != "centre":
            changes.append(formula.select(PARTS[index - 1]).animate.set_color(colors.text))
        self.say(part, *changes, run_time=1.0, hold=0.6)

    def lay_out_layer_rows(self) -> None:
        """One row per layer: its name, the grid shaded by who shares μ and σ (from the core), the axes
        in a few words; the grids' own axes named beside the first one. The rows take the room under
        the formula (the part names have gone by then), the grids as large as it allows."""
        spec, colors, layout = self.spec, self.palette, self.layout
        shape = (spec.batch, spec.features)
        narrow = layout.content_width < TABLE_WIDTH
        top = self.formula_mobject.get_bottom()[1] - 0.35 - AXIS_LABEL_ROOM
        room = top - layout.bottom - (len(LAYERS) - 1) * ROW_GAP - (len(LAYERS) * 0.6 if narrow else 0.0)
        side = min(MAX_CELL, room / (len(LAYERS) * spec.batch), 3.2 / spec.features)
        self.group_labels = {}
        rows = []
        for layer in LAYERS:
            labels = statistic_groups(layer, shape, num_groups=spec.groups if layer is Layer.GROUPNORM else None)
            self.group_labels[layer.value] = labels
            cells = cell_rectangles(shape, side, side, colors.muted)
            grid = VGroup(shade_groups(cells, labels, colors.layer(layer)), cells)
            name = text_mobject(layer_name(layer.value), spec.lang, colors.layer(layer), SMALL_SIZE + 2)
            description = self.text(f"axes.{layer.value}", font_size=SMALL_SIZE, **self.counted(layer))
            rows.append((name, grid, description))
        if narrow:  # each row's description under its name and grid, the grids in one column
            widest = max(name.width for name, _, _ in rows)
            for name, grid, _ in rows:
                grid.next_to(name, RIGHT, buff=0.6 + widest - name.width)
            table = VGroup(*(VGroup(VGroup(name, grid), description).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
                             for name, grid, description in rows))
            table.arrange(DOWN, aligned_edge=LEFT, buff=ROW_GAP)
        else:
            table = VGroup(*(m for row in rows for m in row)).arrange_in_grid(
                rows=len(rows), cols=3, buff=(0.6, ROW_GAP), col_alignments="lcl")
        fit_width(table, layout.content_width)
        table.next_to(self.formula_mobject, DOWN, buff=0.35 + AXIS_LABEL_ROOM).set_x(0)
        self.layer_rows = rows
        self.rows_by_layer = dict(zip(LAYERS, rows))
        first = rows[0][1]
        features = self.text("grid-features", font_size=SMALL_SIZE, color=colors.muted)
        features.next_to(first, UP, buff=0.1).align_to(first, LEFT)
        batch = self.text("grid-batch", font_size=SMALL_SIZE, color=colors.muted).rotate(-PI / 2)  # its → points down
        batch.next_to(first, LEFT, buff=0.08).align_to(first, UP)
        self.grid_axes = VGroup(features, batch)

    def explain_axes(self) -> None:
        """The part names go; the formula keeps centring's colour, the last lit part goes back to the text's."""
        colors, formula = self.palette, self.formula_mobject
        self.say("axes", FadeOut(self.part_labels), formula.select("affine").animate.set_color(colors.text),
                 run_time=0.8, hold=0.8)
    def show_layer(self, layer: Layer) -> None:
        """One layer's row: name, shaded grid, axes in words (the grids' axes come with the first)."""
        shown = [FadeIn(VGroup(*self.rows_by_layer[layer]), shift=RIGHT * 0.2)]
        if layer is LAYERS[0]:
            shown.append(FadeIn(self.grid_axes))
        self.say(layer.value, *shown, run_time=0.9, hold=0.6, **self.counted(layer))

    def counted(self, layer: Layer) -> dict:
        """GroupNorm's text counts its groups."""
        return {"groups": self.spec.groups} if layer is Layer.GROUPNORM else {}
