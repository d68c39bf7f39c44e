"""Kami and its source game Goita (``rules/kami.md``): trick-taking with face-down defense
cards, in one engine (``rules.py``; Goita's pieces and values in ``goita.py``)."""

from ludoteca.engine.registry import GameEntry

ENTRIES = (
    GameEntry(
        name="kami",
        game="ludoteca.games.kami.rules:GAME",
        greedy="ludoteca.games.kami.bot:choose",
        search="ludoteca.games.kami.search:PROFILE",
        terminal="ludoteca.games.kami.terminal",
        rl_observation="ludoteca.games.kami.observation:Encoder",
        rl_score="ludoteca.games.kami.scoring:scores_now",
        rl_picture="ludoteca.games.kami.picture:draw",
        web="ludoteca.games.kami:web/kami.js",
        bench_target=3000,
        native="ludoteca.games.kami.native",
    ),
    GameEntry(
        name="goita",
        game="ludoteca.games.kami.goita:GAME",
        greedy="ludoteca.games.kami.bot:choose",
        search="ludoteca.games.kami.search:PROFILE",
        terminal="ludoteca.games.kami.terminal",
        rl_observation="ludoteca.games.kami.observation:Encoder",
        rl_score="ludoteca.games.kami.scoring:scores_now",
        rl_picture="ludoteca.games.kami.picture:draw",
        web="ludoteca.games.kami:web/goita.js",
        native="ludoteca.games.kami.native:GOITA_CORE",
    ),
)
