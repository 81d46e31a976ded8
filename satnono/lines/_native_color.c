/* The compiled colour line kernel: satnono.lines.color._solve_color_line_py in C.
 *
 * An exact transcription of the Python reference (satnono/lines/color.py,
 * _solve_color_line_py and _color_pass): the same ColorLineResult, or None, for
 * every input.  A line whose blocks all have one colour goes, as in the
 * reference, to the black-and-white solve_line (the callable given to
 * configure()).  Whatever falls outside what this code handles (a line longer
 * than KERNEL_MAX_N cells, a block length outside 1..n, a colour outside
 * 1..len(excluded) - 1, a mask with bits beyond the line or negative, anything
 * that is not a plain int, tuple or list) goes to the Python reference, so the
 * answer is always the reference's.  SATNONO_PURE=1 keeps this module from
 * being used at all.  It is a module of its own, beside satnono.lines._native
 * (the black-and-white core); the masks and their helpers are shared (_native_masks.h).
 */
#include "_native_masks.h"

/* Blocks of different colours may touch: up to n blocks of one cell. */
#define MAX_BLOCKS (KERNEL_MAX_N + 1)
/* Values (background + colours) this kernel takes; more go to the reference. */
#define MAX_VALUES 256

/* ------------------------------------------------------------- the kernel */

static PyObject *ColorLineResultType; /* satnono.lines.color.ColorLineResult */
static PyObject *color_fallback;      /* satnono.lines.color._solve_color_line_py */
static PyObject *bw_solve_line;       /* satnono.lines.bw.solve_line, for one-colour lines */

/* color._color_pass: fills lf[0..k] and ss[0..k-1]; 0 when infeasible.  may is indexed by
 * value (0 = background); only may[0] and the blocks' colours are read. */
static int color_pass(const int *len, const int *col, int k, int n, const mask_t *may, mask_t *lf, mask_t *ss)
{
    mask_t bg = may[0] | (ONE << n); /* a virtual background cell n ends the line */
    mask_t e = 1;
    int prev = 0;
    for (int j = 0; j < k; j++) {
        int c = len[j], v = col[j];
        mask_t reach = ((bg + (e & bg)) ^ bg) | e;
        lf[j] = reach;
        if (v == prev) { /* same colour: at least one background cell first */
            mask_t e2 = (e & bg) << 1;
            reach = ((bg + (e2 & bg)) ^ bg) | e2;
        }
        mask_t s = reach & runs_of(may[v], c);
        if (!s)
            return 0;
        ss[j] = s;
        e = s << c;
        prev = v;
    }
    mask_t reach = ((bg + (e & bg)) ^ bg) | e;
    if (!((reach >> n) & 1))
        return 0;
    lf[k] = reach;
    return 1;
}

/* The multi-colour part of _solve_color_line_py: 1 with can[] (for 0 and the used colours)
 * and starts[] filled, 0 when infeasible.  may[] holds full & ~excluded for 0 and the used
 * colours. */
static int solve_multi(const int *len, const int *col, int k, int n, const mask_t *may,
                       mask_t *can, mask_t *starts)
{
    mask_t full = low_bits(n);
    mask_t lf[MAX_BLOCKS + 1], sf[MAX_BLOCKS], lb[MAX_BLOCKS + 1], sb[MAX_BLOCKS];
    if (!color_pass(len, col, k, n, may, lf, sf))
        return 0;
    int rlen[MAX_BLOCKS], rcol[MAX_BLOCKS];
    mask_t rmay[MAX_VALUES];
    rmay[0] = reverse_width(may[0], n);
    for (int j = 0; j < k; j++) {
        rlen[j] = len[k - 1 - j];
        rcol[j] = col[k - 1 - j];
        rmay[col[j]] = reverse_width(may[col[j]], n);
    }
    if (!color_pass(rlen, rcol, k, n, rmay, lb, sb))
        return 0; /* cannot happen when the forward pass succeeded; kept as a guard */
    can[0] = 0;
    for (int j = 0; j < k; j++)
        can[col[j]] = 0;
    /* a mirrored start s' of block j (length c) is the start n - c - s' */
    for (int j = 0; j < k; j++) {
        int c = len[j];
        mask_t v = sf[j] & (m_rev(sb[k - 1 - j]) >> (MASK_BITS - 1 - n + c));
        if (!v)
            return 0;
        starts[j] = v;
        can[col[j]] |= spread(v, c);
    }
    mask_t can_bg = 0;
    for (int j = 0; j <= k; j++)
        can_bg |= lf[j] & reverse_width(lb[k - j] & full, n);
    can[0] = can_bg & may[0];
    mask_t covered = can[0];
    for (int j = 0; j < k; j++)
        covered |= can[col[j]];
    return covered == full;
}

static PyObject *call_fallback(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (color_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "satnono.lines._native_color is not configured (import satnono.lines.color)");
        return NULL;
    }
    return PyObject_Vectorcall(color_fallback, args, nargs, kwnames);
}

/* tuple.__new__(ColorLineResult, (excluded, starts)), as namedtuple's _make does; steals both. */
static PyObject *make_result(PyObject *excluded, PyObject *starts)
{
    PyTypeObject *tp = (PyTypeObject *)ColorLineResultType;
    PyObject *r = tp->tp_alloc(tp, 2);
    if (r == NULL) {
        Py_DECREF(excluded);
        Py_DECREF(starts);
        return NULL;
    }
    PyTuple_SET_ITEM(r, 0, excluded);
    PyTuple_SET_ITEM(r, 1, starts);
    return r;
}

/* The one-colour branch: bw solve_line(lengths, n, excluded[0], excluded[first]) (the masks
 * have no bits beyond n, so "& full" changes nothing), its black and white put in place. */
static PyObject *solve_one_colour(PyObject *lengths, PyObject *nobj, PyObject *const *ex,
                                  Py_ssize_t nvals, int first, mask_t full)
{
    PyObject *args[4] = {lengths, nobj, ex[0], ex[first]};
    PyObject *res = PyObject_Vectorcall(bw_solve_line, args, 4, NULL);
    if (res == NULL || res == Py_None)
        return res;
    if (!PyTuple_Check(res) || PyTuple_GET_SIZE(res) != 3) {
        Py_DECREF(res);
        PyErr_SetString(PyExc_TypeError, "solve_line returned something else than a LineResult");
        return NULL;
    }
    PyObject *fullobj = mask_to_py(full);
    PyObject *out = fullobj ? PyTuple_New(nvals) : NULL;
    if (out == NULL) {
        Py_XDECREF(fullobj);
        Py_DECREF(res);
        return NULL;
    }
    for (Py_ssize_t v = 0; v < nvals; v++) {
        PyObject *x = v == 0 ? PyTuple_GET_ITEM(res, 0) : v == first ? PyTuple_GET_ITEM(res, 1) : fullobj;
        Py_INCREF(x);
        PyTuple_SET_ITEM(out, v, x);
    }
    Py_DECREF(fullobj);
    PyObject *starts = PyTuple_GET_ITEM(res, 2);
    Py_INCREF(starts);
    Py_DECREF(res);
    return make_result(out, starts);
}

PyDoc_STRVAR(solve_color_line_doc,
"solve_color_line(lengths, colors, n, excluded)\n--\n\n"
"satnono.lines.color.solve_color_line in C (lines of up to KERNEL_MAX_N cells; longer ones\n"
"and anything unusual go to the Python reference).");

static PyObject *native_solve_color_line(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                         PyObject *kwnames)
{
    if (kwnames != NULL || nargs != 4 || ColorLineResultType == NULL || bw_solve_line == NULL)
        goto fallback;
    PyObject *lengths = args[0], *colors = args[1], *exseq = args[3];
    if (!(PyTuple_CheckExact(lengths) || PyList_CheckExact(lengths))
        || !(PyTuple_CheckExact(colors) || PyList_CheckExact(colors))
        || !(PyTuple_CheckExact(exseq) || PyList_CheckExact(exseq)))
        goto fallback;
    int n, ok;
    if ((ok = small_int(args[2], 0, KERNEL_MAX_N, &n)) <= 0)
        goto fallback;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(lengths);
    Py_ssize_t nvals = PySequence_Fast_GET_SIZE(exseq);
    if (k > MAX_BLOCKS || PySequence_Fast_GET_SIZE(colors) != k || nvals < 2 || nvals > MAX_VALUES)
        goto fallback;
    PyObject **litems = PySequence_Fast_ITEMS(lengths);
    PyObject **citems = PySequence_Fast_ITEMS(colors);
    PyObject **ex = PySequence_Fast_ITEMS(exseq);
    int len[MAX_BLOCKS], col[MAX_BLOCKS];
    for (Py_ssize_t j = 0; j < k; j++) {
        if ((ok = small_int(litems[j], 1, n, &len[j])) <= 0 || (ok = small_int(citems[j], 1, nvals - 1, &col[j])) <= 0)
            goto fallback;
    }
    /* every entry a plain int; 0 and the used colours read, in 0..2**n - 1 */
    unsigned char used[MAX_VALUES];
    memset(used, 0, (size_t)nvals);
    used[0] = 1;
    for (Py_ssize_t j = 0; j < k; j++)
        used[col[j]] = 1;
    mask_t full = low_bits(n);
    mask_t may[MAX_VALUES];
    for (Py_ssize_t v = 0; v < nvals; v++) {
        if (!PyLong_CheckExact(ex[v]))
            goto fallback;
        if (!used[v])
            continue;
        mask_t x;
        if ((ok = mask_from_py(ex[v], &x)) <= 0)
            goto fallback;
        if (x >> n)
            goto fallback; /* bits beyond the line: the reference says what that means */
        may[v] = full & ~x;
    }
    int first = k ? col[0] : 1;
    int one = 1;
    for (Py_ssize_t j = 1; j < k; j++)
        one &= col[j] == first;
    if (one)
        return solve_one_colour(lengths, args[2], ex, nvals, first, full);
    mask_t can[MAX_VALUES], starts[MAX_BLOCKS];
    if (!solve_multi(len, col, (int)k, n, may, can, starts))
        Py_RETURN_NONE;
    PyObject *st = PyTuple_New(k);
    if (st == NULL)
        return NULL;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *x = mask_to_py(starts[j]);
        if (x == NULL) {
            Py_DECREF(st);
            return NULL;
        }
        PyTuple_SET_ITEM(st, j, x);
    }
    PyObject *fullobj = mask_to_py(full);
    PyObject *out = fullobj ? PyTuple_New(nvals) : NULL;
    if (out == NULL) {
        Py_XDECREF(fullobj);
        Py_DECREF(st);
        return NULL;
    }
    for (Py_ssize_t v = 0; v < nvals; v++) {
        PyObject *x;
        if (used[v]) {
            x = mask_to_py(full & ~can[v]);
            if (x == NULL) {
                Py_DECREF(fullobj);
                Py_DECREF(out);
                Py_DECREF(st);
                return NULL;
            }
        } else { /* a colour this line has not: no cell can have it */
            x = fullobj;
            Py_INCREF(x);
        }
        PyTuple_SET_ITEM(out, v, x);
    }
    Py_DECREF(fullobj);
    return make_result(out, st);
fallback:
    if (PyErr_Occurred())
        return NULL;
    return call_fallback(args, nargs, kwnames);
}

PyDoc_STRVAR(configure_doc,
"configure(color_line_result, fallback, solve_line)\n--\n\n"
"Give the kernel its result type, the Python reference for the lines it does not handle and\n"
"the black-and-white solve_line for one-colour lines.");

static PyObject *native_configure(PyObject *self, PyObject *args)
{
    PyObject *rt, *fb, *sl;
    if (!PyArg_ParseTuple(args, "OOO:configure", &rt, &fb, &sl))
        return NULL;
    if (!PyType_Check(rt) || !PyType_IsSubtype((PyTypeObject *)rt, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "color_line_result must be a tuple subclass");
        return NULL;
    }
    if (((PyTypeObject *)rt)->tp_dictoffset != 0) {
        PyErr_SetString(PyExc_TypeError, "color_line_result must have __slots__ = ()");
        return NULL;
    }
    if (!PyCallable_Check(fb) || !PyCallable_Check(sl)) {
        PyErr_SetString(PyExc_TypeError, "fallback and solve_line must be callable");
        return NULL;
    }
    Py_INCREF(rt);
    Py_INCREF(fb);
    Py_INCREF(sl);
    Py_XSETREF(ColorLineResultType, rt);
    Py_XSETREF(color_fallback, fb);
    Py_XSETREF(bw_solve_line, sl);
    Py_RETURN_NONE;
}

/* ----------------------------------------------------------------- module */

static PyMethodDef native_color_methods[] = {
    {"solve_color_line", (PyCFunction)(void (*)(void))native_solve_color_line, METH_FASTCALL | METH_KEYWORDS,
     solve_color_line_doc},
    {"configure", native_configure, METH_VARARGS, configure_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_color_module = {
    PyModuleDef_HEAD_INIT, "satnono.lines._native_color",
    "The compiled colour line kernel (see satnono/lines/_native_color.c).",
    -1, native_color_methods,
};

PyMODINIT_FUNC PyInit__native_color(void)
{
    SIXTY_FOUR = PyLong_FromLong(64);
    if (SIXTY_FOUR == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&native_color_module);
    if (m == NULL)
        return NULL;
#ifndef SATNONO_NATIVE_COLOR_SHA256
#define SATNONO_NATIVE_COLOR_SHA256 ""
#endif
    if (PyModule_AddIntConstant(m, "KERNEL_MAX_N", KERNEL_MAX_N) < 0
        || PyModule_AddStringConstant(m, "SOURCE_SHA256", SATNONO_NATIVE_COLOR_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
