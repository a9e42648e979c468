"""Scene 7, ``unified-formula`` (B1): x̂ = (x − μ)/√(σ² + ε), y = γx̂ + β over different axes."""

from __future__ import annotations

from dataclasses import dataclass

from manim import DOWN, RIGHT, UP, FadeIn, VGroup, Write

from normgeo import Layer, statistic_groups
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.grids import cell_rectangles, shade_groups
from scenes.kit.languages import layer_name
from scenes.kit.spec import SceneSpec, SpecError, setting
from scenes.kit.widgets import text_mobject

__all__ = ["UnifiedFormulaSpec", "UnifiedFormula"]

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
        spec, colors = self.spec, self.palette
        title = self.make_title()
        formula = self.formula(FORMULAS["unified"], font_size=44)
        formula.next_to(title, DOWN, buff=0.45).set_x(0)
        self.formula_mobject = formula
        self.say("intro", FadeIn(title), Write(formula), run_time=1.5, hold=0.5)

        part_colors = {"centre": colors.mean_part, "scale": colors.centred_part, "affine": colors.highlight}
        labels = VGroup()
        for part in PARTS:
            label = self.text(f"part.{part}", font_size=SMALL_SIZE, color=part_colors[part])
            label.next_to(formula.select(part), DOWN, buff=0.25)
            labels.add(label)
        labels.arrange(RIGHT, buff=0.6).next_to(formula, DOWN, buff=0.35)
        fit_width(labels, 13.0)
        self.part_labels = labels
        for part, label in zip(PARTS, labels):
            self.say(f"{part}", formula.select(part).animate.set_color(part_colors[part]),
                     FadeIn(label, shift=UP * 0.1),
                     run_time=1.0, hold=0.6)

        shape = (spec.batch, spec.features)
        caption = self.text("grid-caption", font_size=SMALL_SIZE - 2, color=colors.muted)
        self.group_labels = {}
        rows = []
        for layer in LAYERS:
            labels_ = statistic_groups(layer, shape, num_groups=spec.groups if layer is Layer.GROUPNORM else None)
            self.group_labels[layer.value] = labels_
            cells = cell_rectangles(shape, 0.2, 0.2, colors.muted)
            grid = VGroup(shade_groups(cells, labels_, colors.layer(layer)), cells)
            name = text_mobject(layer_name(layer.value), spec.lang, colors.layer(layer), SMALL_SIZE + 2)
            values = {"groups": spec.groups} if layer is Layer.GROUPNORM else {}
            description = self.text(f"axes.{layer.value}", font_size=SMALL_SIZE, **values)
            rows.append((name, grid, description))
        table = VGroup(*(m for row in rows for m in row)).arrange_in_grid(
            rows=len(rows), cols=3, buff=(0.5, 0.22), col_alignments="lcl"
        )
        fit_width(table, 12.5).next_to(labels, DOWN, buff=0.45).set_x(0)
        caption.next_to(table, DOWN, buff=0.2)
        self.layer_rows = rows
        self.say("axes", FadeIn(caption), run_time=0.8, hold=0.8)
        for layer, row in zip(LAYERS, rows):
            values = {"groups": spec.groups} if layer is Layer.GROUPNORM else {}
            self.say(f"{layer.value}", FadeIn(VGroup(*row), shift=RIGHT * 0.2),
                     run_time=0.9, hold=0.6, **values)
