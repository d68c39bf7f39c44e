"""Buttons (Benjamin Schwer, Noris 2015): push-your-luck dice placement on private 6×6 boards.

Rules: ``rules/buttons.md``. The game object is ``GAME`` in ``rules.py``.
"""

from ludoteca.engine.registry import GameEntry

ENTRIES = (
    GameEntry(
        name="buttons",
        game="ludoteca.games.buttons.rules:GAME",
        greedy="ludoteca.games.buttons.bot:choose",
        search="ludoteca.games.buttons.search:PROFILE",
        terminal="ludoteca.games.buttons.terminal",
        rl_observation="ludoteca.games.buttons.observation:Encoder",
        rl_score="ludoteca.games.buttons.scoring:scores_now",
        rl_picture="ludoteca.games.buttons.picture:draw",
        web="ludoteca.games.buttons:web/buttons.js",
        bench_target=1000,
        native="ludoteca.games.buttons.native",
    ),
)
