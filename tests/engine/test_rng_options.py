"""The seeded RNG and the option schema (engine/rng.py, engine/options.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from ludoteca.engine.errors import OptionError
from ludoteca.engine.options import Option, parse_option_pairs, validate_options
from ludoteca.engine.rng import Rng


def test_rng_is_deterministic_and_cheap_to_clone() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    c = a.clone()
    assert c == a and c.next64() == a.next64()
    assert Rng(1).next64() != Rng(2).next64()
    assert "state" not in repr(a) and str(a.state) not in repr(a)


def test_rng_below_is_in_range_and_roughly_uniform() -> None:
    rng = Rng(7)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_400 < n < 10_600 for n in counts.values())
    with pytest.raises(ValueError):
        rng.below(0)


def test_rng_shuffle_is_a_permutation_and_reaches_every_order() -> None:
    rng = Rng(3)
    seen = set()
    for _ in range(2_000):
        items = [1, 2, 3, 4]
        rng.shuffle(items)
        assert sorted(items) == [1, 2, 3, 4]
        seen.add(tuple(items))
    assert len(seen) == 24


SCHEMA = (
    Option("fast", bool, False, "a flag"),
    Option("mode", str, "a", "a choice", choices=("a", "b")),
    Option("target", int, 15, "a number", min=1, max=30),
    Option("duel", bool, False, "2 players only", players=(2,)),
)


def test_defaults_are_filled_in() -> None:
    assert validate_options(SCHEMA, None, 3) == {
        "fast": False,
        "mode": "a",
        "target": 15,
        "duel": False,
    }


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"speed": 1}, "unknown option 'speed'; this game's options are: fast, mode, target, duel"),
        ({"fast": 2}, "option 'fast' takes true or false, not 2"),
        ({"mode": "c"}, "option 'mode' must be one of: a, b (got 'c')"),
        ({"mode": 1}, "option 'mode' takes text"),
        ({"target": 0}, "option 'target' must be at least 1"),
        ({"target": 31}, "option 'target' must be at most 30"),
        ({"target": "ten"}, "option 'target' takes a whole number"),
        ({"target": True}, "option 'target' takes a whole number"),
        ({"duel": True}, "option 'duel' is only for 2 players"),
    ],
)
def test_bad_options_are_explained(given: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError) as err:
        validate_options(SCHEMA, given, 3)
    assert message in str(err.value)


def test_text_values_parse() -> None:
    pairs = parse_option_pairs(["fast=yes", "target=20", "mode=b", "duel=false"])
    assert validate_options(SCHEMA, pairs, 3) == {
        "fast": True,
        "mode": "b",
        "target": 20,
        "duel": False,
    }
    with pytest.raises(OptionError, match="name=value"):
        parse_option_pairs(["fast"])


def test_schema_is_json_ready() -> None:
    assert SCHEMA[1].to_json() == {
        "name": "mode",
        "type": "str",
        "default": "a",
        "choices": ["a", "b"],
        "min": None,
        "max": None,
        "description": "a choice",
        "players": [],
        "fixed": {},
    }


def test_a_fixed_option_takes_its_value_and_refuses_another() -> None:
    """Queendomino's Royal Wedding is always on at 5-8 players (rules "Playing with Kingdomino"):
    left unset it is on, asked off it is refused, and the schema tells a table form so."""
    from ludoteca.engine.options import Option

    wedding = Option("wedding", bool, False, "both boxes", fixed=((5, True), (6, True)))
    assert validate_options((wedding,), {}, 5) == {"wedding": True}
    assert validate_options((wedding,), {"wedding": "true"}, 6) == {"wedding": True}
    assert validate_options((wedding,), {}, 4) == {"wedding": False}
    with pytest.raises(OptionError, match="always True for 5 players"):
        validate_options((wedding,), {"wedding": False}, 5)
    assert wedding.to_json()["fixed"] == {"5": True, "6": True}
