// SplitMix64 exactly as ludoteca/engine/rng.py draws it: the same seed gives the same stream,
// the same `below` (rejection sampling) and the same Fisher-Yates shuffle in both cores.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace ludoteca {

struct Rng {
    uint64_t state = 0;

    explicit Rng(uint64_t seed = 0) : state(seed) {}

    uint64_t next64() {
        uint64_t s = (state += 0x9E3779B97F4A7C15ULL);
        s = (s ^ (s >> 30)) * 0xBF58476D1CE4E5B9ULL;
        s = (s ^ (s >> 27)) * 0x94D049BB133111EBULL;
        return s ^ (s >> 31);
    }

    // A uniform int in [0, n): draws until one falls below the largest multiple of n that
    // fits in 2**64, as the Python `below` does (n must be positive).
    uint64_t below(uint64_t n) {
        if (n == 0) throw std::invalid_argument("n must be positive");
        const uint64_t rem = (0 - n) % n;  // 2**64 mod n
        for (;;) {
            const uint64_t r = next64();
            if (rem == 0 || r < 0 - rem) return r % n;
        }
    }

    template <typename T>
    void shuffle(T *items, int len) {
        for (int i = len - 1; i > 0; --i) {
            const int j = static_cast<int>(below(static_cast<uint64_t>(i) + 1));
            std::swap(items[i], items[j]);
        }
    }
};

}  // namespace ludoteca
