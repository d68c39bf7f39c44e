"""Buttons (Benjamin Schwer, Noris 2015): push-your-luck dice placement on private 6×6 boards.

Rules: ``rules/buttons.md``. The game object is ``GAME`` in ``rules.py``.
"""
