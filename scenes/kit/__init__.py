"""What every scene shares: base scene, spec, theme, languages, text files and plural rules, number
formats, subtitle cues, widgets, adapters, plots, grids, formulas, and the registry (lecture order)."""
