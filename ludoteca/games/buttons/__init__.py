"""Buttons (Benjamin Schwer, Noris 2015): push-your-luck dice placement on private 6×6 boards.

Rules: ``rules/buttons.md``. The game object is ``GAME`` in ``rules.py``.
"""

from ludoteca.engine.registry import GameEntry

ENTRIES = (
    GameEntry(
        name="buttons",
        game="ludoteca.games.buttons.rules:GAME",
        greedy="ludoteca.bots.greedy.buttons:choose",
        search="ludoteca.bots.profiles.buttons:PROFILE",
        terminal="ludoteca.terminal.buttons",
        rl_observation="ludoteca.rl.observations.buttons:Encoder",
        bench_target=1000,
    ),
)
