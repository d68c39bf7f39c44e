// Every policy, player count and option through the native Kami and Goita with nothing but the
// headers, for the sanitizers (docs/engine.md, "The native core"):
//   g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
//       -Inative/cpp native/check/kami_playouts.cpp -o /tmp/kami_playouts && /tmp/kami_playouts
// (one command, from the repository's root). It prints "ok" and the plies played.
#include "kami.hpp"
#include <cstdio>

using namespace ludoteca;
namespace km = ludoteca::kami;

int main() {
    long plies = 0;
    // (goita, players, end mode, target, demoralized)
    const int cases[][5] = {{0, 2, 0, 15, 0}, {0, 3, 1, 15, 0}, {0, 4, 2, 12, 1}, {0, 4, 0, 15, 0},
                            {0, 2, 2, 10, 0}, {1, 4, 0, 150, 0}, {1, 4, 0, 50, 0}};
    for (const auto &c : cases) {
        const km::Config cfg = km::Config::make(c[0], c[1], c[2], c[3], c[4]);
        const km::Observation obs(cfg);
        float buf[1024];
        for (int pol = 0; pol < 3; ++pol) {
            Rng ch(7);
            for (int g = 0; g < 200; ++g) {
                km::State s(cfg, static_cast<uint64_t>(g));
                int legal[km::MAX_LEGAL];
                while (s.phase != km::OVER) {
                    for (int seat = 0; seat < cfg.players; ++seat) obs.fill(s, seat, buf);
                    if (!s.sound()) {
                        std::printf("unsound state\n");
                        return 1;
                    }
                    const int n = s.legal(s.to_act(), legal);
                    s.apply(km::choose(s, legal, n, static_cast<km::Policy>(pol), ch));
                }
                plies += s.ply;
            }
        }
    }
    std::printf("ok %ld\n", plies);
    return 0;
}
