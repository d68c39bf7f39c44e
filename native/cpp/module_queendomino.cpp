// Python bindings of the native Queendomino: ludoteca_native._core.queendomino.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "load.hpp"
#include "queendomino.hpp"
#include "rng.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using namespace ludoteca;
namespace qd = ludoteca::queendomino;

// A named namespace: nanobind tells types apart by their mangled names, and the other games'
// bindings have their own Batch in an anonymous namespace.
namespace queendomino_bindings {

template <typename T, int... Shape>
using Out = nb::ndarray<T, nb::shape<Shape...>, nb::c_contig, nb::device::cpu>;

std::vector<int> list8(const int8_t *p, int n) { return std::vector<int>(p, p + n); }

std::vector<int> cells_of(const Board &b) {
    std::vector<int> out;
    b.each([&](int row, int col) { out.push_back(py_cell(row, col)); });
    return out;
}

int mask_policy(int policy) {
    if (policy != qd::RANDOM) throw nb::value_error("policy must be 0 (random)");
    return policy;
}

void check_legal(const qd::State &s, int seat, int index) {
    if (s.phase == qd::OVER) throw nb::value_error("the match is over");
    if (seat != s.to_act()) throw nb::value_error(("it is not seat " + std::to_string(seat) + "'s turn").c_str());
    int legal[qd::MAX_LEGAL];
    const int n = s.legal(seat, legal);
    for (int i = 0; i < n; ++i)
        if (legal[i] == index) return;
    throw nb::value_error(("action index " + std::to_string(index) + " is not legal now").c_str());
}

nb::object outcome_of(const qd::State &s) {
    if (s.phase != qd::OVER) return nb::none();
    const qd::Outcome o = s.outcome();
    nb::list scores, ranks, tiebreaks;
    for (int i = 0; i < o.players; ++i) {
        scores.append(o.scores[i]);
        ranks.append(o.ranks[i]);
        tiebreaks.append(nb::make_tuple(o.largest[i]));
    }
    return nb::make_tuple(nb::tuple(scores), nb::tuple(ranks), nb::tuple(tiebreaks));
}

// Many matches stepped in one call, reading actions from and writing masks, observations,
// rewards and dones into the caller's numpy arrays (no Python object per match or per step).
struct Batch {
    qd::Config cfg;
    std::vector<qd::State> envs;
    Rng chooser;

    Batch(const qd::Config &c, size_t n, uint64_t seed) : cfg(c), envs(n), chooser(seed) {}

    void reset(Out<const uint64_t, -1> seeds) {
        if (seeds.shape(0) != envs.size()) throw nb::value_error("one seed per match");
        for (size_t i = 0; i < envs.size(); ++i) envs[i] = qd::State(cfg, seeds(i));
    }

    void reset_one(size_t i, uint64_t seed) {
        if (i >= envs.size()) throw nb::index_error("no such match");
        envs[i] = qd::State(cfg, seed);
    }

    void masks(Out<uint8_t, -1, qd::NUM_ACTIONS> out) const {
        if (out.shape(0) != envs.size()) throw nb::value_error("one mask row per match");
        int legal[qd::MAX_LEGAL];
        for (size_t i = 0; i < envs.size(); ++i) {
            uint8_t *row = out.data() + i * qd::NUM_ACTIONS;
            std::memset(row, 0, qd::NUM_ACTIONS);
            const int n = envs[i].legal(envs[i].to_act(), legal);
            for (int j = 0; j < n; ++j) row[legal[j]] = 1;
        }
    }

    void to_act(Out<int32_t, -1> out) const {
        if (out.shape(0) != envs.size()) throw nb::value_error("one seat per match");
        for (size_t i = 0; i < envs.size(); ++i) out(i) = envs[i].to_act();
    }

    // rewards.final_rewards over the sides: (sides ranked below - sides ranked above) / (sides - 1).
    void final_rewards(const qd::State &s, float *r) const {
        const qd::Outcome o = s.outcome();
        int side_rank[qd::MAX_SEATS];
        for (int p = 0; p < cfg.players; ++p) side_rank[cfg.side_of[p]] = o.ranks[p];
        for (int p = 0; p < cfg.players; ++p) {
            const int mine = side_rank[cfg.side_of[p]];
            int below = 0, above = 0;
            for (int q = 0; q < cfg.sides; ++q) {
                below += side_rank[q] > mine;
                above += side_rank[q] < mine;
            }
            r[p] = static_cast<float>(below - above) / static_cast<float>(cfg.sides - 1);
        }
    }

    void step(Out<const int64_t, -1> actions, Out<uint8_t, -1, qd::NUM_ACTIONS> masks_out,
              Out<float, -1, -1> rewards, Out<uint8_t, -1> dones) {
        const size_t n = envs.size();
        if (actions.shape(0) != n || masks_out.shape(0) != n || rewards.shape(0) != n ||
            rewards.shape(1) != static_cast<size_t>(cfg.players) || dones.shape(0) != n)
            throw nb::value_error("arrays must have one row per match (rewards: one column per seat)");
        for (size_t i = 0; i < n; ++i)
            if (envs[i].phase != qd::OVER) {
                try {
                    check_legal(envs[i], envs[i].to_act(), static_cast<int>(actions(i)));
                } catch (const nb::builtin_exception &) {
                    throw nb::value_error(("match " + std::to_string(i) + ": action index " +
                                           std::to_string(actions(i)) + " is not legal now").c_str());
                }
            }
        {
            nb::gil_scoped_release release;
            for (size_t i = 0; i < n; ++i) {
                qd::State &s = envs[i];
                float *r = rewards.data() + i * cfg.players;
                for (int p = 0; p < cfg.players; ++p) r[p] = 0.0f;
                if (s.phase == qd::OVER) {
                    dones(i) = 1;
                    continue;
                }
                s.apply(static_cast<int>(actions(i)));
                dones(i) = s.phase == qd::OVER;
                if (dones(i)) final_rewards(s, r);
            }
        }
        masks(masks_out);
    }

    void sample(int policy, Out<int64_t, -1> out) {
        if (out.shape(0) != envs.size()) throw nb::value_error("one action per match");
        mask_policy(policy);
        nb::gil_scoped_release release;
        int legal[qd::MAX_LEGAL];
        for (size_t i = 0; i < envs.size(); ++i) {
            const qd::State &s = envs[i];
            if (s.phase == qd::OVER) {
                out(i) = 0;
                continue;
            }
            const int k = s.legal(s.to_act(), legal);
            out(i) = legal[chooser.below(static_cast<uint64_t>(k))];
        }
    }

    // Each match's observation for seats[i] (observation.py's Encoder, value for value).
    void observe(Out<const int32_t, -1> seats, Out<float, -1, -1> out) const {
        const qd::Observation obs(cfg);
        if (seats.shape(0) != envs.size() || out.shape(0) != envs.size() ||
            out.shape(1) != static_cast<size_t>(obs.size))
            throw nb::value_error("observe: one seat and one row of observation_size per match");
        for (size_t i = 0; i < envs.size(); ++i)
            if (seats(i) < 0 || seats(i) >= cfg.players) throw nb::value_error("no such seat");
        nb::gil_scoped_release release;
        for (size_t i = 0; i < envs.size(); ++i)
            obs.fill(envs[i], seats(i), out.data() + i * static_cast<size_t>(obs.size));
    }

    void scores(Out<int32_t, -1, -1> out) const {
        if (out.shape(0) != envs.size() || out.shape(1) != static_cast<size_t>(cfg.players))
            throw nb::value_error("scores: one row per match, one column per seat");
        for (size_t i = 0; i < envs.size(); ++i) {
            int now[qd::MAX_SEATS];
            envs[i].scores_now(now);
            for (int p = 0; p < cfg.players; ++p) out(i, p) = now[p];
        }
    }
};

using DominoRow = std::tuple<int, int, int, int>;
using TileRow = std::tuple<int, int, int, int, int, int, int, int, int, int>;

qd::Config make_config(int players, bool wedding, bool teams, bool per_turn,
                       const std::vector<DominoRow> &dominoes, const std::vector<TileRow> &tiles) {
    if (players < 2 || players > qd::MAX_SEATS) throw nb::value_error("Queendomino is for 2-8 players");
    if (teams && players != 6 && players != 8) throw nb::value_error("team play is for 6 or 8 players");
    if (dominoes.size() != qd::MAX_ID) throw nb::value_error("dominoes: one (t1, c1, t2, c2) per id 1-96");
    if (tiles.size() < qd::BOARD_SPACES || tiles.size() > qd::MAX_TILES)
        throw nb::value_error("tiles: 6 to 32 buildings");
    qd::Config c = qd::Config::make(players, wedding || players > 4, teams, per_turn);
    auto in = [](int v, int lo, int hi) { return lo <= v && v <= hi; };
    for (size_t i = 0; i < dominoes.size(); ++i) {
        const auto [t1, c1, t2, c2] = dominoes[i];
        if (!in(t1, 0, qd::TERRAINS - 1) || !in(t2, 0, qd::TERRAINS - 1) || !in(c1, 0, 3) || !in(c2, 0, 3))
            throw nb::value_error("dominoes: terrains 0-6, crowns 0-3");
        c.dom[i + 1] = {static_cast<int8_t>(t1), static_cast<int8_t>(c1), static_cast<int8_t>(t2),
                        static_cast<int8_t>(c2)};
    }
    c.tiles_len = static_cast<int8_t>(tiles.size());
    for (size_t i = 0; i < tiles.size(); ++i) {
        const auto [kn, tw, cpk, cpt, cr, pts, ptr, ter, ptw, pkn] = tiles[i];
        for (int v : {kn, tw, cpk, cpt, cr, pts, ptr, ptw, pkn})
            if (!in(v, 0, 99)) throw nb::value_error("tiles: numbers 0-99");
        if (!in(cr, 0, 3) || !in(ter, -1, qd::TERRAINS - 1) || (ptr && ter < 0))
            throw nb::value_error("tiles: crowns 0-3, terrain -1-6 (set when scoring per territory)");
        c.tiles[i] = {static_cast<int8_t>(kn), static_cast<int8_t>(tw), static_cast<int8_t>(cpk),
                      static_cast<int8_t>(cpt), static_cast<int8_t>(cr), static_cast<int8_t>(pts),
                      static_cast<int8_t>(ptr), static_cast<int8_t>(ter), static_cast<int8_t>(ptw),
                      static_cast<int8_t>(pkn)};
    }
    return c;
}

// ---- a Python state read in (State.load) and written back (side_state, the turn's masks) ----
using load::Box;
using load::fill;
using load::small;
using Built = std::vector<std::tuple<int64_t, int64_t>>;
// One side as QueendominoState holds it: kingdom masks and box, coins, knights, towers, knight
// cells, built cells, and the buildings (tile, cell) in build order.
using Side = std::tuple<nb::bytes, Box, int64_t, int64_t, int64_t, nb::bytes, nb::bytes, Built>;

qd::State load_state(const qd::Config &cfg, uint64_t rng, int64_t ply, int64_t phase, int64_t step,
                     int64_t round, int64_t acting, int64_t draft_pos, int64_t deck_pos,
                     int64_t lines_drawn, const std::vector<int64_t> &deck,
                     const std::vector<int64_t> &draft_order, const std::vector<int64_t> &cur,
                     const std::vector<int64_t> &cur_owner, const std::vector<int64_t> &nxt,
                     const std::vector<int64_t> &nxt_owner, const std::vector<int64_t> &discarded,
                     const std::vector<int64_t> &board, const std::vector<int64_t> &pile,
                     int64_t pile_pos, const std::vector<int64_t> &burnt, int64_t dragon,
                     int64_t queen, nb::bytes last_cells, nb::bytes taxed,
                     const std::vector<Side> &sides) {
    qd::State s;
    s.cfg = cfg;
    s.rng = rng;
    if (ply < 0 || ply > 1000000) throw nb::value_error("ply is out of range");
    s.ply = static_cast<int32_t>(ply);
    s.phase = small(phase, qd::DRAFT, qd::PLAY, "phase (a match over has no playout)");
    s.step = small(step, qd::PLACE, qd::CLAIM, "step");
    s.round = small(round, 0, qd::MAX_ID, "round");
    s.acting = small(acting, 0, qd::MAX_LINE - 1, "acting");
    s.draft_pos = small(draft_pos, 0, qd::MAX_SEATS, "draft_pos");
    s.lines_drawn = small(lines_drawn, 0, qd::MAX_ID, "lines_drawn");
    s.deck_len = fill(s.deck, deck, qd::MAX_ID, 1, qd::MAX_ID, "a deck domino");
    bool seen[qd::MAX_ID + 1] = {};
    for (int i = 0; i < s.deck_len; ++i) {
        if (seen[s.deck[i]]) throw nb::value_error("a domino is twice in the deck");
        seen[s.deck[i]] = true;
    }
    s.deck_pos = small(deck_pos, 0, s.deck_len, "deck_pos");
    s.draft_len = fill(s.draft_order, draft_order, qd::MAX_SEATS, 0, cfg.players - 1, "draft_order");
    s.cur_len = fill(s.cur, cur, qd::MAX_LINE, 1, qd::MAX_ID, "cur");
    if (fill(s.cur_owner, cur_owner, qd::MAX_LINE, -1, cfg.players - 1, "cur_owner") != s.cur_len)
        throw nb::value_error("cur_owner is not as long as cur");
    s.nxt_len = fill(s.nxt, nxt, qd::MAX_LINE, 1, qd::MAX_ID, "nxt");
    if (fill(s.nxt_owner, nxt_owner, qd::MAX_LINE, -1, cfg.players - 1, "nxt_owner") != s.nxt_len)
        throw nb::value_error("nxt_owner is not as long as nxt");
    s.discarded_len = fill(s.discarded, discarded, qd::MAX_ID + qd::MAX_LINE, 1, qd::MAX_ID, "discarded");
    if (board.size() != qd::BOARD_SPACES) throw nb::value_error("the builders' board has 6 spaces");
    fill(s.board, board, qd::BOARD_SPACES, 0, cfg.tiles_len, "a board tile");
    s.pile_len = fill(s.pile, pile, qd::MAX_TILES, 1, cfg.tiles_len, "a pile tile");
    s.pile_pos = small(pile_pos, 0, std::max<int>(s.pile_len, qd::BOARD_SPACES), "pile_pos");
    s.burnt_len = fill(s.burnt, burnt, qd::MAX_TILES, 1, cfg.tiles_len, "a burnt tile");
    s.dragon = small(dragon, -1, qd::BOARD_SPACES - 1, "dragon");
    s.queen = small(queen, -1, cfg.sides - 1, "queen");
    s.last_cells = load::board_of(last_cells);
    s.taxed = load::board_of(taxed);
    if (sides.size() != static_cast<size_t>(cfg.sides)) throw nb::value_error("one entry per side");
    for (int side = 0; side < cfg.sides; ++side) {
        const auto &[kingdom, box, coins, knights, towers, knight_cells, built_cells, built] = sides[side];
        s.kingdoms[side] = load::kingdom_of<qd::Kingdom, qd::TERRAINS>(kingdom, box);
        for (auto [v, what] : {std::make_pair(coins, "coins"), std::make_pair(knights, "knights"),
                               std::make_pair(towers, "towers")})
            if (v < 0 || v > 10000) throw nb::value_error((std::string(what) + " is out of range").c_str());
        s.coins[side] = static_cast<int16_t>(coins);
        s.knights[side] = static_cast<int16_t>(knights);
        s.towers[side] = static_cast<int16_t>(towers);
        s.knight_cells[side] = load::board_of(knight_cells);
        s.built_cells[side] = load::board_of(built_cells);
        if (built.size() > qd::MAX_TILES) throw nb::value_error("too many buildings");
        for (size_t i = 0; i < built.size(); ++i) {
            s.built_tile[side][i] = static_cast<uint8_t>(small(std::get<0>(built[i]), 1, cfg.tiles_len, "a built tile"));
            s.built_cell[side][i] = static_cast<uint8_t>(small(std::get<1>(built[i]), 0, qd::CELLS - 1, "a built cell"));
        }
        s.built_len[side] = static_cast<int8_t>(built.size());
    }
    if (!s.sound()) throw nb::value_error("not a Queendomino state: its fields are inconsistent");
    return s;
}

nb::tuple side_state(const qd::State &s, int side) {
    if (side < 0 || side >= s.cfg.sides) throw nb::index_error("no such side");
    const nb::tuple kingdom = load::kingdom_bytes<qd::Kingdom, qd::TERRAINS>(s.kingdoms[side]);
    std::vector<std::tuple<int, int>> built;
    for (int i = 0; i < s.built_len[side]; ++i) built.emplace_back(s.built_tile[side][i], s.built_cell[side][i]);
    return nb::make_tuple(kingdom[0], kingdom[1], s.coins[side], s.knights[side], s.towers[side],
                          load::bytes_of(s.knight_cells[side]), load::bytes_of(s.built_cells[side]), built);
}

}  // namespace queendomino_bindings

using namespace queendomino_bindings;

void register_queendomino(nb::module_ &m) {
    nb::module_ q = m.def_submodule("queendomino", "Queendomino (ludoteca/games/queendomino).");
    q.attr("NUM_ACTIONS") = qd::NUM_ACTIONS;
    q.attr("RANDOM") = static_cast<int>(qd::RANDOM);

    nb::class_<qd::Config>(q, "Config", "A match's fixed settings (state.py's Config) and tables.")
        .def("__init__", [](qd::Config *c, int players, bool royal_wedding, bool teams,
                            bool tax_per_turn, const std::vector<DominoRow> &dominoes,
                            const std::vector<TileRow> &tiles) {
            new (c) qd::Config(make_config(players, royal_wedding, teams, tax_per_turn, dominoes, tiles));
        }, "players"_a, "royal_wedding"_a, "teams"_a, "tax_per_turn"_a, "dominoes"_a, "tiles"_a,
           "dominoes: (t1, c1, t2, c2) per id 1-96; tiles: Building's numbers per id, in field order.")
        .def_prop_ro("players", [](const qd::Config &c) { return c.players; })
        .def_prop_ro("sides", [](const qd::Config &c) { return c.sides; })
        .def_prop_ro("frame", [](const qd::Config &c) { return c.frame; })
        .def_prop_ro("line_size", [](const qd::Config &c) { return c.line_size; })
        .def_prop_ro("royal_wedding", [](const qd::Config &c) { return c.royal_wedding; })
        .def_prop_ro("side_of", [](const qd::Config &c) { return list8(c.side_of, c.players); })
        .def_prop_ro("observation_size", [](const qd::Config &c) { return qd::Observation(c).size; });

    nb::class_<qd::State>(q, "State", "One match as a plain struct.")
        .def(nb::init<const qd::Config &, uint64_t>(), "config"_a, "seed"_a)
        .def("to_act", &qd::State::to_act, "The seat to act, -1 once over.")
        .def("legal_indices", [](const qd::State &s, int seat) {
            int legal[qd::MAX_LEGAL];
            const int n = s.legal(seat, legal);
            return std::vector<int>(legal, legal + n);
        }, "seat"_a)
        .def("apply", [](qd::State &s, int seat, int index) {
            check_legal(s, seat, index);
            s.apply(index);
        }, "seat"_a, "index"_a, "Apply a legal index for seat; ValueError (state unchanged) otherwise.")
        .def("is_over", [](const qd::State &s) { return s.phase == qd::OVER; })
        .def("outcome", &outcome_of, "(scores, ranks, tiebreaks) once over, else None.")
        .def("scores_now", [](const qd::State &s) {
            int out[qd::MAX_SEATS];
            s.scores_now(out);
            return std::vector<int>(out, out + s.cfg.players);
        })
        .def("clone", [](const qd::State &s) { return qd::State(s); })
        .def("snapshot", [](const qd::State &s) {
            return nb::bytes(reinterpret_cast<const char *>(&s), sizeof s);
        }, "The state's bytes (this build's layout; restore with State.restore).")
        .def_static("restore", [](nb::bytes data) {
            if (data.size() != sizeof(qd::State)) throw nb::value_error("not a Queendomino snapshot of this build");
            qd::State s;
            std::memcpy(static_cast<void *>(&s), data.c_str(), sizeof s);
            if (!s.sound()) throw nb::value_error("not a Queendomino snapshot: its fields are out of range");
            return s;
        }, "data"_a)
        .def_static("load", &load_state, "config"_a, "rng"_a, "ply"_a, "phase"_a, "step"_a,
                    "round"_a, "acting"_a, "draft_pos"_a, "deck_pos"_a, "lines_drawn"_a, "deck"_a,
                    "draft_order"_a, "cur"_a, "cur_owner"_a, "nxt"_a, "nxt_owner"_a, "discarded"_a,
                    "board"_a, "pile"_a, "pile_pos"_a, "burnt"_a, "dragon"_a, "queen"_a,
                    "last_cells"_a, "taxed"_a, "sides"_a,
                    "A match from a Python QueendominoState's fields (masks as 24 little-endian "
                    "bytes of grid.py's ints; per side: (kingdom masks: occupied, 1-3 crowns, each "
                    "terrain; box; coins; knights; towers; knight cells; built cells; built "
                    "(tile, cell) list)); ValueError for any state out of range or inconsistent.")
        .def("side_state", &side_state, "side"_a, "One side as State.load reads it.")
        .def_prop_ro("last_cells_bytes", [](const qd::State &s) { return load::bytes_of(s.last_cells); })
        .def_prop_ro("taxed_bytes", [](const qd::State &s) { return load::bytes_of(s.taxed); })
        .def("playout_from", [](qd::State &s, int policy, uint64_t rng) {
            mask_policy(policy);
            Rng chooser(rng);
            std::vector<int> placed;  // side, domino, cell, direction per placement
            {
                nb::gil_scoped_release release;
                qd::playout(s, chooser, [&placed](const qd::State &at, int index) {
                    if (at.phase != qd::PLAY || at.step != qd::PLACE || index >= qd::PLACE_COUNT) return;
                    placed.insert(placed.end(), {at.cfg.side_of[at.to_act()], at.cur[at.acting], index >> 2, index & 3});
                });
            }
            return nb::make_tuple(chooser.state, placed);
        }, "policy"_a, "rng"_a,
           "Play to the end drawing from a generator in state rng: (that generator's state after, "
           "the placements made, flat: side, domino, cell, direction for each).")
        .def("playouts_after", [](const qd::State &s, int seat, const std::vector<int> &indices,
                                  int policy, uint64_t rng) {
            mask_policy(policy);
            for (const int index : indices)
                if (index >= 0) check_legal(s, seat, index);
            return load::playouts_after(s, indices, rng, [](qd::State &c, int index) { c.apply(index); },
                                        [](qd::State &c, Rng &chooser) {
                                            if (c.phase != qd::OVER) qd::playout(c, chooser);
                                        });
        }, "seat"_a, "indices"_a, "policy"_a, "rng"_a,
           "For each index (-1: none), a copy of this state with seat's legal index applied, played "
           "to the end at random drawing from a generator in state rng (each copy from the same "
           "state): flat, per index, every seat's rank then every seat's score. The analysis's "
           "samples of one drawn world in one call (ludoteca/analysis/estimates.py).")
        .def("playout", [](qd::State &s, int policy, uint64_t seed) {
            mask_policy(policy);
            nb::gil_scoped_release release;
            Rng chooser(seed);
            qd::playout(s, chooser);
        }, "policy"_a, "seed"_a, "Play to the end, every seat choosing with policy from Rng(seed).")
        .def_prop_ro("config", [](const qd::State &s) { return s.cfg; })
        .def_prop_ro("ply", [](const qd::State &s) { return s.ply; })
        .def_prop_ro("rng_state", [](const qd::State &s) { return s.rng; })
        .def_prop_ro("phase", [](const qd::State &s) { return s.phase; })
        .def_prop_ro("step", [](const qd::State &s) { return s.step; })
        .def_prop_ro("round", [](const qd::State &s) { return s.round; })
        .def_prop_ro("acting", [](const qd::State &s) { return s.acting; })
        .def_prop_ro("draft_pos", [](const qd::State &s) { return s.draft_pos; })
        .def_prop_ro("deck_pos", [](const qd::State &s) { return s.deck_pos; })
        .def_prop_ro("lines_drawn", [](const qd::State &s) { return s.lines_drawn; })
        .def_prop_ro("deck", [](const qd::State &s) { return list8(s.deck, s.deck_len); })
        .def_prop_ro("draft_order", [](const qd::State &s) { return list8(s.draft_order, s.draft_len); })
        .def_prop_ro("cur", [](const qd::State &s) { return list8(s.cur, s.cur_len); })
        .def_prop_ro("cur_owner", [](const qd::State &s) { return list8(s.cur_owner, s.cur_len); })
        .def_prop_ro("nxt", [](const qd::State &s) { return list8(s.nxt, s.nxt_len); })
        .def_prop_ro("nxt_owner", [](const qd::State &s) { return list8(s.nxt_owner, s.nxt_len); })
        .def_prop_ro("discarded", [](const qd::State &s) { return list8(s.discarded, s.discarded_len); })
        .def_prop_ro("board", [](const qd::State &s) { return list8(s.board, qd::BOARD_SPACES); })
        .def_prop_ro("pile", [](const qd::State &s) { return list8(s.pile, s.pile_len); })
        .def_prop_ro("pile_pos", [](const qd::State &s) { return s.pile_pos; })
        .def_prop_ro("burnt", [](const qd::State &s) { return list8(s.burnt, s.burnt_len); })
        .def_prop_ro("dragon", [](const qd::State &s) { return s.dragon; })
        .def_prop_ro("queen", [](const qd::State &s) { return s.queen; })
        .def_prop_ro("last_cells", [](const qd::State &s) { return cells_of(s.last_cells); })
        .def_prop_ro("taxed", [](const qd::State &s) { return cells_of(s.taxed); })
        .def("observe", [](const qd::State &s, int seat, Out<float, -1> out) {
            const qd::Observation obs(s.cfg);
            if (seat < 0 || seat >= s.cfg.players) throw nb::value_error("no such seat");
            if (out.shape(0) != static_cast<size_t>(obs.size))
                throw nb::value_error("out must hold observation_size values");
            obs.fill(s, seat, out.data());
        }, "seat"_a, "out"_a, "seat's observation (observation.py's Encoder) written into out.")
        .def("side", [](const qd::State &s, int side) {
            if (side < 0 || side >= s.cfg.sides) throw nb::index_error("no such side");
            std::vector<std::tuple<int, int>> built;
            for (int i = 0; i < s.built_len[side]; ++i) built.emplace_back(s.built_tile[side][i], s.built_cell[side][i]);
            return nb::make_tuple(s.coins[side], s.knights[side], s.towers[side], cells_of(s.knight_cells[side]),
                                  built, cells_of(s.built_cells[side]));
        }, "side"_a, "(coins, knights, towers, knight cells, built (tile, cell), built cells).")
        .def("kingdom", [](const qd::State &s, int side) {
            if (side < 0 || side >= s.cfg.sides) throw nb::index_error("no such side");
            const qd::Kingdom &g = s.kingdoms[side];
            nb::list boards;
            boards.append(cells_of(g.occ));
            for (const Board &b : g.crown) boards.append(cells_of(b));
            for (const Board &b : g.terr) boards.append(cells_of(b));
            return nb::make_tuple(boards, nb::make_tuple(g.minr, g.maxr, g.minc, g.maxc));
        }, "side"_a, "(cells of: occupied, 1-3 crowns, each terrain; (minr, maxr, minc, maxc)), "
                     "cells numbered as grid.py numbers them.");

    q.def("play", [](const qd::Config &cfg, uint64_t first_seed, int64_t count, int policy,
                     uint64_t chooser_seed) {
        mask_policy(policy);
        nb::gil_scoped_release release;
        Rng chooser(chooser_seed);
        int64_t plies = 0;
        for (int64_t g = 0; g < count; ++g) {
            qd::State s(cfg, first_seed + static_cast<uint64_t>(g));
            qd::playout(s, chooser);
            plies += s.ply;
        }
        return plies;
    }, "config"_a, "first_seed"_a, "count"_a, "policy"_a = 0, "chooser_seed"_a = 0,
       "Play count matches (seeds first_seed, first_seed + 1, ...) with one chooser; the plies.");

    nb::class_<Batch>(q, "Batch", "Many matches stepped per call into caller-owned numpy arrays.")
        .def(nb::init<const qd::Config &, size_t, uint64_t>(), "config"_a, "size"_a, "seed"_a = 0)
        .def("__len__", [](const Batch &b) { return b.envs.size(); })
        .def("reset", &Batch::reset, "seeds"_a)
        .def("reset_one", &Batch::reset_one, "i"_a, "seed"_a, "Deal match i again from seed.")
        .def("masks", &Batch::masks, "out"_a)
        .def("to_act", &Batch::to_act, "out"_a)
        .def("step", &Batch::step, "actions"_a, "masks"_a, "rewards"_a, "dones"_a)
        .def("sample", &Batch::sample, "policy"_a, "out"_a)
        .def("scores", &Batch::scores, "out"_a)
        .def("observe", &Batch::observe, "seats"_a, "out"_a)
        .def("state", [](const Batch &b, size_t i) {
            if (i >= b.envs.size()) throw nb::index_error("no such match");
            return b.envs[i];
        }, "i"_a, "A copy of match i.");
}
