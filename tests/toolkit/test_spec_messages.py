"""Spec refusals worded exactly (scenes/kit/spec.py): the type a field wants, a Python tuple shown
as the list a user would write, and the vector a check refuses counted from 1."""

from __future__ import annotations

import math

import pytest

from scenes.kit.spec import SpecError, check_vectors, coerce, type_description


def test_a_tuple_of_numbers_is_described_as_numbers():
    """tuple[float, ...] is the Vector type (described as a vector); other tuples that start with a
    float are numbers."""
    assert type_description(tuple[float, ...]) == "a vector like 3,4"
    assert type_description(tuple[float, float]) == "numbers like 1,2,0.5"
    assert type_description(tuple[float, int]) == "numbers like 1,2,0.5"
    assert type_description(tuple[int, ...]) == "whole numbers like 2,1"


def test_a_refused_tuple_is_shown_as_a_list():
    """The message shows what a TOML file or --set would have held: [1, 2], not Python's (1, 2)."""
    with pytest.raises(SpecError, match=r"^size: expected a whole number, got \[1, 2\]$"):
        coerce("size", (1, 2), int)
    with pytest.raises(SpecError, match=r"^size: expected a whole number, got 'big'$"):
        coerce("size", "big", int)


def test_the_refused_vector_is_counted_from_one():
    with pytest.raises(SpecError, match=r"^vectors: vector 2 \(1\.0, nan\): "):
        check_vectors("vectors", ((3.0, 4.0), (1.0, math.nan)))
    with pytest.raises(SpecError, match=r"^vectors: vector 1 is the zero vector"):
        check_vectors("vectors", ((0.0, 0.0), (1.0, 1.0)))
