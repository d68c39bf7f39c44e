"""Research adapters (DESIGN.md §5): every game as a PettingZoo environment (``pettingzoo``),
one seat against the arena's bots as a Gymnasium environment (``gym``), batches of matches
through Gymnasium's vector API (``vector``), the reward options (``rewards``), with per-game
observation encoders (``encode``) that OpenSpiel adapters can reuse.

Optional extra: ``pip install -e '.[rl]'`` (numpy, gymnasium, pettingzoo). Nothing outside
this package imports them, so ``ludoteca`` itself works without the extra.
"""
