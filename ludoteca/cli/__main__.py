"""``python -m ludoteca.cli``: the ``ludoteca`` command (the tests and benchmarks run it so)."""

from ludoteca.cli import main

main()
