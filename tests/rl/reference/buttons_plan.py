"""The ``progress`` and ``plan`` slices appended to the Buttons observation after the snapshot
(docs/rl.md, "What held the learners back"), written cell by cell from the rules' own
functions: the fast encoder must match it bit for bit (tests/rl/test_encoders_match.py)."""

from __future__ import annotations

import numpy as np

from ludoteca.games.buttons.grid import CELLS, LINES5, blocked
from ludoteca.games.buttons.scoring import round_stars
from ludoteca.games.buttons.state import STARS, ButtonsState


def extra(s: ButtonsState, seat: int) -> np.ndarray:
    n = s.cfg.players
    progress = np.zeros(3 * n, np.float32)
    plan = []
    for r in range(n):
        p = (seat + r) % n
        markers, stars, board, cards = s.markers[p], s.stars[p], s.boards[p], s.cards[p]
        line_stars = stars | s.picks[seat] if r == 0 and s.phase == STARS else stars
        counts = [(markers & board[k]).bit_count() for k in range(4)]
        planes = np.zeros((9, CELLS), np.float32)
        for cell in range(CELLS):
            colour = next(k for k in range(4) if board[k] >> cell & 1)
            for t in range(3):
                planes[t, cell] = counts[colour] > t
            planes[3, cell] = cards >> colour & 1
            planes[4, cell] = not blocked(markers, stars) >> cell & 1
            most = max([(line_stars & line).bit_count() for line in LINES5 if line >> cell & 1])
            for t in range(4):
                planes[5 + t, cell] = most > t
        one_hot = np.zeros((4, 4), np.float32)
        for k in range(4):
            one_hot[k, min(counts[k], 3)] = 1
        plan += [planes.ravel(), one_hot.ravel()]
        if markers:
            progress[3 * r] = np.float32(round_stars(markers, board, cards)[2] / 8)
        progress[3 * r + 1] = np.float32(min(stars.bit_count() / 12, 1.0))
        progress[3 * r + 2] = np.float32(max((line_stars & x).bit_count() for x in LINES5) / 5)
    return np.concatenate([progress, *plan])
