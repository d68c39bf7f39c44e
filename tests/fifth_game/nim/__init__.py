"""Nim, as a fifth game would arrive: this one folder plus one line in the registry's list.

Everything the generic tools need is named here; nothing else in Ludoteca mentions Nim."""

from ludoteca.engine.registry import GameEntry

ENTRIES = (
    GameEntry(
        name="nim",
        game="nim.rules:GAME",
        greedy="nim.bot:choose",
        search="nim.bot:PROFILE",
        terminal="nim.terminal",
        rl_observation="nim.observation:Encoder",
        web="nim:web/nim.js",
        bench_target=1000,
    ),
)
