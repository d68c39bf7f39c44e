// Python bindings of Buttons (buttons.hpp): ludoteca_native._core.buttons, registered by
// module.cpp's one line `register_buttons(m)`. The batched API and the snapshot glue are
// bind.hpp's, shared.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bind.hpp"
#include "buttons.hpp"
#include "load.hpp"
#include "rng.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using namespace ludoteca;
namespace bt = ludoteca::buttons;

namespace ludoteca::buttons_py {

// buttons.hpp's pieces, as bind.hpp's glue reads them.
struct Game {
    using State = bt::State;
    using Config = bt::Config;
    using Observation = bt::Observation;
    static constexpr int OVER = bt::OVER, NUM_ACTIONS = bt::NUM_ACTIONS;
    static constexpr int MAX_LEGAL = bt::MAX_LEGAL, MAX_SEATS = bt::MAX_SEATS;

    static bt::Policy policy_of(int policy) {
        if (policy == bt::RANDOM || policy == bt::GREEDY || policy == bt::SEARCH)
            return static_cast<bt::Policy>(policy);
        throw nb::value_error("policy must be 0 (random), 1 (greedy) or 2 (search)");
    }
    static int choose(const State &s, const int *legal, int n, bt::Policy p, Rng &rng) {
        return bt::choose(s, legal, n, p, rng);
    }
};

using Batch = bind::Batch<Game>;
template <typename T, int... Shape>
using Out = bind::Out<T, Shape...>;

std::vector<int> list8(const int8_t *p, int n) { return std::vector<int>(p, p + n); }

template <typename T>
std::vector<T> seats_of(const T *p, const bt::State &s) { return std::vector<T>(p, p + s.cfg.players); }

bt::Until until_of(int until) {
    if (until != bt::END && until != bt::ROUND_END) throw nb::value_error("until must be 0 (end) or 1 (round)");
    return static_cast<bt::Until>(until);
}

// ---- a Python state read in (State.load), for playouts that write it back -----------------
using U64s = std::vector<uint64_t>;
using I64s = std::vector<int64_t>;

using load::small;

bt::State load_state(const bt::Config &cfg, uint64_t rng, int64_t ply, int64_t round, int64_t phase,
                     int64_t active, int64_t deciders, int64_t waiting, int64_t in_round, int64_t free,
                     int64_t removed_card, uint64_t options_mask, const I64s &dice,
                     const I64s &layout_ids, const I64s &cards, const I64s &status, const I64s &earned,
                     const I64s &last_placed, const I64s &pending, const U64s &markers,
                     const U64s &stars, const U64s &picks, const I64s &stop_stars,
                     const I64s &colour_stars, const I64s &bonus_stars) {
    const int n = cfg.players, seats = (1 << n) - 1;
    bt::State s;
    s.cfg = cfg;
    s.rng = rng;
    if (ply < 0 || ply > 100000000) throw nb::value_error("ply is out of range");
    if (round < 1 || round > 100000000) throw nb::value_error("round is out of range");
    s.ply = static_cast<int32_t>(ply);
    s.round = static_cast<int32_t>(round);
    s.phase = small(phase, bt::TURN, bt::STARS, "phase (a match over has no playout)");
    s.active = small(active, 0, n - 1, "active");
    s.deciders = small(deciders, 0, seats, "deciders");
    s.waiting = small(waiting, 0, seats, "waiting");
    s.in_round = small(in_round, 0, seats, "in_round");
    s.free = small(free, 0, bt::WHITE_PIP_DICE, "free");
    s.removed_card = small(removed_card, 0, 15, "removed_card");
    s.options_mask = options_mask;
    if (dice.size() > 6) throw nb::value_error("at most six dice");
    s.ndice = static_cast<int8_t>(dice.size());
    for (size_t i = 0; i < dice.size(); ++i) s.dice[i] = small(dice[i], 1, 6, "a die");
    for (const size_t size : {layout_ids.size(), cards.size(), status.size(), earned.size(),
                              last_placed.size(), pending.size(), markers.size(), stars.size(),
                              picks.size(), stop_stars.size(), colour_stars.size(), bonus_stars.size()})
        if (size != static_cast<size_t>(n)) throw nb::value_error("every per-seat list: one per seat");
    for (int p = n; p < bt::MAX_SEATS; ++p) s.last_placed[p] = s.pending[p] = bt::NO_CELL;
    for (int p = 0; p < n; ++p) {
        s.layout_ids[p] = small(layout_ids[p], 0, bt::LAYOUTS - 1, "a layout");
        for (int k = 0; k < bt::COLOURS; ++k) s.boards[p][k] = cfg.layouts[s.layout_ids[p]][k];
        s.cards[p] = small(cards[p], 0, 15, "cards");
        s.status[p] = small(status[p], bt::IN, bt::BUSTED, "a status");
        s.earned[p] = small(earned[p], 0, bt::CELLS, "earned");
        s.last_placed[p] = small(last_placed[p], bt::NO_CELL, bt::CELLS - 1, "last_placed");
        s.pending[p] = small(pending[p], bt::NO_CELL, bt::CELLS - 1, "pending");
        s.markers[p] = markers[p];
        s.stars[p] = stars[p];
        s.picks[p] = picks[p];
        for (const auto &[from, to] : {std::pair{&stop_stars, s.stop_stars}, std::pair{&colour_stars, s.colour_stars},
                                       std::pair{&bonus_stars, s.bonus_stars}}) {
            if ((*from)[p] < 0 || (*from)[p] > 10000) throw nb::value_error("a star sum is out of range");
            to[p] = static_cast<int16_t>((*from)[p]);
        }
    }
    if (!s.sound()) throw nb::value_error("not a Buttons state: its fields are inconsistent");
    return s;
}

nb::object outcome_of(const bt::State &s) {
    if (s.phase != bt::OVER) return nb::none();
    const bt::Outcome o = s.outcome();
    nb::list scores, ranks, tiebreaks;
    for (int i = 0; i < o.players; ++i) {
        scores.append(o.scores[i]);
        ranks.append(o.ranks[i]);
        tiebreaks.append(nb::tuple());
    }
    return nb::make_tuple(nb::tuple(scores), nb::tuple(ranks), nb::tuple(tiebreaks));
}

// scoring.final_outcome's parts of a seat, as (key, value) pairs: a BGA line's 100 points, else
// where its stars came from (stopping always named, colours and bonus colours when any).
std::vector<std::tuple<std::string, int>> parts_of(const bt::State &s, int seat) {
    if (seat < 0 || seat >= s.cfg.players) throw nb::index_error("no such seat");
    if (s.cfg.bga_winner && bt::five_line(s.stars[seat])) return {{"five_line", bt::LINE_POINTS}};
    std::vector<std::tuple<std::string, int>> out{{"stop", s.stop_stars[seat]}};
    if (s.colour_stars[seat]) out.emplace_back("colours", s.colour_stars[seat]);
    if (s.bonus_stars[seat]) out.emplace_back("bonus", s.bonus_stars[seat]);
    return out;
}

bt::Config make_config(int players, bool bga_winner, bool fixed_boards,
                       const std::vector<std::array<uint64_t, bt::COLOURS>> &layouts) {
    if (players < 2 || players > bt::MAX_SEATS) throw nb::value_error("Buttons is for 2-4 players");
    if (layouts.size() != bt::LAYOUTS) throw nb::value_error("a layout set is 8 layouts");
    uint64_t table[bt::LAYOUTS][bt::COLOURS];
    for (int l = 0; l < bt::LAYOUTS; ++l)
        for (int k = 0; k < bt::COLOURS; ++k) table[l][k] = layouts[l][k];
    const bt::Config c = bt::Config::make(players, bga_winner, fixed_boards, table);
    if (!c.sound()) throw nb::value_error("a layout's four colour masks must split the 36 cells");
    return c;
}

}  // namespace ludoteca::buttons_py
using namespace ludoteca::buttons_py;

void register_buttons(nb::module_ &m) {
    nb::module_ k = m.def_submodule("buttons", "Buttons (ludoteca/games/buttons).");
    k.attr("NUM_ACTIONS") = bt::NUM_ACTIONS;
    k.attr("RANDOM") = static_cast<int>(bt::RANDOM);
    k.attr("GREEDY") = static_cast<int>(bt::GREEDY);
    k.attr("SEARCH") = static_cast<int>(bt::SEARCH);
    k.attr("END") = static_cast<int>(bt::END);
    k.attr("ROUND") = static_cast<int>(bt::ROUND_END);

    nb::class_<bt::Config>(k, "Config", "A match's fixed settings (state.py's Config) and layout set.")
        .def("__init__", [](bt::Config *c, int players, bool bga_winner, bool fixed_boards,
                            const std::vector<std::array<uint64_t, bt::COLOURS>> &layouts) {
            new (c) bt::Config(make_config(players, bga_winner, fixed_boards, layouts));
        }, "players"_a, "bga_winner"_a, "fixed_boards"_a, "layouts"_a,
           "layouts: the 8 layouts of the set, each as its (red, yellow, green, blue) cell masks.")
        .def_prop_ro("players", [](const bt::Config &c) { return c.players; })
        .def_prop_ro("bga_winner", [](const bt::Config &c) { return c.bga_winner != 0; })
        .def_prop_ro("fixed_boards", [](const bt::Config &c) { return c.fixed_boards != 0; })
        .def_prop_ro("aside", [](const bt::Config &c) { return c.aside; })
        .def_prop_ro("observation_size", [](const bt::Config &c) { return bt::Observation(c).size; });

    // The state holds what ButtonsState holds but the round history (the breakdown's and the
    // views'); every seat's pending answer included, as there: what a seat may see is the Python
    // view's business.
    nb::class_<bt::State>(k, "State", "One match as a plain struct.")
        .def(nb::init<const bt::Config &, uint64_t>(), "config"_a, "seed"_a)
        .def("to_act", &bt::State::to_act, "The lowest seat to act, -1 once over.")
        .def("to_act_mask", &bt::State::to_act_mask, "Every seat to act now, as a bit mask.")
        .def("legal_indices", [](const bt::State &s, int seat) {
            int legal[bt::MAX_LEGAL];
            const int n = s.legal(seat, legal);
            return std::vector<int>(legal, legal + n);
        }, "seat"_a)
        .def("apply", [](bt::State &s, int seat, int index) {
            bind::check_legal<Game>(s, seat, index);
            s.apply(seat, index);
        }, "seat"_a, "index"_a, "Apply a legal index for seat; ValueError (state unchanged) otherwise.")
        .def("is_over", [](const bt::State &s) { return s.phase == bt::OVER; })
        .def("outcome", &outcome_of, "(scores, ranks, tiebreaks) once over, else None.")
        .def("score_parts", &parts_of, "seat"_a,
             "The outcome's parts of seat as (key, value) pairs, as scoring.final_outcome has them.")
        .def("scores_now", [](const bt::State &s) {
            int out[bt::MAX_SEATS];
            s.scores_now(out);
            return std::vector<int>(out, out + s.cfg.players);
        })
        .def("clone", [](const bt::State &s) { return bt::State(s); })
        .def("snapshot", &bind::snapshot<bt::State>, "The state's bytes (this build's layout; restore with State.restore).")
        .def_static("restore", [](nb::bytes data) { return bind::restore<bt::State>(data, "Buttons"); }, "data"_a)
        .def("playout", [](bt::State &s, int policy, uint64_t seed, int until) {
            const bt::Policy p = Game::policy_of(policy);
            const bt::Until u = until_of(until);
            nb::gil_scoped_release release;
            Rng chooser(seed);
            bt::playout(s, p, chooser, u);
        }, "policy"_a, "seed"_a, "until"_a = 0,
           "Play to the end (or, until=ROUND, of the round), the lowest seat to act choosing with "
           "policy from Rng(seed).")
        .def("playout_from", [](bt::State &s, int policy, uint64_t rng, int until) {
            const bt::Policy p = Game::policy_of(policy);
            const bt::Until u = until_of(until);
            nb::gil_scoped_release release;
            Rng chooser(rng);
            bt::playout(s, p, chooser, u);
            return chooser.state;
        }, "policy"_a, "rng"_a, "until"_a = 0,
           "playout drawing from a generator in state rng; that generator's state after.")
        .def("playout_logged", [](bt::State &s, int policy, uint64_t rng, int until) {
            const bt::Policy p = Game::policy_of(policy);
            const bt::Until u = until_of(until);
            std::vector<int> entries;
            {
                nb::gil_scoped_release release;
                Rng chooser(rng);
                bt::round_log = &entries;
                try {
                    bt::playout(s, p, chooser, u);
                } catch (...) {
                    bt::round_log = nullptr;
                    throw;
                }
                bt::round_log = nullptr;
                rng = chooser.state;
            }
            return nb::make_tuple(rng, entries);
        }, "policy"_a, "rng"_a, "until"_a = 0,
           "playout_from, also giving what the Python state's round history gets: (the generator's "
           "state after, the entries flat: for each round ended, for each seat, its status, "
           "markers, colours, bonus and stars, as rules.end_round appends them).")
        .def("playouts_after", [](const bt::State &s, int seat, const std::vector<int> &indices,
                                  int policy, uint64_t rng) {
            const bt::Policy p = Game::policy_of(policy);
            for (const int index : indices)
                if (index >= 0) bind::check_legal<Game>(s, seat, index);
            return load::playouts_after(s, indices, rng,
                                        [seat](bt::State &c, int index) { c.apply(seat, index); },
                                        [p](bt::State &c, Rng &chooser) {
                                            if (c.phase != bt::OVER) bt::playout(c, p, chooser);
                                        });
        }, "seat"_a, "indices"_a, "policy"_a, "rng"_a,
           "For each index (-1: none), a copy of this state with seat's legal index applied, played "
           "to the end with policy (the lowest seat to act first) drawing from a generator in state "
           "rng (each copy from the same state): flat, per index, every seat's rank then every "
           "seat's score. The analysis's samples of one drawn world in one call.")
        .def_static("load", &load_state, "config"_a, "rng"_a, "ply"_a, "round"_a, "phase"_a,
                    "active"_a, "deciders"_a, "waiting"_a, "in_round"_a, "free"_a, "removed_card"_a,
                    "options_mask"_a, "dice"_a, "layout_ids"_a, "cards"_a, "status"_a, "earned"_a,
                    "last_placed"_a, "pending"_a, "markers"_a, "stars"_a, "picks"_a, "stop_stars"_a,
                    "colour_stars"_a, "bonus_stars"_a,
                    "A match not over from a Python ButtonsState's fields (its per-seat lists one per "
                    "seat; the boards from the layouts; the star sums scoring.star_parts makes of "
                    "its history); ValueError for any state out of range or inconsistent.")

        .def("observe", [](const bt::State &s, int seat, Out<float, -1> out) {
            const bt::Observation obs(s.cfg);
            if (seat < 0 || seat >= s.cfg.players) throw nb::value_error("no such seat");
            if (out.shape(0) != static_cast<size_t>(obs.size))
                throw nb::value_error("out must hold observation_size values");
            obs.fill(s, seat, out.data());
        }, "seat"_a, "out"_a, "seat's observation (observation.py's Encoder) written into out.")
        .def_prop_ro("config", [](const bt::State &s) { return s.cfg; })
        .def_prop_ro("ply", [](const bt::State &s) { return s.ply; })
        .def_prop_ro("rng_state", [](const bt::State &s) { return s.rng; })
        .def_prop_ro("round", [](const bt::State &s) { return s.round; })
        .def_prop_ro("phase", [](const bt::State &s) { return s.phase; })
        .def_prop_ro("active", [](const bt::State &s) { return s.active; })
        .def_prop_ro("deciders", [](const bt::State &s) { return s.deciders; })
        .def_prop_ro("waiting", [](const bt::State &s) { return s.waiting; })
        .def_prop_ro("in_round", [](const bt::State &s) { return s.in_round; })
        .def_prop_ro("free", [](const bt::State &s) { return s.free; })
        .def_prop_ro("removed_card", [](const bt::State &s) { return s.removed_card; })
        .def_prop_ro("options_mask", [](const bt::State &s) { return s.options_mask; })
        .def_prop_ro("dice", [](const bt::State &s) { return list8(s.dice, s.ndice); })
        .def_prop_ro("layout_ids", [](const bt::State &s) { return list8(s.layout_ids, s.cfg.players); })
        .def_prop_ro("cards", [](const bt::State &s) { return list8(s.cards, s.cfg.players); })
        .def_prop_ro("status", [](const bt::State &s) { return list8(s.status, s.cfg.players); })
        .def_prop_ro("earned", [](const bt::State &s) { return list8(s.earned, s.cfg.players); })
        .def_prop_ro("last_placed", [](const bt::State &s) { return list8(s.last_placed, s.cfg.players); })
        .def_prop_ro("pending", [](const bt::State &s) { return list8(s.pending, s.cfg.players); })
        .def_prop_ro("markers", [](const bt::State &s) { return seats_of(s.markers, s); })
        .def_prop_ro("stars", [](const bt::State &s) { return seats_of(s.stars, s); })
        .def_prop_ro("picks", [](const bt::State &s) { return seats_of(s.picks, s); })
        .def_prop_ro("boards", [](const bt::State &s) {
            std::vector<std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>> out;
            for (int p = 0; p < s.cfg.players; ++p)
                out.emplace_back(s.boards[p][0], s.boards[p][1], s.boards[p][2], s.boards[p][3]);
            return out;
        });

    k.def("play", [](const bt::Config &cfg, uint64_t first_seed, int64_t count, int policy,
                     uint64_t chooser_seed) {
        const bt::Policy p = Game::policy_of(policy);
        nb::gil_scoped_release release;
        Rng chooser(chooser_seed);
        int64_t plies = 0;
        for (int64_t g = 0; g < count; ++g) {
            bt::State s(cfg, first_seed + static_cast<uint64_t>(g));
            bt::playout(s, p, chooser);
            plies += s.ply;
        }
        return plies;
    }, "config"_a, "first_seed"_a, "count"_a, "policy"_a = 0, "chooser_seed"_a = 0,
       "Play count matches (seeds first_seed, first_seed + 1, ...) with one chooser; the plies.");

    Batch::define(k);
}
