// Buttons (ludoteca/games/buttons) as a plain struct: the same rules, the same action indices in
// the same order, the same draws from the match's SplitMix64 (the layout shuffle, the cards, every
// roll as one `below(6**dice)`), so a seed means the same match in both cores. The Python engine
// is the reference; tests/native/test_buttons.py compares them. A board is a 36-bit mask, cell
// (row, col) (white die, black die, both 1-6) at bit (row - 1) * 6 + col - 1, as grid.py has it.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "rng.hpp"

namespace ludoteca::buttons {

constexpr int SIDE = 6;
constexpr int CELLS = 36;
constexpr uint64_t FULL = (uint64_t{1} << CELLS) - 1;
constexpr int COLOURS = 4;  // red, yellow, green, blue (grid.COLOURS); red starts
constexpr int LAYOUTS = 8;  // layouts.COUNT: a set is always 8
constexpr int MAX_SEATS = 4;
constexpr int WHITE_PIP_DICE = 4;
constexpr int ROLL = 0, STOP = 1, DECLINE = 2, PLACE_BASE = 3, STAR_BASE = PLACE_BASE + CELLS;
constexpr int NUM_ACTIONS = STAR_BASE + CELLS;  // 75
constexpr int MAX_LEGAL = CELLS + 2;
constexpr int NO_CELL = -1;
constexpr int LINE_POINTS = 100, STAR_TRIGGER = 12;
enum Phase : int8_t { TURN = 0, PLACE = 1, STARS = 2, OVER = 3 };
enum Status : int8_t { IN = 0, STOPPED = 1, BUSTED = 2 };

inline int popcount(uint64_t m) { return __builtin_popcountll(m); }

// grid.py's tables: neighbours, rows, columns, and the 24 five-cell windows in LINES5's order
// (row windows by row then start column, then column windows by column then start row).
struct Grid {
    uint64_t neigh[CELLS] = {}, row[SIDE + 1] = {}, col[SIDE + 1] = {}, lines[24] = {};
    int8_t through[CELLS][4] = {}, nthrough[CELLS] = {};  // LINES_THROUGH: windows by number
    constexpr Grid() {
        for (int r = 0; r < SIDE; ++r)
            for (int c = 0; c < SIDE; ++c) {
                const int cell = r * SIDE + c;
                row[r + 1] |= uint64_t{1} << cell;
                col[c + 1] |= uint64_t{1} << cell;
                if (r > 0) neigh[cell] |= uint64_t{1} << (cell - SIDE);
                if (r < SIDE - 1) neigh[cell] |= uint64_t{1} << (cell + SIDE);
                if (c > 0) neigh[cell] |= uint64_t{1} << (cell - 1);
                if (c < SIDE - 1) neigh[cell] |= uint64_t{1} << (cell + 1);
            }
        int n = 0;
        for (int r = 0; r < SIDE; ++r)
            for (int c = 0; c < 2; ++c, ++n)
                for (int i = 0; i < 5; ++i) lines[n] |= uint64_t{1} << (r * SIDE + c + i);
        for (int c = 0; c < SIDE; ++c)
            for (int r = 0; r < 2; ++r, ++n)
                for (int i = 0; i < 5; ++i) lines[n] |= uint64_t{1} << ((r + i) * SIDE + c);
        for (int cell = 0; cell < CELLS; ++cell)
            for (int l = 0; l < 24; ++l)
                if ((lines[l] >> cell) & 1) through[cell][nthrough[cell]++] = static_cast<int8_t>(l);
    }
};
inline constexpr Grid GRID{};

// grid.blocked: covered, or next to a marker (stars block only their own cell).
inline uint64_t blocked(uint64_t m, uint64_t stars) {
    const uint64_t not_col1 = FULL & ~GRID.col[1], not_col6 = FULL & ~GRID.col[6];
    return m | stars | ((m << SIDE) & FULL) | (m >> SIDE) | ((m << 1) & not_col1) | ((m >> 1) & not_col6);
}

inline uint64_t five_line(uint64_t stars) {
    for (uint64_t line : GRID.lines)
        if ((stars & line) == line) return line;
    return 0;
}

inline bool is_triggered(uint64_t stars) { return popcount(stars) >= STAR_TRIGGER || five_line(stars); }

// scoring.round_stars for a player who stopped: colours with >= 3 markers, the bonus colours
// among them, the stars earned.
struct RoundStars {
    int colours, bonus, earned;
};
inline RoundStars round_stars(uint64_t markers, const uint64_t board[COLOURS], int cards) {
    int colours = 0;
    for (int i = 0; i < COLOURS; ++i)
        if (popcount(markers & board[i]) >= 3) colours |= 1 << i;
    const int bonus = colours & cards;
    return {colours, bonus, 1 + popcount(static_cast<uint64_t>(colours)) + popcount(static_cast<uint64_t>(bonus))};
}

// state.py's Config, with the layout set the `layouts` option names (each layout as its four
// colour masks, grid.board_masks).
struct Config {
    uint64_t layouts[LAYOUTS][COLOURS] = {};
    int8_t players = 2, bga_winner = 1, aside = 2, fixed_boards = 0;
    int8_t unused_[4] = {};  // no padding: a snapshot is the struct's bytes

    static Config make(int players, bool bga_winner, bool fixed_boards, const uint64_t (*layouts)[COLOURS]) {
        Config c;
        c.players = static_cast<int8_t>(players);
        c.bga_winner = bga_winner;
        c.aside = static_cast<int8_t>(players == 2 ? 2 : 1);
        c.fixed_boards = fixed_boards;
        for (int l = 0; l < LAYOUTS; ++l)
            for (int k = 0; k < COLOURS; ++k) c.layouts[l][k] = layouts[l][k];
        return c;
    }

    bool sound() const {
        if (players < 2 || players > MAX_SEATS || (bga_winner != 0 && bga_winner != 1) ||
            (fixed_boards != 0 && fixed_boards != 1) || aside != (players == 2 ? 2 : 1))
            return false;
        for (const auto &lay : layouts) {
            uint64_t all = 0;
            for (uint64_t m : lay) {
                if (m & all) return false;
                all |= m;
            }
            if (all != FULL) return false;
        }
        return true;
    }
};

struct Outcome {
    int players = 0;
    int scores[MAX_SEATS] = {}, ranks[MAX_SEATS] = {};
};

// One match: a plain struct, copied with memcpy (a clone) and snapshotted as its bytes. The
// round history the breakdown and the views read stays in the Python state; what the score
// parts need of it (stars for stopping, for colours, for bonus colours) is summed here.
// Where end_round writes the Python state's round history entry of each seat (status, markers,
// colours, bonus, stars: rules.end_round's), while a playout that gives them back runs
// (State.playout_from); null otherwise. Per thread: playouts release the GIL.
inline thread_local std::vector<int> *round_log = nullptr;

struct State {
    uint64_t rng = 0;
    int32_t ply = 0, round = 1;
    Config cfg;
    uint64_t boards[MAX_SEATS][COLOURS] = {};
    uint64_t markers[MAX_SEATS] = {}, stars[MAX_SEATS] = {}, picks[MAX_SEATS] = {};
    uint64_t options_mask = 0;
    int16_t stop_stars[MAX_SEATS] = {}, colour_stars[MAX_SEATS] = {}, bonus_stars[MAX_SEATS] = {};
    int8_t layout_ids[MAX_SEATS] = {}, cards[MAX_SEATS] = {}, earned[MAX_SEATS] = {};
    int8_t status[MAX_SEATS] = {}, last_placed[MAX_SEATS] = {}, pending[MAX_SEATS] = {};
    int8_t dice[6] = {}, ndice = 0, removed_card = 0, active = 0, phase = TURN, deciders = 0;
    int8_t in_round = 0, waiting = 0, free = WHITE_PIP_DICE;
    int8_t unused_[2] = {};  // no padding: a snapshot is the struct's bytes

    State() = default;
    // rules._setup: the layouts shuffled (unless fixed), the cards dealt, the first round.
    State(const Config &c, uint64_t seed) : rng(seed), cfg(c) {
        Rng r(rng);
        const int n = cfg.players;
        int8_t ids[LAYOUTS];
        for (int i = 0; i < LAYOUTS; ++i) ids[i] = static_cast<int8_t>(i);
        if (!cfg.fixed_boards) r.shuffle(ids, LAYOUTS);
        for (int p = 0; p < MAX_SEATS; ++p) {
            last_placed[p] = pending[p] = NO_CELL;
            if (p >= n) continue;
            layout_ids[p] = ids[p];
            for (int k = 0; k < COLOURS; ++k) boards[p][k] = cfg.layouts[ids[p]][k];
        }
        // rules.deal_cards (§2.2)
        int colours[COLOURS] = {0, 1, 2, 3}, len = COLOURS;
        if (n == 3) {
            const int out = 1 + static_cast<int>(r.below(3));
            for (int i = out; i + 1 < COLOURS; ++i) colours[i] = colours[i + 1];
            len = 3;
            removed_card = static_cast<int8_t>(1 << out);
        }
        r.shuffle(colours, len);
        const int per = n == 2 ? 2 : 1;
        for (int i = 0; i < len; ++i) cards[i / per] = static_cast<int8_t>(cards[i / per] | (1 << colours[i]));
        rng = r.state;
        start_round();
    }

    int n() const { return cfg.players; }

    // The lowest seat to act (the playouts' Order.LOWEST), -1 once over.
    int to_act() const {
        if (phase == TURN) return active;
        if (phase == OVER || !waiting) return -1;
        return __builtin_ctz(static_cast<unsigned>(waiting));
    }

    // Every seat to act now, as a bit mask (several answer a roll or place stars at once).
    int to_act_mask() const {
        if (phase == TURN) return 1 << active;
        return phase == OVER ? 0 : waiting;
    }

    int legal(int seat, int *out) const {
        if (seat < 0 || seat >= n()) return 0;
        if (phase == TURN) {
            if (seat != active) return 0;
            out[0] = ROLL;
            if (!markers[seat]) return 1;
            out[1] = STOP;
            return 2;
        }
        if (phase == OVER || !((waiting >> seat) & 1)) return 0;
        int k = 0;
        if (phase == PLACE) {
            if (seat == active) {
                for (uint64_t m = options_mask; m; m &= m - 1) out[k++] = PLACE_BASE + __builtin_ctzll(m);
                return k;
            }
            out[0] = PLACE_BASE + (dice[0] - 1) * SIDE + dice[1] - 1;
            out[1] = DECLINE;
            return 2;
        }
        for (uint64_t m = markers[seat] & ~picks[seat]; m; m &= m - 1) out[k++] = STAR_BASE + __builtin_ctzll(m);
        return k;
    }

    // rules._apply (and apply_legal's ply) for the lowest seat to act: a legal index only.
    void apply(int index) { apply(to_act(), index); }

    void apply(int seat, int index) {
        if (phase == TURN) {
            if (index == ROLL) {
                roll();
            } else {
                leave(active, STOPPED);
                advance();
            }
        } else if (phase == PLACE) {
            pending[seat] = static_cast<int8_t>(index >= PLACE_BASE ? index - PLACE_BASE : NO_CELL);
            waiting = static_cast<int8_t>(waiting & ~(1 << seat));
            if (!waiting) resolve_roll();
        } else {
            picks[seat] |= uint64_t{1} << (index - STAR_BASE);
            if (popcount(picks[seat]) >= earned[seat]) {
                waiting = static_cast<int8_t>(waiting & ~(1 << seat));
                if (!waiting) finish_round();
            }
        }
        ++ply;
    }

    // rules.start_round (§2.3, §5): everybody in, all dice back, the red holder starts.
    void start_round() {
        const int nn = n();
        in_round = static_cast<int8_t>((1 << nn) - 1);
        for (int p = 0; p < nn; ++p) {
            status[p] = IN;
            last_placed[p] = NO_CELL;
            if (cards[p] & 1) active = static_cast<int8_t>(p);
        }
        free = WHITE_PIP_DICE;
        phase = TURN;
        deciders = waiting = 0;
        options_mask = 0;
    }

    void leave(int seat, int how) {
        status[seat] = static_cast<int8_t>(how);
        in_round = static_cast<int8_t>(in_round & ~(1 << seat));
        free = static_cast<int8_t>(free - cfg.aside);
    }

    // rules.roll and apply_roll: the dice as the base-6 digits of one draw (state.draw_dice).
    void roll() {
        Rng r(rng);
        const int count = 2 + free;
        uint64_t limit = 1;
        for (int i = 0; i < count; ++i) limit *= 6;
        uint64_t v = r.below(limit);
        rng = r.state;
        ndice = static_cast<int8_t>(count);
        for (int i = 0; i < 6; ++i) {
            dice[i] = static_cast<int8_t>(i < count ? v % 6 + 1 : 0);
            v /= 6;
        }
        const int white = dice[0], gold = dice[1];
        uint64_t cols = 0;
        for (int i = 1; i < count; ++i) cols |= GRID.col[dice[i]];
        const int a = active;
        const uint64_t opts = GRID.row[white] & cols & ~blocked(markers[a], stars[a]);
        const int gold_cell = (white - 1) * SIDE + gold - 1;
        const uint64_t gold_bit = uint64_t{1} << gold_cell, near = GRID.neigh[gold_cell];
        int wait = 0;
        for (int p = 0; p < n(); ++p)
            if (p != a && ((in_round >> p) & 1) && !((markers[p] | stars[p]) & gold_bit) && !(markers[p] & near))
                wait |= 1 << p;
        if (opts) {
            wait |= 1 << a;
        } else {  // a bust (§3.2 item 5); the others still answer (§9.1)
            markers[a] = 0;
            leave(a, BUSTED);
        }
        options_mask = opts;
        deciders = waiting = static_cast<int8_t>(wait);
        for (int p = 0; p < MAX_SEATS; ++p) last_placed[p] = NO_CELL;
        if (wait)
            phase = PLACE;
        else
            resolve_roll();
    }

    void resolve_roll() {
        for (int p = 0; p < MAX_SEATS; ++p) {
            if (pending[p] >= 0) markers[p] |= uint64_t{1} << pending[p];
            last_placed[p] = pending[p];
            pending[p] = NO_CELL;
        }
        options_mask = 0;
        advance();
    }

    void advance() {
        if (!in_round) {
            end_round();
            return;
        }
        for (int i = 1; i <= n(); ++i) {
            const int next = (active + i) % n();
            if ((in_round >> next) & 1) {
                active = static_cast<int8_t>(next);
                break;
            }
        }
        phase = TURN;
    }

    // rules.end_round (§4), with scoring.star_parts' sums kept per seat.
    void end_round() {
        int wait = 0;
        for (int p = 0; p < n(); ++p) {
            const uint64_t m = markers[p];
            int colours = 0, bonus = 0, got = 0;
            if (status[p] == STOPPED) {
                const RoundStars rs = round_stars(m, boards[p], cards[p]);
                colours = rs.colours;
                bonus = rs.bonus;
                got = rs.earned;
            }
            got = std::min(got, popcount(m));
            if (round_log) round_log->insert(round_log->end(), {status[p], popcount(m), colours, bonus, got});
            if (status[p] == STOPPED && got) {
                const int c = std::min(popcount(static_cast<uint64_t>(colours)), got - 1);
                stop_stars[p] = static_cast<int16_t>(stop_stars[p] + 1);
                colour_stars[p] = static_cast<int16_t>(colour_stars[p] + c);
                bonus_stars[p] = static_cast<int16_t>(bonus_stars[p] + got - 1 - c);
            }
            earned[p] = static_cast<int8_t>(got);
            if (got == popcount(m)) {
                picks[p] = m;
            } else {
                picks[p] = 0;
                wait |= 1 << p;
            }
        }
        deciders = waiting = static_cast<int8_t>(wait);
        if (wait)
            phase = STARS;
        else
            finish_round();
    }

    // rules.finish_round: stars down, markers back; the §6 end check, else the cards pass left.
    void finish_round() {
        const int nn = n();
        bool over = false;
        for (int p = 0; p < nn; ++p) {
            stars[p] |= picks[p];
            picks[p] = markers[p] = 0;
            earned[p] = 0;
            over = over || is_triggered(stars[p]);
        }
        deciders = waiting = 0;
        if (over) {
            phase = OVER;
            for (int p = 0; p < MAX_SEATS; ++p) last_placed[p] = NO_CELL;
            return;
        }
        int8_t passed[MAX_SEATS] = {};
        for (int p = 0; p < nn; ++p) passed[p] = cards[(p + nn - 1) % nn];
        for (int p = 0; p < nn; ++p) cards[p] = passed[p];
        ++round;
        start_round();
    }

    // scoring.scores_now: BGA 100 for a 5-star line, else the stars.
    void scores_now(int out[MAX_SEATS]) const {
        for (int p = 0; p < n(); ++p)
            out[p] = cfg.bga_winner && five_line(stars[p]) ? LINE_POINTS : popcount(stars[p]);
    }

    // scoring.final_outcome's scores and ranks (keys: the score under BGA; (triggered, stars)
    // under the printed rule). The tie-breaks are empty under both.
    Outcome outcome() const {
        Outcome o;
        o.players = n();
        int keys[MAX_SEATS];
        for (int p = 0; p < n(); ++p) {
            const int count = popcount(stars[p]);
            const bool line = five_line(stars[p]) != 0;
            const bool triggered = count >= STAR_TRIGGER || line;
            o.scores[p] = cfg.bga_winner && line ? LINE_POINTS : count;
            keys[p] = cfg.bga_winner ? o.scores[p] : (triggered ? 1000 : 0) + count;
        }
        for (int p = 0; p < n(); ++p) {
            o.ranks[p] = 1;
            for (int q = 0; q < n(); ++q) o.ranks[p] += keys[q] > keys[p];
        }
        return o;
    }

    // Every field in range and consistent as the rules keep it, so nothing indexes out of
    // bounds or loops forever (State.restore refuses anything else).
    bool sound() const {
        const int nn = cfg.players;
        if (!cfg.sound() || ply < 0 || round < 1 || phase < TURN || phase > OVER) return false;
        const int seats = (1 << nn) - 1;
        if ((in_round & ~seats) || (waiting & ~seats) || (deciders & ~seats) || active < 0 || active >= nn)
            return false;
        int all_cards = removed_card, left = 0;
        bool seen[LAYOUTS] = {};
        for (int p = 0; p < MAX_SEATS; ++p) {
            if (p >= nn) {
                if (markers[p] | stars[p] | picks[p] | cards[p] | status[p] | earned[p] | layout_ids[p] |
                    boards[p][0] | boards[p][1] | boards[p][2] | boards[p][3] | stop_stars[p] |
                    colour_stars[p] | bonus_stars[p])
                    return false;
                if (last_placed[p] != NO_CELL || pending[p] != NO_CELL) return false;
                continue;
            }
            if (layout_ids[p] < 0 || layout_ids[p] >= LAYOUTS || seen[layout_ids[p]]) return false;
            seen[layout_ids[p]] = true;
            for (int k = 0; k < COLOURS; ++k)
                if (boards[p][k] != cfg.layouts[layout_ids[p]][k]) return false;
            if ((markers[p] | stars[p]) & ~FULL || (markers[p] & stars[p]) || (picks[p] & ~markers[p]))
                return false;
            if (cards[p] < 0 || cards[p] > 15 || (cards[p] & all_cards)) return false;
            all_cards |= cards[p];
            if (status[p] < IN || status[p] > BUSTED || (status[p] == IN) != (((in_round >> p) & 1) != 0))
                return false;
            left += status[p] != IN;
            if (earned[p] < 0 || earned[p] > CELLS || last_placed[p] < NO_CELL || last_placed[p] >= CELLS ||
                pending[p] < NO_CELL || pending[p] >= CELLS)
                return false;
            if (stop_stars[p] < 0 || colour_stars[p] < 0 || bonus_stars[p] < 0) return false;
        }
        if (all_cards != 15 || (removed_card & 1) || popcount(static_cast<uint64_t>(removed_card)) != (nn == 3))
            return false;
        if (free != WHITE_PIP_DICE - cfg.aside * left) return false;
        if (ndice != 0 && (ndice < 2 || ndice > 6)) return false;
        for (int i = 0; i < 6; ++i)
            if (i < ndice ? dice[i] < 1 || dice[i] > 6 : dice[i] != 0) return false;
        if (phase == TURN && (waiting || !((in_round >> active) & 1))) return false;
        if (phase == PLACE) {
            if (!waiting || ndice < 2) return false;
            if ((options_mask & ~FULL) || (((waiting >> active) & 1) && !options_mask)) return false;
        }
        if (phase == STARS) {
            if (!waiting || in_round) return false;
            for (int p = 0; p < nn; ++p)
                if (((waiting >> p) & 1) && (popcount(picks[p]) >= earned[p] || earned[p] > popcount(markers[p])))
                    return false;
        }
        if (phase == OVER && waiting) return false;
        return true;
    }
};

static_assert(std::has_unique_object_representations_v<State>,
              "State has padding: snapshots would hold undefined bytes");

// ---- the RL observation ---------------------------------------------------------------------
// observation.py's Encoder, value for value (float32 of the same double arithmetic, the same
// layout). Of a simultaneous step's answers only the observer's own (its pending cell, its star
// picks) is read; the others' answers and waiting bits never are.
struct Observation {
    static constexpr int PER_SEAT = 7 * CELLS, PLAN_SEAT = 9 * CELLS + 16;
    int n, nbits, o_seat, o_phase, o_round, o_active, o_dice, o_free, o_deciders, o_to_act;
    int o_removed, o_cards, o_status, o_earned, o_progress, o_plan, size;

    explicit Observation(const Config &c) {
        n = c.players;
        int at = 0;
        auto add = [&at](int count) { const int start = at; at += count; return start; };
        add(n * PER_SEAT + 2 * CELLS);
        nbits = at;
        o_seat = add(n);
        o_phase = add(4);
        o_round = add(1);
        o_active = add(n);
        o_dice = add(19);
        o_free = add(1);
        o_deciders = add(n);
        o_to_act = add(1);
        o_removed = add(4);
        o_cards = add(4 * n);
        o_status = add(3 * n);
        o_earned = add(n);
        o_progress = add(3 * n);
        o_plan = add(n * PLAN_SEAT);
        size = at;
    }

    static float unit(double x, double scale) {
        const double v = x / scale;
        return static_cast<float>(v < 0 ? 0.0 : v > 1 ? 1.0 : v);
    }

    static void bits(float *out, uint64_t mask) {
        for (; mask; mask &= mask - 1) out[__builtin_ctzll(mask)] = 1.0f;
    }

    void fill(const State &s, int seat, float *out) const {
        std::fill(out, out + size, 0.0f);
        const bool stars_phase = s.phase == STARS;
        for (int r = 0; r < n; ++r) {
            const int p = (seat + r) % n;
            float *o = out + r * PER_SEAT;
            for (int k = 0; k < COLOURS; ++k) bits(o + k * CELLS, s.boards[p][k]);
            bits(o + 4 * CELLS, s.markers[p]);
            bits(o + 5 * CELLS, s.stars[p]);
            if (s.last_placed[p] != NO_CELL) o[6 * CELLS + s.last_placed[p]] = 1.0f;
        }
        if (s.pending[seat] != NO_CELL) out[n * PER_SEAT + s.pending[seat]] = 1.0f;
        if (stars_phase) bits(out + n * PER_SEAT + CELLS, s.picks[seat]);
        out[o_seat + seat] = 1.0f;
        out[o_phase + s.phase] = 1.0f;
        out[o_round] = unit(s.round, 20);
        out[o_active + (s.active - seat + n) % n] = 1.0f;
        if (s.ndice) {
            out[o_dice] = 1.0f;
            out[o_dice + s.dice[0]] = 1.0f;
            out[o_dice + 6 + s.dice[1]] = 1.0f;
            for (int i = 2; i < s.ndice; ++i) out[o_dice + 12 + s.dice[i]] += 0.25f;
        }
        out[o_free] = unit(s.free, 4);
        for (int r = 0; r < n; ++r) {
            const int p = (seat + r) % n;
            if ((s.deciders >> p) & 1) out[o_deciders + r] = 1.0f;
            for (int k = 0; k < COLOURS; ++k)
                if ((s.cards[p] >> k) & 1) out[o_cards + 4 * r + k] = 1.0f;
            out[o_status + 3 * r + s.status[p]] = 1.0f;
            if (stars_phase && s.earned[p]) out[o_earned + r] = unit(s.earned[p], 8);
        }
        if (s.phase == TURN ? s.active == seat : s.phase != OVER && ((s.waiting >> seat) & 1))
            out[o_to_act] = 1.0f;
        for (int k = 0; k < COLOURS; ++k)
            if ((s.removed_card >> k) & 1) out[o_removed + k] = 1.0f;
        for (int r = 0; r < n; ++r) {
            const int p = (seat + r) % n;
            const uint64_t markers = s.markers[p], stars = s.stars[p];
            const uint64_t line_stars = r == 0 && stars_phase ? stars | s.picks[seat] : stars;
            float *plan = out + o_plan + r * PLAN_SEAT;
            for (int k = 0; k < COLOURS; ++k) {  // observation.seat_plan
                const uint64_t colour = s.boards[p][k];
                const int count = popcount(markers & colour);
                for (int t = 0; t < std::min(count, 3); ++t) bits(plan + t * CELLS, colour);
                plan[9 * CELLS + 4 * k + std::min(count, 3)] = 1.0f;
                if ((s.cards[p] >> k) & 1) bits(plan + 3 * CELLS, colour);
            }
            bits(plan + 4 * CELLS, FULL & ~blocked(markers, stars));
            int best = 0;
            for (uint64_t line : GRID.lines) {  // observation.runs
                const int k = popcount(line_stars & line);
                best = std::max(best, k);
                for (int t = 0; t < std::min(k, 4); ++t) bits(plan + (5 + t) * CELLS, line);
            }
            float *prog = out + o_progress + 3 * r;
            prog[0] = markers ? static_cast<float>(round_stars(markers, s.boards[p], s.cards[p]).earned / 8.0) : 0.0f;
            prog[1] = unit(popcount(stars), 12);
            prog[2] = static_cast<float>(best / 5.0);
        }
    }
};

// ---- policies -------------------------------------------------------------------------------
// GREEDY is the game's greedy playout choice (Game._greedy: plan.choose_state, the line-minded
// policy); SEARCH is the game's own playout (Kind.GAME: epsilon-greedy, one move in 32 random).
enum Policy : int { RANDOM = 0, GREEDY = 1, SEARCH = 2 };
constexpr int EPSILON = 32;
enum Until : int { END = 0, ROUND_END = 1 };

// The doubles below are computed operation for operation as Python computes them, so every
// comparison goes the same way in both cores.
constexpr double PARTIAL[3] = {0.0, 0.08, 0.35};  // bot.PARTIAL
constexpr double BLOCK_COST = 0.04, ROLL_MARGIN = 0.1;
constexpr double LINE_WEIGHTS[6] = {0.0, 0.0, 0.15, 0.6, 2.0, 8.0};  // plan.LINE_WEIGHTS

// ((6 - i) / 6) ** dice - ((5 - i) / 6) ** dice, with libm's pow at run time as CPython calls it
// (a compile-time pow could round differently in the last bit).
struct RollOdds {
    double p[7][6] = {};
    RollOdds() {
        for (int d = 1; d <= 6; ++d)
            for (int i = 0; i < 6; ++i) {
                volatile double hi = (6 - i) / 6.0, lo = (5 - i) / 6.0, e = d;
                p[d][i] = std::pow(hi, e) - std::pow(lo, e);
            }
    }
};
inline const RollOdds &roll_odds() {
    static const RollOdds odds;
    return odds;
}

// bot.value
inline double value(uint64_t markers, const uint64_t board[COLOURS], int cards) {
    double v = 1.0;
    for (int i = 0; i < COLOURS; ++i) {
        const int n = popcount(markers & board[i]);
        const double weight = (cards >> i) & 1 ? 2.0 : 1.0;
        v += weight * (n >= 3 ? 1.0 : PARTIAL[n]);
    }
    return v;
}

// plan.star_gain
inline double star_gain(uint64_t stars, int cell) {
    double g = 0.0;
    for (int i = 0; i < GRID.nthrough[cell]; ++i) {
        const int k = std::min(popcount(stars & GRID.lines[GRID.through[cell][i]]), 4);
        g += LINE_WEIGHTS[k + 1] - LINE_WEIGHTS[k];
    }
    return g;
}

// plan.best_gain
inline double best_gain(uint64_t stars, uint64_t markers, int count) {
    double total = 0.0;
    for (int n = std::min(count, popcount(markers)); n > 0; --n) {
        double best = -1.0;
        int best_cell = -1;
        for (uint64_t m = markers; m; m &= m - 1) {
            const int c = __builtin_ctzll(m);
            const double g = star_gain(stars, c);
            if (g > best) best = g, best_cell = c;
        }
        total += best;
        stars |= uint64_t{1} << best_cell;
        markers &= ~(uint64_t{1} << best_cell);
    }
    return total;
}

inline double hold_value(const State &s, int seat, uint64_t markers) {
    const double v = value(markers, s.boards[seat], s.cards[seat]);
    return v + best_gain(s.stars[seat], markers, std::max(1, static_cast<int>(v)));
}

inline double cell_value(const State &s, int seat, int cell) {
    const uint64_t m = s.markers[seat];
    const int lost = popcount(~blocked(m, s.stars[seat]) & (GRID.neigh[cell] | uint64_t{1} << cell));
    return hold_value(s, seat, m | uint64_t{1} << cell) - BLOCK_COST * lost;
}

inline double stop_value(const State &s, int seat) {
    const uint64_t m = s.markers[seat];
    const int earned = round_stars(m, s.boards[seat], s.cards[seat]).earned;
    return earned + best_gain(s.stars[seat], m, earned);
}

// bot.expected_best with plan.cell_value: the exact expectation of the next roll's best cell.
inline double roll_value(const State &s, int seat) {
    const int dice = 1 + s.free;
    const uint64_t free = ~blocked(s.markers[seat], s.stars[seat]);
    const RollOdds &odds = roll_odds();
    double total = 0.0;
    for (int white = 1; white <= 6; ++white) {
        double vals[SIDE];
        int k = 0;
        for (uint64_t m = GRID.row[white] & free; m; m &= m - 1) vals[k++] = cell_value(s, seat, __builtin_ctzll(m));
        std::sort(vals, vals + k, [](double a, double b) { return a > b; });
        for (int i = 0; i < k; ++i) total += odds.p[dice][i] * vals[i];
    }
    return total / 6;
}

// plan.final_score: the BGA score once `earned` stars go on `markers` as well as they can.
inline int final_score(uint64_t stars, uint64_t markers, int earned) {
    for (uint64_t line : GRID.lines) {
        const uint64_t need = line & ~stars;
        if (popcount(need) <= earned && !(need & ~markers)) return LINE_POINTS;
    }
    return popcount(stars) + earned;
}

// plan.end_of_game_stop: 1 stop, 0 roll, -1 when the decision is not about winning the game.
inline int end_of_game_stop(const State &s, int seat) {
    const uint64_t m = s.markers[seat];
    const int mine = final_score(s.stars[seat], m, round_stars(m, s.boards[seat], s.cards[seat]).earned);
    if (mine == LINE_POINTS) return 1;
    int best_other = 0;
    for (int other = 0; other < s.n(); ++other) {
        if (other == seat) continue;
        if (s.status[other] == IN) return -1;
        const uint64_t om = s.markers[other];
        const int earned = s.status[other] == STOPPED ? round_stars(om, s.boards[other], s.cards[other]).earned : 0;
        best_other = std::max(best_other, final_score(s.stars[other], om, earned));
    }
    if (std::max(mine, best_other) < STAR_TRIGGER) return -1;
    return mine >= best_other;
}

// plan.choose_state for `seat` among its legal indices (no draws).
inline int greedy(const State &s, int seat, const int *legal, int n) {
    if (n == 1) return legal[0];
    if (s.phase == TURN) {
        if (s.cfg.bga_winner) {
            const int decided = end_of_game_stop(s, seat);
            if (decided >= 0) return decided ? STOP : ROLL;
        }
        return roll_value(s, seat) > stop_value(s, seat) + ROLL_MARGIN ? ROLL : STOP;
    }
    if (s.phase == PLACE) {
        int best = -1;
        double best_value = -INFINITY;
        bool decline = false;
        for (int i = 0; i < n; ++i) {
            if (legal[i] == DECLINE) {
                decline = true;
                continue;
            }
            const double v = cell_value(s, seat, legal[i] - PLACE_BASE);
            if (v > best_value) best = legal[i], best_value = v;
        }
        if (decline && best_value <= hold_value(s, seat, s.markers[seat])) return DECLINE;
        return best;
    }
    const uint64_t stars = s.stars[seat] | s.picks[seat];
    int best = legal[0];
    double best_gain_ = 0;
    int best_col = 0;
    for (int i = 0; i < n; ++i) {  // max((star_gain, -cell % 6)): the first of the best
        const int cell = legal[i] - STAR_BASE;
        const double g = star_gain(stars, cell);
        const int col = (SIDE - cell % SIDE) % SIDE;
        if (i == 0 || g > best_gain_ || (g == best_gain_ && col > best_col))
            best = legal[i], best_gain_ = g, best_col = col;
    }
    return best;
}

inline int choose(const State &s, int seat, const int *legal, int n, Policy policy, Rng &rng) {
    if (policy == GREEDY) return greedy(s, seat, legal, n);
    if (policy == SEARCH && rng.below(EPSILON) != 0) return greedy(s, seat, legal, n);
    return legal[rng.below(static_cast<uint64_t>(n))];
}

inline int choose(const State &s, const int *legal, int n, Policy policy, Rng &rng) {
    return choose(s, s.to_act(), legal, n, policy, rng);
}

// Game.playout with Order.LOWEST: the lowest seat to act chooses with `policy` for every seat,
// drawing from `rng`, to the end of the match or (ROUND_END) of the current round.
inline void playout(State &s, Policy policy, Rng &rng, Until until = END) {
    int legal[MAX_LEGAL];
    const int32_t start = s.round;
    while (s.phase != OVER && (until == END || s.round == start)) {
        const int seat = s.to_act();
        const int n = s.legal(seat, legal);
        if (n == 0) throw std::invalid_argument("no legal action: the state is inconsistent");
        s.apply(seat, choose(s, seat, legal, n, policy, rng));
    }
}

}  // namespace ludoteca::buttons
