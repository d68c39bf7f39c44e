"""Kingdomino (``rules/kingdomino.md``): draft dominoes, build a 5×5 kingdom around your castle."""

from ludoteca.engine.registry import GameEntry

ENTRIES = (
    GameEntry(
        name="kingdomino",
        game="ludoteca.games.kingdomino.rules:GAME",
        greedy="ludoteca.games.kingdomino.bot:choose",
        search="ludoteca.games.kingdomino.search:PROFILE",
        terminal="ludoteca.games.kingdomino.terminal",
        rl_observation="ludoteca.games.kingdomino.observation:Encoder",
        rl_score="ludoteca.games.kingdomino.scoring:scores_now",
        rl_picture="ludoteca.games.kingdomino.picture:draw",
        web="ludoteca.games.kingdomino:web/kingdomino.js",
        bench_target=1000,
        native="ludoteca.games.kingdomino.native",
    ),
)
