"""A complete Ludoteca external bot: picks a random legal action.

Speaks the JSON-lines protocol of docs/bot-protocol.md on stdin/stdout, using only the standard
library (no ludoteca import), so it is a template for a bot in any language. Try it:

    ludoteca tournament kingdomino -n 10 \
        --round-robin "random,easy,cmd:python examples/random_bot.py"

Logs go to stderr: stdout carries answers only, and any other line there forfeits the game.
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            # The seed ludoteca gives makes a tournament repeatable; options are there to read.
            rng.seed(message["seed"])
            print(f"random_bot: seat {message['seat']} of {message['game']}", file=sys.stderr)
        elif kind == "choose":
            # message["view"] is what this seat may know; message["legal"] the legal actions.
            index = rng.randrange(len(message["legal"]))
            print(json.dumps({"index": index}), flush=True)
            # Equivalent: print(json.dumps({"action": message["legal"][index]}), flush=True)
        elif kind == "end":
            break


if __name__ == "__main__":
    main()
