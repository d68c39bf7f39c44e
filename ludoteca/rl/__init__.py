"""Research adapters (DESIGN.md §5): every game as a PettingZoo environment (``pettingzoo``),
with per-game observation encoders (``encode``) that OpenSpiel adapters can reuse.

Optional extra: ``pip install -e '.[rl]'`` (numpy, gymnasium, pettingzoo). Nothing outside
this package imports them, so ``ludoteca`` itself works without the extra.
"""
