"""Queendomino (``rules/queendomino.md``): Kingdomino's kingdoms plus towns, knights, taxes,
buildings, the Queen and the Dragon. The kingdom grid is Kingdomino's (``kingdomino/grid.py``)."""
