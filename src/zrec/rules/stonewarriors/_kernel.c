/* Stone Warriors' compiled kernel: moves, perft and random games on multi-word boards.
 *
 * The readable statement of these rules is the Python engine: rules.py (the default
 * and Culin rule sets, on the 14x14 grid of board.py) and teams.py (Ludii's rule set,
 * four seats on the 365 points of points.py).  This file does the same work faster and
 * is held to it by tests/rules/test_kernel_stonewarriors.py (every rule set and First
 * side: perft, every sample, thousands of random games).  A board is made by its
 * engine from the engine's own tables (the targets of each piece in the engine's order,
 * the capture lines in the engine's order), so that moves come out in the order the
 * engine lists them and random games draw the same moves from the same generator.
 *
 * Board (rules.StoneWarriors): a position is StonePosition's fields; its bitmasks
 * (white, black, priests; bit i is grid point i, 196 points) are four 64-bit words.  A
 * move is a step (origin, target, captures in the written order), a priest's entry
 * (target) or a pass, made as the engine's StoneMove.
 *
 * TeamBoard (teams.TeamStoneWarriors): a position is TeamPosition's fields; the pieces
 * of each seat and the large pieces (bit i is point i, 365 points) are six words.  A
 * move is a step (origin, target, captures by letter then row, the point the large
 * piece is placed on) or a pass, made as the engine's TeamMove.
 *
 * Methods of both (pos is the engine's position object, made and read through the
 * member descriptors of its slots, as zrec.rules.stonewarriors._fast does):
 *   moves(pos)                             -> (move, ...) as engine.legal_moves
 *   sample(pos, rng)                       -> move or None, as engine.sample_move
 *   perft(pos, depth)                      -> [count at depth 1, ..., depth]
 *   key(pos)                               -> bytes, as engine.key
 *   line(pos, turns, numbers, dots, keys[, first]) -> a written line played (see
 *       "Written lines" below: the validator's and the archive's main line in one call)
 *   play(pos, rng, max_moves, max_turns)   -> (pos, moves, turns, removed, stalled)
 * sample() and play() draw as zrec.rules.values.choose does with random.Random: where a
 * move scores progress above 0, rng.random() < drive picks the best-scoring moves, then
 * rng.choice (getrandbits of the bit length of the count, again while too large),
 * through ../kernel_random.h, so a game is the one the Python engine plays.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../kernel_random.h"

#define LOWEST(x) __builtin_ctzll(x)
#define POP(x) __builtin_popcountll(x)
#define HAS(w, i) ((w)[(i) >> 6] >> ((i) & 63) & 1)
#define SET(w, i) ((w)[(i) >> 6] |= (uint64_t)1 << ((i) & 63))
#define CLR(w, i) ((w)[(i) >> 6] &= ~((uint64_t)1 << ((i) & 63)))
#define FLIP(w, i) ((w)[(i) >> 6] ^= (uint64_t)1 << ((i) & 63))
#define MAXMOVES 64

enum { STEP, ENTER, PASS };

static PyObject *sixty_four;
static PyObject *kind_step, *kind_enter, *empty_tuple;

/* -- Python values ------------------------------------------------------------------- */

/* the n low words of a non-negative int below 2**(64 n) */
static int words_from(PyObject *x, uint64_t *w, int n) {
    if (!PyLong_Check(x)) {
        PyErr_SetString(PyExc_TypeError, "a bitmask must be an int");
        return -1;
    }
    Py_INCREF(x);
    for (int k = 0; k < n; k++) {
        w[k] = PyLong_AsUnsignedLongLongMask(x);
        if (w[k] == (uint64_t)-1 && PyErr_Occurred()) {
            Py_DECREF(x);
            return -1;
        }
        PyObject *y = PyNumber_Rshift(x, sixty_four);
        Py_DECREF(x);
        if (!y) return -1;
        x = y;
    }
    int rest = PyObject_IsTrue(x);
    Py_DECREF(x);
    if (rest) {
        if (rest > 0) PyErr_SetString(PyExc_ValueError, "a bitmask beyond the board");
        return -1;
    }
    return 0;
}

static PyObject *words_to(const uint64_t *w, int n) {
    while (n > 1 && !w[n - 1]) n--;
    PyObject *x = PyLong_FromUnsignedLongLong(w[n - 1]);
    for (int k = n - 2; k >= 0 && x; k--) {
        PyObject *y = PyNumber_Lshift(x, sixty_four);
        Py_DECREF(x);
        if (!y) return NULL;
        PyObject *low = PyLong_FromUnsignedLongLong(w[k]);
        if (!low) {
            Py_DECREF(y);
            return NULL;
        }
        x = PyNumber_Or(y, low);
        Py_DECREF(y);
        Py_DECREF(low);
    }
    return x;
}

/* the slot descriptors of a type, by name: what object.__new__ + descriptor.__set__
 * (the _fast module's way) and attribute reads go through */
static int descriptors(PyObject *type, const char *const *names, PyObject **out, int n) {
    for (int k = 0; k < n; k++) {
        PyObject *d = PyObject_GetAttrString(type, names[k]);
        if (!d) return -1;
        if (!Py_TYPE(d)->tp_descr_get || !Py_TYPE(d)->tp_descr_set) {
            Py_DECREF(d);
            PyErr_Format(PyExc_TypeError, "%s is not a slot", names[k]);
            return -1;
        }
        Py_XSETREF(out[k], d);
    }
    return 0;
}

static inline PyObject *get_field(PyObject *d, PyObject *obj) {
    return Py_TYPE(d)->tp_descr_get(d, obj, (PyObject *)Py_TYPE(obj));
}

/* a new object of type with its slots set to values (references stolen) */
static PyObject *make_object(PyObject *type, PyObject *const *d, PyObject **values, int n) {
    PyObject *obj = NULL;
    for (int k = 0; k < n; k++)
        if (!values[k]) goto done;
    obj = ((PyTypeObject *)type)->tp_alloc((PyTypeObject *)type, 0);
    if (!obj) goto done;
    for (int k = 0; k < n; k++) {
        if (Py_TYPE(d[k])->tp_descr_set(d[k], obj, values[k])) {
            Py_CLEAR(obj);
            goto done;
        }
    }
done:
    for (int k = 0; k < n; k++) Py_XDECREF(values[k]);
    return obj;
}

static long long field_long(PyObject *d, PyObject *obj) {
    PyObject *v = get_field(d, obj);
    if (!v) return -1;
    long long x = PyLong_AsLongLong(v);
    Py_DECREF(v);
    return x;
}

/* the n truth values (or ints) of a tuple field */
static int field_items(PyObject *d, PyObject *obj, long long *out, int n, int truth) {
    PyObject *v = get_field(d, obj);
    if (!v) return -1;
    if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != n) {
        Py_DECREF(v);
        PyErr_Format(PyExc_ValueError, "a tuple of %d expected", n);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        PyObject *item = PyTuple_GET_ITEM(v, k);
        out[k] = truth ? PyObject_IsTrue(item) : PyLong_AsLongLong(item);
        if (out[k] == -1 && PyErr_Occurred()) {
            Py_DECREF(v);
            return -1;
        }
    }
    Py_DECREF(v);
    return 0;
}

static int field_words(PyObject *d, PyObject *obj, uint64_t *w, int n) {
    PyObject *v = get_field(d, obj);
    if (!v) return -1;
    int r = words_from(v, w, n);
    Py_DECREF(v);
    return r;
}

static PyObject *bools(const int *x, int n) {
    PyObject *t = PyTuple_New(n);
    for (int k = 0; t && k < n; k++) {
        PyObject *b = x[k] ? Py_True : Py_False;
        Py_INCREF(b);
        PyTuple_SET_ITEM(t, k, b);
    }
    return t;
}

/* -- drawing as random.Random does ----------------------------------------------------- */

/* a number below n as random.Random._randbelow draws it (../kernel_random.h) */
static int randbelow(Draws *rng, size_t n, size_t *out) {
    int64_t v = zrec_randbelow(rng, (uint32_t)n);
    if (v < 0) return -1;
    *out = (size_t)v;
    return 0;
}

/* zrec.rules.values.choose over n moves scored progress[]: the index drawn */
static int choose(Draws *rng, const int *progress, int n, double drive, int *out) {
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "no move to choose from");
        return -1;
    }
    int best = progress[0];
    for (int i = 1; i < n; i++)
        if (progress[i] > best) best = progress[i];
    int pick[MAXMOVES], m = 0;
    if (best > 0) {
        double x = zrec_random(rng);
        if (x == -1.0 && PyErr_Occurred()) return -1;
        if (x < drive)
            for (int i = 0; i < n; i++)
                if (progress[i] == best) pick[m++] = i;
    }
    size_t k;
    if (randbelow(rng, m ? (size_t)m : (size_t)n, &k)) return -1;
    *out = m ? pick[k] : (int)k;
    return 0;
}

/* ===================================================================================== */
/* The default and Culin rule sets: two sides on the 14x14 grid.                         */
/* ===================================================================================== */

#define NSQ 196
#define NW 4
#define WIDTH 14

typedef struct {
    uint64_t w[NW], b[NW], p[NW]; /* White's pieces, Black's, the priests */
    int side, off[2];
    long long ply, passes;
} Pos;

typedef struct {
    uint8_t kind, origin, target, ncaps, caps[8];
    uint8_t dir; /* the direction of a step (the cache slot of its move object) */
} Move;

/* a written turn as resolve reads it whatever the position (see "Written lines") */
#define MAXWRITTEN 10
typedef struct {
    PyObject *turn; /* held, so that no other object takes its address while it is here */
    uint8_t kind, n;
    uint16_t sq[MAXWRITTEN];
} Written;

typedef struct {
    PyObject_HEAD
    PyObject *names;  /* a square's name -> its index (board.INDEX), for line() */
    Written *written; /* the turns line() read last, by address (made at its first call) */
    uint8_t nt[2][2][NSQ], tg[2][2][NSQ][8], td[2][2][NSQ][8];
    uint8_t nl[NSQ], victim[NSQ][8], beyond[NSQ][8];
    uint8_t home[2][6];
    uint64_t homemask[2][NW], offt[2][NW];
    double drive;
    PyObject *pos_type, *move_type, *pass_move;
    PyObject *pd[7], *md[4];
    PyObject *steps[NSQ][8], *enters[NSQ];
} Board;

static const char *const POS_FIELDS[7] = {"white", "black", "priests", "to_move",
                                          "priests_off", "ply", "passes"};
static const char *const MOVE_FIELDS[4] = {"kind", "origin", "target", "captures"};

/* StonePosition.over */
static int over(const Board *b, const Pos *s) {
    if (s->passes >= 2) return 1;
    int w = 0, k = 0;
    for (int i = 0; i < NW; i++) {
        w |= (s->w[i] & b->offt[0][i]) != 0;
        k |= (s->b[i] & b->offt[1][i]) != 0;
    }
    return !w || !k;
}

/* StoneWarriors.legal_moves: answers how many */
static int generate(const Board *b, const Pos *s, Move *out) {
    if (over(b, s)) return 0;
    int side = s->side, n = 0;
    const uint64_t *own = side ? s->b : s->w, *enemy = side ? s->w : s->b;
    uint64_t occ[NW];
    int count = 0;
    for (int i = 0; i < NW; i++) {
        occ[i] = own[i] | enemy[i];
        count += POP(own[i]);
    }
    if (s->off[side] && count < 6) { /* a loss: the priest's entry is due */
        for (int k = 0; k < 6; k++) {
            int t = b->home[side][k];
            if (!HAS(occ, t)) {
                Move *m = &out[n++];
                m->kind = ENTER;
                m->target = (uint8_t)t;
                m->ncaps = 0;
            }
        }
        if (n) return n;
    }
    for (int priest = 0; priest < 2; priest++) {
        for (int k = 0; k < NW; k++) {
            uint64_t rest = priest ? own[k] & s->p[k] : own[k] & ~s->p[k];
            for (; rest; rest &= rest - 1) {
                int i = 64 * k + LOWEST(rest);
                int nt = b->nt[side][priest][i];
                for (int j = 0; j < nt; j++) {
                    int t = b->tg[side][priest][i][j];
                    if (HAS(occ, t)) continue;
                    Move *m = &out[n++];
                    m->kind = STEP;
                    m->origin = (uint8_t)i;
                    m->target = (uint8_t)t;
                    m->dir = b->td[side][priest][i][j];
                    int c = 0;
                    for (int l = 0; l < b->nl[t]; l++)
                        if (HAS(enemy, b->victim[t][l]) && HAS(own, b->beyond[t][l]))
                            m->caps[c++] = b->victim[t][l];
                    m->ncaps = (uint8_t)c;
                }
            }
        }
    }
    if (!n) {
        out[0].kind = PASS;
        out[0].ncaps = 0;
        n = 1;
    }
    return n;
}

/* StoneWarriors.apply: answers the pieces taken */
static int apply(Pos *s, const Move *m) {
    int side = s->side;
    uint64_t *own = side ? s->b : s->w, *enemy = side ? s->w : s->b;
    if (m->kind == PASS) {
        s->passes++;
        s->side = 1 - side;
        s->ply++;
        return 0;
    }
    if (m->kind == ENTER) { /* not a turn: the same side, ply and passes */
        SET(own, m->target);
        SET(s->p, m->target);
        s->off[side] = 0;
        return 0;
    }
    if (HAS(s->p, m->origin)) {
        FLIP(s->p, m->origin);
        FLIP(s->p, m->target);
    }
    FLIP(own, m->origin);
    FLIP(own, m->target);
    for (int c = 0; c < m->ncaps; c++) {
        CLR(enemy, m->caps[c]);
        CLR(s->p, m->caps[c]);
    }
    s->side = 1 - side;
    s->ply++;
    s->passes = 0;
    return m->ncaps;
}

/* StoneWarriors.progress */
static inline int progress(const Pos *s, const Move *m) {
    if (m->kind != STEP) return 0;
    int gained = m->target / WIDTH - m->origin / WIDTH;
    return (s->side ? -gained : gained) + 2 * m->ncaps;
}

static int read_pos(const Board *b, PyObject *obj, Pos *s) {
    long long off[2];
    if (!PyObject_TypeCheck(obj, (PyTypeObject *)b->pos_type)) {
        PyErr_SetString(PyExc_TypeError, "a StonePosition expected");
        return -1;
    }
    if (field_words(b->pd[0], obj, s->w, NW) || field_words(b->pd[1], obj, s->b, NW) ||
        field_words(b->pd[2], obj, s->p, NW))
        return -1;
    long long side = field_long(b->pd[3], obj);
    if (side == -1 && PyErr_Occurred()) return -1;
    if (field_items(b->pd[4], obj, off, 2, 1)) return -1;
    s->ply = field_long(b->pd[5], obj);
    if (s->ply == -1 && PyErr_Occurred()) return -1;
    long long passes = field_long(b->pd[6], obj);
    if (passes == -1 && PyErr_Occurred()) return -1;
    if (side < 0 || side > 1) {
        PyErr_SetString(PyExc_ValueError, "the side to move is 0 or 1");
        return -1;
    }
    for (int i = 0; i < NW; i++)
        if ((s->w[i] & s->b[i]) || (s->p[i] & ~(s->w[i] | s->b[i]))) {
            PyErr_SetString(PyExc_ValueError, "pieces overlap");
            return -1;
        }
    s->side = (int)side;
    s->off[0] = (int)off[0];
    s->off[1] = (int)off[1];
    s->passes = passes;
    return 0;
}

static PyObject *pos_object(const Board *b, const Pos *s) {
    PyObject *values[7] = {
        words_to(s->w, NW),        words_to(s->b, NW),
        words_to(s->p, NW),        PyLong_FromLong(s->side),
        bools(s->off, 2),          PyLong_FromLongLong(s->ply),
        PyLong_FromLongLong(s->passes),
    };
    return make_object(b->pos_type, b->pd, values, 7);
}

/* the engine's move object (steps without captures and entries made once) */
static PyObject *move_object(Board *b, const Move *m) {
    if (m->kind == PASS) {
        Py_INCREF(b->pass_move);
        return b->pass_move;
    }
    PyObject **cached = m->kind == ENTER ? &b->enters[m->target]
                        : m->ncaps        ? NULL
                                          : &b->steps[m->origin][m->dir];
    if (cached && *cached) {
        Py_INCREF(*cached);
        return *cached;
    }
    PyObject *caps = empty_tuple;
    Py_INCREF(caps);
    if (m->ncaps) {
        Py_DECREF(caps);
        caps = PyTuple_New(m->ncaps);
        for (int c = 0; caps && c < m->ncaps; c++) {
            PyObject *v = PyLong_FromLong(m->caps[c]);
            if (!v) Py_CLEAR(caps);
            else PyTuple_SET_ITEM(caps, c, v);
        }
    }
    PyObject *kind = m->kind == ENTER ? kind_enter : kind_step;
    Py_INCREF(kind);
    PyObject *values[4] = {kind, PyLong_FromLong(m->kind == ENTER ? -1 : m->origin),
                           PyLong_FromLong(m->target), caps};
    PyObject *move = make_object(b->move_type, b->md, values, 4);
    if (move && cached) {
        Py_INCREF(move);
        *cached = move;
    }
    return move;
}

static PyObject *Board_moves(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1) return PyErr_Format(PyExc_TypeError, "moves() takes 1 argument");
    Pos s;
    Move list[MAXMOVES];
    if (read_pos(self, args[0], &s)) return NULL;
    int n = generate(self, &s, list);
    PyObject *out = PyTuple_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *move = move_object(self, &list[i]);
        if (!move) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, i, move);
    }
    return out;
}

/* the index of the move sample_move draws among n, or -1 (an error) */
static int draw(const Board *b, const Pos *s, const Move *list, int n, Draws *rng) {
    int scores[MAXMOVES], i;
    for (int k = 0; k < n; k++) scores[k] = progress(s, &list[k]);
    if (choose(rng, scores, n, b->drive, &i)) return -1;
    return i;
}

static PyObject *Board_sample(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "sample() takes 2 arguments");
    Pos s;
    Move list[MAXMOVES];
    if (read_pos(self, args[0], &s)) return NULL;
    int n = generate(self, &s, list);
    if (!n) Py_RETURN_NONE;
    Draws draws = zrec_draws(args[1]);
    int i = draw(self, &s, list, n, &draws);
    if (i < 0) return NULL;
    return move_object(self, &list[i]);
}

static void count(const Board *b, const Pos *s, int depth, unsigned long long *counts) {
    Move list[MAXMOVES];
    int n = generate(b, s, list);
    counts[0] += (unsigned long long)n;
    if (depth == 1) return;
    for (int i = 0; i < n; i++) {
        Pos t = *s;
        apply(&t, &list[i]);
        count(b, &t, depth - 1, counts + 1);
    }
}

static PyObject *perft_list(const unsigned long long *counts, long depth) {
    PyObject *out = PyList_New(depth);
    for (long i = 0; out && i < depth; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(counts[i]);
        if (!v) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static long read_depth(PyObject *x) {
    long depth = PyLong_AsLong(x);
    if (depth == -1 && PyErr_Occurred()) return -1;
    if (depth < 1 || depth > 64) {
        PyErr_Format(PyExc_ValueError, "a perft depth from 1 to 64, not %ld", depth);
        return -1;
    }
    return depth;
}

static PyObject *Board_perft(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "perft() takes 2 arguments");
    Pos s;
    if (read_pos(self, args[0], &s)) return NULL;
    long depth = read_depth(args[1]);
    if (depth < 0) return NULL;
    unsigned long long counts[64] = {0};
    Py_BEGIN_ALLOW_THREADS
    count(self, &s, (int)depth, counts);
    Py_END_ALLOW_THREADS
    return perft_list(counts, depth);
}

static int read_limits(PyObject *const *args, long long *max_moves, long long *max_turns) {
    *max_moves = PyLong_AsLongLong(args[0]);
    *max_turns = PyLong_AsLongLong(args[1]);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *Board_play(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) return PyErr_Format(PyExc_TypeError, "play() takes 4 arguments");
    Pos s;
    Move list[MAXMOVES];
    long long max_moves, max_turns, moves = 0, turns = 0, removed[2] = {0, 0};
    if (read_pos(self, args[0], &s) || read_limits(args + 2, &max_moves, &max_turns))
        return NULL;
    Draws draws = zrec_draws(args[1]);
    int stalled = 0;
    while (!over(self, &s) && moves < max_moves && turns < max_turns) {
        int n = generate(self, &s, list);
        if (!n) {
            stalled = 1;
            break;
        }
        int i = draw(self, &s, list, n, &draws);
        if (i < 0) return NULL;
        int seat = s.side, turn = list[i].kind != ENTER; /* an entry is not a turn */
        removed[seat] += apply(&s, &list[i]);
        moves++;
        turns += turn;
    }
    PyObject *pos = pos_object(self, &s);
    if (!pos) return NULL;
    return Py_BuildValue("(NLL(LL)O)", pos, moves, turns, removed[0], removed[1],
                         stalled ? Py_True : Py_False);
}

/* a sequence's items as ints in [0, limit) */
static int int_items(PyObject *seq, int *out, int most, int limit, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > most) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: more than %d", what, most);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < 0 || v >= limit) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: %ld out of range", what, v);
            return -1;
        }
        out[k] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* the item k of a sequence as a sequence of ints (a new list of n) */
static int nested(PyObject *seq, Py_ssize_t k, int *out, int most, int limit, const char *what) {
    PyObject *item = PySequence_GetItem(seq, k);
    if (!item) return -1;
    int n = int_items(item, out, most, limit, what);
    Py_DECREF(item);
    return n;
}

/* the direction d with step[d][i] == t (step: 8 sequences of npts ints, -1 none) */
static int direction_of(PyObject *step, int i, int t) {
    for (int d = 0; d < 8; d++) {
        PyObject *row = PySequence_GetItem(step, d);
        if (!row) return -1;
        PyObject *x = PySequence_GetItem(row, i);
        Py_DECREF(row);
        if (!x) return -1;
        long v = PyLong_AsLong(x);
        Py_DECREF(x);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v == t) return d;
    }
    PyErr_Format(PyExc_ValueError, "%d is not next to %d", t, i);
    return -1;
}

static int Board_init(Board *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"targets", "lines", "homes", "off_target", "step", "drive",
                            "position", "move", "pass_move", "names", NULL};
    PyObject *targets, *lines, *homes, *off_target, *step, *pos_type, *move_type, *pass_move;
    PyObject *squares = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOdOOO|O!", names, &targets, &lines,
                                     &homes, &off_target, &step, &self->drive, &pos_type,
                                     &move_type, &pass_move, &PyDict_Type, &squares))
        return -1;
    Py_XINCREF(squares);
    Py_XSETREF(self->names, squares);
    if (!PyType_Check(pos_type) || !PyType_Check(move_type)) {
        PyErr_SetString(PyExc_TypeError, "position and move must be types");
        return -1;
    }
    int buf[16];
    /* targets[side][priest][i]: the squares a piece may step to, in order */
    for (int side = 0; side < 2; side++)
        for (int priest = 0; priest < 2; priest++) {
            PyObject *a = PySequence_GetItem(targets, side);
            PyObject *table = a ? PySequence_GetItem(a, priest) : NULL;
            Py_XDECREF(a);
            if (!table) return -1;
            for (int i = 0; i < NSQ; i++) {
                int n = nested(table, i, buf, 8, NSQ, "targets");
                if (n < 0) {
                    Py_DECREF(table);
                    return -1;
                }
                self->nt[side][priest][i] = (uint8_t)n;
                for (int j = 0; j < n; j++) {
                    int d = direction_of(step, i, buf[j]);
                    if (d < 0) {
                        Py_DECREF(table);
                        return -1;
                    }
                    self->tg[side][priest][i][j] = (uint8_t)buf[j];
                    self->td[side][priest][i][j] = (uint8_t)d;
                }
            }
            Py_DECREF(table);
        }
    /* lines[t]: (victim, beyond) pairs, flattened, in the written order */
    for (int t = 0; t < NSQ; t++) {
        int n = nested(lines, t, buf, 16, NSQ, "lines");
        if (n < 0) return -1;
        if (n % 2) {
            PyErr_SetString(PyExc_ValueError, "lines: pairs of squares");
            return -1;
        }
        self->nl[t] = (uint8_t)(n / 2);
        for (int l = 0; l < n / 2; l++) {
            self->victim[t][l] = (uint8_t)buf[2 * l];
            self->beyond[t][l] = (uint8_t)buf[2 * l + 1];
        }
    }
    /* homes[side]: the six squares of the side's home arm, in order */
    memset(self->homemask, 0, sizeof self->homemask);
    memset(self->offt, 0, sizeof self->offt);
    for (int side = 0; side < 2; side++) {
        if (nested(homes, side, buf, 6, NSQ, "homes") != 6) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "homes: six squares");
            return -1;
        }
        for (int k = 0; k < 6; k++) {
            self->home[side][k] = (uint8_t)buf[k];
            SET(self->homemask[side], buf[k]);
        }
    }
    /* off_target[side]: every square but the other side's home arm (the end test) */
    for (int side = 0; side < 2; side++) {
        PyObject *item = PySequence_GetItem(off_target, side);
        if (!item) return -1;
        int r = words_from(item, self->offt[side], NW);
        Py_DECREF(item);
        if (r) return -1;
    }
    if (descriptors(pos_type, POS_FIELDS, self->pd, 7) ||
        descriptors(move_type, MOVE_FIELDS, self->md, 4))
        return -1;
    Py_INCREF(pos_type);
    Py_XSETREF(self->pos_type, pos_type);
    Py_INCREF(move_type);
    Py_XSETREF(self->move_type, move_type);
    Py_INCREF(pass_move);
    Py_XSETREF(self->pass_move, pass_move);
    return 0;
}

static void forget_written(Written *cache);

static void Board_dealloc(Board *self) {
    Py_XDECREF(self->names);
    forget_written(self->written);
    Py_XDECREF(self->pos_type);
    Py_XDECREF(self->move_type);
    Py_XDECREF(self->pass_move);
    for (int k = 0; k < 7; k++) Py_XDECREF(self->pd[k]);
    for (int k = 0; k < 4; k++) Py_XDECREF(self->md[k]);
    for (int i = 0; i < NSQ; i++) {
        Py_XDECREF(self->enters[i]);
        for (int d = 0; d < 8; d++) Py_XDECREF(self->steps[i][d]);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* == Written lines (issue 38: validate and import) ====================================
 *
 * Board.line(pos, turns, numbers, dots, keys, first) -> (played, pos, turns, keys or
 * None, removals or None) plays a line of written turns (zrec.moves.Turn values) from
 * a position as zrec.rules.lines.reference_line does over the engine: the number
 * written before a turn (numbers[i], None: none; dots[i]) compared with
 * StoneWarriors.move_number (first: the engine's First side), then the turn resolved
 * as WrittenMoves.resolve reads it when it answers a move with no note (a step, its
 * captures written in full in any order; a priest's entry P@ when it is due; a pass
 * when nothing else is legal), then applied.  It stops before the first turn whose
 * number does not fit or that resolve would refuse or answer with a note (captures
 * left out).  turns counts the moves played that are turns (an entry is not).  With
 * keys true it also answers the engine's key (position.key) after each move and, for
 * each move that took pieces, (its turn count, material) after it.
 * TeamBoard.line(pos, turns, numbers, dots, keys) does the same for
 * TeamStoneWarriors.resolve, move_number, key and material.
 *
 * A turn is read once (read_written: what resolve makes of it whatever the position)
 * and kept by its address: a file repeats the same Turn objects (the reader makes one
 * a word).
 */

enum { W_NONE, W_PASS, W_DROP, W_PATH };
#define WRITTEN_CACHE 4096

static PyObject *s_dice, *s_actions, *s_kind, *s_squares, *s_seps, *s_vias, *s_piece;

static int init_lines(void) {
    if (s_piece) return 0;
    s_dice = PyUnicode_InternFromString("dice");
    s_actions = PyUnicode_InternFromString("actions");
    s_kind = PyUnicode_InternFromString("kind");
    s_squares = PyUnicode_InternFromString("squares");
    s_seps = PyUnicode_InternFromString("seps");
    s_vias = PyUnicode_InternFromString("vias");
    if (!s_dice || !s_actions || !s_kind || !s_squares || !s_seps || !s_vias) return -1;
    s_piece = PyUnicode_InternFromString("piece");
    return s_piece ? 0 : -1;
}

static int is_text(PyObject *x, const char *text) {
    return PyUnicode_Check(x) && !PyUnicode_CompareWithASCIIString(x, text);
}

/* What resolve makes of a written turn whatever the position: W_NONE where it refuses
 * it (or notes something) in every position (dice, several actions, a square that is
 * not one, a drop other than P@ where drops has it none, a path not written
 * a-b[xc...], or naming more than a step and its captures can), else the kind and the
 * squares' indices.  0, or -1 on a Python error. */
static int read_written(PyObject *turn, PyObject *names, int drops, Written *w) {
    int answer = -1;
    PyObject *dice = NULL, *actions = NULL, *kind = NULL, *squares = NULL, *seps = NULL,
             *vias = NULL, *piece = NULL;
    w->kind = W_NONE;
    w->n = 0;
    dice = PyObject_GetAttr(turn, s_dice);
    if (!dice) goto done;
    if (dice != Py_None) goto refused;
    actions = PyObject_GetAttr(turn, s_actions);
    if (!actions) goto done;
    if (!PyTuple_Check(actions) || PyTuple_GET_SIZE(actions) != 1) goto refused;
    PyObject *action = PyTuple_GET_ITEM(actions, 0);
    kind = PyObject_GetAttr(action, s_kind);
    squares = kind ? PyObject_GetAttr(action, s_squares) : NULL;
    if (!squares) goto done;
    if (!PyTuple_Check(squares)) goto refused;
    Py_ssize_t n = PyTuple_GET_SIZE(squares);
    for (Py_ssize_t k = 0; k < n; k++) { /* resolve: "... is not a square of the board" */
        PyObject *index = PyDict_GetItemWithError(names, PyTuple_GET_ITEM(squares, k));
        if (!index) {
            if (PyErr_Occurred()) goto done;
            goto refused;
        }
        long i = PyLong_AsLong(index);
        if (i == -1 && PyErr_Occurred()) goto done;
        if (k < MAXWRITTEN) w->sq[k] = (uint16_t)i;
    }
    if (is_text(kind, "pass")) {
        w->kind = W_PASS;
    } else if (is_text(kind, "drop")) {
        piece = PyObject_GetAttr(action, s_piece);
        if (!piece) goto done;
        if (drops && n == 1 && is_text(piece, "P")) {
            w->kind = W_DROP;
            w->n = 1;
        }
    } else if (is_text(kind, "path")) {
        seps = PyObject_GetAttr(action, s_seps);
        vias = seps ? PyObject_GetAttr(action, s_vias) : NULL;
        if (!vias) goto done;
        if (n < 2 || n > MAXWRITTEN || !PyTuple_Check(seps) || !PyTuple_Check(vias) ||
            PyTuple_GET_SIZE(seps) != n - 1)
            goto refused;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(vias); k++)
            if (PyTuple_GET_ITEM(vias, k) != Py_None) goto refused;
        for (Py_ssize_t k = 0; k + 1 < n; k++)
            if (!is_text(PyTuple_GET_ITEM(seps, k), k ? "x" : "-")) goto refused;
        w->kind = W_PATH;
        w->n = (uint8_t)n;
    }
refused:
    answer = 0;
done:
    Py_XDECREF(dice);
    Py_XDECREF(actions);
    Py_XDECREF(kind);
    Py_XDECREF(squares);
    Py_XDECREF(seps);
    Py_XDECREF(vias);
    Py_XDECREF(piece);
    return answer;
}

/* the turn read once (by address, in *cache, made at the first call), or NULL */
static const Written *written_once(Written **cache, PyObject *turn, PyObject *names,
                                   int drops) {
    if (!*cache) {
        *cache = PyMem_Calloc(WRITTEN_CACHE, sizeof(Written));
        if (!*cache) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    Written *e = &(*cache)[((uintptr_t)turn >> 4) % WRITTEN_CACHE];
    if (e->turn == turn) return e;
    Written fresh;
    if (read_written(turn, names, drops, &fresh)) return NULL;
    PyObject *old = e->turn;
    Py_INCREF(turn);
    fresh.turn = turn;
    *e = fresh;
    Py_XDECREF(old);
    return e;
}

static void forget_written(Written *cache) {
    if (!cache) return;
    for (int k = 0; k < WRITTEN_CACHE; k++) Py_XDECREF(cache[k].turn);
    PyMem_Free(cache);
}

static long long floor_div(long long a, long long b) {
    long long q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* whether the number written before a move (number: None, none) is the position's
 * (MoveNumber: turn, number, dots): 1, 0, or -1 on a Python error */
static int number_fits(PyObject *number, PyObject *dot, int turn, long long want,
                       long long want_dots) {
    if (number == Py_None) return 1;
    if (!turn) return 0;
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(number, &overflow);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (overflow || x != want) return 0;
    x = PyLong_AsLongLongAndOverflow(dot, &overflow);
    if (x == -1 && PyErr_Occurred()) return -1;
    return !overflow && x == want_dots;
}

/* the line's arguments checked: the lists' length, or -1 */
static Py_ssize_t line_lists(PyObject *const *args) {
    PyObject *turns = args[0], *numbers = args[1], *dots = args[2];
    if (!PyList_Check(turns) || !PyList_Check(numbers) || !PyList_Check(dots)) {
        PyErr_SetString(PyExc_TypeError, "line() takes lists of turns, numbers and dots");
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(turns);
    if (PyList_GET_SIZE(numbers) != n || PyList_GET_SIZE(dots) != n) {
        PyErr_SetString(PyExc_ValueError, "line(): turns, numbers and dots differ in length");
        return -1;
    }
    return n;
}

/* appends (ply, material) to removals; -1 on an error */
static int add_removal(PyObject *removals, long long ply, PyObject *material) {
    if (!material) return -1;
    PyObject *removal = Py_BuildValue("(LN)", ply, material);
    if (!removal) return -1;
    int r = PyList_Append(removals, removal);
    Py_DECREF(removal);
    return r;
}

static int add_key(PyObject *keys, const unsigned char *buf, Py_ssize_t n) {
    PyObject *key = PyBytes_FromStringAndSize((const char *)buf, n);
    if (!key) return -1;
    int r = PyList_Append(keys, key);
    Py_DECREF(key);
    return r;
}

/* StonePosition.must_enter */
static int must_enter(const Board *b, const Pos *s) {
    int side = s->side;
    const uint64_t *own = side ? s->b : s->w;
    if (!s->off[side]) return 0;
    int count = 0, room = 0;
    for (int k = 0; k < NW; k++) {
        count += POP(own[k]);
        room |= (b->homemask[side][k] & ~(s->w[k] | s->b[k])) != 0;
    }
    return count < 6 && room;
}

/* WrittenMoves.resolve answering a move with no note: 1 and the move, else 0 */
static int resolve_written(const Board *b, const Pos *s, const Written *w, int must, Move *m) {
    if (w->kind == W_NONE || over(b, s)) return 0;
    int side = s->side;
    const uint64_t *own = side ? s->b : s->w, *enemy = side ? s->w : s->b;
    uint64_t occ[NW];
    for (int k = 0; k < NW; k++) occ[k] = s->w[k] | s->b[k];
    m->ncaps = 0;
    if (w->kind == W_DROP) { /* _resolve_entry */
        int t = w->sq[0];
        if (!must || !HAS(b->homemask[side], t) || HAS(occ, t)) return 0;
        m->kind = ENTER;
        m->target = (uint8_t)t;
        return 1;
    }
    if (must) return 0; /* the priest must enter now */
    if (w->kind == W_PASS) {
        Move list[MAXMOVES];
        int n = generate(b, s, list);
        if (n != 1 || list[0].kind != PASS) return 0;
        m->kind = PASS;
        return 1;
    }
    int origin = w->sq[0], target = w->sq[1]; /* _resolve_step */
    if (!HAS(own, origin)) return 0;
    int priest = (int)HAS(s->p, origin), nt = b->nt[side][priest][origin], j = 0;
    while (j < nt && b->tg[side][priest][origin][j] != target) j++;
    if (j == nt || HAS(occ, target)) return 0;
    m->kind = STEP;
    m->origin = (uint8_t)origin;
    m->target = (uint8_t)target;
    m->dir = b->td[side][priest][origin][j];
    int c = 0;
    for (int l = 0; l < b->nl[target]; l++)
        if (HAS(enemy, b->victim[target][l]) && HAS(own, b->beyond[target][l]))
            m->caps[c++] = b->victim[target][l];
    m->ncaps = (uint8_t)c;
    int written = w->n - 2;
    if (written != c) return 0; /* captures left out (a note) or not these */
    uint64_t seen[NW] = {0};
    for (int k = 2; k < w->n; k++) {
        int x = w->sq[k], found = 0;
        if (HAS(seen, x)) return 0;
        SET(seen, x);
        for (int l = 0; l < c; l++) found |= m->caps[l] == x;
        if (!found) return 0;
    }
    return 1;
}

/* position.key: the side to move, the priests off, the passes (at most 2), then the
 * squares of White's warriors, White's priest, Black's warriors, Black's priest, each
 * list closed by 255; answers its length */
static Py_ssize_t stone_key(const Pos *s, unsigned char *buf) {
    Py_ssize_t n = 0;
    buf[n++] = (unsigned char)s->side;
    buf[n++] = (unsigned char)(s->off[0] != 0);
    buf[n++] = (unsigned char)(s->off[1] != 0);
    buf[n++] = (unsigned char)(s->passes < 2 ? s->passes : 2);
    for (int kind = 0; kind < 4; kind++) {
        const uint64_t *pieces = kind < 2 ? s->w : s->b;
        for (int k = 0; k < NW; k++) {
            uint64_t rest = pieces[k] & (kind % 2 ? s->p[k] : ~s->p[k]);
            for (; rest; rest &= rest - 1) buf[n++] = (unsigned char)(64 * k + LOWEST(rest));
        }
        buf[n++] = 255;
    }
    return n;
}

/* StoneWarriors.key, natively (the archive keys every position of a game) */
static PyObject *Board_key(Board *self, PyObject *pos) {
    Pos s;
    unsigned char buf[4 + NSQ + 4];
    if (read_pos(self, pos, &s)) return NULL;
    return PyBytes_FromStringAndSize((const char *)buf, stone_key(&s, buf));
}

static PyObject *Board_line(Board *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) return PyErr_Format(PyExc_TypeError, "line() takes 6 arguments");
    if (init_lines()) return NULL;
    if (!self->names)
        return PyErr_Format(PyExc_TypeError, "line(): the board was made without names");
    Pos s;
    if (read_pos(self, args[0], &s)) return NULL;
    Py_ssize_t n = line_lists(args + 1);
    int with_keys = PyObject_IsTrue(args[4]);
    long first = PyLong_AsLong(args[5]);
    if (n < 0 || with_keys < 0 || (first == -1 && PyErr_Occurred())) return NULL;
    PyObject *turns = args[1], *numbers = args[2], *dots = args[3];
    PyObject *keys = with_keys ? PyList_New(0) : Py_NewRef(Py_None);
    PyObject *removals = with_keys ? PyList_New(0) : Py_NewRef(Py_None);
    if (!keys || !removals) goto failed;
    long long plies = 0;
    Py_ssize_t i = 0;
    for (; i < n; i++) {
        int must = must_enter(self, &s);
        int fits = number_fits(PyList_GET_ITEM(numbers, i), PyList_GET_ITEM(dots, i), !must,
                               floor_div(s.ply, 2) + 1, s.side == first ? 1 : 3);
        if (fits < 0) goto failed;
        if (!fits) break;
        const Written *w = written_once(&self->written, PyList_GET_ITEM(turns, i),
                                        self->names, 1);
        if (!w) goto failed;
        Move m;
        if (!resolve_written(self, &s, w, must, &m)) break;
        int taken = apply(&s, &m);
        plies += m.kind != ENTER; /* an entry is not a turn */
        if (with_keys) {
            unsigned char buf[4 + NSQ + 4];
            if (add_key(keys, buf, stone_key(&s, buf))) goto failed;
            if (taken) {
                int white = 0, black = 0;
                for (int k = 0; k < NW; k++) {
                    white += POP(s.w[k]);
                    black += POP(s.b[k]);
                }
                if (add_removal(removals, plies, Py_BuildValue("(ii)", white, black)))
                    goto failed;
            }
        }
    }
    return Py_BuildValue("(nNLNN)", i, pos_object(self, &s), plies, keys, removals);
failed:
    Py_XDECREF(keys);
    Py_XDECREF(removals);
    return NULL;
}

static PyMethodDef Board_methods[] = {
    {"moves", (PyCFunction)(void (*)(void))Board_moves, METH_FASTCALL,
     "moves(pos): every legal move, in the engine's order"},
    {"sample", (PyCFunction)(void (*)(void))Board_sample, METH_FASTCALL,
     "sample(pos, rng): the engine's self-play move, drawn as it draws it"},
    {"perft", (PyCFunction)(void (*)(void))Board_perft, METH_FASTCALL,
     "perft(pos, depth): move sequences of each length"},
    {"play", (PyCFunction)(void (*)(void))Board_play, METH_FASTCALL,
     "play(pos, rng, max_moves, max_turns): a random game"},
    {"line", (PyCFunction)(void (*)(void))Board_line, METH_FASTCALL,
     "line(pos, turns, numbers, dots, keys, first): a written line played while nothing "
     "in it needs a word"},
    {"key", (PyCFunction)Board_key, METH_O, "key(pos): the engine's key of a position"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "zrec.rules.stonewarriors._kernel.Board",
    .tp_basicsize = sizeof(Board),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Stone Warriors on the square board with one rule set, compiled.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Board_init,
    .tp_dealloc = (destructor)Board_dealloc,
    .tp_methods = Board_methods,
};

/* ===================================================================================== */
/* Ludii's rule set: four seats in two teams on the 365 points.                          */
/* ===================================================================================== */

#define NPT 365
#define TW 6
#define SEATS 4

typedef struct {
    uint64_t pc[SEATS][TW], lg[TW]; /* each seat's pieces; the large pieces */
    int hands[SEATS], seat;
    long long scores[SEATS], ply, passes;
} TPos;

typedef struct {
    uint8_t kind, ncaps, dir;
    uint16_t origin, target, caps[8];
    int16_t placed;
} TMove;

typedef struct {
    PyObject_HEAD
    PyObject *names;  /* a point's name -> its index (points.INDEX), for line() */
    Written *written; /* the turns line() read last, by address */
    uint8_t nt[SEATS][2][NPT], td[SEATS][2][NPT][8];
    uint16_t tg[SEATS][2][NPT][8];
    uint8_t nl[NPT];
    uint16_t victim[NPT][8], beyond[NPT][8], rank[NPT];
    uint64_t teamhome[2][TW];
    long long turn_limit;
    PyObject *pos_type, *move_type, *pass_move;
    PyObject *pd[7], *md[5];
    PyObject *steps[NPT][8];
} TeamBoard;

static const char *const TPOS_FIELDS[7] = {"pieces", "large", "hands", "scores",
                                           "to_move", "ply", "passes"};
static const char *const TMOVE_FIELDS[5] = {"kind", "origin", "target", "captures", "placed"};
static const int TEAM[SEATS] = {0, 1, 1, 0};

/* TeamPosition.crossed */
static int crossed(const TeamBoard *b, const TPos *s, int team) {
    int x = team ? 1 : 0, y = team ? 2 : 3;
    for (int k = 0; k < TW; k++)
        if ((s->pc[x][k] | s->pc[y][k]) & ~b->teamhome[1 - team][k]) return 0;
    return 1;
}

/* TeamPosition.over */
static int team_over(const TeamBoard *b, const TPos *s) {
    return (crossed(b, s, 0) && crossed(b, s, 1)) || s->passes >= 4 ||
           s->ply >= b->turn_limit;
}

/* TeamStoneWarriors.legal_moves */
static int team_generate(const TeamBoard *b, const TPos *s, TMove *out) {
    if (team_over(b, s)) return 0;
    int seat = s->seat, n = 0, partner = 3 - seat, foe = 1 - TEAM[seat];
    int fa = foe ? 1 : 0, fb = foe ? 2 : 3;
    const uint64_t *own = s->pc[seat];
    uint64_t occ[TW], enemies[TW], friends[TW];
    for (int k = 0; k < TW; k++) {
        occ[k] = s->pc[0][k] | s->pc[1][k] | s->pc[2][k] | s->pc[3][k];
        enemies[k] = s->pc[fa][k] | s->pc[fb][k];
        friends[k] = own[k] | s->pc[partner][k];
    }
    for (int k = 0; k < TW; k++) {
        for (uint64_t rest = own[k]; rest; rest &= rest - 1) {
            int i = 64 * k + LOWEST(rest), large = (int)HAS(s->lg, i);
            int nt = b->nt[seat][large][i];
            for (int j = 0; j < nt; j++) {
                int t = b->tg[seat][large][i][j];
                if (HAS(occ, t)) continue;
                TMove *m = &out[n++];
                m->kind = STEP;
                m->origin = (uint16_t)i;
                m->target = (uint16_t)t;
                m->dir = b->td[seat][large][i][j];
                m->placed = -1;
                /* friends after the step: the piece left i and stands on t */
                FLIP(friends, i);
                FLIP(friends, t);
                int c = 0;
                for (int l = 0; l < b->nl[t]; l++)
                    if (HAS(enemies, b->victim[t][l]) && HAS(friends, b->beyond[t][l]))
                        m->caps[c++] = b->victim[t][l];
                FLIP(friends, i);
                FLIP(friends, t);
                m->ncaps = (uint8_t)c;
                if (c && s->hands[seat]) m->placed = (int16_t)m->caps[0];
                /* the captures by letter, then row (insertion sort of at most 8) */
                for (int x = 1; x < c; x++) {
                    uint16_t v = m->caps[x];
                    int y = x - 1;
                    for (; y >= 0 && b->rank[m->caps[y]] > b->rank[v]; y--)
                        m->caps[y + 1] = m->caps[y];
                    m->caps[y + 1] = v;
                }
            }
        }
    }
    if (!n) {
        out[0].kind = PASS;
        out[0].ncaps = 0;
        out[0].placed = -1;
        n = 1;
    }
    return n;
}

/* TeamStoneWarriors.apply: answers the pieces taken */
static int team_apply(TPos *s, const TMove *m) {
    int seat = s->seat;
    s->seat = (seat + 1) % SEATS;
    s->ply++;
    if (m->kind == PASS) {
        s->passes++;
        return 0;
    }
    s->passes = 0;
    if (HAS(s->lg, m->origin)) {
        FLIP(s->lg, m->origin);
        FLIP(s->lg, m->target);
    }
    FLIP(s->pc[seat], m->origin);
    FLIP(s->pc[seat], m->target);
    for (int c = 0; c < m->ncaps; c++) {
        for (int x = 0; x < SEATS; x++) CLR(s->pc[x], m->caps[c]);
        CLR(s->lg, m->caps[c]);
    }
    s->scores[seat] += m->ncaps;
    if (m->ncaps && m->placed >= 0) {
        SET(s->pc[seat], m->placed);
        SET(s->lg, m->placed);
        s->hands[seat] = 0;
    }
    return m->ncaps;
}

static int team_read_pos(const TeamBoard *b, PyObject *obj, TPos *s) {
    long long hands[SEATS];
    if (!PyObject_TypeCheck(obj, (PyTypeObject *)b->pos_type)) {
        PyErr_SetString(PyExc_TypeError, "a TeamPosition expected");
        return -1;
    }
    PyObject *pieces = get_field(b->pd[0], obj);
    if (!pieces) return -1;
    if (!PyTuple_Check(pieces) || PyTuple_GET_SIZE(pieces) != SEATS) {
        Py_DECREF(pieces);
        PyErr_SetString(PyExc_ValueError, "the pieces of four seats expected");
        return -1;
    }
    for (int x = 0; x < SEATS; x++)
        if (words_from(PyTuple_GET_ITEM(pieces, x), s->pc[x], TW)) {
            Py_DECREF(pieces);
            return -1;
        }
    Py_DECREF(pieces);
    if (field_words(b->pd[1], obj, s->lg, TW) || field_items(b->pd[2], obj, hands, SEATS, 1) ||
        field_items(b->pd[3], obj, s->scores, SEATS, 0))
        return -1;
    long long seat = field_long(b->pd[4], obj);
    if (seat == -1 && PyErr_Occurred()) return -1;
    s->ply = field_long(b->pd[5], obj);
    if (s->ply == -1 && PyErr_Occurred()) return -1;
    long long passes = field_long(b->pd[6], obj);
    if (passes == -1 && PyErr_Occurred()) return -1;
    if (seat < 0 || seat >= SEATS) {
        PyErr_SetString(PyExc_ValueError, "the seat to move is 0 to 3");
        return -1;
    }
    for (int k = 0; k < TW; k++) {
        uint64_t seen = 0;
        for (int x = 0; x < SEATS; x++) {
            if (seen & s->pc[x][k]) {
                PyErr_SetString(PyExc_ValueError, "pieces overlap");
                return -1;
            }
            seen |= s->pc[x][k];
        }
        if (s->lg[k] & ~seen) {
            PyErr_SetString(PyExc_ValueError, "a large piece on an empty point");
            return -1;
        }
    }
    for (int x = 0; x < SEATS; x++) s->hands[x] = (int)hands[x];
    s->seat = (int)seat;
    s->passes = passes;
    return 0;
}

static PyObject *team_pos_object(const TeamBoard *b, const TPos *s) {
    PyObject *pieces = PyTuple_New(SEATS), *scores = PyTuple_New(SEATS);
    for (int x = 0; x < SEATS; x++) {
        PyObject *p = pieces ? words_to(s->pc[x], TW) : NULL;
        if (!p) Py_CLEAR(pieces);
        else PyTuple_SET_ITEM(pieces, x, p);
        PyObject *c = scores ? PyLong_FromLongLong(s->scores[x]) : NULL;
        if (!c) Py_CLEAR(scores);
        else PyTuple_SET_ITEM(scores, x, c);
    }
    PyObject *values[7] = {
        pieces, words_to(s->lg, TW), bools(s->hands, SEATS), scores,
        PyLong_FromLong(s->seat), PyLong_FromLongLong(s->ply), PyLong_FromLongLong(s->passes),
    };
    return make_object(b->pos_type, b->pd, values, 7);
}

static PyObject *team_move_object(TeamBoard *b, const TMove *m) {
    if (m->kind == PASS) {
        Py_INCREF(b->pass_move);
        return b->pass_move;
    }
    PyObject **cached = m->ncaps ? NULL : &b->steps[m->origin][m->dir];
    if (cached && *cached) {
        Py_INCREF(*cached);
        return *cached;
    }
    PyObject *caps = empty_tuple;
    Py_INCREF(caps);
    if (m->ncaps) {
        Py_DECREF(caps);
        caps = PyTuple_New(m->ncaps);
        for (int c = 0; caps && c < m->ncaps; c++) {
            PyObject *v = PyLong_FromLong(m->caps[c]);
            if (!v) Py_CLEAR(caps);
            else PyTuple_SET_ITEM(caps, c, v);
        }
    }
    Py_INCREF(kind_step);
    PyObject *values[5] = {kind_step, PyLong_FromLong(m->origin), PyLong_FromLong(m->target),
                           caps, PyLong_FromLong(m->placed)};
    PyObject *move = make_object(b->move_type, b->md, values, 5);
    if (move && cached) {
        Py_INCREF(move);
        *cached = move;
    }
    return move;
}

static PyObject *TeamBoard_moves(TeamBoard *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1) return PyErr_Format(PyExc_TypeError, "moves() takes 1 argument");
    TPos s;
    TMove list[MAXMOVES];
    if (team_read_pos(self, args[0], &s)) return NULL;
    int n = team_generate(self, &s, list);
    PyObject *out = PyTuple_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *move = team_move_object(self, &list[i]);
        if (!move) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, i, move);
    }
    return out;
}

/* sample_move's draw: choose(moves, rng), no progress scores (rng.choice alone) */
static int team_draw(int n, Draws *rng) {
    size_t i;
    if (randbelow(rng, (size_t)n, &i)) return -1;
    return (int)i;
}

static PyObject *TeamBoard_sample(TeamBoard *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "sample() takes 2 arguments");
    TPos s;
    TMove list[MAXMOVES];
    if (team_read_pos(self, args[0], &s)) return NULL;
    int n = team_generate(self, &s, list);
    if (!n) Py_RETURN_NONE;
    Draws draws = zrec_draws(args[1]);
    int i = team_draw(n, &draws);
    if (i < 0) return NULL;
    return team_move_object(self, &list[i]);
}

static void team_count(const TeamBoard *b, const TPos *s, int depth,
                       unsigned long long *counts) {
    TMove list[MAXMOVES];
    int n = team_generate(b, s, list);
    counts[0] += (unsigned long long)n;
    if (depth == 1) return;
    for (int i = 0; i < n; i++) {
        TPos t = *s;
        team_apply(&t, &list[i]);
        team_count(b, &t, depth - 1, counts + 1);
    }
}

static PyObject *TeamBoard_perft(TeamBoard *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "perft() takes 2 arguments");
    TPos s;
    if (team_read_pos(self, args[0], &s)) return NULL;
    long depth = read_depth(args[1]);
    if (depth < 0) return NULL;
    unsigned long long counts[64] = {0};
    Py_BEGIN_ALLOW_THREADS
    team_count(self, &s, (int)depth, counts);
    Py_END_ALLOW_THREADS
    return perft_list(counts, depth);
}

static PyObject *TeamBoard_play(TeamBoard *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) return PyErr_Format(PyExc_TypeError, "play() takes 4 arguments");
    TPos s;
    TMove list[MAXMOVES];
    long long max_moves, max_turns, moves = 0, removed[SEATS] = {0, 0, 0, 0};
    if (team_read_pos(self, args[0], &s) || read_limits(args + 2, &max_moves, &max_turns))
        return NULL;
    Draws draws = zrec_draws(args[1]);
    int stalled = 0;
    while (!team_over(self, &s) && moves < max_moves && moves < max_turns) {
        int n = team_generate(self, &s, list);
        if (!n) {
            stalled = 1;
            break;
        }
        int i = team_draw(n, &draws);
        if (i < 0) return NULL;
        int seat = s.seat;
        removed[seat] += team_apply(&s, &list[i]);
        moves++; /* every move is a turn */
    }
    PyObject *pos = team_pos_object(self, &s);
    if (!pos) return NULL;
    return Py_BuildValue("(NLL(LLLL)O)", pos, moves, moves, removed[0], removed[1],
                         removed[2], removed[3], stalled ? Py_True : Py_False);
}

static int TeamBoard_init(TeamBoard *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"targets", "lines", "order", "team_homes", "step", "turn_limit",
                            "position", "move", "pass_move", "names", NULL};
    PyObject *targets, *lines, *order, *homes, *step, *pos_type, *move_type, *pass_move;
    PyObject *points = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOLOOO|O!", names, &targets, &lines,
                                     &order, &homes, &step, &self->turn_limit, &pos_type,
                                     &move_type, &pass_move, &PyDict_Type, &points))
        return -1;
    Py_XINCREF(points);
    Py_XSETREF(self->names, points);
    if (!PyType_Check(pos_type) || !PyType_Check(move_type)) {
        PyErr_SetString(PyExc_TypeError, "position and move must be types");
        return -1;
    }
    int buf[16];
    for (int seat = 0; seat < SEATS; seat++)
        for (int large = 0; large < 2; large++) {
            PyObject *a = PySequence_GetItem(targets, seat);
            PyObject *table = a ? PySequence_GetItem(a, large) : NULL;
            Py_XDECREF(a);
            if (!table) return -1;
            for (int i = 0; i < NPT; i++) {
                int n = nested(table, i, buf, 8, NPT, "targets");
                if (n < 0) {
                    Py_DECREF(table);
                    return -1;
                }
                self->nt[seat][large][i] = (uint8_t)n;
                for (int j = 0; j < n; j++) {
                    int d = direction_of(step, i, buf[j]);
                    if (d < 0) {
                        Py_DECREF(table);
                        return -1;
                    }
                    self->tg[seat][large][i][j] = (uint16_t)buf[j];
                    self->td[seat][large][i][j] = (uint8_t)d;
                }
            }
            Py_DECREF(table);
        }
    for (int t = 0; t < NPT; t++) {
        int n = nested(lines, t, buf, 16, NPT, "lines");
        if (n < 0) return -1;
        if (n % 2) {
            PyErr_SetString(PyExc_ValueError, "lines: pairs of points");
            return -1;
        }
        self->nl[t] = (uint8_t)(n / 2);
        for (int l = 0; l < n / 2; l++) {
            self->victim[t][l] = (uint16_t)buf[2 * l];
            self->beyond[t][l] = (uint16_t)buf[2 * l + 1];
        }
    }
    /* order: the points by letter, then row (the written order of captures) */
    {
        PyObject *fast = PySequence_Fast(order, "order");
        if (!fast) return -1;
        if (PySequence_Fast_GET_SIZE(fast) != NPT) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "order: every point once");
            return -1;
        }
        for (int r = 0; r < NPT; r++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, r));
            if (v < 0 || v >= NPT) {
                Py_DECREF(fast);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "order: a point");
                return -1;
            }
            self->rank[v] = (uint16_t)r;
        }
        Py_DECREF(fast);
    }
    memset(self->teamhome, 0, sizeof self->teamhome);
    for (int team = 0; team < 2; team++) {
        PyObject *item = PySequence_GetItem(homes, team);
        if (!item) return -1;
        int r = words_from(item, self->teamhome[team], TW);
        Py_DECREF(item);
        if (r) return -1;
    }
    if (descriptors(pos_type, TPOS_FIELDS, self->pd, 7) ||
        descriptors(move_type, TMOVE_FIELDS, self->md, 5))
        return -1;
    Py_INCREF(pos_type);
    Py_XSETREF(self->pos_type, pos_type);
    Py_INCREF(move_type);
    Py_XSETREF(self->move_type, move_type);
    Py_INCREF(pass_move);
    Py_XSETREF(self->pass_move, pass_move);
    return 0;
}

static void TeamBoard_dealloc(TeamBoard *self) {
    Py_XDECREF(self->names);
    forget_written(self->written);
    Py_XDECREF(self->pos_type);
    Py_XDECREF(self->move_type);
    Py_XDECREF(self->pass_move);
    for (int k = 0; k < 7; k++) Py_XDECREF(self->pd[k]);
    for (int k = 0; k < 5; k++) Py_XDECREF(self->md[k]);
    for (int i = 0; i < NPT; i++)
        for (int d = 0; d < 8; d++) Py_XDECREF(self->steps[i][d]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* -- TeamBoard.line (see "Written lines" above) ---------------------------------------- */

/* TeamStoneWarriors._step: the captures of a step (Ludii's order) and the placement */
static void team_captures(const TeamBoard *b, const TPos *s, TMove *m) {
    int seat = s->seat, partner = 3 - seat, foe = 1 - TEAM[seat];
    int fa = foe ? 1 : 0, fb = foe ? 2 : 3, c = 0;
    uint64_t enemies[TW], friends[TW];
    for (int k = 0; k < TW; k++) {
        enemies[k] = s->pc[fa][k] | s->pc[fb][k];
        friends[k] = s->pc[seat][k] | s->pc[partner][k];
    }
    FLIP(friends, m->origin);
    FLIP(friends, m->target);
    int t = m->target;
    for (int l = 0; l < b->nl[t]; l++)
        if (HAS(enemies, b->victim[t][l]) && HAS(friends, b->beyond[t][l]))
            m->caps[c++] = b->victim[t][l];
    m->ncaps = (uint8_t)c;
    m->placed = c && s->hands[seat] ? (int16_t)m->caps[0] : -1;
}

/* TeamStoneWarriors.resolve answering a move with no note: 1 and the move, else 0 */
static int team_resolve_written(const TeamBoard *b, const TPos *s, const Written *w,
                                TMove *m) {
    if (w->kind != W_PASS && w->kind != W_PATH) return 0; /* no drops under these rules */
    if (team_over(b, s)) return 0;
    m->ncaps = 0;
    m->placed = -1;
    if (w->kind == W_PASS) {
        TMove list[MAXMOVES];
        int n = team_generate(b, s, list);
        if (n != 1 || list[0].kind != PASS) return 0;
        m->kind = PASS;
        return 1;
    }
    int seat = s->seat, origin = w->sq[0], target = w->sq[1];
    if (!HAS(s->pc[seat], origin)) return 0;
    int large = (int)HAS(s->lg, origin), nt = b->nt[seat][large][origin], j = 0;
    while (j < nt && b->tg[seat][large][origin][j] != target) j++;
    if (j == nt) return 0;
    for (int x = 0; x < SEATS; x++)
        if (HAS(s->pc[x], target)) return 0;
    m->kind = STEP;
    m->origin = (uint16_t)origin;
    m->target = (uint16_t)target;
    m->dir = b->td[seat][large][origin][j];
    team_captures(b, s, m);
    int c = m->ncaps, written = w->n - 2;
    if (written != c) return 0; /* captures left out (a note) or not these */
    uint64_t seen[TW] = {0};
    for (int k = 2; k < w->n; k++) {
        int x = w->sq[k], found = 0;
        if (HAS(seen, x)) return 0;
        SET(seen, x);
        for (int l = 0; l < c; l++) found |= m->caps[l] == x;
        if (!found) return 0;
    }
    return 1;
}

/* TeamStoneWarriors.key: the seat to move, the large pieces in hand, the passes (at
 * most 4), then each seat's warriors and large piece, two bytes a point, each list
 * closed by ff ff; answers its length */
static Py_ssize_t team_key(const TPos *s, unsigned char *buf) {
    Py_ssize_t n = 0;
    buf[n++] = (unsigned char)s->seat;
    for (int x = 0; x < SEATS; x++) buf[n++] = (unsigned char)(s->hands[x] != 0);
    buf[n++] = (unsigned char)(s->passes < 4 ? s->passes : 4);
    for (int x = 0; x < SEATS; x++)
        for (int large = 0; large < 2; large++) {
            for (int k = 0; k < TW; k++) {
                uint64_t rest = s->pc[x][k] & (large ? s->lg[k] : ~s->lg[k]);
                for (; rest; rest &= rest - 1) {
                    int i = 64 * k + LOWEST(rest);
                    buf[n++] = (unsigned char)(i >> 8);
                    buf[n++] = (unsigned char)(i & 255);
                }
            }
            buf[n++] = 255;
            buf[n++] = 255;
        }
    return n;
}

/* TeamStoneWarriors.key, natively */
static PyObject *TeamBoard_key(TeamBoard *self, PyObject *pos) {
    TPos s;
    unsigned char buf[6 + 2 * NPT + 16];
    if (team_read_pos(self, pos, &s)) return NULL;
    return PyBytes_FromStringAndSize((const char *)buf, team_key(&s, buf));
}

static PyObject *TeamBoard_line(TeamBoard *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) return PyErr_Format(PyExc_TypeError, "line() takes 5 arguments");
    if (init_lines()) return NULL;
    if (!self->names)
        return PyErr_Format(PyExc_TypeError, "line(): the board was made without names");
    TPos s;
    if (team_read_pos(self, args[0], &s)) return NULL;
    Py_ssize_t n = line_lists(args + 1);
    int with_keys = PyObject_IsTrue(args[4]);
    if (n < 0 || with_keys < 0) return NULL;
    PyObject *turns = args[1], *numbers = args[2], *dots = args[3];
    PyObject *keys = with_keys ? PyList_New(0) : Py_NewRef(Py_None);
    PyObject *removals = with_keys ? PyList_New(0) : Py_NewRef(Py_None);
    if (!keys || !removals) goto failed;
    long long plies = 0;
    Py_ssize_t i = 0;
    for (; i < n; i++) {
        int fits = number_fits(PyList_GET_ITEM(numbers, i), PyList_GET_ITEM(dots, i), 1,
                               floor_div(s.ply, 4) + 1, s.seat == 0 ? 1 : 3);
        if (fits < 0) goto failed;
        if (!fits) break;
        const Written *w = written_once(&self->written, PyList_GET_ITEM(turns, i),
                                        self->names, 0);
        if (!w) goto failed;
        TMove m;
        if (!team_resolve_written(self, &s, w, &m)) break;
        int taken = team_apply(&s, &m);
        plies++;
        if (with_keys) {
            unsigned char buf[6 + 2 * NPT + 16];
            if (add_key(keys, buf, team_key(&s, buf))) goto failed;
            if (taken) {
                int count[SEATS] = {0, 0, 0, 0};
                for (int x = 0; x < SEATS; x++)
                    for (int k = 0; k < TW; k++) count[x] += POP(s.pc[x][k]);
                PyObject *material =
                    Py_BuildValue("(iiii)", count[0], count[1], count[2], count[3]);
                if (add_removal(removals, plies, material)) goto failed;
            }
        }
    }
    return Py_BuildValue("(nNLNN)", i, team_pos_object(self, &s), plies, keys, removals);
failed:
    Py_XDECREF(keys);
    Py_XDECREF(removals);
    return NULL;
}

static PyMethodDef TeamBoard_methods[] = {
    {"moves", (PyCFunction)(void (*)(void))TeamBoard_moves, METH_FASTCALL,
     "moves(pos): every legal move, in the engine's order"},
    {"sample", (PyCFunction)(void (*)(void))TeamBoard_sample, METH_FASTCALL,
     "sample(pos, rng): the engine's self-play move, drawn as it draws it"},
    {"perft", (PyCFunction)(void (*)(void))TeamBoard_perft, METH_FASTCALL,
     "perft(pos, depth): move sequences of each length"},
    {"play", (PyCFunction)(void (*)(void))TeamBoard_play, METH_FASTCALL,
     "play(pos, rng, max_moves, max_turns): a random game"},
    {"line", (PyCFunction)(void (*)(void))TeamBoard_line, METH_FASTCALL,
     "line(pos, turns, numbers, dots, keys): a written line played while nothing in it "
     "needs a word"},
    {"key", (PyCFunction)TeamBoard_key, METH_O, "key(pos): the engine's key of a position"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TeamBoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "zrec.rules.stonewarriors._kernel.TeamBoard",
    .tp_basicsize = sizeof(TeamBoard),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Stone Warriors under Ludii's rules (four seats on the points), compiled.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)TeamBoard_init,
    .tp_dealloc = (destructor)TeamBoard_dealloc,
    .tp_methods = TeamBoard_methods,
};

/* -- the module ------------------------------------------------------------------------ */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel",
    "Stone Warriors' compiled kernel (see zrec.rules.kernel).", -1, NULL, NULL, NULL, NULL,
    NULL,
};

static int add_type(PyObject *m, PyTypeObject *type, const char *name) {
    Py_INCREF(type);
    if (PyModule_AddObject(m, name, (PyObject *)type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__kernel(void) {
    if (PyType_Ready(&BoardType) < 0 || PyType_Ready(&TeamBoardType) < 0) return NULL;
    if (zrec_random_check() < 0) return NULL;
    kind_step = PyUnicode_InternFromString("step");
    kind_enter = PyUnicode_InternFromString("enter");
    sixty_four = PyLong_FromLong(64);
    empty_tuple = PyTuple_New(0);
    if (!kind_step || !kind_enter ||
        !sixty_four || !empty_tuple)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (add_type(m, &BoardType, "Board") || add_type(m, &TeamBoardType, "TeamBoard") ||
        /* 1: random games step a random.Random's state in place (../kernel_random.h) */
        PyModule_AddIntConstant(m, "STATE_DRAWS", zrec_state_usable) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
