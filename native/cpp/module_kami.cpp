// Python bindings of Kami and Goita (kami.hpp): ludoteca_native._core.kami, registered by
// module.cpp's one line `register_kami(m)`.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <string>
#include <vector>

#include "kami.hpp"
#include "load.hpp"
#include "rng.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using namespace ludoteca;
namespace km = ludoteca::kami;

namespace ludoteca::kami_py {

template <typename T, int... Shape>
using Out = nb::ndarray<T, nb::shape<Shape...>, nb::c_contig, nb::device::cpu>;

std::vector<int> list8(const int8_t *p, int n) { return std::vector<int>(p, p + n); }

km::Policy policy_of(int policy) {
    if (policy == km::RANDOM || policy == km::GREEDY || policy == km::SEARCH)
        return static_cast<km::Policy>(policy);
    throw nb::value_error("policy must be 0 (random), 1 (greedy) or 2 (search)");
}

void check_legal(const km::State &s, int seat, int index) {
    if (s.phase == km::OVER) throw nb::value_error("the match is over");
    if (seat != s.to_act()) throw nb::value_error(("it is not seat " + std::to_string(seat) + "'s turn").c_str());
    int legal[km::MAX_LEGAL];
    const int n = s.legal(seat, legal);
    for (int i = 0; i < n; ++i)
        if (legal[i] == index) return;
    throw nb::value_error(("action index " + std::to_string(index) + " is not legal now").c_str());
}

nb::object outcome_of(const km::State &s) {
    if (s.phase != km::OVER) return nb::none();
    const km::Outcome o = s.outcome();
    nb::list scores, ranks, tiebreaks;
    for (int i = 0; i < o.players; ++i) {
        scores.append(o.scores[i]);
        ranks.append(o.ranks[i]);
        tiebreaks.append(nb::make_tuple(o.won[i]));
    }
    return nb::make_tuple(nb::tuple(scores), nb::tuple(ranks), nb::tuple(tiebreaks));
}

std::vector<std::vector<int>> lines(const int8_t (*line)[km::LINE], const int8_t *len, int players) {
    std::vector<std::vector<int>> out;
    for (int p = 0; p < players; ++p) out.push_back(list8(line[p], len[p]));
    return out;
}

// Many matches stepped in one call, reading actions from and writing masks, rewards and dones
// into the caller's numpy arrays (no Python object per match or per step).
struct Batch {
    km::Config cfg;
    std::vector<km::State> envs;
    Rng chooser;

    Batch(const km::Config &c, size_t n, uint64_t seed) : cfg(c), envs(n), chooser(seed) {}

    void reset(Out<const uint64_t, -1> seeds) {
        if (seeds.shape(0) != envs.size()) throw nb::value_error("one seed per match");
        for (size_t i = 0; i < envs.size(); ++i) envs[i] = km::State(cfg, seeds(i));
    }

    void reset_one(size_t i, uint64_t seed) {
        if (i >= envs.size()) throw nb::index_error("no such match");
        envs[i] = km::State(cfg, seed);
    }

    void masks(Out<uint8_t, -1, km::NUM_ACTIONS> out) const {
        if (out.shape(0) != envs.size()) throw nb::value_error("one mask row per match");
        int legal[km::MAX_LEGAL];
        for (size_t i = 0; i < envs.size(); ++i) {
            uint8_t *row = out.data() + i * km::NUM_ACTIONS;
            std::memset(row, 0, km::NUM_ACTIONS);
            const int n = envs[i].legal(envs[i].to_act(), legal);
            for (int j = 0; j < n; ++j) row[legal[j]] = 1;
        }
    }

    void to_act(Out<int32_t, -1> out) const {
        if (out.shape(0) != envs.size()) throw nb::value_error("one seat per match");
        for (size_t i = 0; i < envs.size(); ++i) out(i) = envs[i].to_act();
    }

    // Applies actions[i] to every match not over (ignored once over), then writes the next
    // masks, the rewards of that step per seat (rewards.py's final_rewards over the sides,
    // partners sharing theirs, on the step that ends a match; 0 otherwise) and the dones.
    void step(Out<const int64_t, -1> actions, Out<uint8_t, -1, km::NUM_ACTIONS> masks_out,
              Out<float, -1, -1> rewards, Out<uint8_t, -1> dones) {
        const size_t n = envs.size();
        if (actions.shape(0) != n || masks_out.shape(0) != n || rewards.shape(0) != n ||
            rewards.shape(1) != static_cast<size_t>(cfg.players) || dones.shape(0) != n)
            throw nb::value_error("arrays must have one row per match (rewards: one column per seat)");
        for (size_t i = 0; i < n; ++i)
            if (envs[i].phase != km::OVER) {
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
                km::State &s = envs[i];
                float *r = rewards.data() + i * cfg.players;
                for (int p = 0; p < cfg.players; ++p) r[p] = 0.0f;
                if (s.phase == km::OVER) {
                    dones(i) = 1;
                    continue;
                }
                s.apply(static_cast<int>(actions(i)));
                dones(i) = s.phase == km::OVER;
                if (dones(i)) final_rewards(s, r);
            }
        }
        masks(masks_out);
    }

    void final_rewards(const km::State &s, float *r) const {
        const km::Outcome o = s.outcome();
        int side_rank[km::MAX_SEATS] = {};
        for (int p = 0; p < cfg.players; ++p) side_rank[cfg.side_of[p]] = o.ranks[p];
        const int sides = cfg.sides;
        for (int p = 0; p < cfg.players; ++p) {
            const int mine = side_rank[cfg.side_of[p]];
            int below = 0, above = 0;
            for (int q = 0; q < sides; ++q) {
                below += side_rank[q] > mine;
                above += side_rank[q] < mine;
            }
            r[p] = static_cast<float>(below - above) / static_cast<float>(sides - 1);
        }
    }

    // The policy's choice for every match not over (0 for those over), from the batch's generator.
    void sample(int policy, Out<int64_t, -1> out) {
        if (out.shape(0) != envs.size()) throw nb::value_error("one action per match");
        const km::Policy p = policy_of(policy);
        nb::gil_scoped_release release;
        int legal[km::MAX_LEGAL];
        for (size_t i = 0; i < envs.size(); ++i) {
            const km::State &s = envs[i];
            if (s.phase == km::OVER) {
                out(i) = 0;
                continue;
            }
            const int k = s.legal(s.to_act(), legal);
            out(i) = km::choose(s, legal, k, p, chooser);
        }
    }

    // Each match's observation for seats[i] (observation.py's Encoder, value for value).
    void observe(Out<const int32_t, -1> seats, Out<float, -1, -1> out) const {
        const km::Observation obs(cfg);
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
            int now[km::MAX_SEATS];
            envs[i].scores_now(now);
            for (int p = 0; p < cfg.players; ++p) out(i, p) = now[p];
        }
    }
};

// ---- a Python state read in (State.load) and played out with its history (playout_from) ---
using load::fill;
using load::small;
using Lines = std::vector<std::vector<int64_t>>;

km::State load_state(const km::Config &cfg, uint64_t rng, int64_t ply, int64_t round, int64_t phase,
                     int64_t asked, int64_t nasked, int64_t attack, int64_t attacker, int64_t turn,
                     int64_t first, int64_t winner, bool unlocked, const std::vector<int64_t> &scores,
                     const std::vector<uint32_t> &hands, const std::vector<int64_t> &sizes,
                     const std::vector<int64_t> &revealed, const std::vector<int64_t> &looked,
                     const std::vector<int64_t> &unused, const std::vector<int64_t> &merc_down,
                     const std::vector<int64_t> &merc_up, const Lines &defense, const Lines &attacks) {
    const int n = cfg.players;
    km::State s;
    s.cfg = cfg;
    s.rng = rng;
    if (ply < 0 || ply > 100000000) throw nb::value_error("ply is out of range");
    if (round < 1 || round > 100000000) throw nb::value_error("round is out of range");
    s.ply = static_cast<int32_t>(ply);
    s.round = static_cast<int32_t>(round);
    s.phase = small(phase, km::DECLARE, km::PLAY, "phase (a match over has no playout)");
    s.asked = small(asked, 0, n - 1, "asked");
    s.nasked = small(nasked, 0, n, "nasked");
    s.attack = small(attack, -1, km::TYPES - 1, "attack");
    s.attacker = small(attacker, 0, n - 1, "attacker");
    s.turn = small(turn, 0, n - 1, "turn");
    s.first = small(first, 0, n - 1, "first");
    s.winner = small(winner, -1, -1, "winner (a match not over has none)");
    s.unlocked = unlocked;
    if (scores.size() != static_cast<size_t>(cfg.sides)) throw nb::value_error("one score per side");
    for (int i = 0; i < cfg.sides; ++i) {
        if (scores[i] < -100000 || scores[i] > 100000) throw nb::value_error("a score is out of range");
        s.scores[i] = static_cast<int32_t>(scores[i]);
    }
    if (hands.size() != static_cast<size_t>(n) || sizes.size() != hands.size() ||
        revealed.size() != hands.size() || looked.size() != hands.size() ||
        defense.size() != hands.size() || attacks.size() != hands.size())
        throw nb::value_error("hands, sizes, revealed, looked and the lines: one per seat");
    for (int p = 0; p < n; ++p) {
        for (int t = 0; t < km::TYPES; ++t)
            if (km::count(hands[p], t) > km::COPIES[t]) throw nb::value_error("a hand holds more copies than the deck");
        s.hands[p] = hands[p];
        s.sizes[p] = small(sizes[p], 0, km::DECK, "a hand size");
        s.revealed[p] = small(revealed[p], 0, 10, "revealed");
        s.looked[p] = small(looked[p], -1, n == 3 ? 1 : -1, "looked");
        s.def_len[p] = fill(s.defense[p], defense[p], km::LINE, 0, km::TYPE_MASK | km::FACE_DOWN | km::FROM_MERC, "a defense entry");
        s.att_len[p] = fill(s.attacks[p], attacks[p], km::LINE, 0, km::TYPE_MASK | km::FROM_MERC, "an attack entry");
    }
    for (int p = n; p < km::MAX_SEATS; ++p) s.looked[p] = -1;
    s.unused[0] = s.unused[1] = -1;
    if (unused.size() != (n == 3 ? 2u : 0u)) throw nb::value_error("unused: two cards with 3 players, else none");
    fill(s.unused, unused, 2, 0, km::TYPES - 1, "an unused card");
    for (int k = 0; k < km::STACKS; ++k) s.merc_down[k] = s.merc_up[k] = -1;
    const size_t stacks = n == 2 ? km::STACKS : 0;
    if (merc_down.size() != stacks || merc_up.size() != stacks)
        throw nb::value_error("the mercenary stacks: eight with 2 players, else none");
    fill(s.merc_down, merc_down, km::STACKS, -1, km::TYPES - 1, "a mercenary");
    fill(s.merc_up, merc_up, km::STACKS, -1, km::TYPES - 1, "a mercenary");
    if (!s.sound()) throw nb::value_error("not a Kami state: its fields are inconsistent");
    return s;
}

// What the Python state's history gets during a playout (flat, 8 ints per entry), and the table
// of the last deal that went out (rules.award's `ended`).
struct Record {
    std::vector<int> entries;
    bool has_ended = false;
    km::State last;

    void entry(int round, int seat, int kind, int card, bool master, int gain, int before, int after) {
        entries.insert(entries.end(), {round, seat, kind, card, master ? 1 : 0, gain, before, after});
    }
    template <typename S>
    void ended(const S &s) {
        has_ended = true;
        last = s;
    }
};

nb::object ended_table(const Record &r) {
    if (!r.has_ended) return nb::none();
    const km::State &s = r.last;
    return nb::make_tuple(s.round, lines(s.defense, s.def_len, s.cfg.players),
                          lines(s.attacks, s.att_len, s.cfg.players), list8(s.sizes, s.cfg.players));
}

}  // namespace ludoteca::kami_py
using namespace ludoteca::kami_py;

void register_kami(nb::module_ &m) {
    nb::module_ k = m.def_submodule("kami", "Kami and Goita (ludoteca/games/kami).");
    k.attr("NUM_ACTIONS") = km::NUM_ACTIONS;
    k.attr("RANDOM") = static_cast<int>(km::RANDOM);
    k.attr("GREEDY") = static_cast<int>(km::GREEDY);
    k.attr("SEARCH") = static_cast<int>(km::SEARCH);

    nb::class_<km::Config>(k, "Config", "A match's fixed settings (state.py's Config).")
        .def("__init__", [](km::Config *c, bool goita, int players, int end_mode, int target,
                            bool demoralized) {
            if (goita ? players != 4 : (players < 2 || players > 4))
                throw nb::value_error(goita ? "Goita is for 4 players" : "Kami is for 2-4 players");
            if (end_mode < 0 || end_mode > 2) throw nb::value_error("end_mode must be 0 (soldier), 1 (lord) or 2 (kami)");
            if (target < 1 || target > 100000) throw nb::value_error("target out of range");
            new (c) km::Config(km::Config::make(goita, players, end_mode, target, demoralized));
        }, "goita"_a, "players"_a, "end_mode"_a = 0, "target"_a = 15, "demoralized"_a = true)
        .def_prop_ro("players", [](const km::Config &c) { return c.players; })
        .def_prop_ro("sides", [](const km::Config &c) { return c.sides; })
        .def_prop_ro("side_of", [](const km::Config &c) { return list8(c.side_of, c.players); })
        .def_prop_ro("after", [](const km::Config &c) { return list8(c.after, c.players); })
        .def_prop_ro("end_mode", [](const km::Config &c) { return c.end_mode; })
        .def_prop_ro("target", [](const km::Config &c) { return c.target; })
        .def_prop_ro("demoralized", [](const km::Config &c) { return c.demoralized; })
        .def_prop_ro("goita", [](const km::Config &c) { return c.goita; })
        .def_prop_ro("values", [](const km::Config &c) { return std::vector<int>(c.values, c.values + km::TYPES); })
        .def_prop_ro("observation_size", [](const km::Config &c) { return km::Observation(c).size; });

    // The state holds what the Python KamiState holds (every hand included, as there): what a
    // seat may see is the Python view's business, not the engine's.
    nb::class_<km::State>(k, "State", "One match as a plain struct.")
        .def(nb::init<const km::Config &, uint64_t>(), "config"_a, "seed"_a)
        .def("to_act", &km::State::to_act, "The seat to act, -1 once over.")
        .def("legal_indices", [](const km::State &s, int seat) {
            int legal[km::MAX_LEGAL];
            const int n = s.legal(seat, legal);
            return std::vector<int>(legal, legal + n);
        }, "seat"_a)
        .def("apply", [](km::State &s, int seat, int index) {
            check_legal(s, seat, index);
            s.apply(index);
        }, "seat"_a, "index"_a, "Apply a legal index for seat; ValueError (state unchanged) otherwise.")
        .def("is_over", [](const km::State &s) { return s.phase == km::OVER; })
        .def("outcome", &outcome_of, "(scores, ranks, tiebreaks) once over, else None.")
        .def("scores_now", [](const km::State &s) {
            int out[km::MAX_SEATS];
            s.scores_now(out);
            return std::vector<int>(out, out + s.cfg.players);
        })
        .def("clone", [](const km::State &s) { return km::State(s); })
        .def("snapshot", [](const km::State &s) {
            return nb::bytes(reinterpret_cast<const char *>(&s), sizeof s);
        }, "The state's bytes (this build's layout; restore with State.restore).")
        .def_static("restore", [](nb::bytes data) {
            if (data.size() != sizeof(km::State)) throw nb::value_error("not a Kami snapshot of this build");
            km::State s;
            std::memcpy(static_cast<void *>(&s), data.c_str(), sizeof s);
            if (!s.sound()) throw nb::value_error("not a Kami snapshot: its fields are out of range");
            return s;
        }, "data"_a)
        .def_static("load", &load_state, "config"_a, "rng"_a, "ply"_a, "round"_a, "phase"_a,
                    "asked"_a, "nasked"_a, "attack"_a, "attacker"_a, "turn"_a, "first"_a, "winner"_a,
                    "unlocked"_a, "scores"_a, "hands"_a, "sizes"_a, "revealed"_a, "looked"_a,
                    "unused"_a, "merc_down"_a, "merc_up"_a, "defense"_a, "attacks"_a,
                    "A match not over from a Python KamiState's fields (its lists as there: one per "
                    "seat, scores per side, unused and the stacks only where played); ValueError for "
                    "any state out of range or inconsistent.")
        .def("playout_from", [](km::State &s, int policy, uint64_t rng, bool deal_only) {
            const km::Policy p = policy_of(policy);
            Rng chooser(rng);
            Record record;
            {
                nb::gil_scoped_release release;
                km::playout(s, p, chooser, record, deal_only);
            }
            return nb::make_tuple(chooser.state, record.entries, ended_table(record));
        }, "policy"_a, "rng"_a, "deal_only"_a = false,
           "Play to the end (of the deal, with deal_only: Until.ROUND) drawing from a generator in "
           "state rng: (that generator's state after, "
           "the history entries added, flat: round, seat, kind, card, master, gain, before, after "
           "for each; the last scored deal's (round, defense, attacks, sizes), or None).")
        .def("playouts_after", [](const km::State &s, int seat, const std::vector<int> &indices,
                                  int policy, uint64_t rng) {
            const km::Policy p = policy_of(policy);
            for (const int index : indices)
                if (index >= 0) check_legal(s, seat, index);
            return load::playouts_after(s, indices, rng, [](km::State &c, int index) { c.apply(index); },
                                        [p](km::State &c, Rng &chooser) {
                                            if (c.phase != km::OVER) km::playout(c, p, chooser);
                                        });
        }, "seat"_a, "indices"_a, "policy"_a, "rng"_a,
           "For each index (-1: none), a copy of this state with seat's legal index applied, played "
           "to the end with policy drawing from a generator in state rng (each copy from the same "
           "state): flat, per index, every seat's rank then every seat's score. The analysis's "
           "samples of one drawn world in one call (ludoteca/analysis/estimates.py).")
        .def("playout", [](km::State &s, int policy, uint64_t seed) {
            const km::Policy p = policy_of(policy);
            nb::gil_scoped_release release;
            Rng chooser(seed);
            km::playout(s, p, chooser);
        }, "policy"_a, "seed"_a, "Play to the end, every seat choosing with policy from Rng(seed).")
        .def("observe", [](const km::State &s, int seat, Out<float, -1> out) {
            const km::Observation obs(s.cfg);
            if (seat < 0 || seat >= s.cfg.players) throw nb::value_error("no such seat");
            if (out.shape(0) != static_cast<size_t>(obs.size))
                throw nb::value_error("out must hold observation_size values");
            obs.fill(s, seat, out.data());
        }, "seat"_a, "out"_a, "seat's observation (observation.py's Encoder) written into out.")
        .def_prop_ro("config", [](const km::State &s) { return s.cfg; })
        .def_prop_ro("ply", [](const km::State &s) { return s.ply; })
        .def_prop_ro("rng_state", [](const km::State &s) { return s.rng; })
        .def_prop_ro("phase", [](const km::State &s) { return s.phase; })
        .def_prop_ro("round", [](const km::State &s) { return s.round; })
        .def_prop_ro("scores", [](const km::State &s) { return std::vector<int>(s.scores, s.scores + s.cfg.sides); })
        .def_prop_ro("hands", [](const km::State &s) { return std::vector<uint32_t>(s.hands, s.hands + s.cfg.players); })
        .def_prop_ro("sizes", [](const km::State &s) { return list8(s.sizes, s.cfg.players); })
        .def_prop_ro("asked", [](const km::State &s) { return s.asked; })
        .def_prop_ro("nasked", [](const km::State &s) { return s.nasked; })
        .def_prop_ro("attack", [](const km::State &s) { return s.attack; })
        .def_prop_ro("attacker", [](const km::State &s) { return s.attacker; })
        .def_prop_ro("turn", [](const km::State &s) { return s.turn; })
        .def_prop_ro("first", [](const km::State &s) { return s.first; })
        .def_prop_ro("winner", [](const km::State &s) { return s.winner; })
        .def_prop_ro("unlocked", [](const km::State &s) { return s.unlocked; })
        .def_prop_ro("revealed", [](const km::State &s) { return list8(s.revealed, s.cfg.players); })
        .def_prop_ro("looked", [](const km::State &s) { return list8(s.looked, s.cfg.players); })
        .def_prop_ro("unused", [](const km::State &s) {
            return s.cfg.players == 3 ? list8(s.unused, 2) : std::vector<int>();
        })
        .def_prop_ro("merc_down", [](const km::State &s) {
            return s.cfg.players == 2 ? list8(s.merc_down, km::STACKS) : std::vector<int>();
        })
        .def_prop_ro("merc_up", [](const km::State &s) {
            return s.cfg.players == 2 ? list8(s.merc_up, km::STACKS) : std::vector<int>();
        })
        .def_prop_ro("defense", [](const km::State &s) { return lines(s.defense, s.def_len, s.cfg.players); })
        .def_prop_ro("attacks", [](const km::State &s) { return lines(s.attacks, s.att_len, s.cfg.players); });

    k.def("play", [](const km::Config &cfg, uint64_t first_seed, int64_t count, int policy,
                     uint64_t chooser_seed) {
        const km::Policy p = policy_of(policy);
        nb::gil_scoped_release release;
        Rng chooser(chooser_seed);
        int64_t plies = 0;
        for (int64_t g = 0; g < count; ++g) {
            km::State s(cfg, first_seed + static_cast<uint64_t>(g));
            km::playout(s, p, chooser);
            plies += s.ply;
        }
        return plies;
    }, "config"_a, "first_seed"_a, "count"_a, "policy"_a = 0, "chooser_seed"_a = 0,
       "Play count matches (seeds first_seed, first_seed + 1, ...) with one chooser; the plies.");

    nb::class_<Batch>(k, "Batch", "Many matches stepped per call into caller-owned numpy arrays.")
        .def(nb::init<const km::Config &, size_t, uint64_t>(), "config"_a, "size"_a, "seed"_a = 0)
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
