/* Belief propagation between rows and columns: the compiled transcription of
 * satnono/logic/beliefs.py (grid_hints and line_messages).
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

PyDoc_STRVAR(grid_hints_doc,
"grid_hints(height, width, nvals, rows, columns, allowed, rounds, damping, tolerance, floor, deadline=None)\n"
"--\n\n"
"Belief propagation over a grid: (cells, row_starts, column_starts, rounds run, confidence),\n"
"bit-identical to satnono.logic.beliefs.grid_hints; None once the monotonic clock (time.monotonic)\n"
"has passed deadline, checked before each line.");

static PyObject *grid_hints(PyObject *self, PyObject *args)
{
    int h, w, nvals, rounds;
    PyObject *rows, *cols, *allowed_obj, *deadline_obj = Py_None;
    double damping, tolerance, floor_, deadline = -1.0;
    if (!PyArg_ParseTuple(args, "iiiOOOiddd|O:grid_hints", &h, &w, &nvals, &rows, &cols, &allowed_obj, &rounds,
                          &damping, &tolerance, &floor_, &deadline_obj))
        return NULL;
    if (deadline_obj != Py_None) {
        deadline = PyFloat_AsDouble(deadline_obj);
        if (deadline == -1.0 && PyErr_Occurred())
            return NULL;
    }
    int late = 0; /* the deadline passed: the answer is None */
    if (h < 0 || w < 0 || nvals < 2 || nvals > MAX_VALUES || !PyList_Check(rows) || !PyList_Check(cols)
        || !PyList_Check(allowed_obj) || PyList_GET_SIZE(rows) != h || PyList_GET_SIZE(cols) != w
        || PyList_GET_SIZE(allowed_obj) != (Py_ssize_t)h * w) {
        PyErr_SetString(PyExc_ValueError, "grid_hints: inconsistent sizes");
        return NULL;
    }
    size_t ncell = (size_t)h * w;
    int maxn = h > w ? h : w;
    PyObject *result = NULL, *cells_out = NULL, *conf_out = NULL, *rstarts = NULL, *cstarts = NULL;
    Automaton *autos = calloc((size_t)h + w + 1, sizeof(Automaton));
    uint64_t *allowed = malloc(sizeof(uint64_t) * (ncell + 1));
    double *to_rows = malloc(sizeof(double) * (ncell * nvals + 1));
    double *to_cols = malloc(sizeof(double) * (ncell * nvals + 1));
    int *open_rows = malloc(sizeof(int) * ((size_t)h + 1)), *open_cols = malloc(sizeof(int) * ((size_t)w + 1));
    double *weights = malloc(sizeof(double) * ((size_t)maxn * nvals + 1));
    double *out = malloc(sizeof(double) * ((size_t)maxn * nvals + 1));
    uint64_t *line_allowed = malloc(sizeof(uint64_t) * ((size_t)maxn + 1));
    size_t *cellx = malloc(sizeof(size_t) * ((size_t)maxn + 1));
    int *st = malloc(sizeof(int) * ((size_t)maxn + 2));
    Scratch S = {0};
    if (!autos || !allowed || !to_rows || !to_cols || !open_rows || !open_cols || !weights || !out || !line_allowed
        || !cellx || !st) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t x = 0; x < ncell; x++) {
        allowed[x] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(allowed_obj, x));
        if (allowed[x] == (uint64_t)-1 && PyErr_Occurred())
            goto done;
    }
    int maxns = 1, maxk = 1;
    for (int li = 0; li < h + w; li++) {
        PyObject *spec = li < h ? PyList_GET_ITEM(rows, li) : PyList_GET_ITEM(cols, li - h);
        if (automaton_build(spec, li < h ? w : h, nvals, &autos[li]) < 0)
            goto done;
        if (autos[li].ns > maxns)
            maxns = autos[li].ns;
        if (autos[li].k > maxk)
            maxk = autos[li].k;
    }
    S.alpha = malloc(sizeof(double) * ((size_t)(maxn + 1) * maxns));
    S.beta = malloc(sizeof(double) * (size_t)maxns);
    S.nbeta = malloc(sizeof(double) * (size_t)maxns);
    S.msgs = malloc(sizeof(double) * ((size_t)maxn * nvals + 1));
    S.start_p = malloc(sizeof(double) * ((size_t)maxk * maxn + 1));
    S.e = malloc(sizeof(double) * (size_t)nvals);
    S.st = malloc(sizeof(double) * (size_t)maxk);
    S.x = malloc(sizeof(double) * (size_t)maxns);
    if (!S.alpha || !S.beta || !S.nbeta || !S.msgs || !S.start_p || !S.e || !S.st || !S.x) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t x = 0; x < ncell; x++) {
        uint64_t bits = allowed[x];
        int cnt = popcount64(bits);
        for (int v = 0; v < nvals; v++) {
            double u = (bits >> v) & 1 ? 1.0 / cnt : 0.0;
            to_rows[x * nvals + v] = u;
            to_cols[x * nvals + v] = u;
        }
    }
    int nopen_r = 0, nopen_c = 0;
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            uint64_t bits = allowed[(size_t)r * w + c];
            if (bits & (bits - 1)) {
                open_rows[nopen_r++] = r;
                break;
            }
        }
    for (int c = 0; c < w; c++)
        for (int r = 0; r < h; r++) {
            uint64_t bits = allowed[(size_t)r * w + c];
            if (bits & (bits - 1)) {
                open_cols[nopen_c++] = c;
                break;
            }
        }
    rstarts = PyList_New(h);
    cstarts = PyList_New(w);
    if (rstarts == NULL || cstarts == NULL)
        goto done;
    for (int r = 0; r < h; r++) {
        Py_INCREF(Py_None);
        PyList_SET_ITEM(rstarts, r, Py_None);
    }
    for (int c = 0; c < w; c++) {
        Py_INCREF(Py_None);
        PyList_SET_ITEM(cstarts, c, Py_None);
    }
    double keep = 1.0 - damping;
    int ran = 0;
    for (int rnd = 0; rnd < rounds; rnd++) {
        ran = rnd + 1;
        double moved = 0.0;
        for (int axis = 0; axis < 2; axis++) {
            int nlines = axis == 0 ? nopen_r : nopen_c, n = axis == 0 ? w : h;
            const double *prior = axis == 0 ? to_rows : to_cols;
            double *dest = axis == 0 ? to_cols : to_rows;
            PyObject *found = axis == 0 ? rstarts : cstarts;
            for (int t = 0; t < nlines; t++) {
                if (deadline_obj != Py_None && monotonic_now() >= deadline) {
                    late = 1;
                    goto done;
                }
                int li = axis == 0 ? open_rows[t] : open_cols[t];
                const Automaton *A = &autos[axis == 0 ? li : h + li];
                for (int i = 0; i < n; i++) {
                    size_t x = axis == 0 ? (size_t)li * w + i : (size_t)i * w + li;
                    cellx[i] = x;
                    line_allowed[i] = allowed[x];
                    for (int v = 0; v < nvals; v++) {
                        double m = prior[x * nvals + v];
                        weights[(size_t)i * nvals + v] = (allowed[x] >> v) & 1 ? (m > floor_ ? m : floor_) : 0.0;
                    }
                }
                if (!line_messages(A, nvals, n, weights, line_allowed, out, st, &S))
                    continue;
                PyObject *tup = PyTuple_New(A->k);
                if (tup == NULL)
                    goto done;
                for (int j = 0; j < A->k; j++) {
                    PyObject *o = PyLong_FromLong(st[j]);
                    if (o == NULL) {
                        Py_DECREF(tup);
                        goto done;
                    }
                    PyTuple_SET_ITEM(tup, j, o);
                }
                PyList_SetItem(found, li, tup); /* steals tup, drops the old item */
                for (int i = 0; i < n; i++) {
                    size_t x = cellx[i];
                    if (!(allowed[x] & (allowed[x] - 1)))
                        continue;
                    double *old = dest + x * nvals;
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
        double best = -1.0, total = 0.0;
        int arg = 0;
        for (int v = 0; v < nvals; v++) {
            if ((bits >> v) & 1) {
                double bv = bits & (bits - 1) ? to_rows[x * nvals + v] * to_cols[x * nvals + v] : 1.0;
                total = total + bv;
                if (bv > best)
                    best = bv, arg = v;
            }
        }
        double confidence = 1.0; /* a known cell */
        if (bits & (bits - 1)) /* an open cell: its best value's share of its belief */
            confidence = total > 0.0 ? best / total : 0.0;
        PyObject *o = PyLong_FromLong(arg);
        if (o == NULL)
            goto done;
        PyList_SET_ITEM(cells_out, (Py_ssize_t)x, o);
        o = PyFloat_FromDouble(confidence);
        if (o == NULL)
            goto done;
        PyList_SET_ITEM(conf_out, (Py_ssize_t)x, o);
    }
    result = Py_BuildValue("(OOOiO)", cells_out, rstarts, cstarts, ran, conf_out);
done:
    Py_XDECREF(cells_out);
    Py_XDECREF(conf_out);
    Py_XDECREF(rstarts);
    Py_XDECREF(cstarts);
    if (autos != NULL)
        for (int li = 0; li < h + w; li++)
            automaton_free(&autos[li]);
    free(autos);
    free(allowed);
    free(to_rows);
    free(to_cols);
    free(open_rows);
    free(open_cols);
    free(weights);
    free(out);
    free(line_allowed);
    free(cellx);
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
    {"grid_hints", grid_hints, METH_VARARGS, grid_hints_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef beliefs_module = {
    PyModuleDef_HEAD_INIT, "satnono.logic._beliefs",
    "Belief propagation between rows and columns, compiled (see satnono/logic/_beliefs.c).",
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
