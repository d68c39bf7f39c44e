// Kingdomino (ludoteca/games/kingdomino) as plain structs: the same rules, the same action
// indices in the same order, the same draws from the match's SplitMix64, so a seed means the
// same match in both cores. The Python engine is the reference; tests/native compares them.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "board.hpp"
#include "rng.hpp"

namespace ludoteca::kingdomino {

constexpr int TERRAINS = 6;
constexpr int DOMINOES = 48;
constexpr int PLACE_COUNT = SIZE * PY_STRIDE * 4;  // 728
constexpr int DISCARD_INDEX = PLACE_COUNT;
constexpr int CLAIM_BASE = DISCARD_INDEX + 1;
constexpr int NUM_ACTIONS = CLAIM_BASE + DOMINOES;  // 777
constexpr int MAX_SEATS = 4;
constexpr int MAX_GAMES = 3;
constexpr int MAX_LEGAL = PLACE_COUNT;
constexpr int HARMONY_BONUS = 5;
constexpr int MIDDLE_KINGDOM_BONUS = 10;
enum Phase : int8_t { DRAFT = 0, PLAY = 1, OVER = 2 };
enum Step : int8_t { PLACE_STEP = 0, CLAIM_STEP = 1 };
constexpr int DROW[4] = {0, 1, 0, -1};  // E, S, W, N
constexpr int DCOL[4] = {1, 0, -1, 0};

struct Domino {
    int8_t t1, c1, t2, c2;
};

// data/dominoes.csv, number 1..48 at [number - 1]; tests/native checks it against the CSV.
inline constexpr Domino DOMINO[DOMINOES] = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 1, 0}, {1, 0, 1, 0}, {1, 0, 1, 0}, {1, 0, 1, 0},
    {2, 0, 2, 0}, {2, 0, 2, 0}, {2, 0, 2, 0}, {3, 0, 3, 0}, {3, 0, 3, 0}, {4, 0, 4, 0},
    {0, 0, 1, 0}, {0, 0, 2, 0}, {0, 0, 3, 0}, {0, 0, 4, 0}, {1, 0, 2, 0}, {1, 0, 3, 0},
    {0, 1, 1, 0}, {0, 1, 2, 0}, {0, 1, 3, 0}, {0, 1, 4, 0}, {0, 1, 5, 0}, {1, 1, 0, 0},
    {1, 1, 0, 0}, {1, 1, 0, 0}, {1, 1, 0, 0}, {1, 1, 2, 0}, {1, 1, 3, 0}, {2, 1, 0, 0},
    {2, 1, 0, 0}, {2, 1, 1, 0}, {2, 1, 1, 0}, {2, 1, 1, 0}, {2, 1, 1, 0}, {0, 0, 3, 1},
    {2, 0, 3, 1}, {0, 0, 4, 1}, {3, 0, 4, 1}, {5, 1, 0, 0}, {0, 0, 3, 2}, {2, 0, 3, 2},
    {0, 0, 4, 2}, {3, 0, 4, 2}, {5, 2, 0, 0}, {4, 0, 5, 2}, {4, 0, 5, 2}, {0, 0, 5, 3},
};

// state.py's Config: everything fixed for the whole match.
struct Config {
    int8_t players = 4, frame = 5, line_size = 4, deck_size = 48, kings_per_player = 1;
    int8_t games = 1;
    bool harmony = false, middle_kingdom = false, crowns_tiebreak = true, abba = false;

    // Config.from_options, from the validated options.
    static Config make(int players, bool mighty_duel, bool harmony, bool middle_kingdom,
                       bool dynasty, bool bga_three_player, bool crowns_tiebreak, bool abba) {
        Config c;
        const bool duel = players == 2 && mighty_duel;
        const bool bga3 = players == 3 && bga_three_player;
        c.players = static_cast<int8_t>(players);
        c.deck_size = players == 2 ? (duel ? 48 : 24) : players == 3 ? (bga3 ? 48 : 36) : 48;
        c.frame = duel ? 7 : 5;
        c.line_size = players == 3 && !bga3 ? 3 : 4;
        c.kings_per_player = players == 2 ? 2 : 1;
        c.harmony = harmony;
        c.middle_kingdom = middle_kingdom;
        c.games = dynasty ? 3 : 1;
        c.crowns_tiebreak = crowns_tiebreak;
        c.abba = players == 2 && abba;
        return c;
    }
};

struct Kingdom {
    Board occ, terr[TERRAINS], crown[3];
    int8_t minr = HALF, maxr = HALF, minc = HALF, maxc = HALF;
    int8_t unused_[4] = {};  // no padding: a snapshot is the struct's bytes

    void reset() { *this = Kingdom{}; occ = Board::bit(HALF, HALF); }
};

inline Board castle() { return Board::bit(HALF, HALF); }

inline Board frame_mask(const Kingdom &k, int frame) {
    const int rlo = std::max(k.maxr - frame + 1, 0), rhi = std::min(k.minr + frame - 1, SIZE - 1);
    const int clo = std::max(k.maxc - frame + 1, 0), chi = std::min(k.minc + frame - 1, SIZE - 1);
    return spans().rows[rlo * SIZE + rhi] & spans().cols[clo * SIZE + chi];
}

// grid.placement_masks: per direction, the cells of the first half that make a legal placement.
inline void placement_masks(const Kingdom &k, int t1, int t2, int frame, Board out[4]) {
    const Board ok = frame_mask(k, frame) & ~k.occ;
    const Board c1 = neighbours(castle() | k.terr[t1]);
    const Board c2 = t1 == t2 ? c1 : neighbours(castle() | k.terr[t2]);
    out[0] = ok & ok.west() & (c1 | c2.west());
    out[1] = ok & ok.north() & (c1 | c2.north());
    out[2] = ok & ok.east() & (c1 | c2.east());
    out[3] = ok & ok.south() & (c1 | c2.south());
}

inline void place(Kingdom &k, int row, int col, int d, const Domino &dom) {
    const int rb = row + DROW[d], cb = col + DCOL[d];
    const Board a = Board::bit(row, col), b = Board::bit(rb, cb);
    k.occ |= a | b;
    k.terr[dom.t1] |= a;
    k.terr[dom.t2] |= b;
    if (dom.c1) k.crown[dom.c1 - 1] |= a;
    if (dom.c2) k.crown[dom.c2 - 1] |= b;
    k.minr = static_cast<int8_t>(std::min<int>(k.minr, std::min(row, rb)));
    k.maxr = static_cast<int8_t>(std::max<int>(k.maxr, std::max(row, rb)));
    k.minc = static_cast<int8_t>(std::min<int>(k.minc, std::min(col, cb)));
    k.maxc = static_cast<int8_t>(std::max<int>(k.maxc, std::max(col, cb)));
}

inline int crowns_in(const Kingdom &k, const Board &m) {
    return (k.crown[0] & m).count() + 2 * (k.crown[1] & m).count() + 3 * (k.crown[2] & m).count();
}

inline int territory_points(const Kingdom &k) {
    const Board crowned = k.crown[0] | k.crown[1] | k.crown[2];
    int total = 0;
    for (int t = 0; t < TERRAINS; ++t) {
        const Board &mask = k.terr[t];
        Board seeds = mask & crowned;
        while (seeds.any()) {
            const Board comp = flood(seeds.lowest(), mask);
            total += comp.count() * crowns_in(k, comp);
            seeds &= ~comp;
        }
    }
    return total;
}

inline bool is_complete(const Kingdom &k, int frame) { return k.occ.count() == frame * frame; }

inline bool is_centred(const Kingdom &k, int frame) {
    const int lo = HALF - frame / 2, hi = HALF + frame / 2;
    return k.minr == lo && k.maxr == hi && k.minc == lo && k.maxc == hi;
}

inline int score(const Kingdom &k, const Config &cfg) {
    int points = territory_points(k);
    if (cfg.harmony && is_complete(k, cfg.frame)) points += HARMONY_BONUS;
    if (cfg.middle_kingdom && is_centred(k, cfg.frame)) points += MIDDLE_KINGDOM_BONUS;
    return points;
}

inline int largest_territory(const Kingdom &k) {
    int best = 0;
    for (int t = 0; t < TERRAINS; ++t) {
        Board rest = k.terr[t];
        while (rest.any()) {
            const Board comp = flood(rest.lowest(), k.terr[t]);
            best = std::max(best, comp.count());
            rest &= ~comp;
        }
    }
    return best;
}

inline int total_crowns(const Kingdom &k) {
    return k.crown[0].count() + 2 * k.crown[1].count() + 3 * k.crown[2].count();
}

// One finished game's results per seat (a Dynasty adds them up).
struct Results {
    int16_t total[MAX_SEATS] = {}, largest[MAX_SEATS] = {}, crowns[MAX_SEATS] = {};
};

struct Outcome {
    int players = 0;
    int scores[MAX_SEATS] = {}, ranks[MAX_SEATS] = {};
    int largest[MAX_SEATS] = {}, crowns[MAX_SEATS] = {};
};

// One match: a plain struct, copied with memcpy (a clone) and snapshotted as its bytes.
struct State {
    uint64_t rng = 0;
    int32_t ply = 0;
    Config cfg;
    int8_t phase = DRAFT, step = CLAIM_STEP, round = 0, game_no = 0;
    int8_t acting = 0, draft_pos = 0, draft_len = 0, deck_pos = 0;
    int8_t cur_len = 0, nxt_len = 0, discarded_len = 0;
    int8_t deck[DOMINOES] = {};
    int8_t draft_order[MAX_SEATS] = {};
    int8_t cur[4] = {}, cur_owner[4] = {}, nxt[4] = {}, nxt_owner[4] = {};
    int8_t discarded[DOMINOES] = {};
    int8_t unused_[3] = {};  // no padding: a snapshot is the struct's bytes
    Kingdom kingdoms[MAX_SEATS];
    Results past[MAX_GAMES];  // finished games of a Dynasty

    State() = default;
    State(const Config &c, uint64_t seed) : rng(seed), cfg(c) { start_game(); }

    // rules.start_game: shuffle all 48, keep the deck, order the kings, open the first draft.
    void start_game() {
        Rng r(rng);
        int8_t pool[DOMINOES];
        for (int i = 0; i < DOMINOES; ++i) pool[i] = static_cast<int8_t>(i + 1);
        r.shuffle(pool, DOMINOES);
        std::memcpy(deck, pool, sizeof deck);
        if (cfg.abba) {
            const int8_t a = static_cast<int8_t>(r.below(2));
            draft_order[0] = a;
            draft_order[1] = draft_order[2] = static_cast<int8_t>(1 - a);
            draft_order[3] = a;
            draft_len = 4;
        } else {
            draft_len = 0;
            for (int8_t s = 0; s < cfg.players; ++s)
                for (int k = 0; k < cfg.kings_per_player; ++k) draft_order[draft_len++] = s;
            r.shuffle(draft_order, draft_len);
        }
        rng = r.state;
        draft_pos = 0;
        discarded_len = 0;
        cur_len = 0;
        deck_pos = 0;
        draw_line();
        phase = DRAFT;
        round = 0;
        acting = 0;
        for (int s = 0; s < cfg.players; ++s) kingdoms[s].reset();
        step = CLAIM_STEP;
    }

    // The next line: the deck's next `line_size` dominoes, ascending, unclaimed.
    void draw_line() {
        nxt_len = cfg.line_size;
        std::memcpy(nxt, deck + deck_pos, static_cast<size_t>(nxt_len));
        std::sort(nxt, nxt + nxt_len);
        for (int i = 0; i < nxt_len; ++i) nxt_owner[i] = -1;
        deck_pos = static_cast<int8_t>(deck_pos + nxt_len);
    }

    // Whether every field is in range (a snapshot read back from bytes): what the rules never
    // produce may still be refused, but nothing here can read or write outside the struct.
    bool sound() const {
        auto in = [](int v, int lo, int hi) { return lo <= v && v <= hi; };
        const int kings = cfg.players * cfg.kings_per_player;
        if (!in(cfg.players, 2, MAX_SEATS) || !(cfg.frame == 5 || cfg.frame == 7) ||
            !in(cfg.line_size, 3, 4) || !(cfg.deck_size == 24 || cfg.deck_size == 36 || cfg.deck_size == 48) ||
            !in(cfg.kings_per_player, 1, 2) || kings > MAX_SEATS || !(cfg.games == 1 || cfg.games == 3) ||
            cfg.deck_size % cfg.line_size != 0)
            return false;
        if (!in(phase, DRAFT, OVER) || !in(step, PLACE_STEP, CLAIM_STEP) || !in(game_no, 0, cfg.games - 1) ||
            !in(round, 0, cfg.deck_size / cfg.line_size) || ply < 0 || !in(deck_pos, 0, cfg.deck_size) ||
            draft_len != kings || !in(draft_pos, 0, draft_len) || !in(cur_len, 0, cfg.line_size) ||
            !in(nxt_len, 0, cfg.line_size) || !in(discarded_len, 0, DOMINOES))
            return false;
        for (int8_t d : deck)
            if (!in(d, 1, DOMINOES)) return false;
        for (int i = 0; i < draft_len; ++i)
            if (!in(draft_order[i], 0, cfg.players - 1)) return false;
        for (int i = 0; i < cur_len; ++i)
            if (!in(cur[i], 1, DOMINOES) || !in(cur_owner[i], -1, cfg.players - 1)) return false;
        for (int i = 0; i < nxt_len; ++i)
            if (!in(nxt[i], 1, DOMINOES) || !in(nxt_owner[i], -1, cfg.players - 1)) return false;
        for (int i = 0; i < discarded_len; ++i)
            if (!in(discarded[i], 1, DOMINOES)) return false;
        if (phase == DRAFT && draft_pos >= draft_len) return false;
        if (phase == DRAFT || (phase == PLAY && step == CLAIM_STEP)) {  // a claim must be open
            bool open = false;
            for (int i = 0; i < nxt_len; ++i) open = open || nxt_owner[i] < 0;
            if (!open) return false;
        }
        if (phase == PLAY && (!in(acting, 0, cur_len - 1) || cur_owner[acting] < 0)) return false;
        for (int p = 0; p < cfg.players; ++p) {
            const Kingdom &k = kingdoms[p];
            if (!in(k.minr, 0, SIZE - 1) || !in(k.maxr, 0, SIZE - 1) || !in(k.minc, 0, SIZE - 1) ||
                !in(k.maxc, 0, SIZE - 1) || k.minr > k.maxr || k.minc > k.maxc)
                return false;
            Board all = k.occ;
            for (const Board &b : k.terr) all |= b;
            for (const Board &b : k.crown) all |= b;
            if ((all & ~spans().valid).any()) return false;
        }
        return true;
    }

    int to_act() const {
        if (phase == PLAY) return cur_owner[acting];
        if (phase == DRAFT) return draft_order[draft_pos];
        return -1;
    }

    // Game.legal_indices: claims of the free next-line dominoes (ascending), or placements
    // by direction then cell, or the forced discard. Returns how many were written.
    int legal(int seat, int *out) const {
        if (phase == OVER || seat != to_act()) return 0;
        if (phase == DRAFT || step == CLAIM_STEP) {
            int n = 0;
            for (int i = 0; i < nxt_len; ++i)
                if (nxt_owner[i] < 0) out[n++] = CLAIM_BASE + nxt[i] - 1;
            return n;
        }
        const Domino &dom = DOMINO[cur[acting] - 1];
        Board masks[4];
        placement_masks(kingdoms[seat], dom.t1, dom.t2, cfg.frame, masks);
        int n = 0;
        for (int d = 0; d < 4; ++d)
            masks[d].each([&](int row, int col) { out[n++] = (py_cell(row, col) << 2) | d; });
        if (n == 0) out[n++] = DISCARD_INDEX;
        return n;
    }

    // Game.apply_legal by index: trusts that `index` is legal for the seat to act.
    void apply(int index) {
        const int seat = to_act();
        if (phase == DRAFT) {
            claim(seat, index);
            if (++draft_pos == draft_len) next_round();
        } else if (step == CLAIM_STEP) {
            claim(seat, index);
            step = PLACE_STEP;
            if (!next_king()) next_round();
        } else {
            const int n = cur[acting];
            if (index == DISCARD_INDEX) {
                discarded[discarded_len++] = static_cast<int8_t>(n);
            } else {
                const int cell = index >> 2;
                place(kingdoms[seat], cell / PY_STRIDE, cell % PY_STRIDE, index & 3, DOMINO[n - 1]);
            }
            if (nxt_len) {
                step = CLAIM_STEP;
            } else if (!next_king()) {
                next_round();
            }
        }
        ++ply;
    }

    void claim(int seat, int index) {
        const int n = index - CLAIM_BASE + 1;
        for (int i = 0; i < nxt_len; ++i)
            if (nxt[i] == n) nxt_owner[i] = static_cast<int8_t>(seat);
    }

    bool next_king() {
        int i = acting + 1;
        while (i < cur_len && cur_owner[i] < 0) ++i;
        if (i < cur_len) {
            acting = static_cast<int8_t>(i);
            return true;
        }
        return false;
    }

    // draft.turn_line and rules.next_round / end_game.
    void next_round() {
        if (!nxt_len) {
            end_game();
            return;
        }
        for (int i = 0; i < nxt_len; ++i)
            if (nxt_owner[i] < 0) discarded[discarded_len++] = nxt[i];
        cur_len = nxt_len;
        std::memcpy(cur, nxt, sizeof cur);
        std::memcpy(cur_owner, nxt_owner, sizeof cur_owner);
        if (deck_pos < cfg.deck_size) {
            draw_line();
        } else {
            nxt_len = 0;
        }
        phase = PLAY;
        ++round;
        int i = 0;
        while (i < cur_len - 1 && cur_owner[i] < 0) ++i;
        acting = static_cast<int8_t>(i);
        step = PLACE_STEP;
    }

    void end_game() {
        if (game_no + 1 < cfg.games) {
            results(past[game_no]);
            ++game_no;
            start_game();
        } else {
            phase = OVER;
        }
    }

    void results(Results &r) const {
        for (int s = 0; s < cfg.players; ++s) {
            r.total[s] = static_cast<int16_t>(score(kingdoms[s], cfg));
            r.largest[s] = static_cast<int16_t>(largest_territory(kingdoms[s]));
            r.crowns[s] = static_cast<int16_t>(total_crowns(kingdoms[s]));
        }
    }

    // scoring.scores_now: each seat's score so far (a Dynasty adds its finished games).
    void scores_now(int *out) const {
        for (int s = 0; s < cfg.players; ++s) {
            out[s] = score(kingdoms[s], cfg);
            for (int g = 0; g < game_no; ++g) out[s] += past[g].total[s];
        }
    }

    // rules.final_outcome: totals, tie-break keys (largest territory, then crowns unless the
    // BGA tie-break), ranks shared on equal keys. Valid once the match is over.
    Outcome outcome() const {
        Outcome o;
        o.players = cfg.players;
        Results now;
        results(now);
        for (int s = 0; s < cfg.players; ++s) {
            o.scores[s] = now.total[s];
            o.largest[s] = now.largest[s];
            o.crowns[s] = now.crowns[s];
            for (int g = 0; g < game_no; ++g) {
                o.scores[s] += past[g].total[s];
                o.largest[s] += past[g].largest[s];
                o.crowns[s] += past[g].crowns[s];
            }
        }
        for (int s = 0; s < cfg.players; ++s) {
            int rank = 1;
            for (int t = 0; t < cfg.players; ++t) rank += beats(o, t, s) ? 1 : 0;
            o.ranks[s] = rank;
        }
        return o;
    }

    bool beats(const Outcome &o, int a, int b) const {
        if (o.scores[a] != o.scores[b]) return o.scores[a] > o.scores[b];
        if (o.largest[a] != o.largest[b]) return o.largest[a] > o.largest[b];
        return cfg.crowns_tiebreak && o.crowns[a] > o.crowns[b];
    }
};

static_assert(std::has_unique_object_representations_v<State>,
              "State has padding: snapshots would hold undefined bytes");

// ---- the RL observation ---------------------------------------------------------------------
// observation.py's Encoder, value for value (float32, the same layout, the same roundings): the
// observer's seat, phase, step, round, game, deck left, the first draft, both lines, the
// discards, the scores now and of finished Dynasty games, and every kingdom's window planes, all
// seats relative to the observer. Nothing hidden is read: never the deck beyond its count.
struct Observation {
    int n, order_len, line_size, slot, lo, width, cells, rounds, deck_size;
    int o_seat, o_phase, o_step, o_round, o_game, o_deck, o_order, o_pos, o_cur, o_next, o_disc;
    int o_scores, o_past, o_kingdoms, plane_size, size;
    static constexpr int DFEAT = 1 + 2 * TERRAINS + 2;

    explicit Observation(const Config &c) {
        n = c.players;
        order_len = c.players * c.kings_per_player;
        line_size = c.line_size;
        slot = 1 + DFEAT + n + 1;
        lo = HALF - (c.frame - 1);
        width = 2 * c.frame - 1;
        cells = width * width;
        rounds = c.deck_size / c.line_size;
        deck_size = c.deck_size;
        int at = 0;
        auto add = [&at](int count) { const int start = at; at += count; return start; };
        o_seat = add(n);
        o_phase = add(3);
        o_step = add(2);
        o_round = add(1);
        o_game = add(1);
        o_deck = add(1);
        o_order = add(order_len * n);
        o_pos = add(order_len + 1);
        o_cur = add(line_size * slot);
        o_next = add(line_size * slot);
        o_disc = add(DOMINOES);
        o_scores = add(n);
        o_past = add((c.games - 1) * n);
        plane_size = (TERRAINS + 1) * cells;
        o_kingdoms = add(n * plane_size);
        size = at;
    }

    int rel(int p, int seat) const { return ((p - seat) % n + n) % n; }

    static float unit(int x) {
        const double v = x / 100.0;
        return static_cast<float>(v < 0 ? 0.0 : v > 1 ? 1.0 : v);
    }

    void line(float *buf, int o, const int8_t *dominoes, const int8_t *owners, int len, int seat,
              int acting) const {
        for (int i = 0; i < len && i < line_size; ++i) {
            float *f = buf + o + i * slot;
            const int number = dominoes[i];
            const Domino &d = DOMINO[number - 1];
            f[0] = 1.0f;
            f[1] = static_cast<float>(number / static_cast<double>(DOMINOES));
            f[2 + d.t1] = 1.0f;
            f[2 + TERRAINS + d.t2] = 1.0f;
            f[2 + 2 * TERRAINS] = static_cast<float>(d.c1 / 3.0);
            f[3 + 2 * TERRAINS] = static_cast<float>(d.c2 / 3.0);
            if (owners[i] >= 0) f[1 + DFEAT + rel(owners[i], seat)] = 1.0f;
            if (i == acting) f[slot - 1] = 1.0f;
        }
    }

    void kingdom(float *buf, const Kingdom &k) const {
        auto at = [&](int row, int col) { return (row - lo) * width + (col - lo); };
        auto inside = [&](int row, int col) {
            return row >= lo && row < lo + width && col >= lo && col < lo + width;
        };
        for (int t = 0; t < TERRAINS; ++t)
            k.terr[t].each([&](int row, int col) {
                if (inside(row, col)) buf[t * cells + at(row, col)] = 1.0f;
            });
        for (int c = 0; c < 3; ++c)
            k.crown[c].each([&](int row, int col) {
                if (inside(row, col))
                    buf[TERRAINS * cells + at(row, col)] = static_cast<float>(c + 1) / 3.0f;
            });
    }

    void fill(const State &s, int seat, float *buf) const {
        std::memset(buf, 0, sizeof(float) * static_cast<size_t>(size));
        buf[o_seat + seat] = 1.0f;
        buf[o_phase + s.phase] = 1.0f;
        if (s.phase != OVER) buf[o_step + (s.step == CLAIM_STEP ? 1 : 0)] = 1.0f;
        buf[o_round] = static_cast<float>(s.round / static_cast<double>(rounds));
        buf[o_game] = static_cast<float>(s.game_no / 2.0);
        buf[o_deck] = static_cast<float>((deck_size - s.deck_pos) / static_cast<double>(deck_size));
        if (s.phase == DRAFT) {
            for (int k = 0; k < s.draft_len; ++k) buf[o_order + k * n + rel(s.draft_order[k], seat)] = 1.0f;
            buf[o_pos + s.draft_pos] = 1.0f;
        }
        line(buf, o_cur, s.cur, s.cur_owner, s.cur_len, seat, s.phase == PLAY ? s.acting : -1);
        line(buf, o_next, s.nxt, s.nxt_owner, s.nxt_len, seat, -1);
        for (int i = 0; i < s.discarded_len; ++i) buf[o_disc - 1 + s.discarded[i]] = 1.0f;
        for (int r = 0; r < n; ++r) {
            const int p = (seat + r) % n;
            buf[o_scores + r] = unit(score(s.kingdoms[p], s.cfg));
            kingdom(buf + o_kingdoms + r * plane_size, s.kingdoms[p]);
        }
        for (int g = 0; g < s.game_no; ++g)
            for (int r = 0; r < n; ++r) buf[o_past + g * n + r] = unit(s.past[g].total[(seat + r) % n]);
    }
};

// ---- policies -------------------------------------------------------------------------------
enum Policy : int { RANDOM = 0, GREEDY = 1, SEARCH = 2 };

// bot.placement_key: (score after placing, -dead empty squares, -castle off-centre).
struct Key {
    int score, dead, off;
    bool operator<(const Key &o) const {
        if (score != o.score) return score < o.score;
        if (dead != o.dead) return dead < o.dead;
        return off < o.off;
    }
    bool operator==(const Key &o) const {
        return score == o.score && dead == o.dead && off == o.off;
    }
};

inline Key placement_key(const Kingdom &k, int n, int index, const Config &cfg) {
    Kingdom after = k;
    const int cell = index >> 2;
    place(after, cell / PY_STRIDE, cell % PY_STRIDE, index & 3, DOMINO[n - 1]);
    const Board empty = frame_mask(after, cfg.frame) & ~after.occ;
    const int dead = (empty & ~neighbours(empty)).count();
    const int off = std::abs(after.minc + after.maxc - 2 * HALF) +
                    std::abs(after.minr + after.maxr - 2 * HALF);
    return {score(after, cfg), -dead, -off};
}

// bot.choose: the best placement (the policy's generator picks among equals, in legal order),
// or the claim whose best placement gains most now (lower number on ties).
inline int greedy(const State &s, const int *legal, int n, Rng &rng) {
    const int seat = s.to_act();
    const Kingdom &k = s.kingdoms[seat];
    if (legal[0] >= CLAIM_BASE) {
        const int base = score(k, s.cfg);
        int best = legal[0], best_gain = -2;
        int scratch[MAX_LEGAL];
        for (int i = 0; i < n; ++i) {
            const int domino = legal[i] - CLAIM_BASE + 1;
            const Domino &dom = DOMINO[domino - 1];
            Board masks[4];
            placement_masks(k, dom.t1, dom.t2, s.cfg.frame, masks);
            int m = 0;
            for (int d = 0; d < 4; ++d)
                masks[d].each([&](int row, int col) { scratch[m++] = (py_cell(row, col) << 2) | d; });
            int gain = -1;
            if (m) {
                Key top = placement_key(k, domino, scratch[0], s.cfg);
                for (int j = 1; j < m; ++j) top = std::max(top, placement_key(k, domino, scratch[j], s.cfg));
                gain = top.score - base;
            }
            // legal claims are ascending, so a strict improvement keeps the lower number on ties
            if (gain > best_gain) {
                best_gain = gain;
                best = legal[i];
            }
        }
        return best;
    }
    if (legal[0] == DISCARD_INDEX) return legal[0];
    const int domino = s.cur[s.acting];
    Key keys[MAX_LEGAL];
    Key top = keys[0] = placement_key(k, domino, legal[0], s.cfg);
    for (int i = 1; i < n; ++i) top = std::max(top, keys[i] = placement_key(k, domino, legal[i], s.cfg));
    int equal[MAX_LEGAL], m = 0;
    for (int i = 0; i < n; ++i)
        if (keys[i] == top) equal[m++] = legal[i];
    return equal[rng.below(static_cast<uint64_t>(m))];
}

// ---- the search's playout (the game's epsilon-greedy playout, Kind.GAME in engine/playout.py) -------------------------------------
constexpr int EPSILON = 8;  // bots/rollouts.py: one move in EPSILON is random

struct Group {
    Board mask;
    int size, crowns;
};

inline int groups_of(const Kingdom &k, int t, Group *out) {
    int n = 0;
    Board rest = k.terr[t];
    while (rest.any()) {
        const Board comp = flood(rest.lowest(), k.terr[t]);
        out[n++] = {comp, comp.count(), crowns_in(k, comp)};
        rest &= ~comp;
    }
    return n;
}

// search._join_gain: points gained when `squares` new squares with `crowns` crowns join the
// groups that `touch` reaches.
inline int join_gain(const Group *g, int count, const Board &touch, int squares, int crowns) {
    int s = squares, c = crowns, old = 0;
    for (int i = 0; i < count; ++i)
        if ((g[i].mask & touch).any()) {
            s += g[i].size;
            c += g[i].crowns;
            old += g[i].size * g[i].crowns;
        }
    return s * c - old;
}

// neighbours() of each single cell (row * 16 + col), built once: the playout asks for two per
// candidate placement.
inline const Board &cell_neighbours(int row, int col) {
    static const auto table = [] {
        static Board t[SIZE * 16];
        for (int r = 0; r < SIZE; ++r)
            for (int c = 0; c < SIZE; ++c) t[r * 16 + c] = neighbours(Board::bit(r, c));
        return t;
    }();
    return table[row * 16 + col];
}

struct Placement {
    int gain, cell, d;  // cell as grid.py numbers it; gain -1 when nothing fits
};

// search.best_placement: the first placement (by direction, then cell) with the most territory
// points gained, computed from the groups the new squares join.
inline Placement best_placement(const Kingdom &k, int n, int frame) {
    const Domino &dom = DOMINO[n - 1];
    Board masks[4];
    placement_masks(k, dom.t1, dom.t2, frame, masks);
    Group g1[64], g2[64];  // a 7x7 kingdom has at most 48 squares of a terrain
    const bool same = dom.t1 == dom.t2;
    const int n1 = groups_of(k, dom.t1, g1);
    const int n2 = same ? 0 : groups_of(k, dom.t2, g2);
    const Board near1 = neighbours(k.terr[dom.t1]);
    const Board near2 = same ? near1 : neighbours(k.terr[dom.t2]);
    Placement best{-1, -1, 0};
    for (int d = 0; d < 4; ++d)
        masks[d].each([&](int row, int col) {
            const int rb = row + DROW[d], cb = col + DCOL[d];
            const Board &na = cell_neighbours(row, col);
            const Board &nb = cell_neighbours(rb, cb);
            int gain;
            if (same) {
                const Board touch = na | nb;
                gain = 2 * (dom.c1 + dom.c2);
                if ((touch & k.terr[dom.t1]).any()) gain = join_gain(g1, n1, touch, 2, dom.c1 + dom.c2);
            } else {
                const int x = near1.test(row, col) ? join_gain(g1, n1, na, 1, dom.c1) : dom.c1;
                const int y = near2.test(rb, cb) ? join_gain(g2, n2, nb, 1, dom.c2) : dom.c2;
                gain = x + y;
            }
            if (gain > best.gain) best = {gain, py_cell(row, col), d};
        });
    return best;
}

// the game's playout (Kind.GAME): epsilon-greedy kings to the end, a claim's planned placement kept
// for its domino while the kingdom is unchanged (the plans live for the whole playout, as there).
// What a playout tells about each move before applying it: nothing, unless a caller listens.
struct Quiet {
    void operator()(const State &, int) const {}
};

template <typename Listen = Quiet>
inline void search_playout(State &s, Rng &rng, Listen &&listen = Listen{}) {
    struct Plan {
        bool set = false;
        Board occ;
        Placement placement{-1, -1, 0};
    };
    Plan planned[DOMINOES + 1];
    int legal[MAX_LEGAL];
    const int frame = s.cfg.frame;
    while (s.phase != OVER) {
        const int seat = s.to_act();
        if (rng.below(EPSILON) == 0) {
            const int n = s.legal(seat, legal);
            if (n == 0) throw std::invalid_argument("no legal action: the state is inconsistent");
            {
                const int index = legal[rng.below(static_cast<uint64_t>(n))];
                listen(static_cast<const State &>(s), index);
                s.apply(index);
            }
            continue;
        }
        const Kingdom &k = s.kingdoms[seat];
        if (s.phase == DRAFT || s.step == CLAIM_STEP) {
            int best_n = -1, best_gain = -2;
            Placement best{-1, -1, 0};
            for (int i = 0; i < s.nxt_len; ++i)
                if (s.nxt_owner[i] < 0) {
                    const Placement found = best_placement(k, s.nxt[i], frame);
                    if (found.gain > best_gain) {
                        best_n = s.nxt[i];
                        best_gain = found.gain;
                        best = found;
                    }
                }
            if (best_n < 0) throw std::invalid_argument("no legal action: the state is inconsistent");
            planned[best_n] = {true, k.occ, best};
            listen(static_cast<const State &>(s), CLAIM_BASE + best_n - 1);
            s.apply(CLAIM_BASE + best_n - 1);
            continue;
        }
        const int n = s.cur[s.acting];
        Placement p;
        if (planned[n].set && planned[n].occ == k.occ) {
            p = planned[n].placement;
        } else {
            p = best_placement(k, n, frame);
        }
        planned[n].set = false;
        if (p.gain < 0) {
            listen(static_cast<const State &>(s), DISCARD_INDEX);
            s.apply(DISCARD_INDEX);  // nothing fits: the forced discard
            continue;
        }
        listen(static_cast<const State &>(s), (p.cell << 2) | p.d);
        s.apply((p.cell << 2) | p.d);
    }
}

inline int choose(const State &s, const int *legal, int n, Policy policy, Rng &rng) {
    if (policy == GREEDY) return greedy(s, legal, n, rng);
    return legal[rng.below(static_cast<uint64_t>(n))];
}

// Plays the match out with `policy` for every seat, drawing choices from `rng`; `listen` sees
// the state and the index before each move.
template <typename Listen = Quiet>
inline void playout(State &s, Policy policy, Rng &rng, Listen &&listen = Listen{}) {
    if (policy == SEARCH) {
        search_playout(s, rng, listen);
        return;
    }
    int legal[MAX_LEGAL];
    while (s.phase != OVER) {
        const int n = s.legal(s.to_act(), legal);
        if (n == 0) throw std::invalid_argument("no legal action: the state is inconsistent");
        const int index = choose(s, legal, n, policy, rng);
        listen(static_cast<const State &>(s), index);
        s.apply(index);
    }
}

}  // namespace ludoteca::kingdomino
