// Every policy, player count and option through the native Kingdomino with nothing but the
// headers, for the sanitizers (docs/engine.md, "The native core"):
//   g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
//       -Inative/cpp native/check/playouts.cpp -o /tmp/playouts && /tmp/playouts
// (one command, from the repository's root). It prints "ok" and the plies played.
#include "kingdomino.hpp"
#include <cstdio>

using namespace ludoteca;
namespace kd = ludoteca::kingdomino;

int main() {
    long plies = 0;
    for (int players = 2; players <= 4; ++players)
        for (int variant = 0; variant < 4; ++variant) {
            kd::Config cfg = kd::Config::make(players, variant == 1, variant == 2, variant == 2, variant == 3,
                                              variant == 1, variant != 3, variant == 1);
            kd::Observation obs(cfg);
            float buf[8192];
            for (int pol = 0; pol < 3; ++pol) {
                Rng ch(7);
                for (int g = 0; g < 60; ++g) {
                    kd::State s(cfg, g);
                    if (g % 2) {
                        int legal[kd::MAX_LEGAL];
                        while (s.phase != kd::OVER) {
                            for (int seat = 0; seat < players; ++seat) obs.fill(s, seat, buf);
                            const int n = s.legal(s.to_act(), legal);
                            s.apply(kd::choose(s, legal, n, pol == 2 ? kd::RANDOM : (kd::Policy)pol, ch));
                        }
                        s.outcome();
                    } else {
                        kd::playout(s, (kd::Policy)pol, ch);
                    }
                    if (!s.sound()) { printf("unsound\n"); return 1; }
                    plies += s.ply;
                }
            }
        }
    printf("ok %ld plies\n", plies);
}
