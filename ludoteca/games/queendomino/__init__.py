"""Queendomino (``rules/queendomino.md``): Kingdomino's kingdoms plus towns, knights, taxes,
buildings, the Queen and the Dragon. The kingdom grid is Kingdomino's (``kingdomino/grid.py``)."""

from ludoteca.engine.registry import GameEntry

ENTRIES = (
    GameEntry(
        name="queendomino",
        game="ludoteca.games.queendomino.rules:GAME",
        greedy="ludoteca.games.queendomino.bot:choose",
        search="ludoteca.games.queendomino.search:PROFILE",
        terminal="ludoteca.games.queendomino.terminal",
        rl_observation="ludoteca.games.queendomino.observation:Encoder",
        rl_score="ludoteca.games.queendomino.scoring:scores_now",
        rl_picture="ludoteca.games.queendomino.picture:draw",
        web="ludoteca.games.queendomino:web/queendomino.js",
        bench_target=300,
        native="ludoteca.games.queendomino.native",
    ),
)
