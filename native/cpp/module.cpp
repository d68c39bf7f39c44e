// Python bindings (nanobind) of the native core: ludoteca_native._core.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstring>
#include <tuple>
#include <string>
#include <vector>

#include "kingdomino.hpp"
#include "kingdomino_search.hpp"
#include "load.hpp"
#include "rng.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using namespace ludoteca;
namespace kd = ludoteca::kingdomino;

namespace {

template <typename T, int... Shape>
using Out = nb::ndarray<T, nb::shape<Shape...>, nb::c_contig, nb::device::cpu>;

std::vector<int> list8(const int8_t *p, int n) { return std::vector<int>(p, p + n); }

std::vector<int> cells(const Board &b) {
    std::vector<int> out;
    b.each([&](int row, int col) { out.push_back(py_cell(row, col)); });
    return out;
}

// RANDOM and GREEDY choose one move at a time; SEARCH (the search's epsilon-greedy playout,
// which keeps plans between moves) only plays whole playouts.
kd::Policy policy_of(int policy, bool whole_playouts = true) {
    if (policy == kd::RANDOM || policy == kd::GREEDY || (whole_playouts && policy == kd::SEARCH))
        return static_cast<kd::Policy>(policy);
    throw nb::value_error(whole_playouts ? "policy must be 0 (random), 1 (greedy) or 2 (search)"
                                         : "policy must be 0 (random) or 1 (greedy) here");
}

void check_legal(const kd::State &s, int seat, int index) {
    if (s.phase == kd::OVER) throw nb::value_error("the match is over");
    if (seat != s.to_act()) throw nb::value_error(("it is not seat " + std::to_string(seat) + "'s turn").c_str());
    int legal[kd::MAX_LEGAL];
    const int n = s.legal(seat, legal);
    for (int i = 0; i < n; ++i)
        if (legal[i] == index) return;
    throw nb::value_error(("action index " + std::to_string(index) + " is not legal now").c_str());
}

nb::object outcome_of(const kd::State &s) {
    if (s.phase != kd::OVER) return nb::none();
    const kd::Outcome o = s.outcome();
    nb::list scores, ranks, tiebreaks;
    for (int i = 0; i < o.players; ++i) {
        scores.append(o.scores[i]);
        ranks.append(o.ranks[i]);
        tiebreaks.append(s.cfg.crowns_tiebreak ? nb::make_tuple(o.largest[i], o.crowns[i])
                                               : nb::make_tuple(o.largest[i]));
    }
    return nb::make_tuple(nb::tuple(scores), nb::tuple(ranks), nb::tuple(tiebreaks));
}

// ---- a Python state read in (State.load) and its kingdoms written back (kingdom_bytes) ------
using load::Box;
using load::fill;
using load::small;

kd::State load_state(const kd::Config &cfg, uint64_t rng, int64_t ply, int64_t phase, int64_t step,
                     int64_t round, int64_t acting, int64_t draft_pos, int64_t deck_pos,
                     const std::vector<int64_t> &deck, const std::vector<int64_t> &draft_order,
                     const std::vector<int64_t> &cur, const std::vector<int64_t> &cur_owner,
                     const std::vector<int64_t> &nxt, const std::vector<int64_t> &nxt_owner,
                     const std::vector<int64_t> &discarded, const std::vector<nb::bytes> &kingdoms,
                     const std::vector<Box> &boxes) {
    kd::State s;
    s.cfg = cfg;
    s.rng = rng;
    if (ply < 0 || ply > 1000000) throw nb::value_error("ply is out of range");
    s.ply = static_cast<int32_t>(ply);
    s.phase = small(phase, kd::DRAFT, kd::PLAY, "phase (a match over has no playout)");
    s.step = small(step, kd::PLACE_STEP, kd::CLAIM_STEP, "step");
    s.round = small(round, 0, cfg.deck_size / cfg.line_size, "round");
    s.game_no = 0;
    s.acting = small(acting, 0, 3, "acting");
    s.draft_pos = small(draft_pos, 0, kd::MAX_SEATS, "draft_pos");
    s.deck_pos = small(deck_pos, 0, cfg.deck_size, "deck_pos");
    if (deck.size() != static_cast<size_t>(cfg.deck_size)) throw nb::value_error("the deck is not deck_size long");
    bool seen[kd::DOMINOES + 1] = {};
    for (size_t i = 0; i < deck.size(); ++i) {
        s.deck[i] = small(deck[i], 1, kd::DOMINOES, "a deck domino");
        if (seen[s.deck[i]]) throw nb::value_error("a domino is twice in the deck");
        seen[s.deck[i]] = true;
    }
    if ((cfg.deck_size - s.deck_pos) % cfg.line_size != 0)
        throw nb::value_error("the undrawn deck is not whole lines");
    for (size_t i = deck.size(), d = 1; i < kd::DOMINOES; ++i) {  // the rest, never read
        while (seen[d]) ++d;
        s.deck[i] = static_cast<int8_t>(d++);
    }
    s.draft_len = fill(s.draft_order, draft_order, kd::MAX_SEATS, 0, cfg.players - 1, "draft_order");
    s.cur_len = fill(s.cur, cur, 4, 1, kd::DOMINOES, "cur");
    if (fill(s.cur_owner, cur_owner, 4, -1, cfg.players - 1, "cur_owner") != s.cur_len)
        throw nb::value_error("cur_owner is not as long as cur");
    s.nxt_len = fill(s.nxt, nxt, 4, 1, kd::DOMINOES, "nxt");
    if (fill(s.nxt_owner, nxt_owner, 4, -1, cfg.players - 1, "nxt_owner") != s.nxt_len)
        throw nb::value_error("nxt_owner is not as long as nxt");
    s.discarded_len = fill(s.discarded, discarded, kd::DOMINOES, 1, kd::DOMINOES, "discarded");
    if (kingdoms.size() != static_cast<size_t>(cfg.players) || boxes.size() != kingdoms.size())
        throw nb::value_error("one kingdom and one bounding box per seat");
    for (int p = 0; p < cfg.players; ++p) s.kingdoms[p] = load::kingdom_of<kd::Kingdom, kd::TERRAINS>(kingdoms[p], boxes[p]);
    if (cfg.games != 1) throw nb::value_error("load takes one game (a Dynasty's finished games are not read)");
    if (!s.sound()) throw nb::value_error("not a Kingdomino state: its fields are inconsistent");
    return s;
}

// Many matches stepped in one call, reading actions from and writing masks, rewards and dones
// into the caller's numpy arrays (no Python object per match or per step).
struct Batch {
    kd::Config cfg;
    std::vector<kd::State> envs;
    Rng chooser;

    Batch(const kd::Config &c, size_t n, uint64_t seed) : cfg(c), envs(n), chooser(seed) {}

    void reset(Out<const uint64_t, -1> seeds) {
        if (seeds.shape(0) != envs.size()) throw nb::value_error("one seed per match");
        for (size_t i = 0; i < envs.size(); ++i) envs[i] = kd::State(cfg, seeds(i));
    }

    void reset_one(size_t i, uint64_t seed) {
        if (i >= envs.size()) throw nb::index_error("no such match");
        envs[i] = kd::State(cfg, seed);
    }

    void masks(Out<uint8_t, -1, kd::NUM_ACTIONS> out) const {
        if (out.shape(0) != envs.size()) throw nb::value_error("one mask row per match");
        int legal[kd::MAX_LEGAL];
        for (size_t i = 0; i < envs.size(); ++i) {
            uint8_t *row = out.data() + i * kd::NUM_ACTIONS;
            std::memset(row, 0, kd::NUM_ACTIONS);
            const int n = envs[i].legal(envs[i].to_act(), legal);
            for (int j = 0; j < n; ++j) row[legal[j]] = 1;
        }
    }

    void to_act(Out<int32_t, -1> out) const {
        if (out.shape(0) != envs.size()) throw nb::value_error("one seat per match");
        for (size_t i = 0; i < envs.size(); ++i) out(i) = envs[i].to_act();
    }

    // Applies actions[i] to every match not over (its action is ignored once over), then writes
    // the next masks, the rewards of that step per seat (the "win" reward, rewards.py's
    // final_rewards, on the step that ends a match; 0 otherwise) and the dones.
    void step(Out<const int64_t, -1> actions, Out<uint8_t, -1, kd::NUM_ACTIONS> masks_out,
              Out<float, -1, -1> rewards, Out<uint8_t, -1> dones) {
        const size_t n = envs.size();
        if (actions.shape(0) != n || masks_out.shape(0) != n || rewards.shape(0) != n ||
            rewards.shape(1) != static_cast<size_t>(cfg.players) || dones.shape(0) != n)
            throw nb::value_error("arrays must have one row per match (rewards: one column per seat)");
        // Every action is checked before any is applied (the legal list costs a fraction of
        // the step): a wrong index is a ValueError naming its match, never a corrupt state.
        for (size_t i = 0; i < n; ++i)
            if (envs[i].phase != kd::OVER) {
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
                kd::State &s = envs[i];
                float *r = rewards.data() + i * cfg.players;
                for (int p = 0; p < cfg.players; ++p) r[p] = 0.0f;
                if (s.phase == kd::OVER) {
                    dones(i) = 1;
                    continue;
                }
                s.apply(static_cast<int>(actions(i)));
                dones(i) = s.phase == kd::OVER;
                if (dones(i)) final_rewards(s, r);
            }
        }
        masks(masks_out);
    }

    void final_rewards(const kd::State &s, float *r) const {
        const kd::Outcome o = s.outcome();
        const int sides = cfg.players;
        for (int p = 0; p < sides; ++p) {
            int below = 0, above = 0;
            for (int q = 0; q < sides; ++q) {
                below += o.ranks[q] > o.ranks[p];
                above += o.ranks[q] < o.ranks[p];
            }
            r[p] = static_cast<float>(below - above) / static_cast<float>(sides - 1);
        }
    }

    // The policy's choice for every match not over (0 for those over), from the batch's generator.
    void sample(int policy, Out<int64_t, -1> out) {
        if (out.shape(0) != envs.size()) throw nb::value_error("one action per match");
        const kd::Policy p = policy_of(policy, false);
        nb::gil_scoped_release release;
        int legal[kd::MAX_LEGAL];
        for (size_t i = 0; i < envs.size(); ++i) {
            const kd::State &s = envs[i];
            if (s.phase == kd::OVER) {
                out(i) = 0;
                continue;
            }
            const int k = s.legal(s.to_act(), legal);
            out(i) = kd::choose(s, legal, k, p, chooser);
        }
    }

    // Each match's observation for seats[i] (observation.py's Encoder, value for value).
    void observe(Out<const int32_t, -1> seats, Out<float, -1, -1> out) const {
        const kd::Observation obs(cfg);
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
            int now[kd::MAX_SEATS];
            envs[i].scores_now(now);
            for (int p = 0; p < cfg.players; ++p) out(i, p) = now[p];
        }
    }
};

// Binds a whole search (kingdomino_search.hpp's flat_search or tree_search) as `name`: the
// view's state and unseen dominoes, the generator's state and the budget in; (iterations done,
// the generator's state after, per root action in creation order (index, visits, value, avail))
// out.
template <typename Search>
void def_whole_search(nb::module_ &k, const char *name, Search search, const char *doc) {
    k.def(name, [search](const kd::State &root, const std::vector<int64_t> &unseen, int remaining,
                    int seat, uint64_t rng, int64_t iterations, double seconds, double cpu_seconds,
                    double elapsed, bool by_iterations, bool by_cpu, bool early_stop,
                    double exploration, double win_weight, double score_weight, double score_scale) {
        std::vector<int8_t> pile;
        for (int64_t n : unseen) pile.push_back(small(n, 1, kd::DOMINOES, "an unseen domino"));
        kd::FlatBudget budget;
        budget.iterations = iterations;
        budget.seconds = seconds;
        budget.cpu_seconds = cpu_seconds;
        budget.elapsed = elapsed;
        budget.by_iterations = by_iterations;
        budget.by_cpu = by_cpu;
        budget.early_stop = early_stop;
        const kd::FlatReward reward{exploration, win_weight, score_weight, score_scale};
        Rng chooser(rng);
        kd::FlatResult found;
        {
            nb::gil_scoped_release release;
            found = search(root, pile, remaining, seat, chooser, budget, reward);
        }
        std::vector<std::tuple<int, int64_t, double, int64_t>> children;
        for (const kd::FlatChild &c : found.children) children.emplace_back(c.index, c.visits, c.value, c.avail);
        return nb::make_tuple(found.done, chooser.state, children);
    }, "root"_a, "unseen"_a, "remaining"_a, "seat"_a, "rng"_a, "iterations"_a, "seconds"_a,
          "cpu_seconds"_a, "elapsed"_a, "by_iterations"_a, "by_cpu"_a, "early_stop"_a,
          "exploration"_a, "win_weight"_a, "score_weight"_a, "score_scale"_a, doc);
}

}  // namespace

NB_MODULE(_core, m) {
    m.doc() = "Ludoteca's native core (C++17): the engines' hot loops, equal to the Python engines.";

    nb::class_<Rng>(m, "Rng", "SplitMix64, drawing exactly as ludoteca.engine.rng.Rng.")
        .def(nb::init<uint64_t>(), "seed"_a = 0)
        .def_rw("state", &Rng::state)
        .def("next64", &Rng::next64)
        .def("below", [](Rng &r, int64_t n) {
            if (n <= 0) throw nb::value_error("n must be positive");
            return r.below(static_cast<uint64_t>(n));
        }, "n"_a)
        .def("shuffle", [](Rng &r, std::vector<int64_t> items) {
            r.shuffle(items.data(), static_cast<int>(items.size()));
            return items;
        }, "items"_a, "A shuffled copy of items (Fisher-Yates, the Python draws).");

    nb::module_ k = m.def_submodule("kingdomino", "Kingdomino (ludoteca/games/kingdomino).");
    k.attr("NUM_ACTIONS") = kd::NUM_ACTIONS;
    k.attr("RANDOM") = static_cast<int>(kd::RANDOM);
    k.attr("GREEDY") = static_cast<int>(kd::GREEDY);
    k.attr("SEARCH") = static_cast<int>(kd::SEARCH);
    k.def("dominoes", [] {
        std::vector<std::tuple<int, int, int, int>> out;
        for (const kd::Domino &d : kd::DOMINO) out.emplace_back(d.t1, d.c1, d.t2, d.c2);
        return out;
    }, "Per domino number 1..48: (terrain, crowns) of each half.");

    nb::class_<kd::Config>(k, "Config", "A match's fixed settings (state.py's Config).")
        .def("__init__", [](kd::Config *c, int players, bool mighty_duel, bool harmony,
                            bool middle_kingdom, bool dynasty, bool bga_three_player,
                            bool crowns_tiebreak, bool abba) {
            if (players < 2 || players > 4) throw nb::value_error("Kingdomino is for 2-4 players");
            new (c) kd::Config(kd::Config::make(players, mighty_duel, harmony, middle_kingdom, dynasty,
                                                bga_three_player, crowns_tiebreak, abba));
        }, "players"_a, "mighty_duel"_a = false, "harmony"_a = false, "middle_kingdom"_a = false,
           "dynasty"_a = false, "bga_three_player"_a = false, "crowns_tiebreak"_a = true,
           "abba"_a = false)
        .def_prop_ro("players", [](const kd::Config &c) { return c.players; })
        .def_prop_ro("frame", [](const kd::Config &c) { return c.frame; })
        .def_prop_ro("deck_size", [](const kd::Config &c) { return c.deck_size; })
        .def_prop_ro("line_size", [](const kd::Config &c) { return c.line_size; })
        .def_prop_ro("games", [](const kd::Config &c) { return c.games; })
        .def_prop_ro("observation_size", [](const kd::Config &c) { return kd::Observation(c).size; });

    nb::class_<kd::State>(k, "State", "One match as a plain struct.")
        .def(nb::init<const kd::Config &, uint64_t>(), "config"_a, "seed"_a)
        .def("to_act", &kd::State::to_act, "The seat to act, -1 once over.")
        .def("legal_indices", [](const kd::State &s, int seat) {
            int legal[kd::MAX_LEGAL];
            const int n = s.legal(seat, legal);
            return std::vector<int>(legal, legal + n);
        }, "seat"_a)
        .def("apply", [](kd::State &s, int seat, int index) {
            check_legal(s, seat, index);
            s.apply(index);
        }, "seat"_a, "index"_a, "Apply a legal index for seat; ValueError (state unchanged) otherwise.")
        .def("is_over", [](const kd::State &s) { return s.phase == kd::OVER; })
        .def("outcome", &outcome_of, "(scores, ranks, tiebreaks) once over, else None.")
        .def("scores_now", [](const kd::State &s) {
            int out[kd::MAX_SEATS];
            s.scores_now(out);
            return std::vector<int>(out, out + s.cfg.players);
        })
        .def("clone", [](const kd::State &s) { return kd::State(s); })
        .def("snapshot", [](const kd::State &s) {
            return nb::bytes(reinterpret_cast<const char *>(&s), sizeof s);
        }, "The state's bytes (this build's layout; restore with State.restore).")
        .def_static("restore", [](nb::bytes data) {
            if (data.size() != sizeof(kd::State)) throw nb::value_error("not a Kingdomino snapshot of this build");
            kd::State s;
            std::memcpy(static_cast<void *>(&s), data.c_str(), sizeof s);
            if (!s.sound()) throw nb::value_error("not a Kingdomino snapshot: its fields are out of range");
            return s;
        }, "data"_a)
        .def_static("load", &load_state, "config"_a, "rng"_a, "ply"_a, "phase"_a, "step"_a,
                    "round"_a, "acting"_a, "draft_pos"_a, "deck_pos"_a, "deck"_a, "draft_order"_a,
                    "cur"_a, "cur_owner"_a, "nxt"_a, "nxt_owner"_a, "discarded"_a, "kingdoms"_a,
                    "boxes"_a,
                    "A match of one game from a Python KingdominoState's fields (kingdoms as 10 "
                    "little-endian 24-byte grid.py masks: occupied, 1-3 crowns, each terrain); "
                    "ValueError for any state the rules cannot reach in shape.")
        .def("playout_from", [](kd::State &s, int policy, uint64_t rng) {
            const kd::Policy p = policy_of(policy);
            Rng chooser(rng);
            std::vector<int> placed;  // seat, domino, cell, direction per placement
            {
                nb::gil_scoped_release release;
                kd::playout(s, p, chooser, [&placed](const kd::State &at, int index) {
                    if (index >= kd::PLACE_COUNT) return;  // a claim or a discard
                    placed.insert(placed.end(), {at.to_act(), at.cur[at.acting], index >> 2, index & 3});
                });
            }
            return nb::make_tuple(chooser.state, placed);
        }, "policy"_a, "rng"_a,
           "Play to the end drawing from a generator in state rng: (that generator's state after, "
           "the placements made, flat: seat, domino, cell, direction for each).")
        .def("playouts_after", [](const kd::State &s, int seat, const std::vector<int> &indices,
                                  int policy, uint64_t rng) {
            const kd::Policy p = policy_of(policy);
            for (const int index : indices)
                if (index >= 0) check_legal(s, seat, index);
            return load::playouts_after(s, indices, rng, [](kd::State &c, int index) { c.apply(index); },
                                        [p](kd::State &c, Rng &chooser) {
                                            if (c.phase != kd::OVER) kd::playout(c, p, chooser);
                                        });
        }, "seat"_a, "indices"_a, "policy"_a, "rng"_a,
           "For each index (-1: none), a copy of this state with seat's legal index applied, played "
           "to the end with policy drawing from a generator in state rng (each copy from the same "
           "state): flat, per index, every seat's rank then every seat's score. The analysis's "
           "samples of one drawn world in one call (ludoteca/analysis/estimates.py).")
        .def("kingdom_bytes", [](const kd::State &s, int seat) {
            if (seat < 0 || seat >= s.cfg.players) throw nb::index_error("no such seat");
            return load::kingdom_bytes<kd::Kingdom, kd::TERRAINS>(s.kingdoms[seat]);
        }, "seat"_a, "The seat's kingdom as State.load reads it: (10 masks of 24 bytes, "
                     "(minr, maxr, minc, maxc)).")
        .def("playout", [](kd::State &s, int policy, uint64_t seed) {
            const kd::Policy p = policy_of(policy);
            nb::gil_scoped_release release;
            Rng chooser(seed);
            kd::playout(s, p, chooser);
        }, "policy"_a, "seed"_a, "Play to the end, every seat choosing with policy from Rng(seed).")
        .def_prop_ro("config", [](const kd::State &s) { return s.cfg; })
        .def_prop_ro("ply", [](const kd::State &s) { return s.ply; })
        .def_prop_ro("rng_state", [](const kd::State &s) { return s.rng; })
        .def_prop_ro("phase", [](const kd::State &s) { return s.phase; })
        .def_prop_ro("step", [](const kd::State &s) { return s.step; })
        .def_prop_ro("round", [](const kd::State &s) { return s.round; })
        .def_prop_ro("game_no", [](const kd::State &s) { return s.game_no; })
        .def_prop_ro("acting", [](const kd::State &s) { return s.acting; })
        .def_prop_ro("draft_pos", [](const kd::State &s) { return s.draft_pos; })
        .def_prop_ro("deck_pos", [](const kd::State &s) { return s.deck_pos; })
        .def_prop_ro("deck", [](const kd::State &s) { return list8(s.deck, s.cfg.deck_size); })
        .def_prop_ro("draft_order", [](const kd::State &s) { return list8(s.draft_order, s.draft_len); })
        .def_prop_ro("cur", [](const kd::State &s) { return list8(s.cur, s.cur_len); })
        .def_prop_ro("cur_owner", [](const kd::State &s) { return list8(s.cur_owner, s.cur_len); })
        .def_prop_ro("nxt", [](const kd::State &s) { return list8(s.nxt, s.nxt_len); })
        .def_prop_ro("nxt_owner", [](const kd::State &s) { return list8(s.nxt_owner, s.nxt_len); })
        .def_prop_ro("discarded", [](const kd::State &s) { return list8(s.discarded, s.discarded_len); })
        .def("observe", [](const kd::State &s, int seat, Out<float, -1> out) {
            const kd::Observation obs(s.cfg);
            if (seat < 0 || seat >= s.cfg.players) throw nb::value_error("no such seat");
            if (out.shape(0) != static_cast<size_t>(obs.size))
                throw nb::value_error("out must hold observation_size values");
            obs.fill(s, seat, out.data());
        }, "seat"_a, "out"_a, "seat's observation (observation.py's Encoder) written into out.")
        .def("kingdom", [](const kd::State &s, int seat) {
            if (seat < 0 || seat >= s.cfg.players) throw nb::index_error("no such seat");
            const kd::Kingdom &g = s.kingdoms[seat];
            nb::list boards;
            boards.append(cells(g.occ));
            for (const Board &b : g.crown) boards.append(cells(b));
            for (const Board &b : g.terr) boards.append(cells(b));
            return nb::make_tuple(boards, nb::make_tuple(g.minr, g.maxr, g.minc, g.maxc));
        }, "seat"_a, "(cells of: occupied, 1-3 crowns, each terrain; (minr, maxr, minc, maxc)), "
                     "cells numbered as grid.py numbers them.");

    k.def("play", [](const kd::Config &cfg, uint64_t first_seed, int64_t count, int policy,
                     uint64_t chooser_seed) {
        const kd::Policy p = policy_of(policy);
        nb::gil_scoped_release release;
        Rng chooser(chooser_seed);
        int64_t plies = 0;
        for (int64_t g = 0; g < count; ++g) {
            kd::State s(cfg, first_seed + static_cast<uint64_t>(g));
            kd::playout(s, p, chooser);
            plies += s.ply;
        }
        return plies;
    }, "config"_a, "first_seed"_a, "count"_a, "policy"_a = 0, "chooser_seed"_a = 0,
       "Play count matches (seeds first_seed, first_seed + 1, ...) with one chooser; the plies.");

    def_whole_search(k, "flat_search", kd::flat_search,
                     "bots/search.py's flat search with the game's epsilon-greedy playouts, whole "
                     "in C++ (kingdomino_search.hpp): (iterations done, the generator's state "
                     "after, per root action in creation order (index, visits, value, avail)).");
    def_whole_search(k, "tree_search", kd::tree_search,
                     "bots/search.py's search with mode=\"uct\" and the game's epsilon-greedy "
                     "playouts, whole in C++ (kingdomino_search.hpp); answers as flat_search.");

    nb::class_<Batch>(k, "Batch", "Many matches stepped per call into caller-owned numpy arrays.")
        .def(nb::init<const kd::Config &, size_t, uint64_t>(), "config"_a, "size"_a, "seed"_a = 0)
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
    { void register_queendomino(nb::module_ &); register_queendomino(m); }  // module_queendomino.cpp
    { void register_kami(nb::module_ &); register_kami(m); }  // module_kami.cpp
    { void register_buttons(nb::module_ &); register_buttons(m); }  // module_buttons.cpp
}
