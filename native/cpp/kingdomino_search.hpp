// The search bots' flat Monte Carlo over Kingdomino (bots/search.py's `search` with mode="flat"
// and the game's profile: games/kingdomino/search.py), the whole loop in C++: determinize,
// choose the root action by UCB1 with availability counts, play the game's epsilon-greedy
// playout to the end, reward as `search.utilities`. Every draw, every choice and every sum is
// the Python loop's, in the same order, so with an iteration budget the statistics are equal to
// the last bit (tests/bots/test_native_search.py); only the time it takes differs. Why it is
// native: with the loop in Python a native playout spent most of its iteration in the loop
// (docs/bots.md, "Playouts a second").
#pragma once
#include <time.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "kingdomino.hpp"
#include "rng.hpp"

namespace ludoteca::kingdomino {

// When the loop stops, as `search` reads its budget.
struct FlatBudget {
    int64_t iterations = 0;  // at most this many iterations
    double seconds = std::numeric_limits<double>::infinity();      // on the clock, from the call
    double cpu_seconds = std::numeric_limits<double>::infinity();  // of this process's CPU
    double elapsed = 0;        // what the caller's search spent before the call (rate estimates),
                               // of CPU with by_cpu, else on the clock
    bool by_iterations = false;  // an iteration budget: early stops count iterations, not time
    bool by_cpu = false;         // CPU seconds alone: early stops estimate from the CPU clock
    bool early_stop = true;
};

// The reward: search.utilities with its weights.
struct FlatReward {
    double exploration = 0.7;
    double win_weight = 0.6;
    double score_weight = 0.0;
    double score_scale = 0.0;  // 0: the best score of the game
};

// One root action's statistics, as bots/search.py's Node keeps them.
struct FlatChild {
    int index = 0;
    int64_t visits = 0, avail = 0;
    double value = 0;
};

struct FlatResult {
    int64_t done = 0;
    std::vector<FlatChild> children;  // in the order the Python loop creates them
};

inline double process_cpu_seconds() {  // time.process_time
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// search.utilities(outcome, score_weight, score_scale)[seat], operation for operation.
inline double utility(const Outcome &o, int seat, const FlatReward &r) {
    const int n = o.players;
    int winners = 0, best = 0;
    for (int s = 0; s < n; ++s) {
        winners += o.ranks[s] == 1 ? 1 : 0;
        best = s == 0 ? o.scores[s] : std::max(best, o.scores[s]);
    }
    const double top = r.score_scale != 0.0 ? r.score_scale : static_cast<double>(std::max(best, 1));
    const double rest = 1.0 - r.win_weight - r.score_weight;
    const int rank = o.ranks[seat];
    const double win = rank == 1 ? 1.0 / winners : 0.0;
    const double place = n > 1 ? static_cast<double>(n - rank) / static_cast<double>(n - 1) : 1.0;
    const double points = std::min(1.0, static_cast<double>(std::max(o.scores[seat], 0)) / top);
    return r.win_weight * win + rest * place + r.score_weight * points;
}

// A search loop's clock: when its budget is spent, and the time spent and left that early stops
// read (search._spent_and_left), from the moment it was made.
struct SearchClock {
    const FlatBudget &budget;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    double cpu_start = process_cpu_seconds();

    // Whether the loop stops before iteration `done` (> 0): its seconds or CPU seconds are
    // spent, or (every 16 iterations, with early stops) `settled(spent, left)` says the most
    // visited root action can no longer be overtaken.
    template <typename Settled>
    bool stop(int64_t done, Settled &&settled) const {
        const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double used = process_cpu_seconds() - cpu_start;
        if (now >= budget.seconds || used >= budget.cpu_seconds) return true;
        const double spent = budget.elapsed + (budget.by_cpu ? used : now);
        const double left = budget.by_cpu ? budget.cpu_seconds - used : budget.seconds - now;
        return budget.early_stop && (done & 15) == 0 && settled(spent, left);
    }
};

// UCB1 with availability counts, as the loop scores a child.
inline double ucb(double value, int64_t visits, int64_t avail, double exploration) {
    const double v = static_cast<double>(visits);
    return value / v + exploration * std::sqrt(std::log(static_cast<double>(avail)) / v);
}

// search._decided: the most visited root action can no longer be overtaken in the budget left.
inline bool decided(const std::vector<FlatChild> &children, int64_t done, double elapsed,
                    double left, int64_t iterations_left, bool by_iterations) {
    if (elapsed <= 0 || children.size() < 2) return children.size() == 1 && done >= 64;
    // by iterations the time left is infinite, so the rate never binds
    const double remaining = by_iterations
        ? static_cast<double>(iterations_left)
        : std::min(static_cast<double>(iterations_left), static_cast<double>(done) / elapsed * left);
    int64_t first = 0, second = 0;
    for (const FlatChild &c : children) {
        if (c.visits > first) {
            second = first;
            first = c.visits;
        } else if (c.visits > second) {
            second = c.visits;
        }
    }
    return static_cast<double>(first - second) > remaining;
}

// The undrawn pile's start in the deck, after checking that the view's state and its unseen
// dominoes agree.
inline int check_root(const State &root, const std::vector<int8_t> &unseen, int remaining, int seat) {
    const int filler = root.cfg.deck_size - remaining;
    if (root.phase == OVER || root.to_act() != seat || remaining < 0 || filler < 0 ||
        static_cast<int>(unseen.size()) < remaining || unseen.size() > static_cast<size_t>(DOMINOES) ||
        root.deck_pos != filler)
        throw std::invalid_argument("search: the state and the unseen dominoes do not agree");
    return filler;
}

// One determinization, as the view's deal makes it: shuffle a copy of `unseen`, deal its first
// `remaining` as the pile, then give the copy its own generator.
inline void determinize(State &s, const std::vector<int8_t> &unseen, int remaining, int filler,
                        int8_t *pile, Rng &rng) {
    std::copy(unseen.begin(), unseen.end(), pile);
    rng.shuffle(pile, static_cast<int>(unseen.size()));
    std::copy(pile, pile + remaining, s.deck + filler);
    s.rng = rng.next64();
}

// Flat Monte Carlo for `seat` from `root`, a state of the view whose undrawn pile is unknown:
// each iteration copies it, shuffles a copy of `unseen` (the dominoes the view does not show,
// in the order the view's `prepare` lists them) and deals its first `remaining` as the pile, as
// view.deal does, then gives the copy its own generator. `rng` is the search's generator.
inline FlatResult flat_search(const State &root, const std::vector<int8_t> &unseen, int remaining,
                              int seat, Rng &rng, const FlatBudget &budget, const FlatReward &reward) {
    const SearchClock clock{budget};
    const int filler = check_root(root, unseen, remaining, seat);
    FlatResult result;
    std::vector<FlatChild> &children = result.children;
    std::vector<int> slot(NUM_ACTIONS, -1);  // action index -> its child
    int8_t pile[DOMINOES];
    int legal[MAX_LEGAL], untried[MAX_LEGAL];
    int64_t done = 0;
    while (done < budget.iterations) {
        if (done && clock.stop(done, [&](double spent, double left) {
                return decided(children, done, spent, left, budget.iterations - done,
                               budget.by_iterations);
            }))
            break;
        State s = root;
        determinize(s, unseen, remaining, filler, pile, rng);
        const int n = s.legal(seat, legal);
        int fresh = 0;
        for (int i = 0; i < n; ++i) {
            const int c = slot[legal[i]];
            if (c < 0) {
                untried[fresh++] = legal[i];
            } else {
                ++children[c].avail;
            }
        }
        int chosen = -1;
        if (fresh) {
            const int index = untried[rng.below(static_cast<uint64_t>(fresh))];
            chosen = slot[index] = static_cast<int>(children.size());
            children.push_back(FlatChild{index, 0, 1, 0.0});
        } else {
            double best_score = -1.0;
            for (int i = 0; i < n; ++i) {
                const FlatChild &c = children[slot[legal[i]]];
                const double score = ucb(c.value, c.visits, c.avail, reward.exploration);
                if (score > best_score) {
                    best_score = score;
                    chosen = slot[legal[i]];
                }
            }
        }
        s.apply(children[chosen].index);
        search_playout(s, rng);
        FlatChild &c = children[chosen];
        ++c.visits;
        c.value += utility(s.outcome(), seat, reward);
        ++done;
    }
    result.done = done;
    return result;
}

// One node of the tree search: the action that led to it, who chose it, and its statistics.
// Children are a linked list in the pool (first_child, then each one's next).
struct TreeNode {
    int index = 0, seat = 0;
    int first_child = -1, next = -1;
    int64_t visits = 0, avail = 0;
    double value = 0;
};

// bots/search.py's search with mode="uct" (single-observer IS-MCTS over action indices, UCB1
// with availability counts, one expansion per iteration, the game's epsilon-greedy playout from
// the new node), whole in C++: the Python loop's draws, choices and sums in the same order, so
// with an iteration budget the root statistics are equal to the last bit. Why it is here: with
// 50 times the playouts of the Python search, flat Monte Carlo stops improving (docs/bots.md),
// and the tree spends them on the next moves' replies instead.
inline FlatResult tree_search(const State &root, const std::vector<int8_t> &unseen, int remaining,
                              int seat, Rng &rng, const FlatBudget &budget, const FlatReward &reward) {
    const SearchClock clock{budget};
    const int filler = check_root(root, unseen, remaining, seat);
    std::vector<TreeNode> nodes(1);
    nodes[0].seat = -1;
    std::vector<int> root_children;  // in creation order, for the result
    std::vector<int> slot(NUM_ACTIONS, -1), stamp(NUM_ACTIONS, -1);  // index -> child, per walk step
    int8_t pile[DOMINOES];
    int legal[MAX_LEGAL], untried[MAX_LEGAL], path[DOMINOES * 8 + 2];
    std::vector<FlatChild> view;  // the root's children as `decided` reads them
    int64_t done = 0;
    int step = 0;
    while (done < budget.iterations) {
        if (done && clock.stop(done, [&](double spent, double left) {
                view.clear();
                for (int c : root_children) view.push_back({nodes[c].index, nodes[c].visits, 0, 0.0});
                return decided(view, done, spent, left, budget.iterations - done,
                               budget.by_iterations);
            }))
            break;
        State s = root;
        determinize(s, unseen, remaining, filler, pile, rng);
        int node = 0, length = 1;
        path[0] = 0;
        while (s.phase != OVER) {
            const int actor = s.to_act();
            const int n = s.legal(actor, legal);
            if (n == 0) throw std::invalid_argument("no legal action: the state is inconsistent");
            ++step;
            for (int c = nodes[node].first_child; c >= 0; c = nodes[c].next) {
                slot[nodes[c].index] = c;
                stamp[nodes[c].index] = step;
            }
            int fresh = 0;
            for (int i = 0; i < n; ++i) {
                if (stamp[legal[i]] != step) {
                    untried[fresh++] = legal[i];
                } else {
                    ++nodes[slot[legal[i]]].avail;
                }
            }
            if (fresh) {
                const int index = untried[rng.below(static_cast<uint64_t>(fresh))];
                const int child = static_cast<int>(nodes.size());
                TreeNode made;
                made.index = index;
                made.seat = actor;
                made.avail = 1;
                made.next = nodes[node].first_child;
                nodes.push_back(made);
                nodes[node].first_child = child;
                if (node == 0) root_children.push_back(child);
                s.apply(index);
                path[length++] = child;
                break;
            }
            int best = -1;
            double best_score = -1.0;
            for (int i = 0; i < n; ++i) {
                const TreeNode &c = nodes[slot[legal[i]]];
                const double score = ucb(c.value, c.visits, c.avail, reward.exploration);
                if (score > best_score) {
                    best_score = score;
                    best = slot[legal[i]];
                }
            }
            node = best;
            s.apply(nodes[node].index);
            path[length++] = node;
        }
        search_playout(s, rng);
        const Outcome o = s.outcome();
        double rewards[MAX_SEATS];
        for (int p = 0; p < o.players; ++p) rewards[p] = utility(o, p, reward);
        ++nodes[0].visits;
        for (int i = 1; i < length; ++i) {
            TreeNode &t = nodes[path[i]];
            ++t.visits;
            t.value += rewards[t.seat];
        }
        ++done;
    }
    FlatResult result;
    result.done = done;
    for (int c : root_children)
        result.children.push_back({nodes[c].index, nodes[c].visits, nodes[c].avail, nodes[c].value});
    return result;
}

}  // namespace ludoteca::kingdomino
