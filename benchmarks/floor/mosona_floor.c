/* mosona_floor: a minimal move generator for Awithlaknannai Mosona (and Kolowis), the floor
 * that zrec's rules kernel is measured against (benchmarks/kernel_bench.py).
 *
 * Written from docs/rules.md and docs/perft.md alone: three rows of points, a (south,
 * White's side) and c (north) with N points, b (the middle) with N + 1; outer point i
 * stands between middle points i and i + 1 and is joined to both by diagonals; the middle
 * points are joined along their row; on the lined board the outer points too.  A jump
 * follows one line (line jumps: the middle row, an outer row, a straight diagonal through
 * a middle point, the curved ends a1-b1-c1 and aN-bN+1-cN) or, under bent jumps, turns at
 * the jumped piece onto any line.  Captures are compulsory, a chain goes on while it can
 * and is one move, two chains differ when their landing points or sets of jumped pieces
 * differ.  The side to move with no piece or no legal move has no moves.
 *
 * Bitboards in a uint64: point a(i) is bit i, b(j) bit N + j, c(i) bit 2N + 1 + i.
 *
 *   mosona_floor perft DEPTH [--board lined|open] [--jumps line|bent] [--kolowis]
 *   mosona_floor selfplay GAMES SEED [--max-plies 300] [same options]
 *
 * Build: gcc -O2 -o mosona_floor mosona_floor.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;
#define BIT(p) ((u64)1 << (p))
#define MAXP 49     /* points of the Kolowis board */
#define MAXJ 32     /* jumps from one point (bent jumps from a middle point: 22) */
#define MAXCHAIN 24 /* jumps in one chain: at most the enemy's pieces */
#define MAXMOVES 16384 /* bent Kolowis chains: a position with over 1,024 */
#define MAXDEPTH 40

static int N, NP, bent;
static u64 nbr[MAXP];                    /* the points joined to each point by a line */
static int njump[MAXP];                  /* the jumps from each point: over, then onto */
static uint8_t jover[MAXP][MAXJ], jto[MAXP][MAXJ];

typedef struct { u64 cap; uint8_t from, to, len, path[MAXCHAIN]; } Move;
typedef struct { Move m[MAXMOVES]; int n; } List;

static int A(int i) { return i; }
static int B(int j) { return N + j; }
static int C(int i) { return 2 * N + 1 + i; }

static void join(int p, int q) { nbr[p] |= BIT(q); nbr[q] |= BIT(p); }

static void add_jump(int x, int y, int z) {
    if (njump[x] == MAXJ) { fprintf(stderr, "too many jumps\n"); exit(3); }
    jover[x][njump[x]] = (uint8_t)y; jto[x][njump[x]++] = (uint8_t)z;
}

static void line3(int x, int y, int z) { add_jump(x, y, z); add_jump(z, y, x); }

static void make_board(int outer, int lined, int bent_jumps) {
    N = outer; NP = 3 * N + 1; bent = bent_jumps;
    memset(nbr, 0, sizeof nbr); memset(njump, 0, sizeof njump);
    for (int j = 0; j < N; j++) join(B(j), B(j + 1));
    for (int i = 0; i < N; i++) {
        join(A(i), B(i)); join(A(i), B(i + 1)); join(C(i), B(i)); join(C(i), B(i + 1));
        if (lined && i + 1 < N) { join(A(i), A(i + 1)); join(C(i), C(i + 1)); }
    }
    if (bent) { /* x over a neighbour y onto any neighbour of y but x */
        for (int x = 0; x < NP; x++)
            for (int y = 0; y < NP; y++)
                if (nbr[x] & BIT(y))
                    for (int z = 0; z < NP; z++)
                        if ((nbr[y] & BIT(z)) && z != x) add_jump(x, y, z);
        return;
    }
    for (int j = 0; j + 2 <= N; j++) line3(B(j), B(j + 1), B(j + 2));
    for (int i = 0; lined && i + 2 < N; i++) {
        line3(A(i), A(i + 1), A(i + 2)); line3(C(i), C(i + 1), C(i + 2));
    }
    for (int j = 1; j < N; j++) { line3(A(j - 1), B(j), C(j)); line3(A(j), B(j), C(j - 1)); }
    line3(A(0), B(0), C(0)); line3(A(N - 1), B(N), C(N - 1)); /* the curved ends */
}

typedef struct { u64 side[2]; int turn; } Pos; /* side[0] White, side[1] Black */

static Pos start_position(void) {
    Pos p = {{0, 0}, 0};
    for (int i = 0; i < N; i++) { p.side[0] |= BIT(A(i)); p.side[1] |= BIT(C(i)); }
    for (int j = 0; j <= N; j++)
        if (j < N / 2) p.side[1] |= BIT(B(j)); else if (j > N / 2) p.side[0] |= BIT(B(j));
    return p;
}

/* A finished chain, kept unless the same landing points took the same pieces already
 * (possible under bent jumps only: the same pieces taken in another order). */
static void emit(List *l, int from, int to, u64 cap, const uint8_t *path, int len) {
    if (bent)
        for (int k = 0; k < l->n; k++) {
            Move *m = &l->m[k];
            if (m->cap == cap && m->from == from && m->len == len && !memcmp(m->path, path, len))
                return;
        }
    if (l->n == MAXMOVES) { fprintf(stderr, "too many moves\n"); exit(3); }
    Move *m = &l->m[l->n++];
    m->cap = cap; m->from = (uint8_t)from; m->to = (uint8_t)to; m->len = (uint8_t)len;
    memcpy(m->path, path, len);
}

static void chain(List *l, int from, int at, u64 enemy, u64 empty, u64 cap,
                  uint8_t *path, int len) {
    int more = 0;
    for (int k = 0; k < njump[at]; k++) {
        int y = jover[at][k], z = jto[at][k];
        if ((enemy & BIT(y)) && (empty & BIT(z))) {
            more = 1; path[len] = (uint8_t)z;
            chain(l, from, z, enemy & ~BIT(y), (empty | BIT(y) | BIT(at)) & ~BIT(z),
                  cap | BIT(y), path, len + 1);
        }
    }
    if (!more && len > 0) emit(l, from, at, cap, path, len);
}

/* The legal moves: every whole chain if any piece can capture, else every step. */
static int generate(const Pos *p, List *l) {
    u64 mine = p->side[p->turn], enemy = p->side[!p->turn];
    u64 empty = ~(mine | enemy) & ((BIT(NP)) - 1);
    uint8_t path[MAXCHAIN];
    l->n = 0;
    for (u64 b = mine; b; b &= b - 1) {
        int from = __builtin_ctzll(b);
        chain(l, from, from, enemy, empty, 0, path, 0);
    }
    if (l->n) return l->n;
    for (u64 b = mine; b; b &= b - 1) {
        int from = __builtin_ctzll(b);
        for (u64 t = nbr[from] & empty; t; t &= t - 1) {
            Move *m = &l->m[l->n++];
            m->cap = 0; m->from = (uint8_t)from; m->to = (uint8_t)__builtin_ctzll(t); m->len = 0;
        }
    }
    return l->n;
}

static Pos apply(const Pos *p, const Move *m) {
    Pos q = *p;
    q.side[p->turn] = (q.side[p->turn] & ~BIT(m->from)) | BIT(m->to);
    q.side[!p->turn] &= ~m->cap;
    q.turn = !p->turn;
    return q;
}

static List lists[MAXDEPTH]; /* a move list per ply, outside the stack */

/* counts[ply] += the moves from p, then the same from each position after them. */

static void perft(const Pos *p, int ply, int depth, u64 *counts) {
    List *l = &lists[ply];
    int n = generate(p, l);
    counts[ply] += (u64)n;
    if (ply + 1 == depth) return;
    for (int k = 0; k < n; k++) {
        Pos q = apply(p, &l->m[k]);
        perft(&q, ply + 1, depth, counts);
    }
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static u64 rng_state;
static u64 next_random(void) { /* splitmix64 */
    u64 z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int one_of(const char *s, const char *a, const char *b) {
    return !strcmp(s, a) || !strcmp(s, b);
}

static int usage(void) {
    fprintf(stderr, "usage: mosona_floor perft DEPTH [--board lined|open] [--jumps line|bent]"
                    " [--kolowis]\n       mosona_floor selfplay GAMES SEED [--max-plies N]"
                    " [same options]\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 3) return usage();
    int perft_mode = !strcmp(argv[1], "perft"), first = perft_mode ? 3 : 4;
    if (!perft_mode && (strcmp(argv[1], "selfplay") || argc < 4)) return usage();
    int outer = 8, lined = 1, bent_jumps = 0, max_plies = 300;
    for (int a = first; a < argc; a++) {
        if (!strcmp(argv[a], "--kolowis")) outer = 16;
        else if (!strcmp(argv[a], "--board") && a + 1 < argc && one_of(argv[++a], "lined", "open"))
            lined = !strcmp(argv[a], "lined");
        else if (!strcmp(argv[a], "--jumps") && a + 1 < argc && one_of(argv[++a], "line", "bent"))
            bent_jumps = !strcmp(argv[a], "bent");
        else if (!strcmp(argv[a], "--max-plies") && a + 1 < argc) max_plies = atoi(argv[++a]);
        else return usage();
    }
    make_board(outer, lined, bent_jumps);
    Pos s = start_position();
    if (perft_mode) {
        int depth = atoi(argv[2]);
        if (depth < 1 || depth > MAXDEPTH) return usage();
        u64 counts[MAXDEPTH] = {0}, nodes = 0;
        double t = cpu_seconds();
        perft(&s, 0, depth, counts);
        t = cpu_seconds() - t;
        for (int d = 0; d < depth; d++) {
            printf("%d %llu\n", d + 1, (unsigned long long)counts[d]);
            nodes += counts[d];
        }
        printf("nodes %llu seconds %.6f nodes/s %.0f\n", (unsigned long long)nodes, t,
               t > 0 ? nodes / t : 0.0);
        return 0;
    }
    long games = atol(argv[2]), plies = 0, finished = 0;
    rng_state = strtoull(argv[3], NULL, 10);
    List *l = &lists[0];
    double t = cpu_seconds();
    for (long g = 0; g < games; g++) {
        Pos p = s;
        int ply = 0;
        while (ply < max_plies && generate(&p, l)) {
            p = apply(&p, &l->m[next_random() % (u64)l->n]);
            ply++;
        }
        finished += ply < max_plies || !generate(&p, l);
        plies += ply;
    }
    t = cpu_seconds() - t;
    printf("games %ld plies %ld finished %ld seconds %.6f plies/s %.0f\n", games, plies,
           finished, t, t > 0 ? plies / t : 0.0);
    return 0;
}
