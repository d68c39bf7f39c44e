// Queendomino (ludoteca/games/queendomino) as plain structs: the same rules, the same action
// indices in the same order, the same draws from the match's SplitMix64, so a seed means the
// same match in both cores. The Python engine is the reference; tests/native compares them.
// The domino and building tables come from the Python package data (Config), so a building
// table chosen by option plays here exactly as there.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "board.hpp"
#include "rng.hpp"

namespace ludoteca::queendomino {

constexpr int TERRAINS = 7;  // Kingdomino's six, then town
constexpr int TOWN = 6;
constexpr int MAX_ID = 96;  // 1-48 the Queendomino box, 49-96 the Kingdomino box (Royal Wedding)
constexpr int BOX = 48;
constexpr int CELLS = SIZE * PY_STRIDE;  // 182
constexpr int PLACE_COUNT = CELLS * 4;  // 728
constexpr int DISCARD_INDEX = PLACE_COUNT;
constexpr int CLAIM_BASE = DISCARD_INDEX + 1;
constexpr int PASS_INDEX = CLAIM_BASE + MAX_ID;  // 825
constexpr int KNIGHT_BASE = PASS_INDEX + 1;
constexpr int DRAGON_BASE = KNIGHT_BASE + CELLS;  // 1008
constexpr int BOARD_SPACES = 6;
constexpr int BUILD_BASE = DRAGON_BASE + BOARD_SPACES;  // 1014
constexpr int NUM_ACTIONS = BUILD_BASE + BOARD_SPACES * CELLS;  // 2106
constexpr int MAX_SEATS = 8;
constexpr int MAX_LINE = 8;
constexpr int MAX_TILES = 32;
constexpr int MAX_LEGAL = PLACE_COUNT;  // a turn's non-placement list is far shorter
constexpr int START_COINS = 7, START_KNIGHTS = 1, DRAGON_COST = 1, COINS_PER_POINT = 3;
enum Phase : int8_t { DRAFT = 0, PLAY = 1, OVER = 2 };
enum Step : int8_t { PLACE = 0, TAX = 1, BUILD = 2, DRAGON = 3, CLAIM = 4 };
constexpr int DROW[4] = {0, 1, 0, -1};  // E, S, W, N
constexpr int DCOL[4] = {1, 0, -1, 0};

struct Domino {
    int8_t t1, c1, t2, c2;
};

// buildings.Building's numbers, in its field order.
struct Tile {
    int8_t knights, towers, coin_per_knight, coin_per_tower, crowns, points, per_territory,
        terrain, per_tower, per_knight;
};

// state.py's Config, with the domino and building tables the match plays with.
struct Config {
    int8_t players = 4, frame = 5, line_size = 4, kings_per_player = 1, sides = 4, tiles_len = 32;
    bool royal_wedding = false, tax_per_turn = false, teams = false;
    int8_t side_of[MAX_SEATS] = {};
    int8_t unused_[3] = {};  // no padding: a snapshot is the struct's bytes
    Domino dom[MAX_ID + 1] = {};  // by id; [0] unused
    Tile tiles[MAX_TILES] = {};  // by id - 1

    // Config.from_options, from the validated options.
    static Config make(int players, bool wedding, bool teams, bool per_turn) {
        Config c;
        c.players = static_cast<int8_t>(players);
        c.sides = static_cast<int8_t>(teams ? players / 2 : players);
        if (teams) {
            c.frame = 7;
            c.line_size = 8;
        } else if (wedding) {
            c.frame = players <= 4 ? 7 : 5;
            c.line_size = players <= 4 ? 4 : 8;
        } else {
            c.frame = players == 2 ? 7 : 5;
            c.line_size = 4;
        }
        c.kings_per_player = players == 2 ? 2 : 1;
        c.royal_wedding = wedding;
        c.tax_per_turn = per_turn;
        c.teams = teams;
        for (int s = 0; s < players; ++s) c.side_of[s] = static_cast<int8_t>(s % c.sides);
        return c;
    }

    int total_dominoes() const { return royal_wedding ? 96 : 48; }
};

struct Kingdom {
    Board occ, terr[TERRAINS], crown[3];
    int8_t minr = HALF, maxr = HALF, minc = HALF, maxc = HALF;
    int8_t unused_[4] = {};

    void reset() { *this = Kingdom{}; occ = Board::bit(HALF, HALF); }
};

inline Board frame_mask(const Kingdom &k, int frame) {
    const int rlo = std::max(k.maxr - frame + 1, 0), rhi = std::min(k.minr + frame - 1, SIZE - 1);
    const int clo = std::max(k.maxc - frame + 1, 0), chi = std::min(k.minc + frame - 1, SIZE - 1);
    return spans().rows[rlo * SIZE + rhi] & spans().cols[clo * SIZE + chi];
}

// grid.placement_masks: per direction, the cells of the first half that make a legal placement.
inline void placement_masks(const Kingdom &k, int t1, int t2, int frame, Board out[4]) {
    const Board ok = frame_mask(k, frame) & ~k.occ;
    const Board castle = Board::bit(HALF, HALF);
    const Board c1 = neighbours(castle | k.terr[t1]);
    const Board c2 = t1 == t2 ? c1 : neighbours(castle | k.terr[t2]);
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
        Board seeds = k.terr[t] & crowned;
        while (seeds.any()) {
            const Board comp = flood(seeds.lowest(), k.terr[t]);
            total += comp.count() * crowns_in(k, comp);
            seeds &= ~comp;
        }
    }
    return total;
}

inline int territories(const Board &mask) {
    int n = 0;
    Board rest = mask;
    while (rest.any()) {
        rest &= ~flood(rest.lowest(), mask);
        ++n;
    }
    return n;
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

inline Board cell_bit(int cell) { return Board::bit(cell / PY_STRIDE, cell % PY_STRIDE); }

struct Outcome {
    int players = 0;
    int scores[MAX_SEATS] = {}, ranks[MAX_SEATS] = {}, largest[MAX_SEATS] = {};
};

// One match: a plain struct, copied with memcpy (a clone) and snapshotted as its bytes.
struct State {
    uint64_t rng = 0;
    Kingdom kingdoms[MAX_SEATS];
    Board built_cells[MAX_SEATS], knight_cells[MAX_SEATS], last_cells, taxed;
    int32_t ply = 0;
    int16_t coins[MAX_SEATS] = {}, knights[MAX_SEATS] = {}, towers[MAX_SEATS] = {};
    uint8_t built_tile[MAX_SEATS][MAX_TILES] = {}, built_cell[MAX_SEATS][MAX_TILES] = {};
    int8_t built_len[MAX_SEATS] = {};
    Config cfg;
    int8_t phase = DRAFT, step = CLAIM, round = 0, acting = 0;
    int8_t draft_pos = 0, draft_len = 0, deck_pos = 0, deck_len = 0;
    int8_t cur_len = 0, nxt_len = 0, discarded_len = 0, lines_drawn = 0;
    int8_t pile_len = 0, pile_pos = 0, burnt_len = 0, dragon = -1, queen = -1;
    int8_t deck[MAX_ID] = {};
    int8_t draft_order[MAX_SEATS] = {};
    int8_t cur[MAX_LINE] = {}, cur_owner[MAX_LINE] = {}, nxt[MAX_LINE] = {}, nxt_owner[MAX_LINE] = {};
    int8_t discarded[MAX_ID + MAX_LINE] = {};
    int8_t board[BOARD_SPACES] = {};
    int8_t pile[MAX_TILES] = {}, burnt[MAX_TILES] = {};
    int8_t unused_[13] = {};  // no padding: a snapshot is the struct's bytes

    State() = default;

    // rules._setup: both boxes shuffled (lines alternate boxes), the building pile shuffled,
    // the first draft's order, one kingdom, treasury and knight per side.
    State(const Config &c, uint64_t seed) : rng(seed), cfg(c) {
        Rng r(rng);
        int8_t queen_box[BOX], king_box[BOX];
        for (int i = 0; i < BOX; ++i) {
            queen_box[i] = static_cast<int8_t>(i + 1);
            king_box[i] = static_cast<int8_t>(BOX + i + 1);
        }
        r.shuffle(queen_box, BOX);
        if (cfg.royal_wedding) {
            r.shuffle(king_box, BOX);
            deck_len = 0;
            for (int i = 0; i < BOX; i += cfg.line_size) {
                for (int j = i; j < std::min(i + static_cast<int>(cfg.line_size), BOX); ++j) deck[deck_len++] = queen_box[j];
                for (int j = i; j < std::min(i + static_cast<int>(cfg.line_size), BOX); ++j) deck[deck_len++] = king_box[j];
            }
        } else {
            std::memcpy(deck, queen_box, BOX);
            deck_len = BOX;
        }
        pile_len = cfg.tiles_len;
        for (int i = 0; i < pile_len; ++i) pile[i] = static_cast<int8_t>(i + 1);
        r.shuffle(pile, pile_len);
        for (int i = 0; i < BOARD_SPACES; ++i) board[i] = i < pile_len ? pile[i] : 0;
        pile_pos = BOARD_SPACES;
        if (cfg.players == 2) {
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
        nxt_len = cfg.line_size;
        std::memcpy(nxt, deck, static_cast<size_t>(nxt_len));
        std::sort(nxt, nxt + nxt_len);
        for (int i = 0; i < nxt_len; ++i) nxt_owner[i] = -1;
        deck_pos = cfg.line_size;
        for (int s = 0; s < cfg.sides; ++s) {
            kingdoms[s].reset();
            coins[s] = START_COINS;
            knights[s] = START_KNIGHTS;
        }
        lines_drawn = 1;
    }

    // Whether every field is in range (a snapshot read back from bytes): nothing here can then
    // read or write outside the struct.
    bool sound() const {
        auto in = [](int v, int lo, int hi) { return lo <= v && v <= hi; };
        if (!in(cfg.players, 2, MAX_SEATS) || !in(cfg.sides, 1, cfg.players) || !(cfg.frame == 5 || cfg.frame == 7) ||
            !in(cfg.line_size, 1, MAX_LINE) || !in(cfg.kings_per_player, 1, 2) ||
            cfg.players * cfg.kings_per_player > MAX_SEATS || !in(cfg.tiles_len, BOARD_SPACES, MAX_TILES))
            return false;
        for (int s = 0; s < cfg.players; ++s)
            if (!in(cfg.side_of[s], 0, cfg.sides - 1)) return false;
        for (int n = 1; n <= MAX_ID; ++n) {
            const Domino &d = cfg.dom[n];
            if (!in(d.t1, 0, TERRAINS - 1) || !in(d.t2, 0, TERRAINS - 1) || !in(d.c1, 0, 3) || !in(d.c2, 0, 3)) return false;
        }
        for (int i = 0; i < cfg.tiles_len; ++i)
            if (!in(cfg.tiles[i].crowns, 0, 3) || !in(cfg.tiles[i].terrain, -1, TERRAINS - 1) ||
                (cfg.tiles[i].per_territory && cfg.tiles[i].terrain < 0))
                return false;
        // every line holds a claim for each king; decks and positions come in whole lines
        if (cfg.players * cfg.kings_per_player > cfg.line_size || deck_len % cfg.line_size ||
            deck_pos % cfg.line_size)
            return false;
        if (!in(phase, DRAFT, OVER) || !in(step, PLACE, CLAIM) || ply < 0 || !in(deck_len, 0, MAX_ID) ||
            !in(deck_pos, 0, deck_len) || draft_len != cfg.players * cfg.kings_per_player ||
            !in(draft_pos, 0, draft_len) || !in(cur_len, 0, MAX_LINE) || !in(nxt_len, 0, MAX_LINE) ||
            !in(discarded_len, 0, MAX_ID + MAX_LINE) || !in(pile_len, 0, MAX_TILES) || !in(pile_pos, 0, std::max<int>(pile_len, BOARD_SPACES)) ||
            !in(burnt_len, 0, MAX_TILES) || !in(dragon, -1, BOARD_SPACES - 1) || !in(queen, -1, cfg.sides - 1))
            return false;
        for (int i = 0; i < deck_len; ++i)
            if (!in(deck[i], 1, MAX_ID)) return false;
        for (int i = 0; i < draft_len; ++i)
            if (!in(draft_order[i], 0, cfg.players - 1)) return false;
        for (int i = 0; i < cur_len; ++i)
            if (!in(cur[i], 1, MAX_ID) || !in(cur_owner[i], -1, cfg.players - 1)) return false;
        for (int i = 0; i < nxt_len; ++i)
            if (!in(nxt[i], 1, MAX_ID) || !in(nxt_owner[i], -1, cfg.players - 1)) return false;
        for (int i = 0; i < discarded_len; ++i)
            if (!in(discarded[i], 1, MAX_ID)) return false;
        // what can still be discarded, built or burnt fits the arrays it goes to (the discards
        // are drawn dominoes not in the next line; the current line's may join them)
        if (discarded_len + (deck_len - deck_pos) + nxt_len > MAX_ID) return false;
        int tiles_left = pile_len - pile_pos + burnt_len;
        for (int i = 0; i < BOARD_SPACES; ++i) {
            if (!in(board[i], 0, cfg.tiles_len)) return false;
            tiles_left += board[i] != 0;
        }
        for (int i = 0; i < pile_len; ++i)
            if (!in(pile[i], 1, cfg.tiles_len)) return false;
        for (int i = 0; i < burnt_len; ++i)
            if (!in(burnt[i], 1, cfg.tiles_len)) return false;
        for (int side = 0; side < cfg.sides; ++side) tiles_left += built_len[side];
        if (tiles_left > MAX_TILES) return false;
        if (((last_cells | taxed) & ~spans().valid).any()) return false;
        if (phase == DRAFT && draft_pos >= draft_len) return false;
        if (phase == PLAY && (!in(acting, 0, cur_len - 1) || cur_owner[acting] < 0)) return false;
        for (int s = 0; s < cfg.sides; ++s) {
            if (!in(built_len[s], 0, MAX_TILES)) return false;
            for (int i = 0; i < built_len[s]; ++i)
                if (!in(built_tile[s][i], 1, cfg.tiles_len) || !in(built_cell[s][i], 0, CELLS - 1)) return false;
            const Kingdom &k = kingdoms[s];
            if (!in(k.minr, 0, SIZE - 1) || !in(k.maxr, 0, SIZE - 1) || !in(k.minc, 0, SIZE - 1) ||
                !in(k.maxc, 0, SIZE - 1) || k.minr > k.maxr || k.minc > k.maxc)
                return false;
            Board all = k.occ | built_cells[s] | knight_cells[s];
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

    // Game.legal_indices, in its order: claims in the first draft; placements (by direction,
    // then cell) or the forced discard in step A; else knights, builds (by space, then town
    // square), the Dragon's spaces, then the claims or the pass.
    int legal(int seat, int *out) const {
        if (phase == OVER || seat != to_act()) return 0;
        int n = 0;
        if (phase == DRAFT) {
            for (int i = 0; i < nxt_len; ++i)
                if (nxt_owner[i] < 0) out[n++] = CLAIM_BASE + nxt[i] - 1;
            return n;
        }
        const int side = cfg.side_of[seat];
        const Kingdom &k = kingdoms[side];
        if (step == PLACE) {
            const Domino &dom = cfg.dom[cur[acting]];
            Board masks[4];
            placement_masks(k, dom.t1, dom.t2, cfg.frame, masks);
            for (int d = 0; d < 4; ++d)
                masks[d].each([&](int row, int col) { out[n++] = (py_cell(row, col) << 2) | d; });
            if (n == 0) out[n++] = DISCARD_INDEX;
            return n;
        }
        const int money = coins[side];
        if (step == TAX && knights[side])
            (last_cells & ~taxed).each([&](int row, int col) { out[n++] = KNIGHT_BASE + py_cell(row, col); });
        if (step <= BUILD) {
            const Board free = k.terr[TOWN] & ~built_cells[side];
            if (free.any()) {
                int cells[CELLS], m = 0;
                free.each([&](int row, int col) { cells[m++] = py_cell(row, col); });
                const int discount = queen == side ? 1 : 0;
                for (int price = 0; price < BOARD_SPACES; ++price)
                    if (board[price] && price - discount <= money)
                        for (int j = 0; j < m; ++j) out[n++] = BUILD_BASE + price * CELLS + cells[j];
            }
        }
        if (step <= DRAGON && dragon < 0 && queen != side && money >= DRAGON_COST)
            for (int price = 0; price < BOARD_SPACES; ++price)
                if (board[price]) out[n++] = DRAGON_BASE + price;
        if (nxt_len) {
            for (int i = 0; i < nxt_len; ++i)
                if (nxt_owner[i] < 0) out[n++] = CLAIM_BASE + nxt[i] - 1;
        } else {
            out[n++] = PASS_INDEX;
        }
        return n;
    }

    // Game.apply_legal by index: trusts that `index` is legal for the seat to act.
    void apply(int index) {
        const int seat = to_act();
        ++ply;
        if (phase == DRAFT) {
            claim(seat, index);
            if (++draft_pos == draft_len) next_round();
            return;
        }
        const int side = cfg.side_of[seat];
        if (step == PLACE) {
            const int n = cur[acting];
            if (index == DISCARD_INDEX) {
                discarded[discarded_len++] = static_cast<int8_t>(n);
                last_cells = Board{};
            } else {
                const int cell = index >> 2, d = index & 3;
                const int row = cell / PY_STRIDE, col = cell % PY_STRIDE;
                place(kingdoms[side], row, col, d, cfg.dom[n]);
                last_cells = Board::bit(row, col) | Board::bit(row + DROW[d], col + DCOL[d]);
            }
            step = TAX;
            return;
        }
        if (index >= CLAIM_BASE && index < PASS_INDEX) {
            claim(seat, index);
            end_turn();
        } else if (index >= KNIGHT_BASE && index < DRAGON_BASE) {
            collect_tax(side, index - KNIGHT_BASE);
        } else if (index >= BUILD_BASE) {
            const int space = (index - BUILD_BASE) / CELLS;
            build(side, space, (index - BUILD_BASE) % CELLS);
            step = DRAGON;
        } else if (index >= DRAGON_BASE) {
            const int space = index - DRAGON_BASE;
            coins[side] = static_cast<int16_t>(coins[side] - DRAGON_COST);
            burnt[burnt_len++] = board[space];
            board[space] = 0;
            dragon = static_cast<int8_t>(space);
            step = CLAIM;
        } else {
            end_turn();  // the pass
        }
    }

    void claim(int seat, int index) {
        const int n = index - CLAIM_BASE + 1;
        for (int i = 0; i < nxt_len; ++i)
            if (nxt[i] == n) nxt_owner[i] = static_cast<int8_t>(seat);
    }

    // rules.tax_bonus: what the '+coin' buildings pay at one collection.
    int tax_bonus(int side) const {
        const int all_knights = knights[side] + knight_cells[side].count();
        int bonus = 0;
        for (int i = 0; i < built_len[side]; ++i) {
            const Tile &t = cfg.tiles[built_tile[side][i] - 1];
            bonus += t.coin_per_knight * all_knights + t.coin_per_tower * towers[side];
        }
        return bonus;
    }

    // rules.collect_tax: the territory's size, plus the buildings' bonus (once a turn when
    // the tax_bonus option says per_turn).
    void collect_tax(int side, int cell) {
        const Kingdom &k = kingdoms[side];
        const Board bit = cell_bit(cell);
        const bool first = !taxed.any();
        knights[side] = static_cast<int16_t>(knights[side] - 1);
        knight_cells[side] |= bit;
        taxed |= bit;
        int gain = 0;
        for (int t = 0; t < TERRAINS; ++t)
            if ((k.terr[t] & bit).any()) {
                gain = flood(bit, k.terr[t]).count();
                break;
            }
        if (first || !cfg.tax_per_turn) gain += tax_bonus(side);
        coins[side] = static_cast<int16_t>(coins[side] + gain);
    }

    // rules.build: pay (the Queen's discount, never below 0), build, take knights and towers.
    void build(int side, int space, int cell) {
        const int tile_id = board[space];
        const Tile &tile = cfg.tiles[tile_id - 1];
        const int price = queen == side ? std::max(space - 1, 0) : space;
        coins[side] = static_cast<int16_t>(coins[side] - price);
        board[space] = 0;
        built_tile[side][built_len[side]] = static_cast<uint8_t>(tile_id);
        built_cell[side][built_len[side]] = static_cast<uint8_t>(cell);
        ++built_len[side];
        const Board bit = cell_bit(cell);
        built_cells[side] |= bit;
        if (tile.crowns) kingdoms[side].crown[tile.crowns - 1] |= bit;
        knights[side] = static_cast<int16_t>(knights[side] + tile.knights);
        if (tile.towers) {  // rules.gain_towers: the Queen goes to whoever then has the most
            towers[side] = static_cast<int16_t>(towers[side] + tile.towers);
            bool most = true;
            for (int s = 0; s < cfg.sides; ++s) most = most && towers[side] >= towers[s];
            if (most) queen = static_cast<int8_t>(side);
        }
    }

    void end_turn() {
        step = PLACE;
        last_cells = Board{};
        taxed = Board{};
        if (!next_king()) next_round();
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

    // rules.next_round (draft.turn_line, then refresh_board after a round of play), or the end.
    void next_round() {
        if (!nxt_len) {
            phase = OVER;
            step = PLACE;
            return;
        }
        const bool playing = phase == PLAY;
        for (int i = 0; i < nxt_len; ++i)
            if (nxt_owner[i] < 0) discarded[discarded_len++] = nxt[i];
        cur_len = nxt_len;
        std::memcpy(cur, nxt, sizeof cur);
        std::memcpy(cur_owner, nxt_owner, sizeof cur_owner);
        if (deck_pos < deck_len) {
            nxt_len = cfg.line_size;
            std::memcpy(nxt, deck + deck_pos, static_cast<size_t>(nxt_len));
            std::sort(nxt, nxt + nxt_len);
            for (int i = 0; i < nxt_len; ++i) nxt_owner[i] = -1;
            deck_pos = static_cast<int8_t>(deck_pos + nxt_len);
            ++lines_drawn;
        } else {
            nxt_len = 0;
        }
        phase = PLAY;
        ++round;
        int i = 0;
        while (cur_owner[i] < 0) ++i;
        acting = static_cast<int8_t>(i);
        if (playing) refresh_board();
        step = PLACE;
    }

    // rules.refresh_board: the Dragon goes home, tiles slide to the cheap end, the pile refills.
    void refresh_board() {
        dragon = -1;
        int8_t tiles[BOARD_SPACES] = {};
        int m = 0;
        for (int i = 0; i < BOARD_SPACES; ++i)
            if (board[i]) tiles[m++] = board[i];
        while (m < BOARD_SPACES && pile_pos < pile_len) tiles[m++] = pile[pile_pos++];
        std::memcpy(board, tiles, sizeof board);
    }

    // scoring.side_breakdown's total: territories (the Queen's crown on the largest), wealth
    // and every building's symbol.
    int side_score(int side) const {
        const Kingdom &k = kingdoms[side];
        int total = territory_points(k) + coins[side] / COINS_PER_POINT;
        if (queen == side) total += largest_territory(k);
        const int all_knights = knights[side] + knight_cells[side].count();
        for (int i = 0; i < built_len[side]; ++i) {
            const Tile &t = cfg.tiles[built_tile[side][i] - 1];
            total += t.points + t.per_tower * towers[side] + t.per_knight * all_knights;
            if (t.per_territory) total += t.per_territory * territories(k.terr[t.terrain]);
        }
        return total;
    }

    void scores_now(int *out) const {
        int per_side[MAX_SEATS];
        for (int s = 0; s < cfg.sides; ++s) per_side[s] = side_score(s);
        for (int p = 0; p < cfg.players; ++p) out[p] = per_side[cfg.side_of[p]];
    }

    // rules.final_outcome: (total, largest territory) per seat, partners sharing their side's,
    // competition ranks.
    Outcome outcome() const {
        Outcome o;
        o.players = cfg.players;
        int total[MAX_SEATS], largest[MAX_SEATS];
        for (int s = 0; s < cfg.sides; ++s) {
            total[s] = side_score(s);
            largest[s] = largest_territory(kingdoms[s]);
        }
        for (int p = 0; p < cfg.players; ++p) {
            o.scores[p] = total[cfg.side_of[p]];
            o.largest[p] = largest[cfg.side_of[p]];
        }
        for (int p = 0; p < cfg.players; ++p) {
            int rank = 1;
            for (int q = 0; q < cfg.players; ++q)
                rank += (o.scores[q] > o.scores[p] ||
                         (o.scores[q] == o.scores[p] && o.largest[q] > o.largest[p]));
            o.ranks[p] = rank;
        }
        return o;
    }
};

static_assert(std::has_unique_object_representations_v<State>,
              "State has padding: snapshots would hold undefined bytes");

// ---- the RL observation ---------------------------------------------------------------------
// observation.py's Encoder, value for value (float32, the same layout, the same roundings):
// seat, phase, step, round, the undrawn count per box, the first draft, both lines, discards,
// the builders' board, the Dragon, the pile's count, burnt tiles, the Queen, each side's
// treasury, knights, towers, score and buildings, each side's kingdom window (7 terrains,
// crowns / 3, knights, buildings), and the acting side's new domino and taxed squares. Sides
// are relative to the observer's; nothing hidden is read (never the piles' order).
struct Observation {
    static constexpr int TILES = MAX_TILES, DFEAT = 1 + 2 * TERRAINS + 2, PLANES = TERRAINS + 3;
    int n, sides, order_len, line_size, slot, lo, width, cells, rounds;
    int o_seat, o_phase, o_step, o_round, o_deck, o_order, o_pos, o_cur, o_next, o_disc;
    int o_board, o_dragon, o_pile, o_burnt, o_queen, o_side, o_built, o_kingdoms, o_turn;
    int plane_size, size;

    explicit Observation(const Config &c) {
        n = c.players;
        sides = c.sides;
        order_len = c.players * c.kings_per_player;
        line_size = c.line_size;
        slot = 1 + DFEAT + n + 1;
        lo = HALF - (c.frame - 1);
        width = 2 * c.frame - 1;
        cells = width * width;
        rounds = c.total_dominoes() / c.line_size;
        int at = 0;
        auto add = [&at](int count) { const int start = at; at += count; return start; };
        o_seat = add(n);
        o_phase = add(3);
        o_step = add(5);
        o_round = add(1);
        o_deck = add(2);
        o_order = add(order_len * n);
        o_pos = add(order_len + 1);
        o_cur = add(line_size * slot);
        o_next = add(line_size * slot);
        o_disc = add(MAX_ID);
        o_board = add(BOARD_SPACES * (TILES + 1));
        o_dragon = add(BOARD_SPACES + 1);
        o_pile = add(1);
        o_burnt = add(TILES);
        o_queen = add(sides + 1);
        o_side = add(sides * 5);
        o_built = add(sides * TILES);
        plane_size = PLANES * cells;
        o_kingdoms = add(sides * plane_size);
        o_turn = add(2 * cells);
        size = at;
    }

    static int mod(int a, int m) { return ((a % m) + m) % m; }
    static float unit(int x, double scale) {
        const double v = x / scale;
        return static_cast<float>(v < 0 ? 0.0 : v > 1 ? 1.0 : v);
    }

    void line(float *buf, int o, const Config &cfg, const int8_t *dominoes, const int8_t *owners,
              int len, int seat, int acting) const {
        for (int i = 0; i < len && i < line_size; ++i) {
            float *f = buf + o + i * slot;
            const int number = dominoes[i];
            const Domino &d = cfg.dom[number];
            f[0] = 1.0f;
            f[1] = static_cast<float>(number / static_cast<double>(MAX_ID));
            f[2 + d.t1] = 1.0f;
            f[2 + TERRAINS + d.t2] = 1.0f;
            f[2 + 2 * TERRAINS] = static_cast<float>(d.c1 / 3.0);
            f[3 + 2 * TERRAINS] = static_cast<float>(d.c2 / 3.0);
            if (owners[i] >= 0) f[1 + DFEAT + mod(owners[i] - seat, n)] = 1.0f;
            if (i == acting) f[slot - 1] = 1.0f;
        }
    }

    void plane(float *buf, const Board &b) const {
        b.each([&](int row, int col) {
            if (row >= lo && row < lo + width && col >= lo && col < lo + width)
                buf[(row - lo) * width + (col - lo)] = 1.0f;
        });
    }

    void fill(const State &s, int seat, float *buf) const {
        const Config &cfg = s.cfg;
        std::memset(buf, 0, sizeof(float) * static_cast<size_t>(size));
        buf[o_seat + seat] = 1.0f;
        buf[o_phase + s.phase] = 1.0f;
        buf[o_round] = static_cast<float>(s.round / static_cast<double>(rounds));
        if (s.phase != OVER) buf[o_step + s.step] = 1.0f;
        const int left = s.deck_len - s.deck_pos;
        int queen_box = left;
        if (cfg.royal_wedding) {
            queen_box = 0;
            for (int i = s.deck_pos; i < s.deck_len; ++i) queen_box += s.deck[i] <= BOX;
        }
        buf[o_deck] = static_cast<float>(queen_box / 48.0);
        buf[o_deck + 1] = static_cast<float>((left - queen_box) / 48.0);
        if (s.phase == DRAFT) {
            for (int k = 0; k < s.draft_len; ++k) buf[o_order + k * n + mod(s.draft_order[k] - seat, n)] = 1.0f;
            buf[o_pos + s.draft_pos] = 1.0f;
        }
        line(buf, o_cur, cfg, s.cur, s.cur_owner, s.cur_len, seat, s.phase == PLAY ? s.acting : -1);
        line(buf, o_next, cfg, s.nxt, s.nxt_owner, s.nxt_len, seat, -1);
        for (int i = 0; i < s.discarded_len; ++i) buf[o_disc - 1 + s.discarded[i]] = 1.0f;
        const int mine = cfg.side_of[seat];
        for (int space = 0; space < BOARD_SPACES; ++space)
            buf[o_board + space * (TILES + 1) + (s.board[space] ? s.board[space] - 1 : TILES)] = 1.0f;
        buf[o_dragon + (s.dragon >= 0 ? s.dragon : BOARD_SPACES)] = 1.0f;
        buf[o_pile] = static_cast<float>((s.pile_len - s.pile_pos) / static_cast<double>(TILES));
        for (int i = 0; i < s.burnt_len; ++i) buf[o_burnt + s.burnt[i] - 1] = 1.0f;
        buf[o_queen + (s.queen >= 0 ? mod(s.queen - mine, sides) : sides)] = 1.0f;
        for (int r = 0; r < sides; ++r) {
            const int side = (mine + r) % sides;
            float *o = buf + o_side + 5 * r;
            o[0] = unit(s.coins[side], 30);
            o[1] = unit(s.knights[side], 10);
            o[2] = unit(s.towers[side], 10);
            o[3] = r == 0 ? 1.0f : 0.0f;
            o[4] = unit(s.side_score(side), 100);
            for (int i = 0; i < s.built_len[side]; ++i) buf[o_built + r * TILES + s.built_tile[side][i] - 1] = 1.0f;
            float *k = buf + o_kingdoms + r * plane_size;
            const Kingdom &g = s.kingdoms[side];
            for (int t = 0; t < TERRAINS; ++t) plane(k + t * cells, g.terr[t]);
            const Board crowned = g.crown[0] | g.crown[1] | g.crown[2];
            crowned.each([&](int row, int col) {
                if (row >= lo && row < lo + width && col >= lo && col < lo + width) {
                    const int c = g.crown[0].test(row, col) + 2 * g.crown[1].test(row, col) +
                                  3 * g.crown[2].test(row, col);
                    k[TERRAINS * cells + (row - lo) * width + (col - lo)] = static_cast<float>(c) / 3.0f;
                }
            });
            plane(k + (TERRAINS + 1) * cells, s.knight_cells[side]);
            plane(k + (TERRAINS + 2) * cells, s.built_cells[side]);
        }
        plane(buf + o_turn, s.last_cells);
        plane(buf + o_turn + cells, s.taxed);
    }
};

enum Policy : int { RANDOM = 0 };

// What a playout tells about each move before applying it: nothing, unless a caller listens.
struct Quiet {
    void operator()(const State &, int) const {}
};

// Plays the match out, every seat choosing uniformly among the legal indices from `rng`;
// `listen` sees the state and the index before each move.
template <typename Listen = Quiet>
inline void playout(State &s, Rng &rng, Listen &&listen = Listen{}) {
    int legal[MAX_LEGAL];
    while (s.phase != OVER) {
        const int n = s.legal(s.to_act(), legal);
        if (n == 0) throw std::invalid_argument("no legal action: the state is inconsistent");
        const int index = legal[rng.below(static_cast<uint64_t>(n))];
        listen(static_cast<const State &>(s), index);
        s.apply(index);
    }
}

}  // namespace ludoteca::queendomino
