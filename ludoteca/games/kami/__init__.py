"""Kami and its source game Goita (``rules/kami.md``): trick-taking with face-down defense
cards, in one engine (``rules.py``; Goita's pieces and values in ``goita.py``)."""

from ludoteca.engine.registry import GameEntry

ENTRIES = (
    GameEntry(
        name="kami",
        game="ludoteca.games.kami.rules:GAME",
        greedy="ludoteca.bots.greedy.kami:choose",
        search="ludoteca.bots.profiles.kami:PROFILE",
        terminal="ludoteca.terminal.kami",
        rl_observation="ludoteca.rl.observations.kami:Encoder",
        bench_target=3000,
    ),
    GameEntry(
        name="goita",
        game="ludoteca.games.kami.goita:GAME",
        greedy="ludoteca.bots.greedy.kami:choose",
        search="ludoteca.bots.profiles.kami:PROFILE",
        terminal="ludoteca.terminal.kami",
        rl_observation="ludoteca.rl.observations.kami:Encoder",
    ),
)
