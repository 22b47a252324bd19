/* Drawing from a Python random.Random inside a rules kernel, exactly as Python draws.
 *
 * A kernel's random game must draw the numbers the Python engine draws from the same
 * generator, so that a study gives the same games, byte for byte, with the kernel on
 * and off.  Python's random.Random is the Mersenne Twister (MT19937) of its C module
 * _random, and every draw a rules engine makes reduces to its 32-bit outputs:
 *   rng.getrandbits(k), k <= 32      the output >> (32 - k)
 *   rng._randbelow(n)               getrandbits(bit length of n), again while >= n
 *                                   (so rng.choice(seq) = seq[_randbelow(len(seq))])
 *   rng.random()                    (a * 2**26 + b) / 2**53, a = out >> 5, b = out >> 6
 *
 * The one speed trick of the kernels lives here, in draws_init: where the generator is
 * a plain random.Random (not a subclass, which may draw otherwise), the kernel steps
 * the generator's own state in place, the 624 words and the index that _random keeps
 * right after the object header, instead of calling rng.getrandbits once a draw: a
 * random Mosona game then runs about 2x faster (benchmarks/kernel_bench.py).  That
 * layout is CPython's private business, so zrec_random_check() tests it once, when a
 * kernel module is imported, by drawing from a copy of a seeded generator's state and
 * comparing with what the generator itself draws; where the test fails (another
 * Python, another layout) every draw is a method call, slower and still exact.
 *
 * Each kernel includes this file once (it defines static inline functions: a kernel
 * that uses only some of them is not warned of the others).
 */
#ifndef ZREC_KERNEL_RANDOM_H
#define ZREC_KERNEL_RANDOM_H

#include <Python.h>
#include <stdint.h>

#define ZREC_MT_N 624
#define ZREC_MT_M 397

/* _random.Random's instance, as Modules/_randommodule.c lays it out (3.10 to 3.13) */
typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[ZREC_MT_N];
} ZrecMT;

static PyObject *zrec_random_type;        /* random.Random */
static PyObject *zrec_getrandbits_name;   /* "getrandbits" */
static PyObject *zrec_random_name;        /* "random" */
static int zrec_state_usable;             /* the layout test passed */

/* where draws come from for one call: the state in place, or the object's methods */
typedef struct {
    PyObject *rng;
    ZrecMT *mt; /* NULL: call the methods */
} Draws;

static inline uint32_t zrec_mt_next(ZrecMT *g) {
    /* MT19937's next 32-bit output (Matsumoto and Nishimura, 1998) */
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = g->state, y;
    if (g->index >= ZREC_MT_N) {
        int k;
        for (k = 0; k < ZREC_MT_N - ZREC_MT_M; k++) {
            y = (mt[k] & 0x80000000U) | (mt[k + 1] & 0x7fffffffU);
            mt[k] = mt[k + ZREC_MT_M] ^ (y >> 1) ^ mag01[y & 1U];
        }
        for (; k < ZREC_MT_N - 1; k++) {
            y = (mt[k] & 0x80000000U) | (mt[k + 1] & 0x7fffffffU);
            mt[k] = mt[k + (ZREC_MT_M - ZREC_MT_N)] ^ (y >> 1) ^ mag01[y & 1U];
        }
        y = (mt[ZREC_MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[ZREC_MT_N - 1] = mt[ZREC_MT_M - 1] ^ (y >> 1) ^ mag01[y & 1U];
        g->index = 0;
    }
    y = mt[g->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* Import-time set-up and the layout test; returns -1 with an exception set on failure
 * of the set-up itself (a failed layout test only turns the trick off). */
static inline int zrec_random_check(void) {
    zrec_getrandbits_name = PyUnicode_InternFromString("getrandbits");
    zrec_random_name = PyUnicode_InternFromString("random");
    if (!zrec_getrandbits_name || !zrec_random_name) return -1;
    PyObject *module = PyImport_ImportModule("random");
    if (!module) return -1;
    zrec_random_type = PyObject_GetAttrString(module, "Random");
    Py_DECREF(module);
    if (!zrec_random_type) return -1;
    zrec_state_usable = 0;
    PyObject *probe = PyObject_CallFunction(zrec_random_type, "i", 20261129);
    if (!probe) return -1;
    if (Py_TYPE(probe)->tp_basicsize >= (Py_ssize_t)sizeof(ZrecMT)) {
        ZrecMT copy;
        memcpy(&copy, probe, sizeof copy);
        if (copy.index >= 0 && copy.index <= ZREC_MT_N) {
            int same = 1;
            for (int i = 0; same && i < 700; i++) { /* past one regeneration of the state */
                uint32_t mine = zrec_mt_next(&copy);
                PyObject *r = PyObject_CallMethod(probe, "getrandbits", "i", 32);
                if (!r) {
                    Py_DECREF(probe);
                    return -1;
                }
                same = PyLong_AsUnsignedLong(r) == mine;
                Py_DECREF(r);
            }
            zrec_state_usable = same;
        }
    }
    Py_DECREF(probe);
    PyErr_Clear();
    return 0;
}

static inline Draws zrec_draws(PyObject *rng) {
    Draws d = {rng, NULL};
    if (zrec_state_usable && (PyObject *)Py_TYPE(rng) == zrec_random_type) d.mt = (ZrecMT *)rng;
    return d;
}

/* rng.getrandbits(k) for 1 <= k <= 32; -1 with an exception set on failure */
static inline int64_t zrec_getrandbits(Draws *d, int k) {
    if (d->mt) return (int64_t)(zrec_mt_next(d->mt) >> (32 - k));
    PyObject *bits = PyLong_FromLong(k);
    if (!bits) return -1;
    PyObject *call[2] = {d->rng, bits};
    PyObject *r = PyObject_VectorcallMethod(zrec_getrandbits_name, call,
                                            2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    Py_DECREF(bits);
    if (!r) return -1;
    unsigned long v = PyLong_AsUnsignedLong(r);
    Py_DECREF(r);
    if (v == (unsigned long)-1 && PyErr_Occurred()) return -1;
    return (int64_t)v;
}

/* rng._randbelow(n) for 1 <= n < 2**32; -1 with an exception set on failure */
static inline int64_t zrec_randbelow(Draws *d, uint32_t n) {
    int k = 0;
    for (uint32_t x = n; x; x >>= 1) k++;
    for (;;) {
        int64_t r = zrec_getrandbits(d, k);
        if (r < 0 || r < (int64_t)n) return r;
    }
}

/* rng.random(); -1.0 with an exception set on failure */
static inline double zrec_random(Draws *d) {
    if (d->mt) {
        uint32_t a = zrec_mt_next(d->mt) >> 5, b = zrec_mt_next(d->mt) >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }
    PyObject *call[1] = {d->rng};
    PyObject *r = PyObject_VectorcallMethod(zrec_random_name, call,
                                            1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    if (!r) return -1.0;
    double v = PyFloat_AsDouble(r);
    Py_DECREF(r);
    return v;
}

#endif
