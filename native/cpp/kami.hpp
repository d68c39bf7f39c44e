// Kami and Goita (ludoteca/games/kami, one engine) as plain structs: the same rules, the same
// action indices in the same order, the same draws from the match's SplitMix64 (the 192-bit
// wide shuffle of the deals included), so a seed means the same match in both cores. The Python
// engine is the reference; tests/native/test_kami.py compares them.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "rng.hpp"

namespace ludoteca::kami {

constexpr int TYPES = 8;
enum Card : int { SOLDIER = 0, SPEAR, HORSEMAN, SILVER, GOLD, TOWER, FOOL, EMPRESS };
constexpr int COPIES[TYPES] = {10, 4, 4, 4, 4, 2, 2, 2};
constexpr int POINTS[TYPES] = {1, 2, 2, 3, 3, 4, 4, 5};
constexpr int DECK = 32;
constexpr int MERC = 8;  // sources from MERC on are mercenary stacks
constexpr int STACKS = 8;
constexpr int PLAY_BASE = 1;
constexpr int DECLARE_BASE = PLAY_BASE + 17 * 16;  // 273
constexpr int DECLINE = DECLARE_BASE, REVEAL = DECLARE_BASE + 1;
constexpr int PLAY_ON = DECLARE_BASE + 2, REDEAL = DECLARE_BASE + 3;
constexpr int NUM_ACTIONS = DECLARE_BASE + 4;  // 277
constexpr int MAX_LEGAL = NUM_ACTIONS;
constexpr int MAX_SEATS = 4;
constexpr int LINE = 32;  // a seat plays at most its hand and the 16 mercenaries
constexpr int FACE_DOWN = 8, FROM_MERC = 16, TYPE_MASK = 7;
enum Phase : int8_t { DECLARE = 0, DECIDE = 1, PLAY = 2, OVER = 3 };
enum EndMode : int8_t { SOLDIER_MODE = 0, LORD_MODE = 1, KAMI_MODE = 2 };

inline constexpr uint32_t one(int t) { return 1u << (4 * t); }
inline constexpr int count(uint32_t hand, int t) { return static_cast<int>((hand >> (4 * t)) & 15); }
inline constexpr int play_index(int d, int a) { return PLAY_BASE + (d + 1) * 16 + a; }
inline constexpr bool barred(int attack) { return attack == SOLDIER || attack == SPEAR; }
inline constexpr bool counters(int d, int a) { return d == a || (d == EMPRESS && !barred(a)); }

// state.py's Config: everything fixed for the whole match.
struct Config {
    int32_t target = 15;
    int32_t values[TYPES] = {};
    int8_t players = 2, sides = 2, end_mode = SOLDIER_MODE;
    bool demoralized = false, goita = false;
    int8_t unused_[3] = {};  // no padding: a snapshot is the struct's bytes
    int8_t side_of[MAX_SEATS] = {}, after[MAX_SEATS] = {};

    // Config.from_options, from the validated options.
    static Config make(bool goita, int players, int end_mode, int target, bool demoralized) {
        Config c;
        const bool teams = players == 4;
        c.players = static_cast<int8_t>(players);
        c.sides = static_cast<int8_t>(teams ? 2 : players);
        for (int s = 0; s < MAX_SEATS; ++s) {
            c.side_of[s] = static_cast<int8_t>(teams ? s % 2 : (s < players ? s : 0));
            c.after[s] = static_cast<int8_t>(s < players ? ((s + (goita ? -1 : 1)) % players + players) % players : 0);
        }
        c.end_mode = static_cast<int8_t>(goita ? SOLDIER_MODE : end_mode);
        c.target = target;
        c.demoralized = teams && !goita && demoralized;
        c.goita = goita;
        for (int t = 0; t < TYPES; ++t) c.values[t] = goita ? 10 * POINTS[t] : POINTS[t];
        return c;
    }
};

// scoring.add_points: the new total and whether it wins, for the end mode (A8).
inline int32_t add_points(int mode, int32_t target, int32_t old, int32_t gain, bool &won) {
    const int32_t total = old + gain;
    if (mode == SOLDIER_MODE) {
        won = total >= target;
        return total;
    }
    if (total <= target) {
        won = total == target;
        return total;
    }
    won = false;
    return mode == LORD_MODE ? target - (total - target) : 0;
}

// Rng.shuffle_wide(words=3): every Fisher-Yates choice read from one 192-bit number (the first
// draw the low word), as rules.shuffled_deck shuffles the 32 cards. The number is kept as six
// 32-bit limbs and each divmod's divisor (32, 31, ... 2) is a constant of its own unrolled step,
// so the compiler divides by multiplying (a 128-bit division per limb was a third of a game).
template <uint64_t D>
inline int divmod_limbs(uint32_t limbs[6]) {
    uint64_t rem = 0;
    for (int k = 5; k >= 0; --k) {
        const uint64_t cur = (rem << 32) | limbs[k];
        limbs[k] = static_cast<uint32_t>(cur / D);
        rem = cur % D;
    }
    return static_cast<int>(rem);
}

template <int I, typename T>
inline void wide_steps(uint32_t limbs[6], T *items) {
    if constexpr (I > 0) {
        std::swap(items[I], items[divmod_limbs<I + 1>(limbs)]);
        wide_steps<I - 1>(limbs, items);
    }
}

template <int LEN, typename T>
inline void shuffle_wide(Rng &rng, T *items) {
    uint32_t limbs[6];
    for (int k = 0; k < 3; ++k) {
        const uint64_t x = rng.next64();
        limbs[2 * k] = static_cast<uint32_t>(x);
        limbs[2 * k + 1] = static_cast<uint32_t>(x >> 32);
    }
    wide_steps<LEN - 1>(limbs, items);
}

// The 32 cards as types, shuffled (rules.shuffled_deck).
inline void shuffled_deck(Rng &rng, int8_t out[DECK]) {
    int n = 0;
    for (int t = 0; t < TYPES; ++t)
        for (int c = 0; c < COPIES[t]; ++c) out[n++] = static_cast<int8_t>(t);
    shuffle_wide<DECK>(rng, out);
}

// What a deal's end adds to the Python state's history (rules.award, goita_special_hands, a
// redeal): its kinds, in the order kami_playout.py names them.
enum Kind : int { OUT = 0, SHI6, SHI7, SHI8, SHI5X2, REDEAL_KIND };

// A playout's listener for the history and the last scored table, which the Python state keeps
// and the native one does not: nothing, unless a caller listens.
struct NoLog {
    void entry(int, int, int, int, bool, int, int, int) {}
    template <typename S>
    void ended(const S &) {}
};

struct Outcome {
    int players = 0;
    int scores[MAX_SEATS] = {}, ranks[MAX_SEATS] = {}, won[MAX_SEATS] = {};
};

// One match: a plain struct, copied with memcpy (a clone) and snapshotted as its bytes. What
// only narration and the breakdown read (the opening draws, the history, the last table) stays
// in the Python state.
struct State {
    uint64_t rng = 0;
    int32_t ply = 0, round = 1;
    int32_t scores[MAX_SEATS] = {};  // per side
    Config cfg;
    uint32_t hands[MAX_SEATS] = {};  // packed: 4 bits per type (components.py)
    int8_t phase = PLAY, asked = 0, nasked = 0, attack = -1, attacker = 0, turn = 0, first = 0;
    int8_t winner = -1;
    bool unlocked = false;
    int8_t sizes[MAX_SEATS] = {}, revealed[MAX_SEATS] = {}, looked[MAX_SEATS] = {};
    int8_t unused[2] = {};
    int8_t merc_down[STACKS] = {}, merc_up[STACKS] = {};
    int8_t def_len[MAX_SEATS] = {}, att_len[MAX_SEATS] = {};
    int8_t defense[MAX_SEATS][LINE] = {}, attacks[MAX_SEATS][LINE] = {};
    int8_t unused_[5] = {};  // no padding: a snapshot is the struct's bytes

    State() = default;
    State(const Config &c, uint64_t seed) : rng(seed), cfg(c) {
        Rng r(rng);
        first = opening_draw(r);
        rng = r.state;
        NoLog quiet;
        deal(quiet);
    }

    bool mercs() const { return cfg.players == 2; }

    // A2.3 / C5: everyone draws a card, highest value leads; tied players draw again.
    int8_t opening_draw(Rng &r) const {
        int8_t contenders[MAX_SEATS];
        int n = cfg.players;
        for (int s = 0; s < n; ++s) contenders[s] = static_cast<int8_t>(s);
        for (;;) {
            int8_t deck[DECK];
            shuffled_deck(r, deck);
            int best = 0;
            for (int i = 0; i < n; ++i) best = std::max(best, POINTS[deck[i]]);
            int m = 0;
            for (int i = 0; i < n; ++i)
                if (POINTS[deck[i]] == best) contenders[m++] = contenders[i];
            n = m;
            if (n == 1) return contenders[0];
        }
    }

    // rules.deal (A3): shuffle and deal for `first`; then the A6 questions or Goita's B5 checks.
    template <typename Log>
    void deal(Log &log) {
        for (;;) {
            const int n = cfg.players;
            Rng r(rng);
            int8_t deck[DECK];
            shuffled_deck(r, deck);
            rng = r.state;
            const int per = n == 3 ? 10 : 8;
            for (int s = 0; s < MAX_SEATS; ++s) {
                hands[s] = 0;
                sizes[s] = 0;
                looked[s] = -1;
                revealed[s] = 0;
                def_len[s] = att_len[s] = 0;
                std::memset(defense[s], 0, LINE);
                std::memset(attacks[s], 0, LINE);
            }
            for (int s = 0; s < n; ++s) {
                for (int i = s * per; i < (s + 1) * per; ++i) hands[s] += one(deck[i]);
                sizes[s] = static_cast<int8_t>(per);
            }
            unused[0] = unused[1] = -1;
            for (int k = 0; k < STACKS; ++k) merc_down[k] = merc_up[k] = -1;
            if (n == 3) {
                unused[0] = deck[30];
                unused[1] = deck[31];
                const int step = cfg.goita ? -1 : 1;
                looked[((first + step) % n + n) % n] = 0;
                looked[((first + 2 * step) % n + n) % n] = 1;
            } else if (n == 2) {
                for (int k = 0; k < STACKS; ++k) {
                    merc_down[k] = deck[16 + 2 * k];
                    merc_up[k] = deck[17 + 2 * k];
                }
            }
            attack = -1;
            attacker = turn = first;
            unlocked = false;
            asked = first;
            nasked = 0;
            phase = PLAY;
            if (cfg.demoralized) {
                phase = DECLARE;
            } else if (cfg.goita && goita_special_hands(log)) {
                continue;  // one five-Shi hand on each team: redeal, same dealer
            }
            return;
        }
    }

    // rules.goita_special_hands (B5): 6/7/8 Shi win the deal at once; 5 Shi are shown and the
    // partner decides. True when the deal must be dealt again.
    template <typename Log>
    bool goita_special_hands(Log &log) {
        for (int seat = 0; seat < cfg.players; ++seat) {
            const int k = count(hands[seat], SOLDIER);
            if (k < 6) continue;
            int others[8], m = 0;
            for (int t = SPEAR; t < TYPES; ++t)
                for (int c = 0; c < count(hands[seat], t); ++c) others[m++] = t;
            int gain, card, kind;
            if (k == 8) {
                gain = 100;
                card = SOLDIER;
                kind = SHI8;
            } else if (k == 7) {
                gain = 2 * cfg.values[others[0]];
                card = others[0];
                kind = SHI7;
            } else {
                kind = SHI6;
                card = others[0];
                for (int i = 1; i < m; ++i)
                    if (cfg.values[others[i]] > cfg.values[card]) card = others[i];
                gain = cfg.values[card] * (others[0] == others[1] ? 2 : 1);
            }
            award(seat, card, gain, false, kind, log);
            return false;
        }
        int holders[MAX_SEATS], h = 0;
        for (int seat = 0; seat < cfg.players; ++seat)
            if (count(hands[seat], SOLDIER) == 5) holders[h++] = seat;
        if (h == 2) {
            if ((holders[0] - holders[1]) % 2 == 0) {  // partners: the team wins outright
                const int side = cfg.side_of[holders[0]];
                const int before = scores[side];
                scores[side] = std::max(scores[side], cfg.target);
                log.entry(round, holders[0], SHI5X2, SOLDIER, false, scores[side] - before, before, scores[side]);
                winner = static_cast<int8_t>(side);
                phase = OVER;
                return false;
            }
            log.entry(round, holders[0], REDEAL_KIND, -1, false, 0, 0, 0);
            return true;
        }
        if (h) {
            asked = static_cast<int8_t>(holders[0]);
            revealed[holders[0]] = 5;
            phase = DECIDE;
        }
        return false;
    }

    // rules.award: score a deal for the seat's side (A5.2, A8); the game ends or the winner deals.
    template <typename Log>
    void award(int seat, int card, int gain, bool master, int kind, Log &log) {
        const int side = cfg.side_of[seat];
        const int before = scores[side];
        bool won = false;
        scores[side] = add_points(cfg.end_mode, cfg.target, scores[side], gain, won);
        log.entry(round, seat, kind, card, master, gain, before, scores[side]);
        if (kind == OUT) log.ended(*this);  // a B5 hand ending the next deal at once keeps it
        if (won) {
            winner = static_cast<int8_t>(side);
            phase = OVER;
            return;
        }
        ++round;
        first = static_cast<int8_t>(seat);
        deal(log);
    }

    int to_act() const {
        if (phase == PLAY) return turn;
        if (phase == DECLARE) return asked;
        if (phase == DECIDE) return (asked + 2) % 4;
        return -1;
    }

    bool any_merc() const {
        for (int k = 0; k < STACKS; ++k)
            if (merc_up[k] >= 0) return true;
        return false;
    }

    // Game.legal_indices: the same indices in the same order as legal_actions.
    int legal(int seat, int *out) const {
        if (seat != to_act() || seat < 0) return 0;
        if (phase == DECLARE) {
            out[0] = DECLINE;
            if (count(hands[seat], SOLDIER) >= 5) {
                out[1] = REVEAL;
                return 2;
            }
            return 1;
        }
        if (phase == DECIDE) {
            out[0] = PLAY_ON;
            out[1] = REDEAL;
            return 2;
        }
        if (mercs() && any_merc()) return merc_plays(seat, out);
        return hand_plays(seat, out);
    }

    // rules.hand_plays: pass (unless leading) and each legal (defense, attack) pair of types.
    int hand_plays(int seat, int *out) const {
        const uint32_t hand = hands[seat];
        const bool lead = seat == attacker;
        int n = 0;
        if (!lead) {
            out[n++] = 0;
            if (!count(hand, attack) && (count(hand, EMPRESS) == 0 || barred(attack))) return n;
        }
        const int size = sizes[seat];
        if (size < 2) {
            if (lead)  // C1: one card, nothing to defend with: attack only
                for (int t = 0; t < TYPES; ++t)
                    if (count(hand, t)) out[n++] = play_index(-1, t);
            return n;
        }
        const bool unl = unlocked || (cfg.goita && count(hand, EMPRESS) == 2);  // B3: both kings
        const bool last = size == 2;
        for (int d = 0; d < TYPES; ++d) {
            if (!count(hand, d)) continue;
            bool may_empress;
            if (lead) {
                may_empress = unl || last;
            } else if (counters(d, attack)) {
                may_empress = unl || last || d == EMPRESS;  // C2
            } else {
                continue;
            }
            const uint32_t rest = hand - one(d);
            for (int a = 0; a < TYPES; ++a)
                if (count(rest, a) && (a != EMPRESS || may_empress)) out[n++] = play_index(d, a);
        }
        return n;
    }

    // rules.merc_plays (2 players while mercenaries remain, A5.4, C3).
    int merc_plays(int seat, int *out) const {
        const bool lead = seat == attacker;
        const uint32_t hand = hands[seat];
        const int size = sizes[seat];
        int n = 0;
        if (!lead) out[n++] = 0;
        int ds[TYPES + STACKS], dts[TYPES + STACKS], m = 0;
        for (int t = 0; t < TYPES; ++t)
            if (count(hand, t)) ds[m] = t, dts[m++] = t;
        for (int k = 0; k < STACKS; ++k)
            if (merc_up[k] >= 0) ds[m] = MERC + k, dts[m++] = merc_up[k];
        for (int i = 0; i < m; ++i) {
            const int d = ds[i], dt = dts[i];
            if (!lead && !counters(dt, attack)) continue;
            const bool from_hand = d < MERC;
            const uint32_t rest = from_hand ? hand - one(d) : hand;
            const int left = size - (from_hand ? 1 : 0);
            const bool may_empress = unlocked || (!lead && dt == EMPRESS);
            if (!left) continue;
            for (int a = 0; a < TYPES; ++a)
                if (count(rest, a) && (a != EMPRESS || may_empress || left == 1)) out[n++] = play_index(d, a);
            for (int k = 0; k < STACKS; ++k) {
                const int top = merc_up[k];
                if (top >= 0 && MERC + k != d && (top != EMPRESS || may_empress)) out[n++] = play_index(d, MERC + k);
            }
        }
        return n;
    }

    // Game.apply_legal by index: trusts that `index` is legal for the seat to act.
    void apply(int index) {
        NoLog quiet;
        apply(index, quiet);
    }

    // apply, telling `log` what the Python state's history gets.
    template <typename Log>
    void apply(int index, Log &log) {
        const int seat = to_act();
        if (index == 0) {
            turn = cfg.after[seat];  // back at the attacker means a lead (A4.3)
        } else if (phase == PLAY) {
            play(seat, (index - PLAY_BASE) / 16 - 1, (index - PLAY_BASE) % 16, log);
        } else if (index == DECLINE) {
            next_asked();
        } else if (index == REVEAL) {
            revealed[seat] = static_cast<int8_t>(count(hands[seat], SOLDIER));
            phase = DECIDE;
        } else if (index == REDEAL) {
            log.entry(round, asked, REDEAL_KIND, -1, false, 0, 0, 0);
            deal(log);  // A6: same first player
        } else if (cfg.goita) {  // PLAY_ON
            phase = PLAY;
        } else {
            next_asked();
        }
        ++ply;
    }

    void next_asked() {
        ++nasked;
        if (nasked == cfg.players) {
            phase = PLAY;
        } else {
            asked = cfg.after[asked];
            phase = DECLARE;
        }
    }

    int take_merc(int stack) {
        const int card = merc_up[stack];
        merc_up[stack] = merc_down[stack];
        merc_down[stack] = -1;
        return card;
    }

    // rules.play: a lead or counter, defense then attack; going out scores the round (A5).
    template <typename Log>
    void play(int seat, int d, int a, Log &log) {
        const bool lead = seat == attacker;
        int dt = -1, at;
        if (d >= 0) {
            int entry;
            if (d < MERC) {
                hands[seat] -= one(d);
                --sizes[seat];
                dt = entry = d;
            } else {
                dt = take_merc(d - MERC);
                entry = dt | FROM_MERC;
            }
            if (lead) {
                entry |= FACE_DOWN;
            } else if (dt == EMPRESS) {
                unlocked = true;  // C2: at once, for this turn's attack too
            }
            defense[seat][def_len[seat]++] = static_cast<int8_t>(entry);
        }
        if (a < MERC) {
            hands[seat] -= one(a);
            --sizes[seat];
            at = a;
            attacks[seat][att_len[seat]++] = static_cast<int8_t>(a);
        } else {
            at = take_merc(a - MERC);
            attacks[seat][att_len[seat]++] = static_cast<int8_t>(at | FROM_MERC);
        }
        if (at == EMPRESS && cfg.goita) unlocked = true;  // B3: a king shown face up as an attack
        if (sizes[seat] == 0) {
            const bool master = lead && dt == at;  // A5.3 / B4
            award(seat, at, cfg.values[at] * (master ? 2 : 1), master, OUT, log);
            return;
        }
        attacker = static_cast<int8_t>(seat);
        attack = static_cast<int8_t>(at);
        turn = cfg.after[seat];
    }

    // scoring.final_outcome: scores per seat are its side's; the winning side ranks first, then
    // by total (competition ranks). Valid once the match is over.
    Outcome outcome() const {
        Outcome o;
        o.players = cfg.players;
        for (int s = 0; s < cfg.players; ++s) {
            o.scores[s] = scores[cfg.side_of[s]];
            o.won[s] = cfg.side_of[s] == winner;
        }
        for (int s = 0; s < cfg.players; ++s) {
            int rank = 1;
            for (int t = 0; t < cfg.players; ++t)
                rank += (o.won[t] > o.won[s] || (o.won[t] == o.won[s] && o.scores[t] > o.scores[s]));
            o.ranks[s] = rank;
        }
        return o;
    }

    // scoring.scores_now: each seat's side's score so far.
    void scores_now(int *out) const {
        for (int s = 0; s < cfg.players; ++s) out[s] = scores[cfg.side_of[s]];
    }

    // Whether every field is in range (a snapshot read back from bytes): what the rules never
    // produce may still be refused, but nothing here can read or write outside the struct.
    bool sound() const {
        auto in = [](int v, int lo, int hi) { return lo <= v && v <= hi; };
        const int n = cfg.players;
        if (!in(n, 2, 4) || cfg.sides != (n == 4 ? 2 : n) || !in(cfg.end_mode, 0, 2) ||
            (cfg.goita && n != 4) || (cfg.demoralized && (n != 4 || cfg.goita)) || !in(cfg.target, 1, 100000))
            return false;
        for (int s = 0; s < MAX_SEATS; ++s)
            if (!in(cfg.side_of[s], 0, cfg.sides - 1) || !in(cfg.after[s], 0, n - 1)) return false;
        for (int t = 0; t < TYPES; ++t)
            if (!in(cfg.values[t], 0, 1000)) return false;
        if (!in(phase, DECLARE, OVER) || ply < 0 || round < 1 || !in(winner, -1, cfg.sides - 1) ||
            (phase == OVER) != (winner >= 0) || !in(asked, 0, n - 1) || !in(nasked, 0, n) ||
            !in(attacker, 0, n - 1) || !in(turn, 0, n - 1) || !in(first, 0, n - 1) || !in(attack, -1, TYPES - 1))
            return false;
        if ((phase == DECLARE || phase == DECIDE) && n != 4) return false;
        if (phase == PLAY && turn != attacker && attack < 0) return false;
        for (int s = 0; s < MAX_SEATS; ++s)
            if (!in(scores[s], -100000, 100000)) return false;
        int live = 0;
        for (int k = 0; k < STACKS; ++k) {
            if (!in(merc_up[k], -1, TYPES - 1) || !in(merc_down[k], -1, TYPES - 1)) return false;
            if (n != 2 && (merc_up[k] >= 0 || merc_down[k] >= 0)) return false;
            live += (merc_up[k] >= 0) + (merc_down[k] >= 0);
        }
        for (int u : unused)
            if (!in(u, -1, TYPES - 1)) return false;
        for (int s = 0; s < MAX_SEATS; ++s) {
            int size = 0;
            for (int t = 0; t < TYPES; ++t) size += count(hands[s], t);
            if (size != sizes[s] || !in(looked[s], -1, 1) || !in(revealed[s], 0, 10) ||
                !in(def_len[s], 0, LINE) || !in(att_len[s], 0, LINE) ||
                def_len[s] + att_len[s] + size + live > LINE || (s >= n && size))
                return false;
            if (looked[s] >= 0 && unused[looked[s]] < 0) return false;
            for (int i = 0; i < LINE; ++i)
                if (!in(defense[s][i], 0, TYPE_MASK | FACE_DOWN | FROM_MERC) ||
                    !in(attacks[s][i], 0, TYPE_MASK | FROM_MERC))
                    return false;
        }
        return true;
    }
};

static_assert(std::has_unique_object_representations_v<State>,
              "State has padding: snapshots would hold undefined bytes");

// ---- the RL observation ---------------------------------------------------------------------
// observation.py's Encoder, value for value (float32 of the same double arithmetic, the same
// layout): the seat's own hand and own face-down defenses, everything face up, hand sizes,
// mercenary tops (2 players), the unused card it looked at (3 players), scores and the turn, all
// seats relative to the observer. Others' hands, others' face-down defenses, face-down
// mercenaries and unused cards it did not look at are never read.
struct Observation {
    int n, sides;
    int o_seat, o_phase, o_hand, o_unseen, o_sizes, o_up, o_down, o_merc_line, o_att, o_attack;
    int o_attacker, o_turn, o_first, o_lead, o_unlocked, o_scores, o_round, o_revealed, o_asked;
    int o_nasked, o_merc, o_unused, o_looked, size;

    explicit Observation(const Config &c) {
        n = c.players;
        sides = c.sides;
        int at = 0;
        auto add = [&at](int count) { const int start = at; at += count; return start; };
        o_seat = add(n);
        o_phase = add(4);
        o_hand = add(TYPES);
        o_unseen = add(TYPES);
        o_sizes = add(n);
        o_up = add(n * TYPES);
        o_down = add(n);
        o_merc_line = add(n);
        o_att = add(n * TYPES);
        o_attack = add(TYPES + 1);
        o_attacker = add(n);
        o_turn = add(n);
        o_first = add(n);
        o_lead = add(1);
        o_unlocked = add(1);
        o_scores = add(sides);
        o_round = add(1);
        o_revealed = add(n);
        o_asked = add(n);
        o_nasked = add(1);
        o_merc = add(n == 2 ? STACKS * (TYPES + 2) : 0);
        o_unused = add(n == 3 ? 2 : 0);
        o_looked = add(n == 3 ? TYPES : 0);
        size = at;
    }

    static float unit(double x, double scale) {
        const double v = x / scale;
        return static_cast<float>(v < 0 ? 0.0 : v > 1 ? 1.0 : v);
    }

    static void counts(float *out, const int per[TYPES]) {
        for (int t = 0; t < TYPES; ++t) out[t] = static_cast<float>(per[t] * (1.0 / COPIES[t]));
    }

    int rel(int p, int seat) const { return ((p - seat) % n + n) % n; }

    void fill(const State &s, int seat, float *buf) const {
        std::memset(buf, 0, sizeof(float) * static_cast<size_t>(size));
        buf[o_seat + seat] = 1.0f;
        buf[o_phase + s.phase] = 1.0f;
        int seen[TYPES], per[TYPES];
        for (int t = 0; t < TYPES; ++t) seen[t] = per[t] = count(s.hands[seat], t);
        counts(buf + o_hand, per);
        for (int p = 0; p < n; ++p) {
            const int r = rel(p, seat);
            if (s.sizes[p]) buf[o_sizes + r] = static_cast<float>(s.sizes[p] / 10.0);
            if (s.revealed[p]) buf[o_revealed + r] = static_cast<float>(s.revealed[p] / 10.0);
            int known[TYPES] = {}, line[TYPES] = {}, hidden = 0, merc = 0, any_known = 0, any_line = 0;
            for (int i = 0; i < s.def_len[p]; ++i) {
                const int e = s.defense[p][i];
                if (e & FROM_MERC) {
                    ++merc;
                    ++known[e & TYPE_MASK];
                    ++any_known;
                } else if ((e & FACE_DOWN) && p != seat) {
                    ++hidden;
                } else {
                    ++known[e & TYPE_MASK];
                    ++any_known;
                }
            }
            for (int i = 0; i < s.att_len[p]; ++i) {
                const int e = s.attacks[p][i];
                if (e & FROM_MERC) ++merc;
                ++line[e & TYPE_MASK];
                ++any_line;
            }
            if (any_known) {
                for (int t = 0; t < TYPES; ++t) seen[t] += known[t];
                counts(buf + o_up + r * TYPES, known);
            }
            if (hidden) buf[o_down + r] = static_cast<float>(hidden / 8.0);
            if (any_line) {
                for (int t = 0; t < TYPES; ++t) seen[t] += line[t];
                counts(buf + o_att + r * TYPES, line);
            }
            if (merc) buf[o_merc_line + r] = unit(merc, 8);
        }
        buf[o_attack + (s.attack >= 0 ? s.attack : TYPES)] = 1.0f;
        buf[o_attacker + rel(s.attacker, seat)] = 1.0f;
        buf[o_turn + rel(s.turn, seat)] = 1.0f;
        buf[o_first + rel(s.first, seat)] = 1.0f;
        if (s.phase == PLAY && s.turn == s.attacker) buf[o_lead] = 1.0f;
        if (s.unlocked) buf[o_unlocked] = 1.0f;
        const int mine = s.cfg.side_of[seat];
        for (int side = 0; side < sides; ++side)
            if (s.scores[side])
                buf[o_scores + ((side - mine) % sides + sides) % sides] = unit(s.scores[side], s.cfg.target);
        buf[o_round] = unit(s.round, 50);
        if (s.phase == DECLARE || s.phase == DECIDE) {
            buf[o_asked + rel(s.asked, seat)] = 1.0f;
            buf[o_nasked] = static_cast<float>(s.nasked / 4.0);
        }
        if (n == 2) {
            for (int k = 0; k < STACKS; ++k) {
                float *base = buf + o_merc + k * (TYPES + 2);
                if (s.merc_up[k] >= 0) {
                    ++seen[s.merc_up[k]];
                    base[s.merc_up[k]] = 1.0f;
                } else {
                    base[TYPES] = 1.0f;
                }
                if (s.merc_down[k] >= 0) base[TYPES + 1] = 1.0f;
            }
        } else if (n == 3) {
            const int looked = s.looked[seat];
            if (looked >= 0 && looked < 2) {
                const int t = s.unused[looked];
                ++seen[t];
                buf[o_unused + looked] = 1.0f;
                buf[o_looked + t] = 1.0f;
            }
        }
        for (int t = 0; t < TYPES; ++t) per[t] = COPIES[t] - seen[t];
        counts(buf + o_unseen, per);
    }
};

// ---- policies -------------------------------------------------------------------------------
enum Policy : int { RANDOM = 0, GREEDY = 1, SEARCH = 2 };
constexpr int EPSILON = 8;  // bots/rollouts.py: one move in EPSILON is random

// bot.state_unseen: copies of each type the seat has not seen, read off the state.
inline void state_unseen(const State &s, int seat, int left[TYPES]) {
    for (int t = 0; t < TYPES; ++t) left[t] = COPIES[t] - count(s.hands[seat], t);
    for (int p = 0; p < s.cfg.players; ++p)
        for (int i = 0; i < s.def_len[p]; ++i) {
            const int e = s.defense[p][i];
            if (p == seat || !(e & FACE_DOWN) || (e & FROM_MERC)) --left[e & TYPE_MASK];
        }
    for (int p = 0; p < s.cfg.players; ++p)
        for (int i = 0; i < s.att_len[p]; ++i) --left[s.attacks[p][i] & TYPE_MASK];
    for (int k = 0; k < STACKS; ++k)
        if (s.merc_up[k] >= 0) --left[s.merc_up[k]];
    if (s.cfg.players == 3 && s.looked[seat] >= 0) --left[s.unused[s.looked[seat]]];
}

inline int threat(int t, const int unseen[TYPES], bool unlocked) {
    (void)unlocked;
    if (t == EMPRESS) return unseen[EMPRESS];
    return unseen[t] + (barred(t) ? 0 : unseen[EMPRESS]);
}

// bot.evaluate, operation for operation in doubles (so the same float as Python's).
inline double evaluate(int index, const int *hand_types, int size, const int unseen[TYPES],
                       const State &s, bool lead, bool partner_attacks, const int values[TYPES]) {
    if (index == 0) return partner_attacks ? 15.0 : 0.0;
    const int d = (index - PLAY_BASE) / 16 - 1, a = (index - PLAY_BASE) % 16;
    int rest[LINE], r = 0;
    for (int i = 0; i < size; ++i) rest[r++] = hand_types[i];
    auto remove = [&](int t) {  // list.remove: the first equal entry
        for (int i = 0; i < r; ++i)
            if (rest[i] == t) {
                for (int j = i; j + 1 < r; ++j) rest[j] = rest[j + 1];
                --r;
                return;
            }
    };
    int d_type = -1, at;
    if (d >= 0) {
        if (d < MERC) {
            d_type = d;
            remove(d_type);
        } else {
            d_type = s.merc_up[d - MERC];
        }
    }
    if (a < MERC) {
        at = a;
        remove(at);
    } else {
        at = s.merc_up[a - MERC];
    }
    if (r == 0) return 1000.0 + values[at] * (lead && d_type == at ? 2 : 1);
    const bool unl = s.unlocked || (!lead && d_type == EMPRESS);
    double score = 6.0 + 3.0 * (size - r);
    score -= 2.0 * threat(at, unseen, unl);
    if (at == EMPRESS || d_type == EMPRESS) score -= 4.0;
    if (lead && d_type >= 0) score += 0.5 * threat(d_type, unseen, unl);
    bool empress = false;
    int top = values[rest[0]];
    for (int i = 0; i < r; ++i) {
        empress = empress || rest[i] == EMPRESS;
        top = std::max(top, values[rest[i]]);
    }
    if (empress) score += 2.0;
    score += 0.4 * top;
    if (r == 2 && rest[0] == rest[1]) score += 3.0 + values[rest[0]] * 0.3;
    if (r == 1 && !s.any_merc()) score -= 3.0;
    if (partner_attacks) score -= 12.0;
    return score;
}

// bot.playout_choice: the only action, the first of a question, or the best by the evaluator
// with a random tie-break (rng.below(1000) / 1e5 per action, the last best on equal scores).
inline int greedy(const State &s, const int *legal, int n, Rng &rng) {
    if (n == 1 || legal[0] >= DECLARE_BASE) return legal[0];
    const int seat = s.to_act();
    int unseen[TYPES];
    state_unseen(s, seat, unseen);
    int hand_types[LINE], size = 0;
    for (int t = 0; t < TYPES; ++t)
        for (int c = 0; c < count(s.hands[seat], t); ++c) hand_types[size++] = t;
    const bool lead = s.attacker == seat;
    const bool partner_attacks = !lead && s.cfg.side_of[s.attacker] == s.cfg.side_of[seat];
    int values[TYPES];  // bot._points: the evaluator's weights are in Kami points
    for (int t = 0; t < TYPES; ++t)
        values[t] = s.cfg.values[SOLDIER] == 1 ? POINTS[t] : s.cfg.values[t] / s.cfg.values[SOLDIER];
    double best = 0;
    int best_i = -1;
    for (int i = 0; i < n; ++i) {
        const double v = evaluate(legal[i], hand_types, size, unseen, s, lead, partner_attacks, values) +
                         static_cast<double>(rng.below(1000)) / 1e5;
        if (best_i < 0 || v >= best) {
            best = v;
            best_i = i;
        }
    }
    return legal[best_i];
}

inline int choose(const State &s, const int *legal, int n, Policy policy, Rng &rng) {
    if (policy == GREEDY) return greedy(s, legal, n, rng);
    if (policy == SEARCH) {  // the game's playout (Kind.GAME): epsilon-greedy, deal after deal
        if (rng.below(EPSILON) == 0) return legal[rng.below(static_cast<uint64_t>(n))];
        return greedy(s, legal, n, rng);
    }
    return legal[rng.below(static_cast<uint64_t>(n))];
}

// Plays the match out with `policy` for every seat, drawing choices from `rng` (only to the end
// of the deal with `deal_only`: Until.ROUND); `log` hears what the Python state's history gets.
template <typename Log = NoLog>
inline void playout(State &s, Policy policy, Rng &rng, Log &&log = Log{}, bool deal_only = false) {
    int legal[MAX_LEGAL];
    const int32_t start = s.round;
    while (s.phase != OVER && (!deal_only || s.round == start)) {
        const int n = s.legal(s.to_act(), legal);
        if (n == 0) throw std::invalid_argument("no legal action: the state is inconsistent");
        s.apply(choose(s, legal, n, policy, rng), log);
    }
}

}  // namespace ludoteca::kami
