"""Game-agnostic core: the Game contract, options, match records, replay and the seeded RNG.

Import names from their modules (``ludoteca.engine.game``, ``ludoteca.engine.errors`` …).
"""
