"""Queendomino (``rules/queendomino.md``): Kingdomino's kingdoms plus towns, knights, taxes,
buildings, the Queen and the Dragon. The kingdom grid is Kingdomino's (``kingdomino/grid.py``)."""

from ludoteca.engine.registry import GameEntry

ENTRIES = (
    GameEntry(
        name="queendomino",
        game="ludoteca.games.queendomino.rules:GAME",
        greedy="ludoteca.bots.greedy.queendomino:choose",
        search="ludoteca.bots.profiles.queendomino:PROFILE",
        terminal="ludoteca.terminal.queendomino",
        rl_observation="ludoteca.rl.observations.queendomino:Encoder",
        bench_target=300,
    ),
)
