/* Belief propagation between the lanes of any geometry: the compiled transcription of
 * satnono/logic/beliefs.py (lane_hints and line_messages).
 *
 * Every floating-point operation is the reference's, in the reference's order (IEEE doubles,
 * each sum left to right, scaling by the maximum), so the hints are bit-identical; build without
 * floating-point contraction (setup.py passes -ffp-contract=off): a fused multiply-add would
 * round differently.  tests/test_beliefs.py compares the two on random and corpus puzzles.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define MAX_VALUES 64

/* One line's clue as an automaton (see beliefs.automaton). */
typedef struct {
    int k;        /* blocks */
    int ns;       /* states */
    int *emit;    /* value emitted moving into s from s - 1 (-1 for s = 0) */
    int *stay;    /* value emitted keeping s (-1: none) */
    int *first;   /* block whose first cell s is, or -1 */
    char *skip;   /* s is also entered from s - 2 */
    int *colors;  /* block colours */
    int *gaps;    /* the gap states (stay white, entered white), ascending: 0, then one after each block */
    int plain;    /* black and white without a blot: gaps and block cells only (line_messages_bw) */
} Automaton;

static void automaton_free(Automaton *a)
{
    free(a->emit);
    free(a->stay);
    free(a->first);
    free(a->skip);
    free(a->colors);
    free(a->gaps);
    memset(a, 0, sizeof(*a));
}

/* Reads ``(lengths, colors, blotted block indices)``; -1 with an exception set on bad input. */
static int automaton_build(PyObject *spec, int n, int nvals, Automaton *out)
{
    memset(out, 0, sizeof(*out));
    PyObject *lengths, *colors, *blots;
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 3) {
        PyErr_SetString(PyExc_TypeError, "a clue is (lengths, colors, blotted block indices)");
        return -1;
    }
    lengths = PyTuple_GET_ITEM(spec, 0);
    colors = PyTuple_GET_ITEM(spec, 1);
    blots = PyTuple_GET_ITEM(spec, 2);
    if (!PyTuple_Check(lengths) || !PyTuple_Check(colors) || !PyTuple_Check(blots)
        || PyTuple_GET_SIZE(colors) != PyTuple_GET_SIZE(lengths)) {
        PyErr_SetString(PyExc_TypeError, "lengths, colors and blots must be tuples (lengths and colors alike)");
        return -1;
    }
    Py_ssize_t k = PyTuple_GET_SIZE(lengths);
    if (k > n) {  /* no completion: the line is skipped (ns = 0), as the reference finds none */
        out->ns = 0;
        return 0;
    }
    char *blotted = calloc((size_t)k + 1, 1);
    long *len = malloc(sizeof(long) * ((size_t)k + 1));
    out->colors = malloc(sizeof(int) * ((size_t)k + 1));
    if (blotted == NULL || len == NULL || out->colors == NULL) {
        free(blotted);
        free(len);
        automaton_free(out);
        PyErr_NoMemory();
        return -1;
    }
    long total = 1;
    for (Py_ssize_t j = 0; j < k; j++) {
        len[j] = PyLong_AsLong(PyTuple_GET_ITEM(lengths, j));
        long c = PyLong_AsLong(PyTuple_GET_ITEM(colors, j));
        if ((len[j] == -1 || c == -1) && PyErr_Occurred())
            goto bad;
        if (len[j] < 1 || c < 1 || c >= nvals) {
            PyErr_SetString(PyExc_ValueError, "a block length or colour is out of range");
            goto bad;
        }
        out->colors[j] = (int)c;
    }
    for (Py_ssize_t b = 0; b < PyTuple_GET_SIZE(blots); b++) {
        long j = PyLong_AsLong(PyTuple_GET_ITEM(blots, b));
        if (j == -1 && PyErr_Occurred())
            goto bad;
        if (j < 0 || j >= k) {
            PyErr_SetString(PyExc_ValueError, "a blotted block index is out of range");
            goto bad;
        }
        blotted[j] = 1;
    }
    for (Py_ssize_t j = 0; j < k; j++) {
        if (!blotted[j] && len[j] > n) {  /* a block longer than its line: no completion, skipped */
            free(blotted);
            free(len);
            automaton_free(out);
            out->ns = 0;
            return 0;
        }
        total += (blotted[j] ? 1 : len[j]) + 1;
    }
    out->k = (int)k;
    out->ns = (int)total;
    out->emit = malloc(sizeof(int) * (size_t)total);
    out->stay = malloc(sizeof(int) * (size_t)total);
    out->first = malloc(sizeof(int) * (size_t)total);
    out->skip = malloc((size_t)total);
    if (out->emit == NULL || out->stay == NULL || out->first == NULL || out->skip == NULL) {
        PyErr_NoMemory();
        goto bad;
    }
    int s = 0;
    out->emit[s] = -1, out->stay[s] = 0, out->skip[s] = 0, out->first[s] = -1, s++;
    for (Py_ssize_t j = 0; j < k; j++) {
        int col = out->colors[j];
        long cells = blotted[j] ? 1 : len[j];
        for (long t = 0; t < cells; t++) {
            out->emit[s] = col;
            out->stay[s] = blotted[j] ? col : -1;
            out->skip[s] = (char)(t == 0 && j > 0 && out->colors[j - 1] != col);
            out->first[s] = t == 0 ? (int)j : -1;
            s++;
        }
        out->emit[s] = 0, out->stay[s] = 0, out->skip[s] = 0, out->first[s] = -1, s++;
    }
    out->gaps = malloc(sizeof(int) * ((size_t)k + 1));
    if (out->gaps == NULL) {
        PyErr_NoMemory();
        goto bad;
    }
    out->plain = nvals == 2;
    for (int t = 0, g = 0; t < s; t++) {
        if (out->stay[t] == 0)
            out->gaps[g++] = t;
        else if (out->stay[t] >= 0 || out->skip[t] || out->emit[t] != 1)
            out->plain = 0; /* a blotted block (it stays black) */
    }
    free(blotted);
    free(len);
    return 0;
bad:
    free(blotted);
    free(len);
    automaton_free(out);
    return -1;
}

/* Scratch space for one line, sized for the longest line and the largest automaton. */
typedef struct {
    double *alpha;    /* (n + 1) * ns */
    double *beta;     /* ns */
    double *nbeta;    /* ns */
    double *msgs;     /* n * nvals */
    double *start_p;  /* k * n */
    double *e;        /* nvals */
    double *st;       /* k */
    double *x;        /* ns: a[s] * b[s + 1] (line_messages_bw) */
} Scratch;

/* beliefs._rescale: divide v[0..ns) by their maximum top in place; 0 when every one is 0. */
static int rescale(double *v, int ns, double top)
{
    if (top == 0.0)
        return 0;
    for (int s = 0; s < ns; s++)
        v[s] = v[s] / top;
    return 1;
}

/* The backward pass's start: 1 on the states a line may end in (the last gap, or the last
 * block's last cell), 0 elsewhere. */
static void final_states(double *b, int ns, int k)
{
    for (int s = 0; s < ns; s++)
        b[s] = 0.0;
    b[ns - 1] = 1.0;
    if (k)
        b[ns - 2] = 1.0;
}

/* Each block's median start: the first position where its start distribution (start_p, a row
 * of n per block) sums to a half or more, summed left to right (the last position if none). */
static void median_starts(const double *start_p, int k, int n, int *starts)
{
    for (int j = 0; j < k; j++) {
        double cum = 0.0;
        int med = n - 1;
        for (int p = 0; p < n; p++) {
            cum = cum + start_p[(size_t)j * n + p];
            if (cum >= 0.5) {
                med = p;
                break;
            }
        }
        starts[j] = med;
    }
}

/* The largest of v[0..n) and 0.0: what the reference's "if acc > top: top = acc" from 0.0 finds,
 * in four interleaved runs instead of one (a maximum of the same values is the same value
 * whatever the order; a NaN, which no comparison picks, would be skipped either way). */
static inline double largest(const double *v, int n)
{
    double m0 = 0.0, m1 = 0.0, m2 = 0.0, m3 = 0.0;
    int s = 0;
    for (; s + 3 < n; s += 4) {
        m0 = v[s] > m0 ? v[s] : m0;
        m1 = v[s + 1] > m1 ? v[s + 1] : m1;
        m2 = v[s + 2] > m2 ? v[s + 2] : m2;
        m3 = v[s + 3] > m3 ? v[s + 3] : m3;
    }
    for (; s < n; s++)
        m0 = v[s] > m0 ? v[s] : m0;
    m0 = m1 > m0 ? m1 : m0;
    m2 = m3 > m2 ? m3 : m2;
    return m2 > m0 ? m2 : m0;
}

/* line_messages for a plain black-and-white automaton (gap states that stay white, block cells
 * entered black, no skip): the same floating-point operations on the same operands in the same
 * order as the general loop below, which on this automaton reduce to these (a term the general
 * loop starts from 0.0 is the product itself: 0.0 + x is x for the non-negative x here), written
 * as loops without indirection that the compiler can vectorize. */
static int line_messages_bw(const Automaton *A, int n, const double *weights, const uint64_t *allowed,
                            double *out, int *starts, Scratch *S)
{
    const int ns = A->ns, k = A->k, *gaps = A->gaps;
    double *alpha = S->alpha, *x = S->x;
    for (int s = 0; s < ns; s++)
        alpha[s] = 0.0;
    alpha[0] = 1.0;
    for (int i = 0; i < n; i++) {
        const double *a = alpha + (size_t)i * ns;
        const double w0 = weights[2 * i], w1 = weights[2 * i + 1];
        double *nw = alpha + (size_t)(i + 1) * ns;
        nw[0] = a[0] * w0;
        for (int s = 1; s < ns; s++) /* a block cell: entered black from s - 1 */
            nw[s] = a[s - 1] * w1;
        for (int g = 1; g <= k; g++) /* a gap: stays white, entered white */
            nw[gaps[g]] = a[gaps[g]] * w0 + a[gaps[g] - 1] * w0;
        double top = largest(nw, ns);
        if (!rescale(nw, ns, top))
            return 0;
    }
    double *b = S->beta, *nb = S->nbeta;
    final_states(b, ns, k);
    for (int i = n - 1; i >= 0; i--) {
        const double *a = alpha + (size_t)i * ns;
        const double w0 = weights[2 * i], w1 = weights[2 * i + 1];
        for (int s = 0; s + 1 < ns; s++)
            x[s] = a[s] * b[s + 1];
        /* white: each gap's stay term after the term entering it; black: the block cells' */
        double e0 = a[0] * b[0], e1 = 0.0;
        for (int g = 1; g <= k; g++) {
            e0 = e0 + x[gaps[g] - 1];
            e0 = e0 + a[gaps[g]] * b[gaps[g]];
        }
        for (int g = 0; g < k; g++)
            for (int s = gaps[g] + 1; s < gaps[g + 1]; s++)
                e1 = e1 + x[s - 1];
        double total = 0.0;
        total = total + w0 * e0;
        total = total + w1 * e1;
        if (total == 0.0)
            return 0;
        for (int j = 0; j < k; j++) /* block j's first cell is entered from gap j only */
            S->start_p[(size_t)j * n + i] = (x[gaps[j]] * w1) / total;
        double *mi = S->msgs + (size_t)i * 2, norm = 0.0;
        uint64_t bits = allowed[i];
        if (bits & 1)
            norm = norm + e0;
        if (bits & 2)
            norm = norm + e1;
        mi[0] = (bits & 1) && norm > 0.0 ? e0 / norm : 0.0;
        mi[1] = (bits & 2) && norm > 0.0 ? e1 / norm : 0.0;
        for (int s = 0; s + 1 < ns; s++) /* left by entering s + 1: black into a cell, white into a gap */
            nb[s] = w1 * b[s + 1];
        for (int g = 0; g < k; g++) {
            nb[gaps[g + 1] - 1] = w0 * b[gaps[g + 1]];
            nb[gaps[g]] = w0 * b[gaps[g]] + w1 * b[gaps[g] + 1];
        }
        nb[ns - 1] = w0 * b[ns - 1];
        double top = largest(nb, ns);
        if (!rescale(nb, ns, top))
            return 0;
        double *t = b;
        b = nb;
        nb = t;
    }
    memcpy(out, S->msgs, sizeof(double) * (size_t)n * 2);
    median_starts(S->start_p, k, n, starts);
    return 1;
}

/* beliefs.line_messages: 1 on success, 0 when no completion has positive weight. */
static int line_messages(const Automaton *A, int nvals, int n, const double *weights, const uint64_t *allowed,
                         double *out, int *starts, Scratch *S)
{
    const int ns = A->ns, k = A->k;
    if (ns == 0)  /* a clue its line cannot hold (see automaton_build) */
        return 0;
    if (A->plain)
        return line_messages_bw(A, n, weights, allowed, out, starts, S);
    const int *emit = A->emit, *stay = A->stay, *first = A->first;
    const char *skip = A->skip;
    double *alpha = S->alpha;
    for (int s = 0; s < ns; s++)
        alpha[s] = 0.0;
    alpha[0] = 1.0;
    for (int i = 0; i < n; i++) {
        const double *a = alpha + (size_t)i * ns, *w = weights + (size_t)i * nvals;
        double *nw = alpha + (size_t)(i + 1) * ns;
        double top = 0.0;
        for (int s = 0; s < ns; s++) {
            double acc = 0.0;
            if (stay[s] >= 0)
                acc = a[s] * w[stay[s]];
            if (s >= 1)
                acc = acc + a[s - 1] * w[emit[s]];
            if (skip[s])
                acc = acc + a[s - 2] * w[emit[s]];
            nw[s] = acc;
            if (acc > top)
                top = acc;
        }
        if (!rescale(nw, ns, top))
            return 0;
    }
    double *b = S->beta, *nb = S->nbeta;
    final_states(b, ns, k);
    double *e = S->e, *st = S->st;
    for (int i = n - 1; i >= 0; i--) {
        const double *a = alpha + (size_t)i * ns, *w = weights + (size_t)i * nvals;
        for (int v = 0; v < nvals; v++)
            e[v] = 0.0;
        for (int j = 0; j < k; j++)
            st[j] = 0.0;
        for (int s = 0; s < ns; s++) {
            if (stay[s] >= 0)
                e[stay[s]] = e[stay[s]] + a[s] * b[s];
            if (s + 1 < ns) {
                double x = a[s] * b[s + 1];
                e[emit[s + 1]] = e[emit[s + 1]] + x;
                if (first[s + 1] >= 0)
                    st[first[s + 1]] = st[first[s + 1]] + x;
            }
            if (s + 2 < ns && skip[s + 2]) {
                double x = a[s] * b[s + 2];
                e[emit[s + 2]] = e[emit[s + 2]] + x;
                st[first[s + 2]] = st[first[s + 2]] + x;
            }
        }
        double total = 0.0;
        for (int v = 0; v < nvals; v++)
            total = total + w[v] * e[v];
        if (total == 0.0)
            return 0;
        for (int j = 0; j < k; j++)
            S->start_p[(size_t)j * n + i] = (st[j] * w[A->colors[j]]) / total;
        double *mi = S->msgs + (size_t)i * nvals, norm = 0.0;
        uint64_t bits = allowed[i];
        for (int v = 0; v < nvals; v++)
            if ((bits >> v) & 1)
                norm = norm + e[v];
        for (int v = 0; v < nvals; v++)
            mi[v] = ((bits >> v) & 1) && norm > 0.0 ? e[v] / norm : 0.0;
        double top = 0.0;
        for (int s = 0; s < ns; s++) {
            double acc = 0.0;
            if (stay[s] >= 0)
                acc = w[stay[s]] * b[s];
            if (s + 1 < ns)
                acc = acc + w[emit[s + 1]] * b[s + 1];
            if (s + 2 < ns && skip[s + 2])
                acc = acc + w[emit[s + 2]] * b[s + 2];
            nb[s] = acc;
            if (acc > top)
                top = acc;
        }
        if (!rescale(nb, ns, top))
            return 0;
        double *t = b;
        b = nb;
        nb = t;
    }
    memcpy(out, S->msgs, sizeof(double) * (size_t)n * nvals);
    median_starts(S->start_p, k, n, starts);
    return 1;
}

/* time.monotonic() on POSIX: CLOCK_MONOTONIC, in seconds */
static double monotonic_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int popcount64(uint64_t x)
{
    int c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}

PyDoc_STRVAR(lane_hints_doc,
"lane_hints(ncell, nvals, lanes, clues, allowed, rounds, damping, tolerance, floor, deadline=None)\n"
"--\n\n"
"Belief propagation over lanes (sequences of cell numbers): (cells, starts per lane, rounds run,\n"
"confidence), bit-identical to satnono.logic.beliefs.lane_hints; None once the monotonic clock\n"
"(time.monotonic) has passed deadline, checked before each lane.");

/* The places (a lane's cells, lane after lane) read from ``lanes``: lane_off[l] is lane l's first
 * place, place_cell[o] the cell of place o; -1 with an exception set on bad input. */
static int read_lanes(PyObject *lanes, Py_ssize_t ncell, size_t **lane_off, size_t **place_cell, size_t *nplace)
{
    Py_ssize_t nl = PyList_GET_SIZE(lanes);
    size_t total = 0;
    *place_cell = NULL;
    *lane_off = malloc(sizeof(size_t) * ((size_t)nl + 1));
    if (*lane_off == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t l = 0; l < nl; l++) {
        Py_ssize_t n = PyObject_Length(PyList_GET_ITEM(lanes, l));
        if (n < 0)
            return -1;
        (*lane_off)[l] = total;
        total += (size_t)n;
    }
    (*lane_off)[nl] = total;
    *nplace = total;
    *place_cell = malloc(sizeof(size_t) * (total + 1));
    if (*place_cell == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t l = 0; l < nl; l++) {
        PyObject *seq = PySequence_Fast(PyList_GET_ITEM(lanes, l), "a lane is a sequence of cell numbers");
        if (seq == NULL)
            return -1;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        if ((size_t)n != (*lane_off)[l + 1] - (*lane_off)[l]) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "lane_hints: a lane changed its length");
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_ssize_t x = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(seq, i));
            if (x == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                return -1;
            }
            if (x < 0 || x >= ncell) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "lane_hints: a lane's cell is out of range");
                return -1;
            }
            (*place_cell)[(*lane_off)[l] + (size_t)i] = (size_t)x;
        }
        Py_DECREF(seq);
    }
    return 0;
}

/* The prior of a lane's cell from the cell's other places (see beliefs.lane_hints) into m:
 * the one other place's message, the product of several scaled to sum to 1, or uniform. */
static void prior_of(size_t o, size_t x, int nvals, uint64_t bits, const double *msg, const size_t *cell_off,
                     const size_t *cell_places, const double **m, double *scratch)
{
    size_t first = cell_off[x], end = cell_off[x + 1], seen = 0;
    const double *one = NULL;
    for (size_t t = first; t < end; t++) {
        size_t q = cell_places[t];
        if (q == o)
            continue;
        const double *mq = msg + q * nvals;
        if (seen == 0) {
            one = mq;
        } else {
            if (seen == 1)
                for (int v = 0; v < nvals; v++)
                    scratch[v] = one[v];
            for (int v = 0; v < nvals; v++)
                scratch[v] = scratch[v] * mq[v];
        }
        seen++;
    }
    if (seen == 1) {
        *m = one;
        return;
    }
    if (seen == 0) {
        int cnt = popcount64(bits);
        for (int v = 0; v < nvals; v++)
            scratch[v] = (bits >> v) & 1 ? 1.0 / cnt : 0.0;
    } else {
        double total = 0.0;
        for (int v = 0; v < nvals; v++)
            if ((bits >> v) & 1)
                total = total + scratch[v];
        if (total > 0.0)
            for (int v = 0; v < nvals; v++)
                scratch[v] = scratch[v] / total;
    }
    *m = scratch;
}

static PyObject *lane_hints(PyObject *self, PyObject *args)
{
    Py_ssize_t ncell_arg;
    int nvals, rounds;
    PyObject *lanes, *clues, *allowed_obj, *deadline_obj = Py_None;
    double damping, tolerance, floor_, deadline = -1.0;
    if (!PyArg_ParseTuple(args, "niOOOiddd|O:lane_hints", &ncell_arg, &nvals, &lanes, &clues, &allowed_obj,
                          &rounds, &damping, &tolerance, &floor_, &deadline_obj))
        return NULL;
    if (deadline_obj != Py_None) {
        deadline = PyFloat_AsDouble(deadline_obj);
        if (deadline == -1.0 && PyErr_Occurred())
            return NULL;
    }
    if (ncell_arg < 0 || nvals < 2 || nvals > MAX_VALUES || !PyList_Check(lanes) || !PyList_Check(clues)
        || !PyList_Check(allowed_obj) || PyList_GET_SIZE(clues) != PyList_GET_SIZE(lanes)
        || PyList_GET_SIZE(allowed_obj) != ncell_arg) {
        PyErr_SetString(PyExc_ValueError, "lane_hints: inconsistent sizes");
        return NULL;
    }
    int late = 0; /* the deadline passed: the answer is None */
    const size_t ncell = (size_t)ncell_arg;
    const Py_ssize_t nl = PyList_GET_SIZE(lanes);
    size_t nplace = 0, *lane_off = NULL, *place_cell = NULL, *cell_off = NULL, *cell_places = NULL;
    int64_t *partner = NULL; /* per place: the cell's other place when it has two, else -1 */
    PyObject *result = NULL, *cells_out = NULL, *conf_out = NULL, *starts = NULL;
    Automaton *autos = NULL;
    uint64_t *allowed = NULL, *line_allowed = NULL;
    double *msg = NULL, *weights = NULL, *out = NULL, *prod = NULL;
    Py_ssize_t *open_lanes = NULL;
    int *st = NULL;
    Scratch S = {0};
    if (read_lanes(lanes, ncell_arg, &lane_off, &place_cell, &nplace) < 0)
        goto done;
    size_t maxn = 0;
    for (Py_ssize_t l = 0; l < nl; l++)
        if (lane_off[l + 1] - lane_off[l] > maxn)
            maxn = lane_off[l + 1] - lane_off[l];
    autos = calloc((size_t)nl + 1, sizeof(Automaton));
    allowed = malloc(sizeof(uint64_t) * (ncell + 1));
    cell_off = calloc(ncell + 2, sizeof(size_t));
    cell_places = malloc(sizeof(size_t) * (nplace + 1));
    partner = malloc(sizeof(int64_t) * (nplace + 1));
    msg = malloc(sizeof(double) * (nplace * nvals + 1));
    open_lanes = malloc(sizeof(Py_ssize_t) * ((size_t)nl + 1));
    weights = malloc(sizeof(double) * (maxn * nvals + 1));
    out = malloc(sizeof(double) * (maxn * nvals + 1));
    prod = malloc(sizeof(double) * (size_t)nvals);
    line_allowed = malloc(sizeof(uint64_t) * (maxn + 1));
    st = malloc(sizeof(int) * (maxn + 2));
    if (!autos || !allowed || !cell_off || !cell_places || !partner || !msg || !open_lanes || !weights || !out || !prod
        || !line_allowed || !st) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t x = 0; x < ncell; x++) {
        allowed[x] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(allowed_obj, x));
        if (allowed[x] == (uint64_t)-1 && PyErr_Occurred())
            goto done;
    }
    /* each cell's places in lane order (a counting sort of the places by cell) */
    for (size_t o = 0; o < nplace; o++)
        cell_off[place_cell[o] + 2]++;
    for (size_t x = 0; x < ncell; x++)
        cell_off[x + 2] += cell_off[x + 1];
    for (size_t o = 0; o < nplace; o++)
        cell_places[cell_off[place_cell[o] + 1]++] = o;
    for (size_t o = 0; o < nplace; o++) {
        size_t x = place_cell[o], first = cell_off[x];
        partner[o] = cell_off[x + 1] - first != 2 ? -1
                     : (int64_t)cell_places[cell_places[first] == o ? first + 1 : first];
    }
    int maxns = 1, maxk = 1;
    for (Py_ssize_t l = 0; l < nl; l++) {
        if (automaton_build(PyList_GET_ITEM(clues, l), (int)(lane_off[l + 1] - lane_off[l]), nvals, &autos[l]) < 0)
            goto done;
        if (autos[l].ns > maxns)
            maxns = autos[l].ns;
        if (autos[l].k > maxk)
            maxk = autos[l].k;
    }
    S.alpha = malloc(sizeof(double) * ((maxn + 1) * (size_t)maxns));
    S.beta = malloc(sizeof(double) * (size_t)maxns);
    S.nbeta = malloc(sizeof(double) * (size_t)maxns);
    S.msgs = malloc(sizeof(double) * (maxn * nvals + 1));
    S.start_p = malloc(sizeof(double) * ((size_t)maxk * maxn + 1));
    S.e = malloc(sizeof(double) * (size_t)nvals);
    S.st = malloc(sizeof(double) * (size_t)maxk);
    S.x = malloc(sizeof(double) * (size_t)maxns);
    if (!S.alpha || !S.beta || !S.nbeta || !S.msgs || !S.start_p || !S.e || !S.st || !S.x) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t o = 0; o < nplace; o++) { /* every message uniform over the cell's values */
        uint64_t bits = allowed[place_cell[o]];
        int cnt = popcount64(bits);
        for (int v = 0; v < nvals; v++)
            msg[o * nvals + v] = (bits >> v) & 1 ? 1.0 / cnt : 0.0;
    }
    Py_ssize_t nopen = 0;
    for (Py_ssize_t l = 0; l < nl; l++)
        for (size_t o = lane_off[l]; o < lane_off[l + 1]; o++) {
            uint64_t bits = allowed[place_cell[o]];
            if (bits & (bits - 1)) {
                open_lanes[nopen++] = l;
                break;
            }
        }
    starts = PyList_New(nl);
    if (starts == NULL)
        goto done;
    for (Py_ssize_t l = 0; l < nl; l++) {
        Py_INCREF(Py_None);
        PyList_SET_ITEM(starts, l, Py_None);
    }
    double keep = 1.0 - damping;
    int ran = 0;
    for (int rnd = 0; rnd < rounds; rnd++) {
        ran = rnd + 1;
        double moved = 0.0;
        for (Py_ssize_t t = 0; t < nopen; t++) {
            if (deadline_obj != Py_None && monotonic_now() >= deadline) {
                late = 1;
                goto done;
            }
            Py_ssize_t l = open_lanes[t];
            const Automaton *A = &autos[l];
            const size_t base = lane_off[l];
            const int n = (int)(lane_off[l + 1] - base);
            for (int i = 0; i < n; i++) {
                size_t o = base + (size_t)i, x = place_cell[o];
                uint64_t bits = allowed[x];
                const double *m;
                if (partner[o] >= 0) /* a cell of two lanes (a rectangle's): the crossing lane's message */
                    m = msg + (size_t)partner[o] * nvals;
                else
                    prior_of(o, x, nvals, bits, msg, cell_off, cell_places, &m, prod);
                line_allowed[i] = bits;
                for (int v = 0; v < nvals; v++)
                    weights[(size_t)i * nvals + v] = (bits >> v) & 1 ? (m[v] > floor_ ? m[v] : floor_) : 0.0;
            }
            if (!line_messages(A, nvals, n, weights, line_allowed, out, st, &S))
                continue;
            PyObject *tup = PyTuple_New(A->k);
            if (tup == NULL)
                goto done;
            for (int j = 0; j < A->k; j++) {
                PyObject *ob = PyLong_FromLong(st[j]);
                if (ob == NULL) {
                    Py_DECREF(tup);
                    goto done;
                }
                PyTuple_SET_ITEM(tup, j, ob);
            }
            PyList_SetItem(starts, l, tup); /* steals tup, drops the old item */
            for (int i = 0; i < n; i++) {
                uint64_t bits = line_allowed[i];
                if (!(bits & (bits - 1)))
                    continue;
                double *old = msg + (base + (size_t)i) * nvals;
                const double *nw = out + (size_t)i * nvals;
                for (int v = 0; v < nvals; v++) {
                    double val = rnd == 0 ? nw[v] : damping * old[v] + keep * nw[v];
                    double d = val - old[v];
                    if (d < 0.0)
                        d = -d;
                    if (d > moved)
                        moved = d;
                    old[v] = val;
                }
            }
        }
        if (moved <= tolerance)
            break;
    }
    cells_out = PyList_New((Py_ssize_t)ncell);
    conf_out = PyList_New((Py_ssize_t)ncell);
    if (cells_out == NULL || conf_out == NULL)
        goto done;
    for (size_t x = 0; x < ncell; x++) {
        uint64_t bits = allowed[x];
        int open = (bits & (bits - 1)) != 0 && cell_off[x + 1] > cell_off[x];
        double best = -1.0, total = 0.0;
        int arg = 0;
        for (int v = 0; v < nvals; v++) {
            if ((bits >> v) & 1) {
                double bv = 1.0;
                if (open) { /* the product of the cell's places' messages, in lane order */
                    bv = msg[cell_places[cell_off[x]] * nvals + v];
                    for (size_t t = cell_off[x] + 1; t < cell_off[x + 1]; t++)
                        bv = bv * msg[cell_places[t] * nvals + v];
                }
                total = total + bv;
                if (bv > best)
                    best = bv, arg = v;
            }
        }
        double confidence = 1.0; /* a known cell */
        if (bits & (bits - 1)) /* an open cell: its best value's share of its belief */
            confidence = total > 0.0 ? best / total : 0.0;
        PyObject *ob = PyLong_FromLong(arg);
        if (ob == NULL)
            goto done;
        PyList_SET_ITEM(cells_out, (Py_ssize_t)x, ob);
        ob = PyFloat_FromDouble(confidence);
        if (ob == NULL)
            goto done;
        PyList_SET_ITEM(conf_out, (Py_ssize_t)x, ob);
    }
    result = Py_BuildValue("(OOiO)", cells_out, starts, ran, conf_out);
done:
    Py_XDECREF(cells_out);
    Py_XDECREF(conf_out);
    Py_XDECREF(starts);
    if (autos != NULL)
        for (Py_ssize_t l = 0; l < nl; l++)
            automaton_free(&autos[l]);
    free(autos);
    free(lane_off);
    free(place_cell);
    free(cell_off);
    free(cell_places);
    free(partner);
    free(allowed);
    free(msg);
    free(open_lanes);
    free(weights);
    free(out);
    free(prod);
    free(line_allowed);
    free(st);
    free(S.alpha);
    free(S.beta);
    free(S.nbeta);
    free(S.msgs);
    free(S.start_p);
    free(S.e);
    free(S.st);
    free(S.x);
    if (late && result == NULL && !PyErr_Occurred()) {
        Py_INCREF(Py_None);
        result = Py_None;
    }
    return result;
}

static PyMethodDef beliefs_methods[] = {
    {"lane_hints", lane_hints, METH_VARARGS, lane_hints_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef beliefs_module = {
    PyModuleDef_HEAD_INIT, "satnono.logic._beliefs",
    "Belief propagation between lanes, compiled (see satnono/logic/_beliefs.c).",
    -1, beliefs_methods,
};

PyMODINIT_FUNC PyInit__beliefs(void)
{
    PyObject *m = PyModule_Create(&beliefs_module);
    if (m == NULL)
        return NULL;
#ifndef SATNONO_BELIEFS_SHA256
#define SATNONO_BELIEFS_SHA256 ""
#endif
    if (PyModule_AddStringConstant(m, "SOURCE_SHA256", SATNONO_BELIEFS_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
