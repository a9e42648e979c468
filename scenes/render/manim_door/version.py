"""The one Manim this door is written against, checked once before anything renders."""

from __future__ import annotations

from scenes.render.errors import InputError

__all__ = ["SUPPORTED_MANIM", "check_manim", "manim_version"]

# The renderer, file writer and cameras here extend Manim Community 0.22's (their methods and the
# arguments Manim calls them with); another minor version may call them otherwise.
SUPPORTED_MANIM = (0, 22)


def manim_version() -> str:
    import manim

    return manim.__version__


def check_manim() -> str:
    """Manim loads and is the supported minor version, or one line saying what to install;
    returns the version.

    >>> check_manim().startswith("0.22")
    True
    """
    try:
        version = manim_version()
    except ImportError as error:
        raise InputError(f"manim cannot be loaded ({error}); run ./run setup to install cairo, pango and manim") from None
    found = tuple(int(part) for part in version.split(".")[:2] if part.isdigit())
    if found != SUPPORTED_MANIM:
        wanted = ".".join(map(str, SUPPORTED_MANIM))
        raise InputError(f"normgeo renders with Manim Community {wanted}.x, found {version}: "
                         f"pip install 'manim=={wanted}.*'")
    return version
