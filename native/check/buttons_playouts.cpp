// Every policy, player count and option through the native Buttons with nothing but the header,
// for the sanitizers (docs/engine.md, "The native core"):
//   g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
//       -Inative/cpp native/check/buttons_playouts.cpp -o /tmp/buttons_playouts && /tmp/buttons_playouts
// (one command, from the repository's root). Random layouts (any split of the 36 cells into four
// colours plays); it prints "ok" and the plies played.
#include "buttons.hpp"
#include <cstdio>

using namespace ludoteca;
namespace bt = ludoteca::buttons;

int main() {
    long plies = 0;
    Rng cells(11);
    uint64_t layouts[bt::LAYOUTS][bt::COLOURS] = {};
    for (auto &lay : layouts)
        for (int c = 0; c < bt::CELLS; ++c) lay[cells.below(bt::COLOURS)] |= uint64_t{1} << c;
    for (int players = 2; players <= 4; ++players)
        for (int options = 0; options < 4; ++options) {
            const bt::Config cfg = bt::Config::make(players, options & 1, options & 2, layouts);
            const bt::Observation obs(cfg);
            float buf[4096];
            for (int pol = 0; pol < 3; ++pol) {
                Rng ch(7);
                for (int g = 0; g < 100; ++g) {
                    bt::State s(cfg, static_cast<uint64_t>(g));
                    int legal[bt::MAX_LEGAL];
                    while (s.phase != bt::OVER) {
                        for (int seat = 0; seat < cfg.players; ++seat) obs.fill(s, seat, buf);
                        if (!s.sound()) {
                            std::printf("unsound state\n");
                            return 1;
                        }
                        const int seat = s.to_act(), n = s.legal(seat, legal);
                        s.apply(seat, bt::choose(s, seat, legal, n, static_cast<bt::Policy>(pol), ch));
                    }
                    plies += s.ply;
                }
            }
        }
    std::printf("ok %ld\n", plies);
    return 0;
}
