"""Search profiles, one module per game, named by each game's registry entry."""
