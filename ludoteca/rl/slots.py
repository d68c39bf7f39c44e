"""What both kinds of vector environment read the same way: the number of slots and the seed
of each slot (``vector.py``, ``native_vector.py``)."""

from __future__ import annotations

import operator

from ludoteca.engine.errors import OptionError


def slot_count(num_envs: int) -> int:
    """``num_envs`` as an int of at least 1 (numpy integers too), or OptionError."""
    n = operator.index(num_envs)
    if n < 1:
        raise OptionError(f"num_envs must be at least 1, not {num_envs}")
    return n


def slot_seeds(seed: int | list[int | None] | None, n: int) -> list[int | None]:
    """``reset(seed=...)``'s seed of each slot: ``s + i`` from one seed, or one each."""
    if seed is None:
        return [None] * n
    if isinstance(seed, list):
        if len(seed) != n:
            raise OptionError(f"{len(seed)} seeds for {n} environments")
        return [None if s is None else operator.index(s) for s in seed]
    first = operator.index(seed)  # numpy integers too
    return [first + i for i in range(n)]
