// The 13x13 kingdom board as a 256-bit bitboard: row r in bits 16r..16r+12 (16-bit lanes, the
// castle at row 6, column 6), so shifting by one column or one row is a word shift and the
// guard columns 13-15 stop a shift from wrapping a row. Python's grid.py numbers the same cells
// row * 14 + col; `py_cell` converts, and both numberings list cells in the same order.
#pragma once
#include <cstdint>

namespace ludoteca {

constexpr int SIZE = 13;
constexpr int HALF = SIZE / 2;
constexpr int PY_STRIDE = 14;

struct Board {
    uint64_t w[4] = {0, 0, 0, 0};

    static Board bit(int row, int col) {
        Board b;
        const int pos = row * 16 + col;
        b.w[pos >> 6] = uint64_t{1} << (pos & 63);
        return b;
    }
    bool any() const { return (w[0] | w[1] | w[2] | w[3]) != 0; }
    int count() const {
        return __builtin_popcountll(w[0]) + __builtin_popcountll(w[1]) +
               __builtin_popcountll(w[2]) + __builtin_popcountll(w[3]);
    }
    bool test(int row, int col) const {
        const int pos = row * 16 + col;
        return (w[pos >> 6] >> (pos & 63)) & 1;
    }
    Board operator&(const Board &o) const {
        return {{w[0] & o.w[0], w[1] & o.w[1], w[2] & o.w[2], w[3] & o.w[3]}};
    }
    Board operator|(const Board &o) const {
        return {{w[0] | o.w[0], w[1] | o.w[1], w[2] | o.w[2], w[3] | o.w[3]}};
    }
    Board operator~() const { return {{~w[0], ~w[1], ~w[2], ~w[3]}}; }
    Board &operator|=(const Board &o) { return *this = *this | o; }
    Board &operator&=(const Board &o) { return *this = *this & o; }
    bool operator==(const Board &o) const {
        return w[0] == o.w[0] && w[1] == o.w[1] && w[2] == o.w[2] && w[3] == o.w[3];
    }
    bool operator!=(const Board &o) const { return !(*this == o); }
    // One column east (+1) / west (-1); bits leaving a lane land in guard columns or vanish.
    Board east() const { return {{w[0] << 1, w[1] << 1, w[2] << 1, w[3] << 1}}; }
    Board west() const { return {{w[0] >> 1, w[1] >> 1, w[2] >> 1, w[3] >> 1}}; }
    // One row south (+1) / north (-1).
    Board south() const {
        return {{w[0] << 16, (w[1] << 16) | (w[0] >> 48), (w[2] << 16) | (w[1] >> 48),
                 (w[3] << 16) | (w[2] >> 48)}};
    }
    Board north() const {
        return {{(w[0] >> 16) | (w[1] << 48), (w[1] >> 16) | (w[2] << 48),
                 (w[2] >> 16) | (w[3] << 48), w[3] >> 16}};
    }
    Board lowest() const {
        for (int i = 0; i < 4; ++i)
            if (w[i]) {
                Board b;
                b.w[i] = w[i] & (0 - w[i]);
                return b;
            }
        return {};
    }
    // Calls f(row, col) for every set cell, in ascending cell order.
    template <typename F>
    void each(F &&f) const {
        for (int i = 0; i < 4; ++i) {
            uint64_t m = w[i];
            while (m) {
                const int pos = i * 64 + __builtin_ctzll(m);
                f(pos >> 4, pos & 15);
                m &= m - 1;
            }
        }
    }
};

inline int py_cell(int row, int col) { return row * PY_STRIDE + col; }

struct Spans {
    Board rows[SIZE * SIZE];  // rows lo..hi, every column
    Board cols[SIZE * SIZE];  // columns lo..hi, every row
    Board valid;
    Spans() {
        for (int lo = 0; lo < SIZE; ++lo)
            for (int hi = lo; hi < SIZE; ++hi)
                for (int r = 0; r < SIZE; ++r)
                    for (int c = 0; c < SIZE; ++c) {
                        if (lo <= r && r <= hi) rows[lo * SIZE + hi] |= Board::bit(r, c);
                        if (lo <= c && c <= hi) cols[lo * SIZE + hi] |= Board::bit(r, c);
                    }
        valid = rows[SIZE - 1] & cols[SIZE - 1];
    }
};

inline const Spans &spans() {
    static const Spans s;
    return s;
}

inline Board neighbours(const Board &m) {
    return (m.east() | m.west() | m.south() | m.north()) & spans().valid;
}

// The connected group of `mask` grown from `seed` (seed must lie in mask).
inline Board flood(Board comp, const Board &mask) {
    for (;;) {
        const Board grown = (comp | comp.east() | comp.west() | comp.south() | comp.north()) & mask;
        if (grown == comp) return comp;
        comp = grown;
    }
}

}  // namespace ludoteca
