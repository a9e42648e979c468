"""The ``normgeo`` command line: a click group in ``main`` and one module per command."""
