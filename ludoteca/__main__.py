"""``python -m ludoteca`` runs the command-line interface."""

from ludoteca.cli import main

if __name__ == "__main__":
    main()
