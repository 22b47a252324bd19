/* Awéthi's compiled kernel: random games, self-play moves and legal moves in C.
 *
 * The readable statement of these rules is the Python engine (engine.py and the modules
 * it hands each turn to); this file does the same work faster and is held to it by
 * tests/rules/test_kernel_awethi.py (every option and seat count: the legal moves at
 * every position of the samples and of random games, random games played both ways).
 * A Board is one engine: its map's terrain, its seats and its Catch option.  How each
 * part maps to the Python engine:
 *
 *   herd_turn        position.Table.herd_walks + turns.apply_herd
 *   sboard_begin     shepherds.ShepherdsBoard (shepherds.begin_turn, Table.completion)
 *   walks            ShepherdsBoard.all_walks / walks (the same search order)
 *   build            building.build_shepherds (with a generator: _lean, _may_go_back)
 *   sample_shepherds building.sample_shepherds (_score, values.choose)
 *   end_shepherds    shepherds.end_turn (board_after)
 *   wolf_*           wolves.WolfBoard, sample_wolf, wolf_moves, apply_wolf
 *   play             loops.reference_play (outcome: end.gone_seats)
 *   line             lines.reference_line over engine.resolve and apply: herd_written
 *                    (turns.written_kind, check_dice, read_herd), shepherds_written
 *                    (paths.play_shepherds), wolf_written (wolves.read_wolf)
 *
 * Random numbers are drawn EXACTLY as random.Random draws them: Chance.roll is
 * randint(1, faces) per die, which is 1 + _randbelow(faces); _randbelow(n) is
 * getrandbits(k), k the bit length of n, again while the draw is n or more;
 * choice(seq) is seq[_randbelow(len(seq))]; shuffle(x) swaps x[i] and
 * x[_randbelow(i + 1)] for i from len(x) - 1 down to 1; random() is rng.random().
 * The draws are zrec's shared ../kernel_random.h (it steps a plain random.Random's own
 * state in place, else calls the generator's methods).  So a game played here is the
 * game the Python engine plays from the same generator, draw for draw.
 *
 * A position is an AwethiPosition (a named tuple of 10 fields); squares are numbered
 * as board.py numbers them (rank - 1) * 25 + file.  A position this kernel cannot hold
 * (more than MAXANIMALS animals, a catcher out of the seats) makes a method answer
 * None: the engine then runs its Python code.
 *
 * Methods of Board:
 *   play(pos, rng, max_moves, max_turns) -> (pos, moves, turns, removed, stalled) | None
 *   sample(pos, dice, rng)               -> the self-play move of the roll | None
 *   moves(pos, dice)                     -> the legal moves of the roll | None
 *   line(pos, turns, numbers, dots, i)   -> (j, the position before turns[j]) | None
 *   words(pos, words, bounds, numbers, dots, i) -> the same, each turn read from its
 *                                           words (zrec.moves.WrittenTurns)
 *
 * line plays a written line from turns[i] while each turn is written as it commonly
 * is and is legal (the engine would read it with nothing to say) and its number fits;
 * it stops at the first turn it does not take (j), which the engine then reads itself
 * (engine.play_line): so a turn it is unsure of costs time, never a different answer.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SIZE 25
#define CELLS (SIZE * SIZE)
#define LAIR (12 * SIZE + 12) /* m13 */
#define MAXSEATS 4
#define MAXANIMALS 64
#define MAXWALKS 512 /* paths of amount 4 at most: 256 + 192 + 16 */
#define MAXDIST 6    /* the wolves' distance die */
#define NOT_CAUGHT (-1)

enum { HERD_TURN, SHEPHERDS_TURN, WOLF_TURN };
enum { CALF, COW, BULL };
enum { N, NE, E, SE, S, SW, W, NW };

static const int DF[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int DR[8] = {1, 1, 0, -1, -1, -1, 0, 1};
/* the shelter of each seat: a1, y25, y1, a25 */
static const int CORNERS[4] = {0, CELLS - 1, SIZE - 1, CELLS - SIZE};
/* a shepherd's steps in search order (N, E, S, W, then the diagonals), their costs */
static const int SEARCH[8] = {N, E, S, W, NE, SE, SW, NW};

static int16_t STEP[8][CELLS];    /* the square next to i in direction d, or -1 */
static int16_t ORTH[CELLS][4];    /* the orthogonal neighbours, N E S W, on the board */
static uint8_t NORTH_COUNT[CELLS];
static int16_t AROUND[CELLS][8];  /* the 8 squares around */
/* a shepherd's steps from each square in search order, on the board: the orthogonal
 * ones (cost 1) first, SEARCH_ORTH[i] of them, then the diagonal ones (cost 2) */
static int16_t SEARCH_TO[CELLS][8];
static uint8_t SEARCH_ORTH[CELLS], SEARCH_ALL[CELLS];
static uint8_t NAROUND[CELLS];
static int32_t ORDER[5][3][CELLS]; /* position._move_order(die)[kind][square] */

static PyObject *letter_e, *letter_s;

static inline int file_of(int s) { return s % SIZE; }
static inline int rank_of(int s) { return s / SIZE; }
static uint8_t FILE_OF[CELLS], RANK_OF[CELLS];
static inline int manhattan(int a, int b) {
    return abs(FILE_OF[a] - FILE_OF[b]) + abs(RANK_OF[a] - RANK_OF[b]);
}
static inline int is_corner(int s) {
    return s == 0 || s == SIZE - 1 || s == CELLS - SIZE || s == CELLS - 1;
}

static int herd_direction(int kind, int die) {
    static const int straight[4] = {N, E, S, W}, slant[4] = {NW, NE, SE, SW};
    return kind == COW ? slant[die - 1] : straight[die - 1];
}

static void make_tables(void) {
    for (int i = 0; i < CELLS; i++) {
        FILE_OF[i] = (uint8_t)file_of(i);
        RANK_OF[i] = (uint8_t)rank_of(i);
    }
    for (int d = 0; d < 8; d++)
        for (int i = 0; i < CELLS; i++) {
            int f = file_of(i) + DF[d], r = rank_of(i) + DR[d];
            STEP[d][i] = (int16_t)(0 <= f && f < SIZE && 0 <= r && r < SIZE ? r * SIZE + f : -1);
        }
    static const int orth[4] = {N, E, S, W};
    for (int i = 0; i < CELLS; i++) {
        int k = 0;
        for (int j = 0; j < 4; j++)
            if (STEP[orth[j]][i] >= 0) ORTH[i][k++] = STEP[orth[j]][i];
        NORTH_COUNT[i] = (uint8_t)k;
        k = 0;
        for (int d = 0; d < 8; d++)
            if (STEP[d][i] >= 0) AROUND[i][k++] = STEP[d][i];
        NAROUND[i] = (uint8_t)k;
        k = 0;
        for (int j = 0; j < 8; j++) {
            if (j == 4) SEARCH_ORTH[i] = (uint8_t)k;
            if (STEP[SEARCH[j]][i] >= 0) SEARCH_TO[i][k++] = STEP[SEARCH[j]][i];
        }
        SEARCH_ALL[i] = (uint8_t)k;
    }
    for (int die = 1; die <= 4; die++)
        for (int kind = 0; kind < 3; kind++) {
            int dir = herd_direction(kind, die);
            for (int s = 0; s < CELLS; s++) {
                int ahead = DF[dir] * file_of(s) + DR[dir] * rank_of(s);
                int kind_order = 2 - kind; /* bulls, then cows, then calves */
                ORDER[die][kind][s] =
                    ((kind_order * 128 + 64 - ahead) * 32 + SIZE - 1 - rank_of(s)) * 32 + file_of(s);
            }
        }
}

/* -- positions ------------------------------------------------------------------------ */

typedef struct {
    int16_t sq;
    int8_t owner, kind, catcher;
} Animal;

typedef struct {
    int seat, stage, awake;
    long long group, revealed;
    int16_t shep[MAXSEATS][4];
    int na;
    Animal an[MAXANIMALS];
    int16_t wolves[MAXSEATS];
    long sheltered[MAXSEATS][3], eaten[MAXSEATS][3];
} Pos;

typedef struct {
    PyObject_HEAD
    int n, catcher;
    uint8_t water[CELLS], forest[CELLS], herd_barrier[CELLS], wolf_passable[CELLS];
    PyObject *pos_type, *shepherds_type, *wolf_type, *herd_moves;
} Board;

static void sort_squares(int16_t *xs, int n) {
    for (int i = 1; i < n; i++) {
        int16_t x = xs[i];
        int j = i - 1;
        for (; j >= 0 && xs[j] > x; j--) xs[j + 1] = xs[j];
        xs[j + 1] = x;
    }
}

static void sort_animals(Animal *an, int n) {
    for (int i = 1; i < n; i++) {
        Animal x = an[i];
        int j = i - 1;
        for (; j >= 0 && an[j].sq > x.sq; j--) an[j + 1] = an[j];
        an[j + 1] = x;
    }
}

/* the squares holding a piece, the shelters left out (Table.occupied) */
static void occupied(const Pos *p, int n, uint8_t *occ) {
    memset(occ, 0, CELLS);
    for (int i = 0; i < p->na; i++) occ[p->an[i].sq] = 1;
    for (int k = 0; k < n; k++) {
        if (p->wolves[k] != LAIR) occ[p->wolves[k]] = 1;
        for (int j = 0; j < 4; j++) occ[p->shep[k][j]] = 1;
    }
    for (int k = 0; k < 4; k++) occ[CORNERS[k]] = 0;
}

/* whether some seat has no animal of its own on the board (end.gone_seats) */
static int game_over(const Pos *p, int n) {
    int left[MAXSEATS] = {0};
    for (int i = 0; i < p->na; i++) left[p->an[i].owner]++;
    for (int k = 0; k < n; k++)
        if (!left[k]) return 1;
    return 0;
}

/* -- random numbers, as random.Random draws them ------------------------------------- */

/* The draws of a plain random.Random, exactly as it draws (../kernel_random.h). */
#include "../kernel_random.h"

static int randbelow(Draws *rng, long n, long *out) {
    int64_t v = zrec_randbelow(rng, (uint32_t)n);
    if (v < 0) return -1;
    *out = (long)v;
    return 0;
}

static int random_float(Draws *rng, double *out) {
    double v = zrec_random(rng);
    if (v < 0) return -1;
    *out = v;
    return 0;
}

#define DRIVE 0.8

/* values.choose over n moves (progress may be NULL): the index drawn, -1 for none */
static int choose(Draws *rng, int n, const int *progress, int *out) {
    if (n == 0) {
        *out = -1;
        return 0;
    }
    int kept[CELLS * MAXSEATS];
    int m = n, filtered = 0;
    if (progress) {
        int best = progress[0];
        for (int i = 1; i < n; i++)
            if (progress[i] > best) best = progress[i];
        if (best > 0) {
            double r;
            if (random_float(rng, &r)) return -1;
            if (r < DRIVE) {
                m = 0;
                for (int i = 0; i < n; i++)
                    if (progress[i] == best) kept[m++] = i;
                filtered = 1;
            }
        }
    }
    long i;
    if (randbelow(rng, m, &i)) return -1;
    *out = filtered ? kept[i] : (int)i;
    return 0;
}

/* the roll of a turn (Chance.roll): one randint(1, faces) per die */
static int roll(Draws *rng, int stage, int *dice) {
    static const int faces[3][4] = {{4}, {4, 4, 4, 4}, {4, 6}};
    static const int count[3] = {1, 4, 2};
    for (int i = 0; i < count[stage]; i++) {
        long v;
        if (randbelow(rng, faces[stage][i], &v)) return -1;
        dice[i] = 1 + (int)v;
    }
    return 0;
}

/* -- the herd's turn ------------------------------------------------------------------ */

static void herd_turn(const Board *b, Pos *p, int die) {
    uint8_t occ[CELLS];
    occupied(p, b->n, occ);
    int seat = p->seat, movers[MAXANIMALS], m = 0;
    for (int i = 0; i < p->na; i++)
        if (p->an[i].owner == seat && p->an[i].catcher == NOT_CAUGHT) {
            int key = ORDER[die][p->an[i].kind][p->an[i].sq], j = m - 1;
            for (; j >= 0 && ORDER[die][p->an[movers[j]].kind][p->an[movers[j]].sq] > key; j--)
                movers[j + 1] = movers[j];
            movers[j + 1] = i;
            m++;
        }
    int woke = p->awake ? -2 : -1;
    int16_t ends[MAXANIMALS];
    for (int i = 0; i < p->na; i++) ends[i] = p->an[i].sq;
    for (int j = 0; j < m; j++) {
        const Animal *a = &p->an[movers[j]];
        int start = a->sq, dir = herd_direction(a->kind, die);
        int route[3] = {start, -1, -1}, len = 1;
        occ[start] = 0;
        int here = STEP[dir][start];
        if (here >= 0 && !b->herd_barrier[here]) {
            if (a->kind == CALF) {
                if (!occ[here]) route[len++] = here;
            } else {
                int there = STEP[dir][here];
                if (there >= 0 && !b->herd_barrier[there] && !occ[there]) {
                    route[len++] = here;
                    route[len++] = there;
                } else if (!occ[here]) {
                    route[len++] = here;
                }
            }
        }
        occ[route[len - 1]] = 1;
        if (woke == -1)
            for (int k = 1; k < len; k++)
                if (b->forest[route[k]]) {
                    woke = route[k];
                    break;
                }
        ends[movers[j]] = (int16_t)route[len - 1];
    }
    for (int i = 0; i < p->na; i++) p->an[i].sq = ends[i];
    sort_animals(p->an, p->na);
    p->stage = SHEPHERDS_TURN;
    p->awake = p->awake || woke >= 0;
    p->revealed |= 1LL << seat;
}

/* -- the shepherds' turn -------------------------------------------------------------- */

typedef struct {
    int na, ndone;
    Animal an[MAXANIMALS];   /* on the board after the catches complete or lapse */
    Animal done[MAXANIMALS]; /* the catches that complete */
    uint8_t occ[CELLS]; /* what no shepherd of the seat enters: a piece, the Lair, the
                           other shelters (ShepherdsBoard.occupied and .forbidden) */
    int16_t own[4];
    int shelter, woke;
    int16_t paths[4][5];
    int plen[4], back;
} SBoard;

/* the board as a shepherds' turn begins (ShepherdsBoard.__init__, begin_turn) */
static void sboard_begin(const Board *b, const Pos *p, SBoard *sb) {
    int seat = p->seat, pending = 0;
    for (int i = 0; i < p->na; i++)
        if (p->an[i].catcher == seat) pending = 1;
    sb->na = sb->ndone = 0;
    uint8_t marks[CELLS];
    if (pending) {
        memset(marks, 0, CELLS);
        for (int k = 0; k < b->n; k++)
            for (int j = 0; j < 4; j++) marks[p->shep[k][j]] = 1;
    }
    occupied(p, b->n, sb->occ);
    for (int i = 0; i < p->na; i++) {
        Animal a = p->an[i];
        if (pending && a.catcher == seat) {
            int c = 0;
            for (int j = 0; j < NORTH_COUNT[a.sq]; j++) c += marks[ORTH[a.sq][j]];
            if (c >= 3) {
                sb->done[sb->ndone++] = a;
                sb->occ[a.sq] = 0;
                continue;
            }
            a.catcher = NOT_CAUGHT;
        }
        sb->an[sb->na++] = a;
    }
    sb->occ[LAIR] = 1;
    for (int k = 0; k < 4; k++)
        if (k != seat) sb->occ[CORNERS[k]] = 1;
    memcpy(sb->own, p->shep[seat], sizeof sb->own);
    sb->shelter = CORNERS[seat];
    sb->woke = -1;
    sb->back = 0;
}

/* a shepherd of the seat leaves start, enters path[1..len-1] and stands on end */
static void sboard_move(const Board *b, const Pos *p, SBoard *sb, int start,
                        const int16_t *entered, int nentered, int end) {
    if (start != LAIR && (!is_corner(start) || start == sb->shelter)) sb->occ[start] = 0;
    if (end != sb->shelter) sb->occ[end] = 1;
    for (int j = 0; j < 4; j++)
        if (sb->own[j] == start) {
            sb->own[j] = (int16_t)end;
            break;
        }
    if (sb->woke < 0 && !p->awake)
        for (int k = 0; k < nentered; k++)
            if (b->forest[entered[k]]) {
                sb->woke = entered[k];
                break;
            }
}

typedef struct {
    int16_t sq[5];
} Path;

typedef struct {
    int n, first_only;
    Path path[MAXWALKS];
    uint8_t len[MAXWALKS];
} Walks;

/* every legal path of exactly `left` more from path[len-1] (ShepherdsBoard.all_walks):
 * answers 1 once the first is found when first_only */
static int extend(const Board *b, const SBoard *sb, int leave_water, Path *cur, int len,
                  int left, Walks *out) {
    int16_t *path = cur->sq;
    int here = path[len - 1], steps = left >= 2 ? SEARCH_ALL[here] : SEARCH_ORTH[here];
    for (int k = 0; k < steps; k++) {
        int cost = k < SEARCH_ORTH[here] ? 1 : 2, nxt = SEARCH_TO[here][k];
        if (sb->occ[nxt]) continue; /* occ holds the forbidden squares too */
        int seen = 0;
        for (int j = 0; j < len - 1; j++) /* (a step never comes back to where it is) */
            seen |= path[j] == nxt;
        if (seen) continue;
        path[len] = (int16_t)nxt;
        if (cost == left) {
            if (!(leave_water && b->water[nxt]) && out->n < MAXWALKS) {
                out->path[out->n] = *cur;
                out->len[out->n++] = (uint8_t)(len + 1);
                if (out->first_only) return 1;
            }
        } else if (extend(b, sb, leave_water, cur, len + 1, left - cost, out)) {
            return 1;
        }
    }
    return 0;
}

static void walks(const Board *b, const SBoard *sb, int start, int amount, Walks *out) {
    Path path = {{(int16_t)start}};
    out->n = 0;
    extend(b, sb, b->water[start], &path, 1, amount, out);
}

/* the squares of the shepherds of the other seats and of the seat as moved so far */
static void shepherd_marks(const Board *b, const Pos *p, const SBoard *sb, uint8_t *marks) {
    memset(marks, 0, CELLS);
    for (int k = 0; k < b->n; k++)
        if (k != p->seat)
            for (int j = 0; j < 4; j++) marks[p->shep[k][j]] = 1;
    for (int j = 0; j < 4; j++) marks[sb->own[j]] = 1;
}

/* building._lean: a path drawn leaning towards the animals not caught */
static int lean(const Board *b, const Pos *p, const SBoard *sb, int start, const Walks *w,
                Draws *rng, int *out) {
    uint8_t marks[CELLS];
    shepherd_marks(b, p, sb, marks);
    marks[start] = 0;
    int herd[MAXANIMALS], nh = 0;
    for (int i = 0; i < sb->na; i++)
        if (sb->an[i].catcher == NOT_CAUGHT) herd[nh++] = sb->an[i].sq;
    int16_t cache[CELLS];
    uint8_t known[CELLS];
    memset(known, 0, CELLS);
    int progress[MAXWALKS], here = 0;
    for (int i = -1; i < w->n; i++) {
        int square = i < 0 ? start : w->path[i].sq[w->len[i] - 1];
        if (!known[square]) {
            int best = -99;
            for (int h = 0; h < nh; h++) {
                int a = herd[h], v, d = manhattan(square, a);
                if (d == 1) {
                    int c = 0;
                    for (int j = 0; j < NORTH_COUNT[a]; j++) {
                        int s = ORTH[a][j];
                        if (marks[s] && s != square) c++;
                    }
                    v = 10 + 10 * c;
                } else {
                    v = -d;
                }
                if (v > best) best = v;
            }
            cache[square] = (int16_t)best;
            known[square] = 1;
        }
        if (i < 0) here = cache[square];
        else progress[i] = cache[square] - here;
    }
    return choose(rng, w->n, progress, out);
}

/* building._may_go_back: now and then a stuck shepherd goes home */
static int may_go_back(const SBoard *sb, int start, Draws *rng, int *out) {
    *out = 0;
    if (start == sb->shelter) return 0;
    double r;
    if (random_float(rng, &r)) return -1;
    if (r >= 0.3) return 0;
    for (int i = 0; i < sb->na; i++)
        if (sb->an[i].catcher == NOT_CAUGHT && manhattan(start, sb->an[i].sq) == 1) return 0;
    *out = 1;
    return 0;
}

/* building.build_shepherds: rng NULL for the engine's first legal form */
static int build(const Board *b, const Pos *p, const int *dice, int option_s, Draws *rng,
                 SBoard *sb, Walks *w) {
    int amounts[4];
    int sum = dice[0] + dice[1] + dice[2] + dice[3];
    for (int i = 0; i < 4; i++) amounts[i] = option_s ? sum / 4 : dice[i];
    sboard_begin(b, p, sb);
    int16_t order[4];
    memcpy(order, sb->own, sizeof order);
    sort_squares(order, 4);
    if (rng)
        for (int i = 3; i >= 1; i--) {
            long j;
            if (randbelow(rng, i + 1, &j)) return -1;
            int16_t x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
    w->first_only = rng == NULL;
    for (int i = 0; i < 4; i++) {
        int start = order[i];
        walks(b, sb, start, amounts[i], w);
        int16_t *path = sb->paths[i];
        if (w->n) {
            int k = 0;
            if (rng && lean(b, p, sb, start, w, rng, &k)) return -1;
            memcpy(path, w->path[k].sq, w->len[k] * sizeof(int16_t));
            sb->plen[i] = w->len[k];
            sboard_move(b, p, sb, start, path + 1, sb->plen[i] - 1, path[sb->plen[i] - 1]);
        } else {
            int back = b->water[start];
            if (!back && rng) {
                int go;
                if (may_go_back(sb, start, rng, &go)) return -1;
                back = go;
            }
            path[0] = (int16_t)start;
            sb->plen[i] = 1;
            if (back) {
                path[1] = (int16_t)sb->shelter;
                sb->plen[i] = 2;
                sb->back |= 1 << i;
            }
            sboard_move(b, p, sb, start, NULL, 0, path[sb->plen[i] - 1]);
        }
    }
    return 0;
}

/* building._score: catches made and animals flanked by two */
static int score(const Board *b, const Pos *p, const SBoard *sb) {
    uint8_t marks[CELLS];
    shepherd_marks(b, p, sb, marks);
    int total = 0;
    for (int i = 0; i < sb->na; i++) {
        const Animal *a = &sb->an[i];
        if (a->catcher != NOT_CAUGHT) continue;
        int c = 0;
        for (int j = 0; j < NORTH_COUNT[a->sq]; j++) c += marks[ORTH[a->sq][j]];
        total += c >= 3 ? 10 : c == 2 ? 1 : 0;
    }
    return total;
}

/* building.sample_shepherds: one turn built under each option, one of them chosen */
static int sample_shepherds(const Board *b, const Pos *p, const int *dice, Draws *rng,
                            SBoard *built, Walks *w, int *chosen) {
    for (int o = 0; o < 2; o++)
        if (build(b, p, dice, o, rng, &built[o], w)) return -1;
    int scores[2] = {score(b, p, &built[0]), score(b, p, &built[1])};
    int least = scores[0] < scores[1] ? scores[0] : scores[1];
    int progress[2] = {scores[0] - least, scores[1] - least};
    return choose(rng, 2, progress, chosen);
}

/* shepherds.end_turn: catches settled, the seat's shepherds placed, new catches made */
static void end_shepherds(const Board *b, Pos *p, const SBoard *sb) {
    int seat = p->seat;
    for (int i = 0; i < sb->ndone; i++) {
        const Animal *a = &sb->done[i];
        int home = b->catcher ? a->catcher : a->owner;
        p->sheltered[home][a->kind]++;
    }
    int awake = p->awake || sb->woke >= 0;
    uint8_t marks[CELLS];
    shepherd_marks(b, p, sb, marks);
    p->na = sb->na;
    for (int i = 0; i < sb->na; i++) {
        Animal a = sb->an[i];
        if (a.catcher == NOT_CAUGHT) {
            int c = 0;
            for (int j = 0; j < NORTH_COUNT[a.sq]; j++) c += marks[ORTH[a.sq][j]];
            if (c >= 3) a.catcher = (int8_t)seat;
        }
        p->an[i] = a;
    }
    memcpy(p->shep[seat], sb->own, sizeof sb->own);
    sort_squares(p->shep[seat], 4);
    p->awake = awake;
    if (awake) {
        p->stage = WOLF_TURN;
    } else {
        p->seat = (seat + 1) % b->n;
        p->stage = HERD_TURN;
        p->group++;
    }
}

/* -- the wolf turn -------------------------------------------------------------------- */

typedef struct {
    uint8_t shep[CELLS];  /* a shepherd stands here */
    int8_t animal[CELLS]; /* the index of the animal here, or -1 */
    uint8_t wolf[CELLS];
    int herd[MAXANIMALS], nh; /* squares of the animals not caught */
    int starts[MAXSEATS], nstarts;
    uint8_t in[MAXDIST + 1][CELLS]; /* the layers of one wolf */
    int16_t list[MAXDIST + 1][CELLS];
    int nlist[MAXDIST + 1];
    uint8_t alive[MAXDIST + 1][CELLS]; /* wolf_moves: the squares an end is reached from */
    int16_t opt_start[MAXSEATS * CELLS], opt_end[MAXSEATS * CELLS]; /* sample_wolf */
    int progress[MAXSEATS * CELLS];
} WolfBoard;

static void wolf_board(const Board *b, const Pos *p, WolfBoard *wb) {
    memset(wb->shep, 0, CELLS);
    memset(wb->animal, -1, CELLS);
    memset(wb->wolf, 0, CELLS);
    for (int k = 0; k < b->n; k++)
        for (int j = 0; j < 4; j++) wb->shep[p->shep[k][j]] = 1;
    wb->nh = 0;
    for (int i = 0; i < p->na; i++) {
        wb->animal[p->an[i].sq] = (int8_t)i;
        if (p->an[i].catcher == NOT_CAUGHT) wb->herd[wb->nh++] = p->an[i].sq;
    }
    wb->nstarts = 0;
    for (int k = 0; k < b->n; k++) {
        int s = p->wolves[k];
        if (!wb->wolf[s]) wb->starts[wb->nstarts++] = s;
        wb->wolf[s] = 1;
    }
    for (int i = 1; i < wb->nstarts; i++) { /* sorted(set(wolves)) */
        int x = wb->starts[i], j = i - 1;
        for (; j >= 0 && wb->starts[j] > x; j--) wb->starts[j + 1] = wb->starts[j];
        wb->starts[j + 1] = x;
    }
}

/* WolfBoard.layers: the squares a wolf on start can stand on after 0..n steps */
static void layers(const Board *b, WolfBoard *wb, int start, int n) {
    memset(wb->in, 0, sizeof wb->in[0] * (size_t)(n + 1));
    wb->in[0][start] = 1;
    wb->list[0][0] = (int16_t)start;
    wb->nlist[0] = 1;
    for (int k = 1; k <= n; k++) {
        int m = 0;
        for (int i = 0; i < wb->nlist[k - 1]; i++) {
            int a = wb->list[k - 1][i];
            for (int j = 0; j < NORTH_COUNT[a]; j++) {
                int s = ORTH[a][j];
                if (b->wolf_passable[s] && !wb->shep[s] && !wb->in[k][s]) {
                    wb->in[k][s] = 1;
                    wb->list[k][m++] = (int16_t)s;
                }
            }
        }
        wb->nlist[k] = m;
    }
}

static int further(int start, int end, int direction) {
    switch (direction) {
    case 1: return rank_of(end) > rank_of(start);
    case 2: return file_of(end) > file_of(start);
    case 3: return rank_of(end) < rank_of(start);
    default: return file_of(end) < file_of(start);
    }
}

/* WolfBoard.end_problem is "": the wolf may end there */
static int may_end(const Pos *p, const WolfBoard *wb, int start, int end, int direction) {
    if (!further(start, end, direction)) return 0;
    if (wb->animal[end] >= 0) return p->an[(int)wb->animal[end]].catcher == NOT_CAUGHT;
    if (end != LAIR && wb->wolf[end]) return 0;
    for (int j = 0; j < NAROUND[end]; j++)
        if (wb->shep[AROUND[end][j]]) return 0;
    return 1;
}

/* WolfBoard.ends: the squares of the last layer the wolf may end on, ascending */
static int wolf_ends(const Pos *p, WolfBoard *wb, int start, int dir, int dist, int16_t *ends) {
    int m = 0;
    const uint8_t *last = wb->in[dist];
    for (int s = 0; s < CELLS; s++)
        if (last[s] && may_end(p, wb, start, s, dir)) ends[m++] = (int16_t)s;
    return m;
}

static int near(const WolfBoard *wb, int square) {
    if (!wb->nh) return 0;
    int best = manhattan(square, wb->herd[0]);
    for (int i = 1; i < wb->nh; i++) {
        int d = manhattan(square, wb->herd[i]);
        if (d < best) best = d;
    }
    return best;
}

/* wolves.sample_wolf: the path (npath 0: the pass) */
static int sample_wolf(const Board *b, const Pos *p, int dir, int dist, Draws *rng,
                       WolfBoard *wb, int16_t *path, int *npath) {
    wolf_board(b, p, wb);
    int16_t *opt_start = wb->opt_start, *opt_end = wb->opt_end;
    int *progress = wb->progress;
    int16_t ends[CELLS];
    int m = 0;
    for (int k = 0; k < wb->nstarts; k++) {
        int start = wb->starts[k];
        layers(b, wb, start, dist);
        int ne = wolf_ends(p, wb, start, dir, dist, ends), here = near(wb, start);
        for (int i = 0; i < ne; i++) {
            opt_start[m] = (int16_t)start;
            opt_end[m] = ends[i];
            progress[m++] = wb->animal[ends[i]] >= 0 ? 100 : here - near(wb, ends[i]);
        }
    }
    int chosen;
    if (choose(rng, m, progress, &chosen)) return -1;
    if (chosen < 0) {
        *npath = 0;
        return 0;
    }
    int start = opt_start[chosen], here = opt_end[chosen];
    layers(b, wb, start, dist);
    path[dist] = (int16_t)here;
    for (int k = dist - 1; k >= 0; k--) { /* WolfBoard.path_to with a generator */
        int before[4], nb = 0;
        for (int j = 0; j < NORTH_COUNT[here]; j++)
            if (wb->in[k][ORTH[here][j]]) before[nb++] = ORTH[here][j];
        long i;
        if (randbelow(rng, nb, &i)) return -1;
        here = before[i];
        path[k] = (int16_t)here;
    }
    *npath = dist + 1;
    return 0;
}

/* wolves.apply_wolf: answers the animals eaten */
static int apply_wolf(const Board *b, Pos *p, const int16_t *path, int npath) {
    int eaten = 0;
    if (npath) {
        int start = path[0], end = path[npath - 1];
        for (int k = 0; k < b->n; k++)
            if (p->wolves[k] == start) {
                p->wolves[k] = (int16_t)end;
                break;
            }
        sort_squares(p->wolves, b->n);
        for (int i = 0; i < p->na; i++)
            if (p->an[i].sq == end) {
                p->eaten[p->an[i].owner][p->an[i].kind]++;
                memmove(&p->an[i], &p->an[i + 1], (size_t)(p->na - i - 1) * sizeof(Animal));
                p->na--;
                eaten = 1;
                break;
            }
    }
    p->seat = (p->seat + 1) % b->n;
    p->stage = HERD_TURN;
    p->group++;
    return eaten;
}

/* -- Python values -------------------------------------------------------------------- */

/* an error reading a number: -1, or 1 (not held) for a number too large for C */
static int read_failed(void) {
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
    PyErr_Clear();
    return 1;
}

static int read_int(PyObject *x, long lo, long hi, long *out) {
    long v = PyLong_AsLong(x);
    if (v == -1 && PyErr_Occurred()) return read_failed();
    *out = v;
    return lo <= v && v <= hi ? 0 : 1;
}

static int read_long_long(PyObject *x, long long *out) {
    *out = PyLong_AsLongLong(x);
    return *out == -1 && PyErr_Occurred() ? read_failed() : 0;
}

/* fields of a squares tuple into xs; answers -1 on an error, 1 when out of reach */
static int read_squares(PyObject *t, int16_t *xs, Py_ssize_t count) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != count) return 1;
    for (Py_ssize_t i = 0; i < count; i++) {
        long v;
        int r = read_int(PyTuple_GET_ITEM(t, i), 0, CELLS - 1, &v);
        if (r) return r;
        xs[i] = (int16_t)v;
    }
    return 0;
}

static int read_counts(PyObject *t, long *counts) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3) return 1;
    for (int i = 0; i < 3; i++) {
        int r = read_int(PyTuple_GET_ITEM(t, i), 0, 1L << 30, &counts[i]);
        if (r) return r;
    }
    return 0;
}

/* an AwethiPosition into p: -1 on an error, 1 for a position this kernel cannot hold */
static int read_pos(const Board *b, PyObject *obj, Pos *p) {
    int n = b->n, r;
    long v;
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 10) {
        PyErr_SetString(PyExc_TypeError, "an AwethiPosition is a tuple of 10 fields");
        return -1;
    }
    PyObject *f[10];
    for (int i = 0; i < 10; i++) f[i] = PyTuple_GET_ITEM(obj, i);
    if ((r = read_int(f[0], 0, n - 1, &v))) return r;
    p->seat = (int)v;
    if ((r = read_int(f[1], 0, 2, &v))) return r;
    p->stage = (int)v;
    if ((r = read_long_long(f[2], &p->group))) return r;
    if (p->group >= (1LL << 62)) return 1; /* (one more group must fit) */
    if ((r = PyObject_IsTrue(f[3])) < 0) return -1;
    p->awake = r;
    if ((r = read_long_long(f[4], &p->revealed))) return r;
    if (!PyTuple_Check(f[5]) || PyTuple_GET_SIZE(f[5]) != n) return 1;
    for (int k = 0; k < n; k++)
        if ((r = read_squares(PyTuple_GET_ITEM(f[5], k), p->shep[k], 4))) return r;
    if (!PyTuple_Check(f[6]) || PyTuple_GET_SIZE(f[6]) > MAXANIMALS) return 1;
    p->na = (int)PyTuple_GET_SIZE(f[6]);
    for (int i = 0; i < p->na; i++) {
        PyObject *a = PyTuple_GET_ITEM(f[6], i);
        if (!PyTuple_Check(a) || PyTuple_GET_SIZE(a) != 4) return 1;
        long sq, owner, kind, catcher;
        if ((r = read_int(PyTuple_GET_ITEM(a, 0), 0, CELLS - 1, &sq)) ||
            (r = read_int(PyTuple_GET_ITEM(a, 1), 0, n - 1, &owner)) ||
            (r = read_int(PyTuple_GET_ITEM(a, 2), 0, 2, &kind)) ||
            (r = read_int(PyTuple_GET_ITEM(a, 3), -1, n - 1, &catcher)))
            return r;
        p->an[i] = (Animal){(int16_t)sq, (int8_t)owner, (int8_t)kind, (int8_t)catcher};
    }
    if ((r = read_squares(f[7], p->wolves, n))) return r;
    if (!PyTuple_Check(f[8]) || PyTuple_GET_SIZE(f[8]) != n || !PyTuple_Check(f[9]) ||
        PyTuple_GET_SIZE(f[9]) != n)
        return 1;
    for (int k = 0; k < n; k++)
        if ((r = read_counts(PyTuple_GET_ITEM(f[8], k), p->sheltered[k])) ||
            (r = read_counts(PyTuple_GET_ITEM(f[9], k), p->eaten[k])))
            return r;
    return 0;
}

static PyObject *squares_tuple(const int16_t *xs, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(xs[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* a named tuple of the given type, made as tuple.__new__ makes it; steals the items */
static PyObject *named(PyObject *type, PyObject **items, int n) {
    for (int i = 0; i < n; i++)
        if (!items[i]) goto fail;
    PyTypeObject *t = (PyTypeObject *)type;
    PyObject *obj = t->tp_alloc(t, n);
    if (!obj) goto fail;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(obj, i, items[i]);
    return obj;
fail:
    for (int i = 0; i < n; i++) Py_XDECREF(items[i]);
    return NULL;
}

static PyObject *counts_tuple(const long *c) { return Py_BuildValue("(lll)", c[0], c[1], c[2]); }

static PyObject *pos_object(const Board *b, const Pos *p) {
    int n = b->n;
    PyObject *items[10] = {NULL};
    items[0] = PyLong_FromLong(p->seat);
    items[1] = PyLong_FromLong(p->stage);
    items[2] = PyLong_FromLongLong(p->group);
    items[3] = PyBool_FromLong(p->awake);
    items[4] = PyLong_FromLongLong(p->revealed);
    PyObject *shep = PyTuple_New(n), *animals = PyTuple_New(p->na), *wolves = NULL;
    PyObject *sheltered = PyTuple_New(n), *eaten = PyTuple_New(n);
    items[5] = shep, items[6] = animals, items[8] = sheltered, items[9] = eaten;
    if (!shep || !animals || !sheltered || !eaten) goto fail;
    for (int k = 0; k < n; k++) {
        PyObject *s = squares_tuple(p->shep[k], 4), *h = counts_tuple(p->sheltered[k]);
        PyObject *e = counts_tuple(p->eaten[k]);
        PyTuple_SET_ITEM(shep, k, s);
        PyTuple_SET_ITEM(sheltered, k, h);
        PyTuple_SET_ITEM(eaten, k, e);
        if (!s || !h || !e) goto fail;
    }
    for (int i = 0; i < p->na; i++) {
        const Animal *a = &p->an[i];
        PyObject *t = Py_BuildValue("(iiii)", a->sq, a->owner, a->kind, a->catcher);
        PyTuple_SET_ITEM(animals, i, t);
        if (!t) goto fail;
    }
    wolves = squares_tuple(p->wolves, n);
    items[7] = wolves;
    return named(b->pos_type, items, 10);
fail:
    for (int i = 0; i < 10; i++) Py_XDECREF(items[i]);
    return NULL;
}

static PyObject *dice_tuple(const int *dice, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(dice[i]));
    return t;
}

static PyObject *shepherds_move(const Board *b, const int *dice, int option_s,
                                const SBoard *sb) {
    PyObject *paths = PyTuple_New(4);
    if (paths)
        for (int i = 0; i < 4; i++) {
            PyObject *path = squares_tuple(sb->paths[i], sb->plen[i]);
            if (!path) {
                Py_CLEAR(paths);
                break;
            }
            PyTuple_SET_ITEM(paths, i, path);
        }
    PyObject *option = option_s ? letter_s : letter_e;
    Py_INCREF(option);
    PyObject *items[4] = {dice_tuple(dice, 4), option, paths, PyLong_FromLong(sb->back)};
    return named(b->shepherds_type, items, 4);
}

/* a WolfMove; dice: its dice tuple, shared by the moves of one roll (borrowed) */
static PyObject *wolf_move(const Board *b, PyObject *dice, const int16_t *path, int npath,
                           int eats) {
    Py_INCREF(dice);
    PyObject *items[3] = {dice, squares_tuple(path, npath), PyBool_FromLong(eats)};
    return named(b->wolf_type, items, 3);
}

static PyObject *herd_move(const Board *b, int die) {
    PyObject *move = PySequence_GetItem(b->herd_moves, die);
    return move;
}

/* the roll given to moves() and sample(): checked by the engine already */
static int read_dice(PyObject *obj, int stage, int *dice) {
    static const int count[3] = {1, 4, 2};
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != count[stage]) {
        PyErr_SetString(PyExc_ValueError, "a roll of the turn's dice");
        return -1;
    }
    for (int i = 0; i < count[stage]; i++) {
        long v;
        int r = read_int(PyTuple_GET_ITEM(obj, i), 1, i == 1 && stage == WOLF_TURN ? 6 : 4, &v);
        if (r) {
            if (r > 0) PyErr_SetString(PyExc_ValueError, "a die out of its range");
            return -1;
        }
        dice[i] = (int)v;
    }
    return 0;
}

/* -- the methods ------------------------------------------------------------------------ */

typedef struct {
    SBoard built[2];
    Walks w;
    WolfBoard wb;
} Work;

static Work *new_work(void) {
    Work *work = PyMem_Malloc(sizeof(Work));
    if (!work) PyErr_NoMemory();
    return work;
}

static PyObject *Board_sample(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) return PyErr_Format(PyExc_TypeError, "sample() takes 3 arguments");
    Pos p;
    int r = read_pos(self, args[0], &p), dice[4];
    if (r < 0) return NULL;
    if (r > 0) Py_RETURN_NONE;
    if (read_dice(args[1], p.stage, dice)) return NULL;
    Draws draws = zrec_draws(args[2]);
    Draws *rng = &draws;
    if (p.stage == HERD_TURN) return herd_move(self, dice[0]);
    Work *work = new_work();
    if (!work) return NULL;
    PyObject *out = NULL;
    if (p.stage == SHEPHERDS_TURN) {
        int chosen;
        if (!sample_shepherds(self, &p, dice, rng, work->built, &work->w, &chosen))
            out = shepherds_move(self, dice, chosen, &work->built[chosen]);
    } else {
        int16_t path[MAXDIST + 1];
        int npath;
        PyObject *rolled;
        if (!sample_wolf(self, &p, dice[0], dice[1], rng, &work->wb, path, &npath) &&
            (rolled = dice_tuple(dice, 2))) {
            out = wolf_move(self, rolled, path, npath,
                            npath && work->wb.animal[path[npath - 1]] >= 0);
            Py_DECREF(rolled);
        }
    }
    PyMem_Free(work);
    return out;
}

/* wolves.wolf_moves: every path through the layers still alive, neighbours in order */
static int wolf_paths(const Board *b, PyObject *dice, WolfBoard *wb,
                      uint8_t alive[MAXDIST + 1][CELLS], int16_t *path, int k, int n,
                      PyObject *list) {
    if (k == n) {
        PyObject *m = wolf_move(b, dice, path, n + 1, wb->animal[path[n]] >= 0);
        if (!m) return -1;
        int r = PyList_Append(list, m);
        Py_DECREF(m);
        return r;
    }
    int here = path[k];
    for (int j = 0; j < NORTH_COUNT[here]; j++) {
        int s = ORTH[here][j];
        if (alive[k + 1][s]) {
            path[k + 1] = (int16_t)s;
            if (wolf_paths(b, dice, wb, alive, path, k + 1, n, list)) return -1;
        }
    }
    return 0;
}

static PyObject *wolf_moves(const Board *b, const Pos *p, const int *dice, Work *work) {
    WolfBoard *wb = &work->wb;
    wolf_board(b, p, wb);
    int n = dice[1];
    PyObject *rolled = dice_tuple(dice, 2);
    if (!rolled) return NULL;
    PyObject *list = PyList_New(0);
    if (!list) {
        Py_DECREF(rolled);
        return NULL;
    }
    uint8_t (*alive)[CELLS] = wb->alive;
    int16_t ends[CELLS], path[MAXDIST + 1];
    for (int w = 0; w < wb->nstarts; w++) {
        int start = wb->starts[w];
        layers(b, wb, start, n);
        int ne = wolf_ends(p, wb, start, dice[0], n, ends);
        if (!ne) continue;
        memset(alive, 0, sizeof wb->alive);
        for (int i = 0; i < ne; i++) alive[n][ends[i]] = 1;
        for (int k = n - 1; k >= 0; k--)
            for (int i = 0; i < wb->nlist[k]; i++) {
                int s = wb->list[k][i];
                for (int j = 0; j < NORTH_COUNT[s]; j++)
                    if (alive[k + 1][ORTH[s][j]]) {
                        alive[k][s] = 1;
                        break;
                    }
            }
        path[0] = (int16_t)start;
        if (wolf_paths(b, rolled, wb, alive, path, 0, n, list)) {
            Py_DECREF(rolled);
            Py_DECREF(list);
            return NULL;
        }
    }
    if (PyList_GET_SIZE(list) == 0) {
        PyObject *pass = wolf_move(b, rolled, NULL, 0, 0);
        if (!pass || PyList_Append(list, pass)) {
            Py_XDECREF(pass);
            Py_DECREF(rolled);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(pass);
    }
    Py_DECREF(rolled);
    PyObject *out = PyList_AsTuple(list);
    Py_DECREF(list);
    return out;
}

static PyObject *Board_moves(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "moves() takes 2 arguments");
    Pos p;
    int r = read_pos(self, args[0], &p), dice[4];
    if (r < 0) return NULL;
    if (r > 0) Py_RETURN_NONE;
    if (read_dice(args[1], p.stage, dice)) return NULL;
    if (p.stage == HERD_TURN) {
        PyObject *m = herd_move(self, dice[0]);
        if (!m) return NULL;
        PyObject *out = PyTuple_Pack(1, m);
        Py_DECREF(m);
        return out;
    }
    Work *work = new_work();
    if (!work) return NULL;
    PyObject *out = NULL;
    if (p.stage == SHEPHERDS_TURN) {
        PyObject *m[2] = {NULL, NULL};
        for (int o = 0; o < 2; o++) {
            build(self, &p, dice, o, NULL, &work->built[o], &work->w);
            m[o] = shepherds_move(self, dice, o, &work->built[o]);
        }
        if (m[0] && m[1]) out = PyTuple_Pack(2, m[0], m[1]);
        Py_XDECREF(m[0]);
        Py_XDECREF(m[1]);
    } else {
        out = wolf_moves(self, &p, dice, work);
    }
    PyMem_Free(work);
    return out;
}

static PyObject *Board_play(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) return PyErr_Format(PyExc_TypeError, "play() takes 4 arguments");
    Pos p;
    int r = read_pos(self, args[0], &p);
    if (r < 0) return NULL;
    if (r > 0) Py_RETURN_NONE;
    Draws draws = zrec_draws(args[1]);
    Draws *rng = &draws;
    long long max_moves = PyLong_AsLongLong(args[2]), max_turns = PyLong_AsLongLong(args[3]);
    if (PyErr_Occurred()) return NULL;
    Work *work = new_work();
    if (!work) return NULL;
    long long moves = 0, turns = 0;
    long removed[MAXSEATS + 1] = {0};
    int failed = 0;
    while (!game_over(&p, self->n) && moves < max_moves && turns < max_turns) {
        int dice[4];
        if (roll(rng, p.stage, dice)) {
            failed = 1;
            break;
        }
        if (p.stage == HERD_TURN) {
            herd_turn(self, &p, dice[0]);
        } else if (p.stage == SHEPHERDS_TURN) {
            int chosen;
            if (sample_shepherds(self, &p, dice, rng, work->built, &work->w, &chosen)) {
                failed = 1;
                break;
            }
            end_shepherds(self, &p, &work->built[chosen]);
        } else {
            int16_t path[MAXDIST + 1];
            int npath;
            if (sample_wolf(self, &p, dice[0], dice[1], rng, &work->wb, path, &npath)) {
                failed = 1;
                break;
            }
            removed[self->n] += apply_wolf(self, &p, path, npath);
        }
        moves++;
        turns++;
    }
    PyMem_Free(work);
    if (failed) return NULL;
    PyObject *pos = pos_object(self, &p);
    if (!pos) return NULL;
    PyObject *rem = PyTuple_New(self->n + 1);
    if (!rem) {
        Py_DECREF(pos);
        return NULL;
    }
    for (int k = 0; k <= self->n; k++) PyTuple_SET_ITEM(rem, k, PyLong_FromLong(removed[k]));
    return Py_BuildValue("(NLLNO)", pos, moves, turns, rem, Py_False);
}

/* -- a written line (engine.play_line, lines.reference_line) ------------------------- */

static PyObject *s_actions, *s_dice, *s_values, *s_option, *s_kind, *s_squares, *s_seps,
    *s_vias, *s_piece;

/* A written turn as this file reads it, from a Turn (read_turn) or from the words it
 * was written with (read_words; zrec.moves.WrittenTurns): the checks below see the
 * same fields either way. */
#define MAXSQ 16 /* the most squares of a path read here (more: not read) */
enum { A_OTHER, A_PATH, A_HERD, A_PASS };
typedef struct {
    int kind;         /* A_PATH, A_HERD (H alone), A_PASS, A_OTHER (a drop, ...) */
    int n;            /* a path's squares; 0 when one is not a square or too many */
    int16_t sq[MAXSQ];
    int nseps;        /* a path's separators: '-', 'x', '>' ('?': another) */
    char seps[MAXSQ];
} WAction;
typedef struct {
    int has_dice, ndice; /* ndice 5: more than 4 */
    int dice[4];         /* -1: not a number 1-6 */
    char option;         /* 0: none; 'e', 's'; '?': another */
    int nactions;        /* 5: more than 4 */
    WAction a[4];
} Written;

/* a square's name (board.INDEX: a file a-y and a rank 1-25, no leading zero) of n
 * characters: its number, or -1 for anything else */
static int square_at(const char *s, Py_ssize_t n) {
    if (n < 2 || n > 3 || s[0] < 'a' || s[0] > 'y' || s[1] < '1' || s[1] > '9') return -1;
    int rank = s[1] - '0';
    if (n == 3) {
        if (s[2] < '0' || s[2] > '9') return -1;
        rank = rank * 10 + (s[2] - '0');
    }
    if (rank > SIZE) return -1;
    return (rank - 1) * SIZE + (s[0] - 'a');
}

static int square_of(PyObject *name) {
    if (!PyUnicode_Check(name)) return -1;
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(name, &n);
    if (!s) {
        PyErr_Clear();
        return -1;
    }
    return square_at(s, n);
}

/* whether x is the str text (ASCII), its characters compared in place */
static int is_text(PyObject *x, const char *text) {
    if (!PyUnicode_Check(x)) return 0;
    size_t n = strlen(text);
    return (size_t)PyUnicode_GET_LENGTH(x) == n && PyUnicode_KIND(x) == PyUnicode_1BYTE_KIND &&
           memcmp(PyUnicode_DATA(x), text, n) == 0;
}

/* a separator's character: '-', 'x' or '>', '?' for anything else */
static char sep_of(PyObject *x) {
    if (is_text(x, "-")) return '-';
    if (is_text(x, "x")) return 'x';
    if (is_text(x, ">")) return '>';
    return '?';
}

/* whether every item of a tuple is None (Action.vias) */
static int all_none(PyObject *t) {
    if (!PyTuple_Check(t)) return 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++)
        if (PyTuple_GET_ITEM(t, i) != Py_None) return 0;
    return 1;
}

/* An Action into a: 0, 1 when it is not a plain action (a point jumped over, fields
 * that are not tuples: the engine reads the turn), -1 on an error. */
static int read_action(PyObject *action, WAction *a) {
    PyObject *kind = PyObject_GetAttr(action, s_kind);
    PyObject *squares = kind ? PyObject_GetAttr(action, s_squares) : NULL;
    PyObject *seps = squares ? PyObject_GetAttr(action, s_seps) : NULL;
    PyObject *vias = seps ? PyObject_GetAttr(action, s_vias) : NULL;
    PyObject *piece = vias ? PyObject_GetAttr(action, s_piece) : NULL;
    int r = -1;
    if (!piece) goto done;
    r = 1;
    if (!PyTuple_Check(squares) || !PyTuple_Check(seps) || !all_none(vias)) goto done;
    r = 0;
    a->kind = A_OTHER;
    a->n = a->nseps = 0;
    Py_ssize_t n = PyTuple_GET_SIZE(squares), nseps = PyTuple_GET_SIZE(seps);
    if (is_text(kind, "herd")) {
        if (n == 0 && nseps == 0 && PyTuple_GET_SIZE(vias) == 0 && piece == Py_None)
            a->kind = A_HERD;
    } else if (is_text(kind, "pass")) {
        a->kind = A_PASS;
    } else if (is_text(kind, "path")) {
        a->kind = A_PATH;
        if (nseps > MAXSQ) {
            a->kind = A_OTHER;
            goto done;
        }
        a->nseps = (int)nseps;
        for (Py_ssize_t i = 0; i < nseps; i++) a->seps[i] = sep_of(PyTuple_GET_ITEM(seps, i));
        if (n < 1 || n > MAXSQ) goto done;
        for (Py_ssize_t i = 0; i < n; i++) {
            int s = square_of(PyTuple_GET_ITEM(squares, i));
            if (s < 0) goto done;
            a->sq[i] = (int16_t)s;
        }
        a->n = (int)n;
    }
done:
    Py_XDECREF(kind);
    Py_XDECREF(squares);
    Py_XDECREF(seps);
    Py_XDECREF(vias);
    Py_XDECREF(piece);
    return r;
}

/* A Turn into t: 0, 1 when it is not in the plain form read here, -1 on an error. */
static int read_turn(PyObject *turn, Written *t) {
    PyObject *actions = PyObject_GetAttr(turn, s_actions);
    if (!actions) return -1;
    PyObject *dice = PyObject_GetAttr(turn, s_dice);
    PyObject *values = NULL, *option = NULL;
    int r = -1;
    if (!dice) goto done;
    r = 1;
    if (!PyTuple_Check(actions)) goto done;
    t->has_dice = dice != Py_None;
    t->ndice = 0;
    t->option = 0;
    if (t->has_dice) {
        r = -1;
        if (!(values = PyObject_GetAttr(dice, s_values))) goto done;
        if (!(option = PyObject_GetAttr(dice, s_option))) goto done;
        r = 1;
        if (!PyTuple_Check(values)) goto done;
        Py_ssize_t nd = PyTuple_GET_SIZE(values);
        t->ndice = nd > 4 ? 5 : (int)nd;
        for (int i = 0; i < t->ndice && i < 4; i++) {
            long v;
            int q = read_int(PyTuple_GET_ITEM(values, i), 1, 6, &v);
            if (q < 0) {
                if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
                    r = -1;
                    goto done;
                }
                PyErr_Clear();
                q = 1;
            }
            t->dice[i] = q ? -1 : (int)v;
        }
        t->option = option == Py_None ? 0
                    : is_text(option, "e") ? 'e'
                    : is_text(option, "s") ? 's'
                                           : '?';
    }
    Py_ssize_t na = PyTuple_GET_SIZE(actions);
    t->nactions = na > 4 ? 5 : (int)na;
    for (int i = 0; i < t->nactions && i < 4; i++) {
        r = read_action(PyTuple_GET_ITEM(actions, i), &t->a[i]);
        if (r) goto done;
    }
    r = 0;
done:
    Py_DECREF(actions);
    Py_XDECREF(dice);
    Py_XDECREF(values);
    Py_XDECREF(option);
    return r;
}

/* An action's word (Action.text of a plain action: a path of squares joined by -, x or
 * >, H, --, a drop) into a. */
static void word_action(const char *s, Py_ssize_t len, WAction *a) {
    a->n = a->nseps = 0;
    a->kind = A_OTHER;
    if (len == 2 && s[0] == '-' && s[1] == '-') {
        a->kind = A_PASS;
        return;
    }
    if (len == 1 && s[0] == 'H') {
        a->kind = A_HERD;
        return;
    }
    int16_t sq[MAXSQ];
    char seps[MAXSQ];
    int n = 0, nseps = 0, good = 1;
    Py_ssize_t i = 0;
    for (;;) { /* a square: a letter, a digit 1-9, maybe a digit */
        Py_ssize_t at = i;
        if (i + 1 >= len || s[i] < 'a' || s[i] > 'z' || s[i + 1] < '1' || s[i + 1] > '9')
            return;
        i += 2;
        if (i < len && s[i] >= '0' && s[i] <= '9') i++;
        int square = square_at(s + at, i - at);
        if (square < 0 || n == MAXSQ)
            good = 0;
        else
            sq[n++] = (int16_t)square;
        if (i == len) break;
        if (s[i] != '-' && s[i] != 'x' && s[i] != '>') return;
        if (nseps == MAXSQ) return;
        seps[nseps++] = s[i++];
    }
    a->kind = A_PATH;
    a->nseps = nseps;
    memcpy(a->seps, seps, (size_t)nseps);
    if (good) {
        a->n = n;
        memcpy(a->sq, sq, sizeof(int16_t) * (size_t)n);
    }
}

/* The turn written as words[from:to] (zrec.moves.WrittenTurns: its dice as written,
 * then its actions) into t: 0, 1 when they are not words read here. */
static int read_words(PyObject *words, Py_ssize_t from, Py_ssize_t to, Written *t) {
    if (from < 0 || to > PyList_GET_SIZE(words) || from >= to) return 1;
    t->has_dice = t->ndice = 0;
    t->option = 0;
    Py_ssize_t len;
    const char *s;
    PyObject *first = PyList_GET_ITEM(words, from);
    if (!PyUnicode_Check(first) || !PyUnicode_IS_ASCII(first)) return 1;
    s = (const char *)PyUnicode_DATA(first);
    len = PyUnicode_GET_LENGTH(first);
    if (len > 1 && s[len - 1] == ':') { /* the dice: digits 1-6, maybe a letter */
        Py_ssize_t end = len - 1;
        if (s[end - 1] >= 'a' && s[end - 1] <= 'z') t->option = s[--end];
        if (end < 1) return 1;
        for (Py_ssize_t k = 0; k < end; k++) {
            if (s[k] < '1' || s[k] > '6') return 1;
            if (k < 4) t->dice[k] = s[k] - '0';
        }
        t->option = t->option == 0 || t->option == 'e' || t->option == 's' ? t->option : '?';
        t->has_dice = 1;
        t->ndice = end > 4 ? 5 : (int)end;
        from++;
    }
    Py_ssize_t na = to - from;
    t->nactions = na > 4 ? 5 : (int)na;
    for (int i = 0; i < t->nactions && i < 4; i++) {
        PyObject *word = PyList_GET_ITEM(words, from + i);
        if (!PyUnicode_Check(word) || !PyUnicode_IS_ASCII(word)) return 1;
        word_action((const char *)PyUnicode_DATA(word), PyUnicode_GET_LENGTH(word), &t->a[i]);
    }
    return 0;
}

/* the step cost between two squares next to each other (1 orthogonal, 2 diagonal), 0
 * for squares that are not (paths._STEP_COST) */
static int step_cost(int a, int b) {
    for (int d = 0; d < 8; d++)
        if (STEP[d][a] == b) return d % 2 == 0 ? 1 : 2;
    return 0;
}

/* The dice of a written turn due at stage into dice (Turn.dice checked as
 * turns.check_dice checks them, the kind written as turns.written_kind reads it):
 * answers 0 when they are those of the turn due, 1 when not.  *option_s: option s. */
static int turn_dice(const Written *t, int stage, int *dice, int *option_s) {
    static const int count[3] = {1, 4, 2};
    if (!t->has_dice || t->ndice != count[stage]) return 1;
    if (stage == SHEPHERDS_TURN) {
        if (t->option == 'e')
            *option_s = 0;
        else if (t->option == 's')
            *option_s = 1;
        else
            return 1;
    } else if (t->option != 0 || t->nactions != 1) {
        return 1;
    }
    for (int i = 0; i < count[stage]; i++) {
        int v = t->dice[i];
        if (v < 1 || v > (stage == WOLF_TURN && i == 1 ? 6 : 4)) return 1;
        dice[i] = v;
    }
    return 0;
}

/* A written herd turn: 0 and *die when it is its die and H alone (turns.read_herd), 1
 * when not. */
static int herd_written(const Written *t, int *die) {
    if (t->nactions != 1) return 1;
    int dice[4], unused = 0;
    if (turn_dice(t, HERD_TURN, dice, &unused)) return 1;
    *die = dice[0];
    return t->a[0].kind == A_HERD ? 0 : 1;
}

/* whether a shepherd on start has a path of amount (ShepherdsBoard.walks) */
static int has_walk(const Board *b, const SBoard *sb, int start, int amount, Walks *w) {
    w->first_only = 1;
    walks(b, sb, start, amount, w);
    return w->n > 0;
}

/* A written shepherds' turn read path by path as paths.play_shepherds reads it, on sb
 * (begun on p): 0 when every path is one it takes (a walk of the path's amount that
 * meets nothing; a stay or a jump back where the shepherd has no path), 1 when not
 * (a herd action among them makes it a herd turn: turns.written_kind). */
static int shepherds_written(const Board *b, const Pos *p, const Written *t, SBoard *sb,
                             Walks *w) {
    if (t->nactions != 4) return 1;
    int dice[4], option_s = 0;
    if (turn_dice(t, SHEPHERDS_TURN, dice, &option_s)) return 1;
    int sum = dice[0] + dice[1] + dice[2] + dice[3];
    sboard_begin(b, p, sb);
    int16_t unmoved[4]; /* the squares of the shepherds not moved yet (-1: moved) */
    memcpy(unmoved, sb->own, sizeof unmoved);
    for (int i = 0; i < 4; i++) {
        int amount = option_s ? sum / 4 : dice[i];
        const WAction *f = &t->a[i];
        int n = f->kind == A_PATH ? f->n : 0;
        const int16_t *sq = f->sq;
        int back = n == 2 && f->nseps == 1 && f->seps[0] == '>';
        int walk = n > 1;
        for (int k = 0; k < f->nseps; k++) walk = walk && f->seps[k] == '-';
        if (!n) return 1;
        int start = sq[0];
        int mover = 0;
        while (mover < 4 && unmoved[mover] != start) mover++;
        if (mover == 4) return 1;
        if (back) { /* a jump back: only from water or with no path, to its own shelter */
            if (sq[1] != sb->shelter || start == sb->shelter ||
                has_walk(b, sb, start, amount, w))
                return 1;
            sb->back |= 1 << i;
            unmoved[mover] = -1;
            sboard_move(b, p, sb, start, NULL, 0, sb->shelter);
        } else if (n == 1) { /* a stay: only out of water with no path */
            if (b->water[start] || has_walk(b, sb, start, amount, w)) return 1;
            unmoved[mover] = -1;
            sboard_move(b, p, sb, start, NULL, 0, start);
        } else if (walk) {
            if (start == LAIR || (is_corner(start) && start != sb->shelter)) return 1;
            int cost = 0;
            for (int k = 1; k < n; k++) {
                int one = step_cost(sq[k - 1], sq[k]);
                if (!one || sb->occ[sq[k]]) return 1; /* occ: the forbidden squares too */
                for (int j = 0; j < k; j++)
                    if (sq[j] == sq[k]) return 1;
                cost += one;
            }
            if (cost != amount || (b->water[start] && b->water[sq[n - 1]])) return 1;
            unmoved[mover] = -1;
            sboard_move(b, p, sb, start, sq + 1, n - 1, sq[n - 1]);
        } else {
            return 1;
        }
    }
    return 0;
}

/* A written wolf turn read as wolves.read_wolf reads it: 0 with its path (npath 0: the
 * pass) when it is a legal one written as it should be, 1 when not. */
static int wolf_written(const Board *b, const Pos *p, const Written *t, WolfBoard *wb,
                        int16_t *path, int *npath) {
    if (t->nactions != 1) return 1;
    int dice[4], unused = 0;
    if (turn_dice(t, WOLF_TURN, dice, &unused)) return 1;
    const WAction *f = &t->a[0];
    int dir = dice[0], dist = dice[1];
    wolf_board(b, p, wb);
    if (f->kind == A_PASS) { /* the pass: only when no wolf can move */
        int16_t ends[CELLS];
        for (int k = 0; k < wb->nstarts; k++) {
            layers(b, wb, wb->starts[k], dist);
            if (wolf_ends(p, wb, wb->starts[k], dir, dist, ends)) return 1;
        }
        *npath = 0;
        return 0;
    }
    int n = f->kind == A_PATH && f->n <= MAXDIST + 1 ? f->n : 0;
    int nseps = f->nseps;
    int ok = n == dist + 1 && nseps == n - 1;
    for (int k = 0; ok && k < nseps - 1; k++) ok = f->seps[k] == '-';
    int x = ok && f->seps[nseps - 1] == 'x';
    ok = ok && (x || f->seps[nseps - 1] == '-');
    if (!ok) return 1;
    memcpy(path, f->sq, sizeof(int16_t) * (size_t)n);
    int start = path[0], end = path[n - 1];
    if (!wb->wolf[start]) return 1;
    for (int k = 1; k < n; k++) {
        int a = path[k - 1], s = path[k], next = 0;
        for (int j = 0; j < NORTH_COUNT[a]; j++) next |= ORTH[a][j] == s;
        if (!next || !b->wolf_passable[s] || wb->shep[s]) return 1;
    }
    if (!may_end(p, wb, start, end, dir)) return 1;
    if (x != (wb->animal[end] >= 0)) return 1;
    *npath = n;
    return 0;
}

/* The written turns played from turn i of total while each is one read here (see the
 * *_written functions above) and its written number (numbers[j], None for none, with
 * dots[j]) is its position's (engine.move_number): (j, the position before turn j), j
 * the first turn not played (total: all); None for a position this kernel cannot hold.
 * Turn j is read from turns[j] (a list of Turns) or, with bounds, from
 * turns[bounds[j]:bounds[j + 1]] (a list of words). */
static PyObject *play_written(Board *self, PyObject *pos, PyObject *turns, PyObject *bounds,
                              PyObject *numbers, PyObject *dots, Py_ssize_t i,
                              Py_ssize_t total) {
    if (!PyList_Check(numbers) || !PyList_Check(dots)) {
        PyErr_SetString(PyExc_TypeError, "line(): numbers and dots are lists");
        return NULL;
    }
    if (PyList_GET_SIZE(numbers) < total || PyList_GET_SIZE(dots) < total || i < 0) {
        PyErr_SetString(PyExc_ValueError, "line(): a number and dots for every turn");
        return NULL;
    }
    Pos p;
    int r = read_pos(self, pos, &p);
    if (r < 0) return NULL;
    if (r > 0) Py_RETURN_NONE;
    Work *work = new_work();
    if (!work) return NULL;
    int failed = 0;
    Written t;
    for (; i < total; i++) {
        if (game_over(&p, self->n) || p.group >= (1LL << 62)) break;
        PyObject *written = PyList_GET_ITEM(numbers, i);
        if (written != Py_None) {
            long long number, d;
            if (!PyLong_Check(written) || !PyLong_Check(PyList_GET_ITEM(dots, i))) break;
            if (read_long_long(written, &number) ||
                read_long_long(PyList_GET_ITEM(dots, i), &d)) {
                if (PyErr_Occurred()) failed = 1;
                break;
            }
            if (number != p.group || d != (p.stage == HERD_TURN ? 1 : 3)) break;
        }
        if (bounds) {
            Py_ssize_t from = PyLong_AsSsize_t(PyList_GET_ITEM(bounds, i));
            Py_ssize_t to = from == -1 && PyErr_Occurred()
                                ? -1
                                : PyLong_AsSsize_t(PyList_GET_ITEM(bounds, i + 1));
            if (to == -1 && PyErr_Occurred()) {
                failed = 1;
                break;
            }
            r = read_words(turns, from, to, &t);
        } else {
            r = read_turn(PyList_GET_ITEM(turns, i), &t);
        }
        if (r) {
            if (r < 0) failed = 1;
            break;
        }
        if (p.stage == HERD_TURN) {
            int die;
            r = herd_written(&t, &die);
            if (!r) herd_turn(self, &p, die);
        } else if (p.stage == SHEPHERDS_TURN) {
            r = shepherds_written(self, &p, &t, &work->built[0], &work->w);
            if (!r) end_shepherds(self, &p, &work->built[0]);
        } else {
            int16_t path[MAXDIST + 1];
            int npath = 0;
            r = wolf_written(self, &p, &t, &work->wb, path, &npath);
            if (!r) apply_wolf(self, &p, path, npath);
        }
        if (r) break;
    }
    PyMem_Free(work);
    if (failed) return NULL;
    PyObject *after = pos_object(self, &p);
    if (!after) return NULL;
    return Py_BuildValue("(nN)", i, after);
}

/* line(pos, turns, numbers, dots, i): play_written over a list of Turns. */
static PyObject *Board_line(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) return PyErr_Format(PyExc_TypeError, "line() takes 5 arguments");
    if (!PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "line(): turns, numbers and dots are lists");
        return NULL;
    }
    Py_ssize_t i = PyLong_AsSsize_t(args[4]);
    if (i == -1 && PyErr_Occurred()) return NULL;
    return play_written(self, args[0], args[1], NULL, args[2], args[3], i,
                        PyList_GET_SIZE(args[1]));
}

/* words(pos, words, bounds, numbers, dots, i): play_written over the words of the
 * turns, turn j written as words[bounds[j]:bounds[j + 1]] (zrec.moves.WrittenTurns). */
static PyObject *Board_words(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) return PyErr_Format(PyExc_TypeError, "words() takes 6 arguments");
    if (!PyList_Check(args[1]) || !PyList_Check(args[2]) || PyList_GET_SIZE(args[2]) < 1) {
        PyErr_SetString(PyExc_TypeError, "words(): words and bounds are lists");
        return NULL;
    }
    Py_ssize_t i = PyLong_AsSsize_t(args[5]);
    if (i == -1 && PyErr_Occurred()) return NULL;
    return play_written(self, args[0], args[1], args[2], args[3], args[4], i,
                        PyList_GET_SIZE(args[2]) - 1);
}

/* -- the Board type ------------------------------------------------------------------ */

static int Board_init(Board *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"terrain",   "seats",          "catcher",   "position_type",
                            "shepherds_type", "wolf_type", "herd_moves", NULL};
    const char *terrain;
    Py_ssize_t length;
    PyObject *pos_type, *shepherds_type, *wolf_type, *herd_moves;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "s#ipOOOO", names, &terrain, &length,
                                     &self->n, &self->catcher, &pos_type, &shepherds_type,
                                     &wolf_type, &herd_moves))
        return -1;
    if (length != CELLS) {
        PyErr_SetString(PyExc_ValueError, "a terrain has 625 letters");
        return -1;
    }
    if (self->n < 1 || self->n > MAXSEATS) {
        PyErr_SetString(PyExc_ValueError, "an Awéthi board has 1 to 4 shepherd seats");
        return -1;
    }
    PyObject *types[3] = {pos_type, shepherds_type, wolf_type};
    for (int i = 0; i < 3; i++)
        if (!PyType_Check(types[i]) ||
            !PyType_IsSubtype((PyTypeObject *)types[i], &PyTuple_Type)) {
            PyErr_SetString(PyExc_TypeError, "positions and moves are tuple types");
            return -1;
        }
    if (!PySequence_Check(herd_moves) || PySequence_Size(herd_moves) != 5) {
        PyErr_SetString(PyExc_TypeError, "herd_moves: the herd moves of dice 0-4");
        return -1;
    }
    for (int s = 0; s < CELLS; s++) {
        char t = terrain[s];
        self->water[s] = t == 'w';
        self->forest[s] = t == 'f';
        self->herd_barrier[s] = t == 'w' || t == 'L' || t == 's';
        self->wolf_passable[s] = !(t == 'w' || t == 's');
    }
    Py_INCREF(pos_type);
    Py_XSETREF(self->pos_type, pos_type);
    Py_INCREF(shepherds_type);
    Py_XSETREF(self->shepherds_type, shepherds_type);
    Py_INCREF(wolf_type);
    Py_XSETREF(self->wolf_type, wolf_type);
    Py_INCREF(herd_moves);
    Py_XSETREF(self->herd_moves, herd_moves);
    return 0;
}

static void Board_dealloc(Board *self) {
    Py_XDECREF(self->pos_type);
    Py_XDECREF(self->shepherds_type);
    Py_XDECREF(self->wolf_type);
    Py_XDECREF(self->herd_moves);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Board_methods[] = {
    {"play", (PyCFunction)(void (*)(void))Board_play, METH_FASTCALL,
     "play(pos, rng, max_moves, max_turns): a random game (loops.reference_play)"},
    {"sample", (PyCFunction)(void (*)(void))Board_sample, METH_FASTCALL,
     "sample(pos, dice, rng): the self-play move of a roll (engine.sample_move)"},
    {"moves", (PyCFunction)(void (*)(void))Board_moves, METH_FASTCALL,
     "moves(pos, dice): the legal moves of a roll, in the engine's order"},
    {"line", (PyCFunction)(void (*)(void))Board_line, METH_FASTCALL,
     "line(pos, turns, numbers, dots, i): a written line played from turns[i] while "
     "each turn is plain (engine.play_line)"},
    {"words", (PyCFunction)(void (*)(void))Board_words, METH_FASTCALL,
     "words(pos, words, bounds, numbers, dots, i): line() over the words of the turns"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "zrec.rules.awethi._kernel.Board",
    .tp_basicsize = sizeof(Board),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One Awéthi engine's map, seats and Catch option, compiled.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Board_init,
    .tp_dealloc = (destructor)Board_dealloc,
    .tp_methods = Board_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_kernel",
    .m_doc = "Awéthi's compiled kernel (see zrec.rules.kernel).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    make_tables();
    if (PyType_Ready(&BoardType) < 0) return NULL;
    if (zrec_random_check() < 0) return NULL;
    letter_e = PyUnicode_InternFromString("e");
    letter_s = PyUnicode_InternFromString("s");
    if (!letter_e || !letter_s) return NULL;
    PyObject **names[] = {&s_actions, &s_dice, &s_values, &s_option, &s_kind,
                          &s_squares, &s_seps, &s_vias, &s_piece};
    const char *texts[] = {"actions", "dice", "values", "option", "kind",
                           "squares", "seps", "vias", "piece"};
    for (int i = 0; i < 9; i++)
        if (!(*names[i] = PyUnicode_InternFromString(texts[i]))) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&BoardType);
    if (PyModule_AddObject(m, "Board", (PyObject *)&BoardType) < 0) {
        Py_DECREF(&BoardType);
        Py_DECREF(m);
        return NULL;
    }
    /* 1: random games step a random.Random's state in place (../kernel_random.h) */
    if (PyModule_AddIntConstant(m, "STATE_DRAWS", zrec_state_usable) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
