// Every player count and option through the native Queendomino with nothing but the headers,
// for the sanitizers (docs/engine.md, "The native core"):
//   g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
//       -Inative/cpp native/check/queendomino.cpp -o /tmp/queendomino && /tmp/queendomino
// (one command, from the repository's root). It prints "ok" and the plies played. The tables
// come from the Python package at run time, so here they are drawn at random (any valid table:
// terrains 0-6, crowns 0-3, building numbers 0-9, tables of 6 to 32 tiles), which walks the
// kingdoms, towns, builds, taxes and the Queen more widely than the shipped ones.
#include "queendomino.hpp"
#include <cstdio>
#include <vector>

using namespace ludoteca;
namespace qd = ludoteca::queendomino;

int main() {
    long plies = 0;
    Rng tables(2026);
    for (int players = 2; players <= qd::MAX_SEATS; ++players)
        for (int variant = 0; variant < 4; ++variant) {
            const bool teams = variant == 3;
            if (teams && players != 6 && players != 8) continue;
            qd::Config cfg = qd::Config::make(players, variant >= 1 || players > 4, teams, variant == 2);
            for (int n = 1; n <= qd::MAX_ID; ++n)
                cfg.dom[n] = {static_cast<int8_t>(tables.below(7)), static_cast<int8_t>(tables.below(4)),
                              static_cast<int8_t>(tables.below(7)), static_cast<int8_t>(tables.below(4))};
            cfg.tiles_len = static_cast<int8_t>(6 + tables.below(27));
            for (int i = 0; i < cfg.tiles_len; ++i) {
                int8_t v[10];
                for (int8_t &x : v) x = static_cast<int8_t>(tables.below(10));
                v[4] = static_cast<int8_t>(tables.below(4));  // crowns
                v[7] = static_cast<int8_t>(tables.below(7));  // terrain
                cfg.tiles[i] = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]};
            }
            const qd::Observation obs(cfg);
            std::vector<float> buf(static_cast<size_t>(obs.size));
            Rng ch(7);
            for (int g = 0; g < 40; ++g) {
                qd::State s(cfg, g);
                if (!s.sound()) return std::printf("unsound deal\n"), 1;
                int legal[qd::MAX_LEGAL];
                while (s.phase != qd::OVER) {
                    for (int seat = 0; seat < players; ++seat) obs.fill(s, seat, buf.data());
                    const int n = s.legal(s.to_act(), legal);
                    // spend whenever possible half the time: builds, taxes, the Dragon, the Queen
                    int pick = static_cast<int>(ch.below(static_cast<uint64_t>(n)));
                    if (g % 2 && legal[n - 1] >= qd::CLAIM_BASE && legal[0] >= qd::KNIGHT_BASE) pick = 0;
                    s.apply(legal[pick]);
                }
                int scores[qd::MAX_SEATS];
                s.scores_now(scores);
                s.outcome();
                plies += s.ply;
            }
        }
    std::printf("ok %ld plies\n", plies);
    return 0;
}
