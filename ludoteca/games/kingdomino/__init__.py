"""Kingdomino (``rules/kingdomino.md``): draft dominoes, build a 5×5 kingdom around your castle."""

from ludoteca.engine.registry import GameEntry

ENTRIES = (
    GameEntry(
        name="kingdomino",
        game="ludoteca.games.kingdomino.rules:GAME",
        greedy="ludoteca.bots.greedy.kingdomino:choose",
        search="ludoteca.bots.profiles.kingdomino:PROFILE",
        terminal="ludoteca.terminal.kingdomino",
        rl_observation="ludoteca.rl.observations.kingdomino:Encoder",
        bench_target=1000,
    ),
)
