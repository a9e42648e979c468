"""Scene 9, ``unified-formula`` (B1): x̂ = (x − μ)/√(σ² + ε), y = γx̂ + β over different axes."""

from __future__ import annotations

from dataclasses import dataclass

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, VGroup, Write

from normgeo import Layer, statistic_groups
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.grids import cell_rectangles, shade_groups
from scenes.kit.languages import layer_name
from scenes.kit.spec import SceneSpec, SpecError, setting
from scenes.kit.widgets import text_mobject

__all__ = ["UnifiedFormulaSpec", "UnifiedFormula"]

TABLE_WIDTH = 12.5  # the three-column table; a narrower frame puts each description under its row
SQUARE_CELL = 0.35  # a square frame has the room for larger grids

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
        """A label under the formula for each part: centre, scale, affine."""
        colors, formula = self.palette, self.formula_mobject
        self.part_colors = {"centre": colors.ones, "scale": colors.hyperplane, "affine": colors.emphasis}
        labels = VGroup()
        for part in PARTS:
            label = self.text(f"part.{part}", font_size=SMALL_SIZE, color=self.part_colors[part])
            label.next_to(formula.select(part), DOWN, buff=0.25)
            labels.add(label)
        labels.arrange(RIGHT, buff=0.6).next_to(formula, DOWN, buff=0.35)
        fit_width(labels, min(13.0, self.layout.content_width))
        self.part_labels = labels
        self.labels_by_part = dict(zip(PARTS, labels))

    def light_part(self, part: str) -> None:
        """One part of the formula coloured, and its label."""
        self.say(part, self.formula_mobject.select(part).animate.set_color(self.part_colors[part]),
                 FadeIn(self.labels_by_part[part], shift=UP * 0.1), run_time=1.0, hold=0.6)

    def lay_out_layer_rows(self) -> None:
        """One row per layer: its name, the grid shaded by who shares μ and σ (from the core), its axes."""
        spec, colors = self.spec, self.palette
        shape = (spec.batch, spec.features)
        self.group_labels = {}
        rows = []
        for layer in LAYERS:
            labels = statistic_groups(layer, shape, num_groups=spec.groups if layer is Layer.GROUPNORM else None)
            self.group_labels[layer.value] = labels
            side = 0.2 if not self.layout.stacked else 0.3 if self.layout.content_width < TABLE_WIDTH else SQUARE_CELL
            cells = cell_rectangles(shape, side, side, colors.muted)
            grid = VGroup(shade_groups(cells, labels, colors.layer(layer)), cells)
            name = text_mobject(layer_name(layer.value), spec.lang, colors.layer(layer), SMALL_SIZE + 2)
            description = self.text(f"axes.{layer.value}", font_size=SMALL_SIZE, **self.counted(layer))
            rows.append((name, grid, description))
        if self.layout.content_width < TABLE_WIDTH:  # a narrow frame: each row's description under its name and grid
            table = VGroup(*(VGroup(VGroup(name, grid).arrange(RIGHT, buff=0.4), description)
                             .arrange(DOWN, aligned_edge=LEFT, buff=0.15) for name, grid, description in rows))
            table.arrange(DOWN, aligned_edge=LEFT, buff=0.5)
        else:
            table = VGroup(*(m for row in rows for m in row)).arrange_in_grid(
                rows=len(rows), cols=3, buff=(0.5, 0.22), col_alignments="lcl"
            )
        fit_width(table, min(TABLE_WIDTH, self.layout.content_width))
        table.next_to(self.part_labels, DOWN, buff=self.layout.pick(0.45, 0.9)).set_x(0)
        self.layer_rows = rows
        self.rows_by_layer = dict(zip(LAYERS, rows))
        self.grid_caption = self.text("grid-caption", font_size=SMALL_SIZE - 2, color=colors.muted)
        self.grid_caption.next_to(table, DOWN, buff=0.2)

    def explain_axes(self) -> None:
        self.say("axes", FadeIn(self.grid_caption), run_time=0.8, hold=0.8)

    def show_layer(self, layer: Layer) -> None:
        """One layer's row: name, shaded grid, axes in words."""
        self.say(layer.value, FadeIn(VGroup(*self.rows_by_layer[layer]), shift=RIGHT * 0.2),
                 run_time=0.9, hold=0.6, **self.counted(layer))

    def counted(self, layer: Layer) -> dict:
        """GroupNorm's text counts its groups."""
        return {"groups": self.spec.groups} if layer is Layer.GROUPNORM else {}
