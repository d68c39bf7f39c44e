// Binding glue a game's module_<game>.cpp shares rather than copies: the legality check of
// `apply`, the `win` rewards and the batched API (`Batch`) over any game whose header has the
// usual shape (State with to_act/legal/apply/phase/outcome/scores_now/sound, Config.players,
// Observation(cfg).fill, choose, OVER, NUM_ACTIONS, MAX_LEGAL, MAX_SEATS). A game names its
// header's pieces in a traits struct `G` (module_buttons.cpp's is the example).
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstring>
#include <string>
#include <vector>

#include "rng.hpp"

namespace ludoteca::bind {

namespace nb = nanobind;
using namespace nb::literals;

template <typename T, int... Shape>
using Out = nb::ndarray<T, nb::shape<Shape...>, nb::c_contig, nb::device::cpu>;

// A legal index for `seat` now, or a ValueError saying why not (the state unchanged).
template <class G>
void check_legal(const typename G::State &s, int seat, int index) {
    if (s.phase == G::OVER) throw nb::value_error("the match is over");
    int legal[G::MAX_LEGAL];
    const int n = s.legal(seat, legal);
    if (n == 0) throw nb::value_error(("it is not seat " + std::to_string(seat) + "'s turn").c_str());
    for (int i = 0; i < n; ++i)
        if (legal[i] == index) return;
    throw nb::value_error(("action index " + std::to_string(index) + " is not legal now").c_str());
}

// rl/rewards.py's final_rewards ("win"): (seats ranked below - seats ranked above) / (n - 1).
inline void win_rewards(const int *ranks, int n, float *r) {
    for (int p = 0; p < n; ++p) {
        int below = 0, above = 0;
        for (int q = 0; q < n; ++q) {
            below += ranks[q] > ranks[p];
            above += ranks[q] < ranks[p];
        }
        r[p] = static_cast<float>(below - above) / static_cast<float>(n - 1);
    }
}

// Many matches stepped in one call, reading actions from and writing masks, rewards and dones
// into the caller's numpy arrays (no Python object per match or per step). The seat that acts
// in a match is its lowest seat to act (State::to_act), as the playouts take it.
template <class G>
struct Batch {
    using State = typename G::State;
    typename G::Config cfg;
    std::vector<State> envs;
    Rng chooser;

    Batch(const typename G::Config &c, size_t n, uint64_t seed) : cfg(c), envs(n), chooser(seed) {}

    void reset(Out<const uint64_t, -1> seeds) {
        if (seeds.shape(0) != envs.size()) throw nb::value_error("one seed per match");
        for (size_t i = 0; i < envs.size(); ++i) envs[i] = State(cfg, seeds(i));
    }

    void reset_one(size_t i, uint64_t seed) {
        if (i >= envs.size()) throw nb::index_error("no such match");
        envs[i] = State(cfg, seed);
    }

    void masks(Out<uint8_t, -1, G::NUM_ACTIONS> out) const {
        if (out.shape(0) != envs.size()) throw nb::value_error("one mask row per match");
        int legal[G::MAX_LEGAL];
        for (size_t i = 0; i < envs.size(); ++i) {
            uint8_t *row = out.data() + i * G::NUM_ACTIONS;
            std::memset(row, 0, G::NUM_ACTIONS);
            const int n = envs[i].legal(envs[i].to_act(), legal);
            for (int j = 0; j < n; ++j) row[legal[j]] = 1;
        }
    }

    void to_act(Out<int32_t, -1> out) const {
        if (out.shape(0) != envs.size()) throw nb::value_error("one seat per match");
        for (size_t i = 0; i < envs.size(); ++i) out(i) = envs[i].to_act();
    }

    // Applies actions[i] to every match not over (ignored once over), then writes the next
    // masks, the rewards of that step per seat (the win reward on the step that ends a match,
    // 0 otherwise) and the dones. Every action is checked before any is applied.
    void step(Out<const int64_t, -1> actions, Out<uint8_t, -1, G::NUM_ACTIONS> masks_out,
              Out<float, -1, -1> rewards, Out<uint8_t, -1> dones) {
        const size_t n = envs.size();
        if (actions.shape(0) != n || masks_out.shape(0) != n || rewards.shape(0) != n ||
            rewards.shape(1) != static_cast<size_t>(cfg.players) || dones.shape(0) != n)
            throw nb::value_error("arrays must have one row per match (rewards: one column per seat)");
        for (size_t i = 0; i < n; ++i)
            if (envs[i].phase != G::OVER) {
                try {
                    check_legal<G>(envs[i], envs[i].to_act(), static_cast<int>(actions(i)));
                } catch (const nb::builtin_exception &) {
                    throw nb::value_error(("match " + std::to_string(i) + ": action index " +
                                           std::to_string(actions(i)) + " is not legal now").c_str());
                }
            }
        {
            nb::gil_scoped_release release;
            for (size_t i = 0; i < n; ++i) {
                State &s = envs[i];
                float *r = rewards.data() + i * cfg.players;
                for (int p = 0; p < cfg.players; ++p) r[p] = 0.0f;
                if (s.phase == G::OVER) {
                    dones(i) = 1;
                    continue;
                }
                s.apply(static_cast<int>(actions(i)));
                dones(i) = s.phase == G::OVER;
                if (dones(i)) win_rewards(s.outcome().ranks, cfg.players, r);
            }
        }
        masks(masks_out);
    }

    // The policy's choice for every match not over (0 for those over), from the batch's generator.
    void sample(int policy, Out<int64_t, -1> out) {
        if (out.shape(0) != envs.size()) throw nb::value_error("one action per match");
        const auto p = G::policy_of(policy);
        nb::gil_scoped_release release;
        int legal[G::MAX_LEGAL];
        for (size_t i = 0; i < envs.size(); ++i) {
            const State &s = envs[i];
            if (s.phase == G::OVER) {
                out(i) = 0;
                continue;
            }
            const int k = s.legal(s.to_act(), legal);
            out(i) = G::choose(s, legal, k, p, chooser);
        }
    }

    // Each match's observation for seats[i] (observation.py's Encoder, value for value).
    void observe(Out<const int32_t, -1> seats, Out<float, -1, -1> out) const {
        const typename G::Observation obs(cfg);
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
            int now[G::MAX_SEATS];
            envs[i].scores_now(now);
            for (int p = 0; p < cfg.players; ++p) out(i, p) = now[p];
        }
    }

    // Registers the class as `Batch` in the game's submodule `k`.
    static void define(nb::module_ &k) {
        nb::class_<Batch>(k, "Batch", "Many matches stepped per call into caller-owned numpy arrays.")
            .def(nb::init<const typename G::Config &, size_t, uint64_t>(), "config"_a, "size"_a, "seed"_a = 0)
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
};

// State.snapshot / State.restore: the struct's bytes (no padding), refused unless sound().
template <class State>
nb::bytes snapshot(const State &s) {
    return nb::bytes(reinterpret_cast<const char *>(&s), sizeof s);
}

template <class State>
State restore(nb::bytes data, const char *game) {
    if (data.size() != sizeof(State))
        throw nb::value_error((std::string("not a ") + game + " snapshot of this build").c_str());
    State s;
    std::memcpy(static_cast<void *>(&s), data.c_str(), sizeof s);
    if (!s.sound()) throw nb::value_error((std::string("not a ") + game + " snapshot: its fields are out of range").c_str());
    return s;
}

}  // namespace ludoteca::bind
