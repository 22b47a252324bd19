/* The serpent games' compiled kernel: moves, perft and random games on 64-bit boards.
 *
 * The readable statement of these rules is the Python engine (engine.py, lattice.py);
 * this file does the same work faster and is held to it by tests/rules/
 * test_kernel_serpent.py (every reading: perft, every sample, thousands of random
 * games).  A Board is one lattice with one choice of rule options, made by the engine
 * from its own tables: the neighbours and jumps of each point, in the engine's order,
 * so that the moves come out in the order the engine lists them (random games draw
 * the same moves from the same generator).
 *
 * A position is (white, black, turn, ply, huff) as SerpentPosition has it.  Points are
 * bits (b_i = 3(i-1), a_i = 3(i-1)+1, c_i = 3(i-1)+2); a move is a landing path and the
 * mask of the points it jumps (the engine's sorted tuple of jumped points is that mask's
 * bits in ascending order).
 *
 * Methods of Board:
 *   moves(white, black, turn, ply, huff)          -> [SerpentMove, ...]
 *   perft(white, black, turn, ply, huff, depth)   -> [count at depth 1, ..., depth]
 *   stuck(own, enemy)                             -> whether own has no step and no capture
 *   search(white, black, turn, ply, huff, me, depth, ahead, alpha, beta
 *          [, quiet limit, repeats, quiet, keys since the last capture])
 *       -> the value zrec.rules.loops.reference_search finds (under the draw rules)
 *   play(white, black, turn, ply, huff, rng, max_moves, max_turns)
 *       -> (white, black, turn, ply, huff, moves, turns, removed by White,
 *           removed by Black, stalled)
 * play() draws each move as random.Random.choice does (../kernel_random.h), so a game
 * is the one the Python engine plays from the same generator.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../kernel_random.h"

#define MAXPATH 40   /* a chain lands at most once per enemy piece, 24 of them, + 1 */
#define MAXPTS 64
#define MAXJUMPS 64  /* bent jumps: up to 8 neighbours, each on to 7 others */

enum {
    COMPULSORY = 1,      /* Captures "compulsory" */
    HUFFING = 2,         /* Captures "huff" */
    ONE_HOP = 4,         /* Chains "one" */
    MUST_END = 8,        /* a chain goes on while it can (Chains "whole", no huffing) */
    WHOLE = 16,          /* Chains "whole" */
    FIRST_TO_CENTRE = 32, /* Pieces "23": the first move steps into the centre */
    BLOCKED_LOSES = 64,   /* Blocked "loses": a side with no move loses */
    END_DRAW = 128        /* EndRule "draw": a blocked game is drawn, whatever the pieces */
};

#define WIN 10000 /* zrec.rules.loops.WIN: a game won now, in search() */

typedef struct {
    uint8_t path[MAXPATH];
    uint8_t npath;
    uint64_t caps;
} Move;

typedef struct {
    Move *items;
    size_t n, cap;
} Moves;

typedef struct {
    PyObject_HEAD
    int size, centre, flags;
    uint64_t full;
    uint8_t nn[MAXPTS], nbr[MAXPTS][8];
    uint64_t adj[MAXPTS]; /* the neighbours of each point as a mask */
    /* the jumps by shape: the two shifts from a start to the jumped point and on to
     * the landing point, and the mask of the points a jump of that shape starts from
     * (Lattice.can_capture's test, every piece at once) */
    int nshapes;
    int shift1[MAXPTS * MAXJUMPS], shift2[MAXPTS * MAXJUMPS];
    uint64_t starts[MAXPTS * MAXJUMPS];
    /* the same shifts back, split into a right and a left part (one of them 0), so
     * that jumpers() shifts without a branch: enemy >> over_r << over_l lines each
     * jumped point up with its start, empty >> land_r << land_l each landing point */
    uint8_t over_r[MAXPTS * MAXJUMPS], over_l[MAXPTS * MAXJUMPS];
    uint8_t land_r[MAXPTS * MAXJUMPS], land_l[MAXPTS * MAXJUMPS];
    int ascending;        /* every point's neighbours are listed in ascending order */
    uint8_t nj[MAXPTS], jover[MAXPTS][MAXJUMPS], jto[MAXPTS][MAXJUMPS];
    uint64_t start_white, start_black;
    int start_turn;
    PyObject *move_type; /* SerpentMove */
} Board;


/* -- move lists ---------------------------------------------------------------------- */

static int push(Moves *m, const uint8_t *path, int npath, uint64_t caps) {
    /* add a move unless the same landing path with the same jumped points is there */
    if (caps) {
        for (size_t i = 0; i < m->n; i++) {
            Move *o = &m->items[i];
            if (o->caps == caps && o->npath == npath && !memcmp(o->path, path, npath))
                return 0;
        }
    }
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        Move *items = realloc(m->items, cap * sizeof(Move));
        if (!items) return -1;
        m->items = items;
        m->cap = cap;
    }
    Move *o = &m->items[m->n++];
    memcpy(o->path, path, npath);
    o->npath = (uint8_t)npath;
    o->caps = caps;
    return 0;
}

#define BIT(i) ((uint64_t)1 << (i))
#define LOWEST(x) __builtin_ctzll(x)

/* the whole chains from cur (Lattice._extend): friends excludes the moving piece */
static int extend(const Board *b, int cur, uint64_t friends, uint64_t enemy, uint8_t *path,
                  int npath, uint64_t caps, Moves *out) {
    uint64_t occupied = friends | enemy;
    int went_on = 0;
    for (int k = 0; k < b->nj[cur]; k++) {
        int q = b->jover[cur][k], r = b->jto[cur][k];
        if ((enemy >> q & 1) && !(occupied >> r & 1)) {
            went_on = 1;
            if (npath >= MAXPATH) return -1;
            path[npath] = (uint8_t)r;
            if (extend(b, r, friends, enemy ^ BIT(q), path, npath + 1, caps | BIT(q), out))
                return -1;
        }
    }
    if (!went_on && caps) return push(out, path, npath, caps);
    return 0;
}

/* every chain that may stop after any jump (Lattice._prefixes) */
static int prefixes(const Board *b, int cur, uint64_t friends, uint64_t enemy, uint8_t *path,
                    int npath, uint64_t caps, Moves *out) {
    uint64_t occupied = friends | enemy;
    for (int k = 0; k < b->nj[cur]; k++) {
        int q = b->jover[cur][k], r = b->jto[cur][k];
        if ((enemy >> q & 1) && !(occupied >> r & 1)) {
            if (npath >= MAXPATH) return -1;
            path[npath] = (uint8_t)r;
            if (push(out, path, npath + 1, caps | BIT(q))) return -1;
            if (prefixes(b, r, friends, enemy ^ BIT(q), path, npath + 1, caps | BIT(q), out))
                return -1;
        }
    }
    return 0;
}

static int can_jump_from(const Board *b, int p, uint64_t others, uint64_t enemy) {
    for (int k = 0; k < b->nj[p]; k++)
        if ((enemy >> b->jover[p][k] & 1) && !(others >> b->jto[p][k] & 1)) return 1;
    return 0;
}

static int steps(const Board *b, uint64_t own, uint64_t enemy, Moves *out) {
    uint64_t empty = b->full & ~(own | enemy);
    for (uint64_t rest = own; rest; rest &= rest - 1) {
        int p = LOWEST(rest);
        for (int k = 0; k < b->nn[p]; k++) {
            int r = b->nbr[p][k];
            if (empty >> r & 1) {
                uint8_t path[2] = {(uint8_t)p, (uint8_t)r};
                if (push(out, path, 2, 0)) return -1;
            }
        }
    }
    return 0;
}

static inline int first_rule(const Board *b, uint64_t white, uint64_t black, int turn,
                             long ply) {
    return (b->flags & FIRST_TO_CENTRE) && ply == 0 && white == b->start_white &&
           black == b->start_black && turn == b->start_turn;
}

/* the pieces of own that can jump a piece of enemy now (every piece at once, by shape:
 * a start of the shape, the enemy one shift on, an empty point the second shift on) */
static uint64_t jumpers(const Board *b, uint64_t own, uint64_t enemy) {
    uint64_t empty = b->full & ~(own | enemy), found = 0;
    for (int k = 0; k < b->nshapes; k++)
        found |= own & b->starts[k] & (enemy >> b->over_r[k] << b->over_l[k]) &
                 (empty >> b->land_r[k] << b->land_l[k]);
    return found;
}

/* the number of set bits (a portable popcount: no libgcc call without -mpopcnt) */
static inline int bits(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* the captures of own, in the engine's order, added to out: single hops, whole chains
 * or chains that may stop, as the options say */
static int captures(const Board *b, uint64_t own, uint64_t enemy, Moves *out) {
    uint8_t path[MAXPATH];
    int flags = b->flags;
    /* only the pieces with a jump can start a capture: the others add nothing */
    for (uint64_t rest = jumpers(b, own, enemy); rest; rest &= rest - 1) {
        int p = LOWEST(rest);
        uint64_t friends = own ^ BIT(p);
        path[0] = (uint8_t)p;
        if (flags & ONE_HOP) {
            uint64_t occupied = own | enemy;
            for (int k = 0; k < b->nj[p]; k++) {
                int q = b->jover[p][k], r = b->jto[p][k];
                if ((enemy >> q & 1) && !(occupied >> r & 1)) {
                    path[1] = (uint8_t)r;
                    if (push(out, path, 2, BIT(q))) return -1;
                }
            }
        } else if (flags & MUST_END) {
            if (can_jump_from(b, p, friends | enemy, enemy) &&
                extend(b, p, friends, enemy, path, 1, 0, out))
                return -1;
        } else if (prefixes(b, p, friends, enemy, path, 1, 0, out)) {
            return -1;
        }
    }
    return 0;
}

/* every legal move, in the engine's order (SerpentEngine.legal_moves) */
static int generate(const Board *b, uint64_t white, uint64_t black, int turn, long ply,
                    uint64_t huff, Moves *out) {
    uint64_t own = turn ? black : white, enemy = turn ? white : black;
    out->n = 0;
    if (first_rule(b, white, black, turn, ply)) {
        int c = b->centre;
        for (int k = 0; k < b->nn[c]; k++) {
            int p = b->nbr[c][k];
            if (own >> p & 1) {
                uint8_t step[2] = {(uint8_t)p, (uint8_t)c};
                if (push(out, step, 2, 0)) return -1;
            }
        }
        return 0;
    }
    if (huff) {
        for (uint64_t rest = huff; rest; rest &= rest - 1) {
            uint8_t p = (uint8_t)LOWEST(rest);
            if (push(out, &p, 1, BIT(p))) return -1;
        }
        return 0;
    }
    if (captures(b, own, enemy, out)) return -1;
    if (out->n && (b->flags & COMPULSORY)) return 0;
    return steps(b, own, enemy, out);
}

/* the pieces (after the move) the other side may huff (SerpentEngine._huff_due) */
static uint64_t huff_due(const Board *b, uint64_t own, uint64_t enemy, const Move *m) {
    int from = m->path[0], last = m->path[m->npath - 1];
    if (!m->caps) {
        uint64_t occupied = own | enemy, jumpers = 0;
        for (uint64_t rest = own; rest; rest &= rest - 1) {
            int p = LOWEST(rest);
            if (can_jump_from(b, p, occupied & ~BIT(p), enemy)) jumpers |= BIT(p);
        }
        if (jumpers >> from & 1) jumpers = (jumpers & ~BIT(from)) | BIT(last);
        return jumpers;
    }
    if (!(b->flags & WHOLE)) return 0;
    enemy &= ~m->caps;
    uint64_t friends = own & ~BIT(from);
    return can_jump_from(b, last, friends | enemy, enemy) ? BIT(last) : 0;
}

typedef struct {
    uint64_t white, black, huff;
    int turn;
    long ply;
} Pos;

/* the position after a legal move (SerpentEngine.apply); answers the pieces it took */
static int apply(const Board *b, Pos *s, const Move *m) {
    int turn = s->turn;
    if (s->huff) { /* a huff: the same side moves next, no ply */
        if (turn) s->white &= ~BIT(m->path[0]);
        else s->black &= ~BIT(m->path[0]);
        s->huff = 0;
        return 1;
    }
    uint64_t due = 0;
    if ((b->flags & HUFFING) && !first_rule(b, s->white, s->black, turn, s->ply))
        due = huff_due(b, turn ? s->black : s->white, turn ? s->white : s->black, m);
    uint64_t moved = BIT(m->path[0]), landed = BIT(m->path[m->npath - 1]);
    if (turn) {
        s->white &= ~m->caps;
        s->black = (s->black & ~moved) | landed;
    } else {
        s->white = (s->white & ~moved) | landed;
        s->black &= ~m->caps;
    }
    s->turn = 1 - turn;
    s->ply += 1;
    s->huff = due;
    return bits(m->caps);
}

/* whether the game is over (SerpentEngine.outcome is not None) */
static int over(const Board *b, const Pos *s) {
    if (s->huff) return 0;
    if (!s->white || !s->black) return 1;
    uint64_t own = s->turn ? s->black : s->white, enemy = s->turn ? s->white : s->black;
    uint64_t occupied = own | enemy, empty = b->full & ~occupied;
    for (uint64_t rest = own; rest; rest &= rest - 1) {
        int p = LOWEST(rest);
        for (int k = 0; k < b->nn[p]; k++)
            if (empty >> b->nbr[p][k] & 1) return 0;
        if (can_jump_from(b, p, occupied & ~BIT(p), enemy)) return 0;
    }
    return 1;
}

/* -- Python values ------------------------------------------------------------------- */

static int read_pos(PyObject *const *args, Pos *s) {
    s->white = PyLong_AsUnsignedLongLong(args[0]);
    s->black = PyLong_AsUnsignedLongLong(args[1]);
    s->turn = (int)PyLong_AsLong(args[2]);
    s->ply = PyLong_AsLong(args[3]);
    s->huff = PyLong_AsUnsignedLongLong(args[4]);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *move_object(const Board *b, const Move *m) {
    PyObject *path = PyTuple_New(m->npath);
    if (!path) return NULL;
    for (int i = 0; i < m->npath; i++) PyTuple_SET_ITEM(path, i, PyLong_FromLong(m->path[i]));
    PyObject *caps = PyTuple_New(bits(m->caps));
    if (!caps) {
        Py_DECREF(path);
        return NULL;
    }
    Py_ssize_t i = 0;
    for (uint64_t rest = m->caps; rest; rest &= rest - 1)
        PyTuple_SET_ITEM(caps, i++, PyLong_FromLong(LOWEST(rest)));
    /* a SerpentMove, made as tuple.__new__(SerpentMove, (path, caps)) makes it */
    PyTypeObject *type = (PyTypeObject *)b->move_type;
    PyObject *move = type->tp_alloc(type, 2);
    if (!move) {
        Py_DECREF(path);
        Py_DECREF(caps);
        return NULL;
    }
    PyTuple_SET_ITEM(move, 0, path);
    PyTuple_SET_ITEM(move, 1, caps);
    return move;
}

static PyObject *Board_moves(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) return PyErr_Format(PyExc_TypeError, "moves() takes 5 arguments");
    Pos s;
    if (read_pos(args, &s)) return NULL;
    Moves m = {0};
    if (generate(self, s.white, s.black, s.turn, s.ply, s.huff, &m)) {
        free(m.items);
        return PyErr_NoMemory();
    }
    PyObject *list = PyList_New((Py_ssize_t)m.n);
    for (size_t i = 0; list && i < m.n; i++) {
        PyObject *move = move_object(self, &m.items[i]);
        if (!move) Py_CLEAR(list);
        else PyList_SET_ITEM(list, (Py_ssize_t)i, move);
    }
    free(m.items);
    return list;
}

static int count(const Board *b, const Pos *s, int depth, unsigned long long *counts,
                 Moves *lists) {
    if (over(b, s)) return 0;
    Moves *m = &lists[0];
    if (generate(b, s->white, s->black, s->turn, s->ply, s->huff, m)) return -1;
    counts[0] += m->n;
    if (depth == 1) return 0;
    for (size_t i = 0; i < m->n; i++) {
        Pos t = *s;
        apply(b, &t, &m->items[i]);
        if (count(b, &t, depth - 1, counts + 1, lists + 1)) return -1;
    }
    return 0;
}

static PyObject *Board_perft(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) return PyErr_Format(PyExc_TypeError, "perft() takes 6 arguments");
    Pos s;
    if (read_pos(args, &s)) return NULL;
    long depth = PyLong_AsLong(args[5]);
    if (depth == -1 && PyErr_Occurred()) return NULL;
    if (depth < 1 || depth > 64) return PyErr_Format(PyExc_ValueError, "depth %ld", depth);
    unsigned long long counts[64] = {0};
    Moves lists[64];
    memset(lists, 0, sizeof lists);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = count(self, &s, (int)depth, counts, lists);
    Py_END_ALLOW_THREADS
    for (int i = 0; i < 64; i++) free(lists[i].items);
    if (failed) return PyErr_NoMemory();
    PyObject *out = PyList_New(depth);
    for (long i = 0; out && i < depth; i++)
        PyList_SET_ITEM(out, i, PyLong_FromUnsignedLongLong(counts[i]));
    return out;
}

/* The move a random game draws, as sample_move's choice among the moves generate()
 * lists, without listing the steps: a piece's steps are the empty points among its
 * neighbours in ascending order (the engine's order), so the i-th step is found by
 * counting.  0: the move is in *chosen; 1: there is no move; -1: an error is set. */
static int draw(const Board *b, const Pos *s, Draws *d, Moves *m, Move *chosen) {
    int64_t i;
    if (!b->ascending || s->huff || first_rule(b, s->white, s->black, s->turn, s->ply)) {
        if (generate(b, s->white, s->black, s->turn, s->ply, s->huff, m)) goto memory;
        if (!m->n) return 1;
        if ((i = zrec_randbelow(d, (uint32_t)m->n)) < 0) return -1;
        *chosen = m->items[i];
        return 0;
    }
    uint64_t own = s->turn ? s->black : s->white, enemy = s->turn ? s->white : s->black;
    uint64_t empty = b->full & ~(own | enemy);
    m->n = 0;
    if (captures(b, own, enemy, m)) goto memory;
    size_t taking = m->n, stepping = 0;
    if (!(taking && (b->flags & COMPULSORY)))
        for (uint64_t rest = own; rest; rest &= rest - 1)
            stepping += bits(b->adj[LOWEST(rest)] & empty);
    if (!(taking + stepping)) return 1;
    if ((i = zrec_randbelow(d, (uint32_t)(taking + stepping))) < 0) return -1;
    if ((size_t)i < taking) {
        *chosen = m->items[i];
        return 0;
    }
    i -= (int64_t)taking;
    for (uint64_t rest = own;; rest &= rest - 1) {
        int p = LOWEST(rest);
        uint64_t targets = b->adj[p] & empty;
        int here = bits(targets);
        if (i < here) {
            for (; i; i--) targets &= targets - 1;
            chosen->path[0] = (uint8_t)p;
            chosen->path[1] = (uint8_t)LOWEST(targets);
            chosen->npath = 2;
            chosen->caps = 0;
            return 0;
        }
        i -= here;
    }
memory:
    PyErr_NoMemory();
    return -1;
}

static PyObject *Board_play(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) return PyErr_Format(PyExc_TypeError, "play() takes 8 arguments");
    Pos s;
    if (read_pos(args, &s)) return NULL;
    PyObject *rng = args[5];
    long max_moves = PyLong_AsLong(args[6]), max_turns = PyLong_AsLong(args[7]);
    if (PyErr_Occurred()) return NULL;
    long moves = 0, turns = 0, removed[2] = {0, 0};
    int stalled = 0;
    Moves m = {0};
    Draws draws = zrec_draws(rng);
    for (;;) {
        /* over() without its own pass over the pieces: with pieces on both sides and
         * no huff due, the game is over exactly when the side to move has no step and
         * no capture, that is no move (but the first-move rule may hold it to the
         * centre: then over() asks) */
        if ((!s.huff && (!s.white || !s.black)) || moves >= max_moves || turns >= max_turns)
            break;
        Move chosen;
        int found = draw(self, &s, &draws, &m, &chosen);
        if (found < 0) {
            free(m.items);
            return NULL;
        }
        if (found == 1) {
            int ended = !s.huff && (!first_rule(self, s.white, s.black, s.turn, s.ply) ||
                                    over(self, &s));
            stalled = !ended;
            break;
        }
        int seat = s.turn, turn = !s.huff; /* a huff is not a turn */
        removed[seat] += apply(self, &s, &chosen);
        moves++;
        turns += turn;
    }
    free(m.items);
    return Py_BuildValue("(KKilKllllO)", (unsigned long long)s.white,
                         (unsigned long long)s.black, s.turn, s.ply,
                         (unsigned long long)s.huff, moves, turns, removed[0], removed[1],
                         stalled ? Py_True : Py_False);
}

/* How a position ends (SerpentEngine.outcome): -1 not over, 0 drawn, 1 White wins,
 * 2 Black wins. */
static int result(const Board *b, const Pos *s) {
    if (s->huff) return -1;
    int w = bits(s->white), k = bits(s->black);
    if (!w || !k) return !w && !k ? 0 : !w ? 2 : 1;
    uint64_t own = s->turn ? s->black : s->white, enemy = s->turn ? s->white : s->black;
    uint64_t empty = b->full & ~(own | enemy);
    for (uint64_t rest = own; rest; rest &= rest - 1)
        if (b->adj[LOWEST(rest)] & empty) return -1;
    if (jumpers(b, own, enemy)) return -1;
    if (b->flags & BLOCKED_LOSES) return s->turn ? 1 : 2;
    if ((b->flags & END_DRAW) || w == k) return 0;
    return w > k ? 1 : 2;
}

/* A position as its key tells it (SerpentEngine.key): equal keys, equal positions for
 * the draw rules.  ``plus`` marks the start come back with the first-move rule spent
 * (only where the key marks it: Pieces "23" without compulsory captures). */
typedef struct {
    uint64_t white, black, huff;
    int turn, plus;
} Key;

/* The draw rules (DrawRulesEngine): plies without a capture that draw (0: off), and
 * the occurrences of a position that draw (0: off). */
typedef struct {
    int quiet_limit, repeats;
} DrawRules;

static Key key_of(const Board *b, const Pos *s) {
    Key k = {s->white, s->black, s->huff, s->turn, 0};
    k.plus = (b->flags & FIRST_TO_CENTRE) && !(b->flags & COMPULSORY) && s->ply &&
             s->white == b->start_white && s->black == b->start_black &&
             s->turn == b->start_turn;
    return k;
}

static int same_key(const Key *a, const Key *b) {
    return a->white == b->white && a->black == b->black && a->huff == b->huff &&
           a->turn == b->turn && a->plus == b->plus;
}

/* whether the draw rules draw the game now: ``seen`` holds the positions since the
 * last capture, this one last (DrawRulesEngine._drawn) */
static int drawn(const DrawRules *d, const Key *seen, int n, int quiet) {
    if (d->quiet_limit && quiet >= d->quiet_limit) return 1;
    if (d->repeats && n) {
        int times = 0;
        for (int i = 0; i < n; i++) times += same_key(&seen[i], &seen[n - 1]);
        if (times >= d->repeats) return 1;
    }
    return 0;
}

/* The material search of zrec.rules.loops.reference_search: minimax with alpha-beta
 * pruning, the moves taking most first (then in generate()'s order).  Under the draw
 * rules (``d`` not NULL) a drawn position is worth 0, and ``seen`` (n positions, room
 * for depth + 1 more) and ``quiet`` carry the history as DrawRulesEngine.apply does:
 * a capture (a huff too) starts it again.  -WIN-2 with an error set on failure. */
static long search(const Board *b, const Pos *s, int me, int depth, int ahead, long alpha,
                   long beta, Moves *lists, const DrawRules *d, Key *seen, int n, int quiet) {
    int r = result(b, s);
    if (r < 0 && d && drawn(d, seen, n, quiet)) r = 0;
    if (r >= 0) return r == 0 ? 0 : r - 1 == me ? WIN - ahead : -(WIN - ahead);
    long material = me ? bits(s->black) - bits(s->white) : bits(s->white) - bits(s->black);
    if (depth == 0) return material;
    Moves *m = lists;
    if (generate(b, s->white, s->black, s->turn, s->ply, s->huff, m)) {
        PyErr_NoMemory();
        return -WIN - 2;
    }
    if (!m->n) return material;
    /* the most pieces taken first, a stable order: taken counts are small */
    size_t count = m->n, k = 0;
    uint16_t order[4096];
    if (count > 4096) {
        PyErr_SetString(PyExc_OverflowError, "more than 4096 moves in one position");
        return -WIN - 2;
    }
    int most = 0;
    for (size_t i = 0; i < count; i++)
        if (bits(m->items[i].caps) > most) most = bits(m->items[i].caps);
    for (int taken = most; taken >= 0; taken--)
        for (size_t i = 0; i < count; i++)
            if (bits(m->items[i].caps) == taken) order[k++] = (uint16_t)i;
    int mine = s->turn == me;
    long best = mine ? -WIN - 1 : WIN + 1;
    for (size_t i = 0; i < count; i++) {
        const Move *move = &m->items[order[i]];
        Pos t = *s;
        apply(b, &t, move);
        long v;
        if (d) { /* the child's key goes after this history, or starts a new one */
            seen[n] = key_of(b, &t);
            v = move->caps ? search(b, &t, me, depth - 1, ahead + 1, alpha, beta, lists + 1, d,
                                    seen + n, 1, 0)
                           : search(b, &t, me, depth - 1, ahead + 1, alpha, beta, lists + 1, d,
                                    seen, n + 1, quiet + 1);
        } else {
            v = search(b, &t, me, depth - 1, ahead + 1, alpha, beta, lists + 1, NULL, NULL, 0, 0);
        }
        if (v == -WIN - 2) return v;
        if (mine) {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    return best;
}

static PyObject *Board_search(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 10 && nargs != 14)
        return PyErr_Format(PyExc_TypeError, "search() takes 10 or 14 arguments");
    Pos s;
    if (read_pos(args, &s)) return NULL;
    long me = PyLong_AsLong(args[5]), depth = PyLong_AsLong(args[6]);
    long ahead = PyLong_AsLong(args[7]), alpha = PyLong_AsLong(args[8]);
    long beta = PyLong_AsLong(args[9]);
    if (PyErr_Occurred()) return NULL;
    if (depth < 0 || depth > 60 || (me != 0 && me != 1))
        return PyErr_Format(PyExc_ValueError, "search(): depth %ld, seat %ld", depth, me);
    DrawRules rules = {0, 0}, *d = NULL;
    Key *seen = NULL;
    int n = 0, quiet = 0;
    if (nargs == 14) { /* the draw rules and the history: the limits, quiet, the keys */
        rules.quiet_limit = (int)PyLong_AsLong(args[10]);
        rules.repeats = (int)PyLong_AsLong(args[11]);
        quiet = (int)PyLong_AsLong(args[12]);
        PyObject *keys = PySequence_Fast(args[13], "the history is a sequence");
        if (!keys) return NULL;
        n = (int)PySequence_Fast_GET_SIZE(keys);
        seen = malloc(sizeof(Key) * (size_t)(n + depth + 2));
        if (!seen) {
            Py_DECREF(keys);
            return PyErr_NoMemory();
        }
        for (int i = 0; i < n; i++) {
            unsigned long long w, k, h;
            int turn, plus;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(keys, i), "KKKii", &w, &k, &h, &turn,
                                  &plus)) {
                Py_DECREF(keys);
                free(seen);
                return NULL;
            }
            seen[i] = (Key){w, k, h, turn, plus};
        }
        Py_DECREF(keys);
        if (PyErr_Occurred()) {
            free(seen);
            return NULL;
        }
        d = &rules;
    }
    Moves lists[64];
    memset(lists, 0, sizeof lists);
    long v = search(self, &s, (int)me, (int)depth, (int)ahead, alpha, beta, lists, d, seen, n,
                    quiet);
    for (int i = 0; i < 64; i++) free(lists[i].items);
    free(seen);
    if (v == -WIN - 2 && PyErr_Occurred()) return NULL;
    return PyLong_FromLong(v);
}

static PyObject *Board_stuck(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "stuck() takes 2 arguments");
    uint64_t own = PyLong_AsUnsignedLongLong(args[0]), enemy = PyLong_AsUnsignedLongLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    uint64_t empty = self->full & ~(own | enemy);
    for (uint64_t rest = own; rest; rest &= rest - 1)
        if (self->adj[LOWEST(rest)] & empty) Py_RETURN_FALSE;
    if (jumpers(self, own, enemy)) Py_RETURN_FALSE;
    Py_RETURN_TRUE;
}

/* -- the Board type ------------------------------------------------------------------ */

static int Board_init(Board *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"size", "centre", "neighbours", "jumps", "flags", "start",
                            "move_type", NULL};
    PyObject *neighbours, *jumps, *move_type;
    unsigned long long sw, sb;
    int st;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOOi(KKi)O", names, &self->size,
                                     &self->centre, &neighbours, &jumps, &self->flags, &sw,
                                     &sb, &st, &move_type))
        return -1;
    if (self->size < 1 || self->size > MAXPTS || self->centre < 0 ||
        self->centre >= self->size) {
        PyErr_SetString(PyExc_ValueError, "a serpent board has 1 to 64 points");
        return -1;
    }
    if (!PyType_Check(move_type) ||
        !PyType_IsSubtype((PyTypeObject *)move_type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "move_type must be a tuple type");
        return -1;
    }
    self->full = self->size == 64 ? ~(uint64_t)0 : BIT(self->size) - 1;
    self->ascending = 1;
    self->nshapes = 0;
    self->start_white = sw;
    self->start_black = sb;
    self->start_turn = st;
    for (int p = 0; p < self->size; p++) {
        PyObject *ns = PySequence_GetItem(neighbours, p), *js = PySequence_GetItem(jumps, p);
        if (!ns || !js) {
            Py_XDECREF(ns);
            Py_XDECREF(js);
            return -1;
        }
        Py_ssize_t a = PySequence_Size(ns), c = PySequence_Size(js);
        if (a < 0 || a > 8 || c < 0 || c > MAXJUMPS) {
            Py_DECREF(ns);
            Py_DECREF(js);
            PyErr_SetString(PyExc_ValueError, "at most 8 neighbours and 64 jumps a point");
            return -1;
        }
        self->nn[p] = (uint8_t)a;
        self->adj[p] = 0;
        self->nj[p] = (uint8_t)c;
        for (Py_ssize_t k = 0; k < a; k++) {
            PyObject *x = PySequence_GetItem(ns, k);
            long v = x ? PyLong_AsLong(x) : -1;
            Py_XDECREF(x);
            if (v < 0 || v >= self->size) goto bad;
            self->nbr[p][k] = (uint8_t)v;
            if (k && v <= self->nbr[p][k - 1]) self->ascending = 0;
            self->adj[p] |= BIT(v);
        }
        for (Py_ssize_t k = 0; k < c; k++) {
            int q, r;
            PyObject *x = PySequence_GetItem(js, k);
            int ok = x && PyArg_ParseTuple(x, "ii", &q, &r);
            Py_XDECREF(x);
            if (!ok || q < 0 || r < 0 || q >= self->size || r >= self->size) goto bad;
            self->jover[p][k] = (uint8_t)q;
            self->jto[p][k] = (uint8_t)r;
            int j = 0;
            while (j < self->nshapes &&
                   (self->shift1[j] != q - p || self->shift2[j] != r - q))
                j++;
            if (j == self->nshapes) {
                self->nshapes++;
                self->shift1[j] = q - p;
                self->shift2[j] = r - q;
                self->starts[j] = 0;
            }
            self->starts[j] |= BIT(p);
            int over = q - p, land = r - p;
            self->over_r[j] = (uint8_t)(over > 0 ? over : 0);
            self->over_l[j] = (uint8_t)(over < 0 ? -over : 0);
            self->land_r[j] = (uint8_t)(land > 0 ? land : 0);
            self->land_l[j] = (uint8_t)(land < 0 ? -land : 0);
        }
        Py_DECREF(ns);
        Py_DECREF(js);
        continue;
    bad:
        Py_DECREF(ns);
        Py_DECREF(js);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a point out of the board");
        return -1;
    }
    Py_INCREF(move_type);
    Py_XSETREF(self->move_type, move_type);
    return 0;
}

static void Board_dealloc(Board *self) {
    Py_XDECREF(self->move_type);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* written lines: defined in the section at the end of this file */
static PyObject *Board_line(Board *self, PyObject *const *args, Py_ssize_t nargs);
static int init_lines(void);

static PyMethodDef Board_methods[] = {
    {"moves", (PyCFunction)(void (*)(void))Board_moves, METH_FASTCALL,
     "moves(white, black, turn, ply, huff): every legal move, in the engine's order"},
    {"perft", (PyCFunction)(void (*)(void))Board_perft, METH_FASTCALL,
     "perft(white, black, turn, ply, huff, depth): move sequences of each length"},
    {"search", (PyCFunction)(void (*)(void))Board_search, METH_FASTCALL,
     "search(white, black, turn, ply, huff, me, depth, ahead, alpha, beta): the value"},
    {"stuck", (PyCFunction)(void (*)(void))Board_stuck, METH_FASTCALL,
     "stuck(own, enemy): whether own has no step and no capture"},
    {"play", (PyCFunction)(void (*)(void))Board_play, METH_FASTCALL,
     "play(white, black, turn, ply, huff, rng, max_moves, max_turns): a random game"},
    {"line", (PyCFunction)(void (*)(void))Board_line, METH_FASTCALL,
     "line(white, black, turn, ply, huff, turns, numbers, dots, keys, start_ply): a "
     "written line played while nothing in it needs a word"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "zrec.rules.serpent._kernel.Board",
    .tp_basicsize = sizeof(Board),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One serpent board with one choice of rule options, compiled.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Board_init,
    .tp_dealloc = (destructor)Board_dealloc,
    .tp_methods = Board_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel",
    "The serpent games' compiled kernel (see zrec.rules.kernel).", -1, NULL, NULL, NULL, NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    if (PyType_Ready(&BoardType) < 0 || init_lines() < 0) return NULL;
    if (zrec_random_check() < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&BoardType);
    if (PyModule_AddObject(m, "Board", (PyObject *)&BoardType) < 0) {
        Py_DECREF(&BoardType);
        Py_DECREF(m);
        return NULL;
    }
    /* 1: random games step a random.Random's state in place (../kernel_random.h) */
    PyModule_AddIntConstant(m, "STATE_DRAWS", zrec_state_usable);
    PyModule_AddIntConstant(m, "COMPULSORY", COMPULSORY);
    PyModule_AddIntConstant(m, "HUFFING", HUFFING);
    PyModule_AddIntConstant(m, "ONE_HOP", ONE_HOP);
    PyModule_AddIntConstant(m, "MUST_END", MUST_END);
    PyModule_AddIntConstant(m, "WHOLE", WHOLE);
    PyModule_AddIntConstant(m, "FIRST_TO_CENTRE", FIRST_TO_CENTRE);
    PyModule_AddIntConstant(m, "BLOCKED_LOSES", BLOCKED_LOSES);
    PyModule_AddIntConstant(m, "END_DRAW", END_DRAW);
    return m;
}

/* == Written lines (issue 38: validate and import) ====================================
 *
 * Board.line(white, black, turn, ply, huff, turns, numbers, dots, keys, start_ply)
 *     -> (played, white, black, turn, ply, huff, moves, keys or None, removals or None)
 * plays a line of written turns (zrec.moves.Turn values) from a position as
 * zrec.rules.lines.reference_line does over the engine: each turn resolved as
 * WrittenMoves.resolve reads it when it answers a legal move with no note, its written
 * number (numbers[i], None: none; dots[i]) compared with SerpentEngine.move_number,
 * then applied; it stops before the first turn that resolve would refuse, answer with
 * a note, or whose number does not fit.  With keys true it also answers the engine's
 * key (SerpentEngine.key) after each move played and, for each move that took pieces,
 * (its ply, (White's pieces, Black's pieces)) after it; start_ply is the ply (as the
 * walker counts it) before the first turn.
 */

static PyObject *s_dice, *s_actions, *s_kind, *s_squares, *s_seps, *s_vias;

/* the bit of a point name (lattice.point_name: b_i = 3(i-1), a_i +1, c_i +2) on a
 * board large enough, or -1 (not a point name) */
static int point_bit(PyObject *name) {
    if (!PyUnicode_Check(name)) return -1;
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(name, &n);
    if (!s) {
        PyErr_Clear();
        return -1;
    }
    if (n < 2 || n > 4 || s[1] < '1' || s[1] > '9') return -1;
    int row = s[0] == 'b' ? 0 : s[0] == 'a' ? 1 : s[0] == 'c' ? 2 : -1;
    if (row < 0) return -1;
    int number = 0;
    for (Py_ssize_t i = 1; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        number = number * 10 + (s[i] - '0');
    }
    return 3 * (number - 1) + row;
}

/* A written turn as a path: 1 when it is not one resolve can read with no word (dice,
 * several actions, not a path, not a point name, a separator neither - nor x), -1 on a
 * Python error.  vias[i] is the point written before path[i + 1], or -1; *chain is 1
 * when every separator is x, 0 when every one is -.  (The points are checked against
 * the board's size by the caller.) */
static int read_turn(PyObject *turn, int *path, int *npath, int *vias, int *chain) {
    int answer = 1;
    PyObject *dice = NULL, *actions = NULL, *kind = NULL, *squares = NULL, *seps = NULL,
             *written = NULL;
    dice = PyObject_GetAttr(turn, s_dice);
    if (!dice) return -1;
    if (dice != Py_None) goto done;
    actions = PyObject_GetAttr(turn, s_actions);
    if (!actions) goto failed;
    if (!PyTuple_Check(actions) || PyTuple_GET_SIZE(actions) != 1) goto done;
    PyObject *action = PyTuple_GET_ITEM(actions, 0);
    kind = PyObject_GetAttr(action, s_kind);
    if (!kind) goto failed;
    if (!PyUnicode_Check(kind) || PyUnicode_CompareWithASCIIString(kind, "path")) goto done;
    squares = PyObject_GetAttr(action, s_squares);
    seps = squares ? PyObject_GetAttr(action, s_seps) : NULL;
    written = seps ? PyObject_GetAttr(action, s_vias) : NULL;
    if (!written) goto failed;
    if (!PyTuple_Check(squares) || !PyTuple_Check(seps) || !PyTuple_Check(written)) goto done;
    Py_ssize_t n = PyTuple_GET_SIZE(squares);
    if (n < 1 || n > MAXPATH || PyTuple_GET_SIZE(seps) != n - 1 ||
        PyTuple_GET_SIZE(written) != n - 1)
        goto done;
    int dashes = 0, xs = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int p = point_bit(PyTuple_GET_ITEM(squares, i));
        if (p < 0) goto done;
        path[i] = p;
    }
    for (Py_ssize_t i = 0; i + 1 < n; i++) {
        PyObject *via = PyTuple_GET_ITEM(written, i), *sep = PyTuple_GET_ITEM(seps, i);
        if (via == Py_None) vias[i] = -1;
        else if ((vias[i] = point_bit(via)) < 0) goto done;
        if (!PyUnicode_Check(sep)) goto done;
        if (!PyUnicode_CompareWithASCIIString(sep, "-")) dashes++;
        else if (!PyUnicode_CompareWithASCIIString(sep, "x")) xs++;
        else goto done;
    }
    if (dashes && xs) goto done;
    *npath = (int)n;
    *chain = xs > 0;
    answer = 0;
    goto done;
failed:
    answer = -1;
done:
    Py_XDECREF(dice);
    Py_XDECREF(actions);
    Py_XDECREF(kind);
    Py_XDECREF(squares);
    Py_XDECREF(seps);
    Py_XDECREF(written);
    return answer;
}

/* the ways to jump along path from hop i on (WrittenMoves._hops): *count is 0, 1 (the
 * one set of jumped points, in *found) or 2 (more than one) */
static void hops(const Board *b, const uint8_t *path, int n, const int *vias, int i,
                 uint64_t friends, uint64_t enemy, uint64_t caps, uint64_t *found, int *count) {
    if (*count > 1) return;
    if (i == n) {
        int last = path[n - 1];
        if ((b->flags & MUST_END) && can_jump_from(b, last, friends | enemy, enemy)) return;
        if (!*count) {
            *found = caps;
            *count = 1;
        } else if (*found != caps) {
            *count = 2;
        }
        return;
    }
    int p = path[i - 1], r = path[i];
    if ((friends | enemy) >> r & 1) return;
    for (int k = 0; k < b->nj[p]; k++) {
        int q = b->jover[p][k];
        if (b->jto[p][k] != r || (vias[i - 1] >= 0 && q != vias[i - 1])) continue;
        if (enemy >> q & 1)
            hops(b, path, n, vias, i + 1, friends, enemy & ~BIT(q), caps | BIT(q), found, count);
    }
}

static int can_capture(const Board *b, uint64_t own, uint64_t enemy) {
    uint64_t occupied = own | enemy;
    for (uint64_t rest = own; rest; rest &= rest - 1) {
        int p = LOWEST(rest);
        if (can_jump_from(b, p, occupied & ~BIT(p), enemy)) return 1;
    }
    return 0;
}

/* the legal move a written path names with no word to say (WrittenMoves.resolve), else 0 */
static int resolve_path(const Board *b, const Pos *s, const uint8_t *path, int n,
                        const int *vias, int chain, Move *m) {
    uint64_t own = s->turn ? s->black : s->white, enemy = s->turn ? s->white : s->black;
    if (s->huff || ((b->flags & HUFFING) && n == 1)) { /* _resolve_huff */
        if (!s->huff || n != 1 || !(s->huff >> path[0] & 1)) return 0;
        m->path[0] = path[0];
        m->npath = 1;
        m->caps = BIT(path[0]);
        return 1;
    }
    if (!(own >> path[0] & 1) || n < 2) return 0;
    int first = first_rule(b, s->white, s->black, s->turn, s->ply);
    if (!chain) { /* a step (_resolve_step) */
        if (n != 2 || vias[0] >= 0) return 0;
        int frm = path[0], to = path[1], joined = 0;
        for (int k = 0; k < b->nn[frm]; k++) joined |= b->nbr[frm][k] == to;
        if (!joined || ((own | enemy) >> to & 1)) return 0;
        if (first ? to != b->centre : (b->flags & COMPULSORY) && can_capture(b, own, enemy))
            return 0;
        m->caps = 0;
    } else {
        if (first || ((b->flags & ONE_HOP) && n > 2)) return 0;
        uint64_t found = 0;
        int count = 0;
        hops(b, path, n, vias, 1, own & ~BIT(path[0]), enemy, 0, &found, &count);
        if (count != 1) return 0;
        m->caps = found;
    }
    memcpy(m->path, path, (size_t)n);
    m->npath = (uint8_t)n;
    return 1;
}

/* SerpentEngine.key */
static PyObject *key_bytes(const Board *b, const Pos *s) {
    unsigned char buf[8 * 3 + 3];
    int nb = (b->size + 7) / 8, k = 0;
    for (int i = 0; i < nb; i++) buf[k++] = (unsigned char)(s->white >> (8 * i));
    for (int i = 0; i < nb; i++) buf[k++] = (unsigned char)(s->black >> (8 * i));
    buf[k++] = s->turn ? 'b' : 'w';
    int f = b->flags;
    if ((f & HUFFING) || ((f & FIRST_TO_CENTRE) && !(f & COMPULSORY))) {
        if (s->huff) {
            buf[k++] = 'h';
            for (int i = 0; i < nb; i++) buf[k++] = (unsigned char)(s->huff >> (8 * i));
        }
        if ((f & FIRST_TO_CENTRE) && s->ply && s->white == b->start_white &&
            s->black == b->start_black && s->turn == b->start_turn)
            buf[k++] = '+';
    }
    return PyBytes_FromStringAndSize((const char *)buf, k);
}

/* The turns read last, by address: a file repeats the same Turn objects (the reader
 * makes one a word), so each is read once.  An entry holds a reference to its turn, so
 * that no other object takes its address while it is there. */
#define READ_TURNS 4096
typedef struct {
    PyObject *turn;
    int answer, npath, chain;
    int path[MAXPATH], vias[MAXPATH];
} ReadTurn;
static ReadTurn read_turns[READ_TURNS];

static const ReadTurn *read_turn_once(PyObject *turn) {
    ReadTurn *e = &read_turns[((uintptr_t)turn >> 4) % READ_TURNS];
    if (e->turn == turn) return e;
    ReadTurn fresh = {NULL, 0, 0, 0, {0}, {0}};
    fresh.answer = read_turn(turn, fresh.path, &fresh.npath, fresh.vias, &fresh.chain);
    if (fresh.answer < 0) return NULL;
    Py_XDECREF(e->turn);
    *e = fresh;
    Py_INCREF(turn);
    e->turn = turn;
    return e;
}

static PyObject *Board_line(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 10) return PyErr_Format(PyExc_TypeError, "line() takes 10 arguments");
    Pos s;
    if (read_pos(args, &s)) return NULL;
    PyObject *turns = args[5], *numbers = args[6], *dots = args[7];
    int with_keys = PyObject_IsTrue(args[8]);
    long walked = PyLong_AsLong(args[9]);
    if (with_keys < 0 || (walked == -1 && PyErr_Occurred())) return NULL;
    if (!PyList_Check(turns) || !PyList_Check(numbers) || !PyList_Check(dots))
        return PyErr_Format(PyExc_TypeError, "line() takes lists of turns, numbers, dots");
    Py_ssize_t n = PyList_GET_SIZE(turns);
    if (PyList_GET_SIZE(numbers) != n || PyList_GET_SIZE(dots) != n)
        return PyErr_Format(PyExc_ValueError, "line(): turns, numbers and dots differ in length");
    PyObject *keys = with_keys ? PyList_New(0) : Py_NewRef(Py_None);
    PyObject *removals = with_keys ? PyList_New(0) : Py_NewRef(Py_None);
    if (!keys || !removals) goto failed;
    Py_ssize_t i = 0;
    long moves = 0;
    for (; i < n; i++) {
        PyObject *number = PyList_GET_ITEM(numbers, i);
        if (number != Py_None) {
            long written = PyLong_AsLong(number), dot = PyLong_AsLong(PyList_GET_ITEM(dots, i));
            if (PyErr_Occurred()) goto failed;
            if (s.huff || written != s.ply / 2 + 1 || dot != (s.turn == self->start_turn ? 1 : 3))
                break;
        }
        const ReadTurn *read = read_turn_once(PyList_GET_ITEM(turns, i));
        if (!read) goto failed;
        if (read->answer) break;
        uint8_t path[MAXPATH];
        int on_board = 1;
        for (int k = 0; k < read->npath; k++) {
            on_board &= read->path[k] < self->size;
            path[k] = (uint8_t)read->path[k];
        }
        for (int k = 0; k + 1 < read->npath; k++) on_board &= read->vias[k] < self->size;
        Move m;
        if (!on_board || !resolve_path(self, &s, path, read->npath, read->vias, read->chain, &m))
            break;
        apply(self, &s, &m);
        moves++;
        if (with_keys) {
            PyObject *key = key_bytes(self, &s);
            if (!key || PyList_Append(keys, key)) {
                Py_XDECREF(key);
                goto failed;
            }
            Py_DECREF(key);
            if (m.caps) {
                PyObject *removal = Py_BuildValue("(l(ii))", walked + moves,
                                                  __builtin_popcountll(s.white),
                                                  __builtin_popcountll(s.black));
                if (!removal || PyList_Append(removals, removal)) {
                    Py_XDECREF(removal);
                    goto failed;
                }
                Py_DECREF(removal);
            }
        }
    }
    return Py_BuildValue("(nKKilKlNN)", i, (unsigned long long)s.white,
                         (unsigned long long)s.black, s.turn, s.ply,
                         (unsigned long long)s.huff, moves, keys, removals);
failed:
    Py_XDECREF(keys);
    Py_XDECREF(removals);
    return NULL;
}

static int init_lines(void) {
    s_dice = PyUnicode_InternFromString("dice");
    s_actions = PyUnicode_InternFromString("actions");
    s_kind = PyUnicode_InternFromString("kind");
    s_squares = PyUnicode_InternFromString("squares");
    s_seps = PyUnicode_InternFromString("seps");
    s_vias = PyUnicode_InternFromString("vias");
    return s_dice && s_actions && s_kind && s_squares && s_seps && s_vias ? 0 : -1;
}
