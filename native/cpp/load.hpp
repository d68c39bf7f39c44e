// Reading a Python state's fields into a native State and writing them back (State.load and
// its exports), shared by the games' bindings: bounded small ints and lists, and grid.py's
// bitmask ints crossing as little-endian bytes (a kingdom: occupied, 1-3 crowns, each terrain).
#pragma once
#include <nanobind/nanobind.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "board.hpp"
#include "rng.hpp"

namespace ludoteca::load {

namespace nb = nanobind;

// A grid.py mask crosses as MASK_BYTES little-endian bytes of its int (cell row * 14 + col).
constexpr size_t MASK_BYTES = 24;
using Box = std::tuple<int, int, int, int>;  // minr, maxr, minc, maxc

inline Board board_of(const uint8_t *p) {
    Board b;
    for (size_t i = 0; i < MASK_BYTES * 8; ++i)
        if ((p[i >> 3] >> (i & 7)) & 1) {
            const int row = static_cast<int>(i) / PY_STRIDE, col = static_cast<int>(i) % PY_STRIDE;
            if (row >= SIZE || col >= SIZE) throw nb::value_error("a mask has a cell off the board");
            b |= Board::bit(row, col);
        }
    return b;
}

inline Board board_of(nb::bytes data) {
    if (data.size() != MASK_BYTES) throw nb::value_error("a mask is 24 bytes");
    return board_of(reinterpret_cast<const uint8_t *>(data.c_str()));
}

inline void bytes_of(const Board &b, uint8_t *p) {
    b.each([&](int row, int col) {
        const int i = py_cell(row, col);
        p[i >> 3] = static_cast<uint8_t>(p[i >> 3] | (1u << (i & 7)));
    });
}

inline nb::bytes bytes_of(const Board &b) {
    uint8_t out[MASK_BYTES] = {};
    bytes_of(b, out);
    return nb::bytes(reinterpret_cast<const char *>(out), sizeof out);
}

inline int8_t small(int64_t v, int lo, int hi, const char *what) {
    if (v < lo || v > hi) throw nb::value_error((std::string(what) + " is out of range").c_str());
    return static_cast<int8_t>(v);
}

// State.playouts_after, the analysis's samples of one drawn world in one call: for each index
// (-1: none), a copy of s with it applied (apply(copy, index)) and played to the end (play(copy,
// chooser), which leaves a match over alone) drawing from a generator in state rng, each copy from
// the same state; flat, per index, every seat's rank then every seat's score. The caller checks
// the indices are legal first; the playouts run without the GIL.
template <typename State, typename Apply, typename Play>
std::vector<int> playouts_after(const State &s, const std::vector<int> &indices, uint64_t rng,
                                Apply apply, Play play) {
    const int n = s.cfg.players;
    std::vector<int> out(indices.size() * 2 * static_cast<size_t>(n));
    nb::gil_scoped_release release;
    for (size_t i = 0; i < indices.size(); ++i) {
        State c = s;
        if (indices[i] >= 0) apply(c, indices[i]);
        Rng chooser(rng);
        play(c, chooser);
        const auto o = c.outcome();
        int *row = out.data() + i * 2 * static_cast<size_t>(n);
        for (int q = 0; q < n; ++q) row[q] = o.ranks[q], row[n + q] = o.scores[q];
    }
    return out;
}

// items into out (at most cap of them, each in lo..hi); their count.
template <typename T>
int8_t fill(T *out, const std::vector<int64_t> &items, size_t cap, int lo, int hi, const char *what) {
    if (items.size() > cap) throw nb::value_error((std::string(what) + " is too long").c_str());
    for (size_t i = 0; i < items.size(); ++i) out[i] = static_cast<T>(small(items[i], lo, hi, what));
    return static_cast<int8_t>(items.size());
}

// The kingdom as grid.py holds it (K: a game's Kingdom, TERRAINS of its terrains): every square
// of one terrain at most, crowns on terrain, the castle alone and untyped, the bounding box the
// squares' own.
template <typename K, int TERRAINS>
K kingdom_of(nb::bytes data, const Box &box) {
    if (data.size() != MASK_BYTES * (4 + TERRAINS))
        throw nb::value_error("a kingdom is a mask of 24 bytes for each of: occupied, 1-3 crowns, each terrain");
    const auto *p = reinterpret_cast<const uint8_t *>(data.c_str());
    const Board castle = Board::bit(HALF, HALF);
    K k;
    k.occ = board_of(p);
    for (int c = 0; c < 3; ++c) k.crown[c] = board_of(p + MASK_BYTES * (1 + c));
    Board typed;
    for (int t = 0; t < TERRAINS; ++t) {
        k.terr[t] = board_of(p + MASK_BYTES * (4 + t));
        if ((typed & k.terr[t]).any()) throw nb::value_error("a square has two terrains");
        typed |= k.terr[t];
    }
    if ((typed & castle).any() || (typed | castle) != k.occ)
        throw nb::value_error("the occupied squares are not the castle and the terrains");
    if (((k.crown[0] | k.crown[1] | k.crown[2]) & ~typed).any() ||
        (k.crown[0] & k.crown[1]).any() || (k.crown[0] & k.crown[2]).any() ||
        (k.crown[1] & k.crown[2]).any())
        throw nb::value_error("a crown is off the terrains or counted twice");
    int minr = SIZE, maxr = -1, minc = SIZE, maxc = -1;
    k.occ.each([&](int row, int col) {
        minr = std::min(minr, row), maxr = std::max(maxr, row);
        minc = std::min(minc, col), maxc = std::max(maxc, col);
    });
    if (std::make_tuple(minr, maxr, minc, maxc) != box)
        throw nb::value_error("the bounding box is not the kingdom's");
    k.minr = static_cast<int8_t>(minr), k.maxr = static_cast<int8_t>(maxr);
    k.minc = static_cast<int8_t>(minc), k.maxc = static_cast<int8_t>(maxc);
    return k;
}

// A kingdom as kingdom_of reads it: (its masks' bytes, its bounding box).
template <typename K, int TERRAINS>
nb::tuple kingdom_bytes(const K &g) {
    uint8_t out[MASK_BYTES * (4 + TERRAINS)] = {};
    bytes_of(g.occ, out);
    for (int c = 0; c < 3; ++c) bytes_of(g.crown[c], out + MASK_BYTES * (1 + c));
    for (int t = 0; t < TERRAINS; ++t) bytes_of(g.terr[t], out + MASK_BYTES * (4 + t));
    return nb::make_tuple(nb::bytes(reinterpret_cast<const char *>(out), sizeof out),
                          nb::make_tuple(g.minr, g.maxr, g.minc, g.maxc));
}

}  // namespace ludoteca::load
