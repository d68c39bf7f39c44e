"""Ludoteca: a self-hosted board-game arena."""

__version__ = "0.1.0"
