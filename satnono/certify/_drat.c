/* The DRAT checker of satnono/certify/drat.py, compiled: the same algorithm as its Python
 * reference (_Checker and _check_py there; read the module's docstring first), the same
 * verdicts.  One function, check(clauses, proof, binary, limit) -> (code, lemmas, rat, line,
 * offset); drat.py turns the verdict into a message.
 *
 * A variable is numbered 1, 2, ... as it first appears (a hash table maps the variables as
 * written to these numbers); literal x of variable v is 2*v, -x is 2*v+1.  A stored clause
 * lives in one int array, the arena: its size, 1 while active (0 once deleted), its literals;
 * it is referred to by its position there, and watches its first two literals.  A second hash
 * table finds a stored clause by its set of literals, for deletions.  Memory grows with the
 * data read; running out of it gives the verdict NO_MEMORY. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { VERIFIED, TRIVIAL, NOT_REDUNDANT, EMPTY_NOT_RUP, NO_EMPTY,
       BAD_LITERAL, UNTERMINATED, BAD_PREFIX, FORMULA_LITERAL, NO_MEMORY };

#define DELETED_ENTRY SIZE_MAX /* a deleted entry of the clause table */

typedef struct { size_t *at; size_t n, cap; } Watches; /* the clauses watching a literal */

typedef struct { int32_t key, num; } Slot; /* a variable as written (0: a free slot), its number */

typedef struct {
    Slot *vars; size_t cap;                /* variables as written -> their numbers */
    int32_t nvars; size_t vcap;            /* variables numbered; room for vcap of them */
    signed char *value;                    /* per literal: 1 true, -1 false, 0 unassigned */
    unsigned char *mark;                   /* per literal: scratch */
    Watches *watches;                      /* per literal */
    int32_t *trail; size_t ntrail, head;   /* true literals; trail[:head] propagated */
    int32_t *arena; size_t narena, acap;   /* stored clauses: size, active, literals */
    size_t *table; size_t tcap, tfill;     /* clause positions + 1 by their literal set */
    int32_t *lits; size_t nlits, lcap;     /* the clause being read, then checked */
    int32_t *res; size_t rcap;             /* a RAT resolvent */
    int conflict;                          /* the top level is in conflict */
} Checker;

typedef struct { const unsigned char *p; size_t n, i; Py_ssize_t line; } Reader;

/* *p (n elements of `size` bytes) resized to m elements, the new ones zeroed: 0, or -1 */
static int resize(void *p, size_t n, size_t m, size_t size)
{
    if (m > SIZE_MAX / size / 2)
        return -1;
    char *q = realloc(*(char **)p, m * size);
    if (q == NULL)
        return -1;
    if (m > n)
        memset(q + n * size, 0, (m - n) * size);
    *(char **)p = q;
    return 0;
}

/* room for `need` elements in *p (capacity *cap, doubled as needed): 0, or -1 */
static int reserve(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    if (resize(p, *cap, c, size) < 0)
        return -1;
    *cap = c;
    return 0;
}

static uint64_t mix(uint64_t z) /* splitmix64's finaliser */
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* the internal literal of x (non-zero, |x| <= INT32_MAX), numbering its variable if new; 0 if
 * out of memory */
static int32_t literal(Checker *S, int32_t x)
{
    int32_t v = x < 0 ? -x : x;
    if (2 * ((size_t)S->nvars + 1) > S->cap) { /* keep the table at most half full */
        size_t cap = S->cap ? 2 * S->cap : 1024, m = cap - 1;
        Slot *vars = calloc(cap, sizeof *vars);
        if (vars == NULL)
            return 0;
        for (size_t i = 0; i < S->cap; i++)
            if (S->vars[i].key) {
                size_t j = mix((uint64_t)S->vars[i].key) & m;
                while (vars[j].key)
                    j = (j + 1) & m;
                vars[j] = S->vars[i];
            }
        free(S->vars);
        S->vars = vars, S->cap = cap;
    }
    size_t m = S->cap - 1, j = mix((uint64_t)v) & m;
    while (S->vars[j].key && S->vars[j].key != v)
        j = (j + 1) & m;
    if (!S->vars[j].key) { /* a new variable */
        size_t need = (size_t)S->nvars + 2, n = S->vcap, c = n ? 2 * n : 64;
        if (S->nvars >= (1 << 29))
            return 0; /* (its literals would not fit in an int32_t) */
        if (need > n) {
            if (resize(&S->value, 2 * n, 2 * c, 1) < 0 || resize(&S->mark, 2 * n, 2 * c, 1) < 0
                || resize(&S->watches, 2 * n, 2 * c, sizeof(Watches)) < 0
                || resize(&S->trail, n, c, sizeof(int32_t)) < 0)
                return 0;
            S->vcap = c;
        }
        S->vars[j].key = v;
        S->vars[j].num = ++S->nvars;
    }
    return 2 * S->vars[j].num + (x < 0);
}

static int push_watch(Checker *S, int32_t lit, size_t at)
{
    Watches *w = &S->watches[lit];
    if (reserve(&w->at, &w->cap, w->n + 1, sizeof(size_t)) < 0)
        return -1;
    w->at[w->n++] = at;
    return 0;
}

static void assign(Checker *S, int32_t lit)
{
    S->value[lit] = 1;
    S->value[lit ^ 1] = -1;
    S->trail[S->ntrail++] = lit;
}

/* unit propagation from the unpropagated trail: 1, or 0 on a conflict, -1 out of memory */
static int propagate(Checker *S)
{
    while (S->head < S->ntrail) {
        int32_t false_lit = S->trail[S->head++] ^ 1;
        Watches *ws = &S->watches[false_lit];
        size_t *w = ws->at, n = ws->n, i = 0, j = 0;
        while (i < n) {
            size_t at = w[i++];
            int32_t *c = S->arena + at, size = c[0], *l = c + 2;
            if (!c[1])
                continue; /* deleted: its watch goes */
            if (l[0] == false_lit)
                l[0] = l[1], l[1] = false_lit;
            if (S->value[l[0]] > 0) {
                w[j++] = at;
                continue;
            }
            int32_t k = 2;
            while (k < size && S->value[l[k]] < 0)
                k++;
            if (k < size) { /* a new literal to watch */
                l[1] = l[k], l[k] = false_lit;
                if (push_watch(S, l[1], at) < 0)
                    return -1;
                continue;
            }
            w[j++] = at;
            if (S->value[l[0]] < 0) {
                while (i < n)
                    w[j++] = w[i++];
                ws->n = j;
                return 0;
            }
            assign(S, l[0]);
        }
        ws->n = j;
    }
    return 1;
}

static void backtrack(Checker *S, size_t mark)
{
    for (size_t t = mark; t < S->ntrail; t++)
        S->value[S->trail[t]] = S->value[S->trail[t] ^ 1] = 0;
    S->ntrail = S->head = mark;
}

static uint64_t hash_set(const int32_t *lits, size_t n) /* the same for any order of lits */
{
    uint64_t h = 0;
    for (size_t i = 0; i < n; i++)
        h += mix((uint64_t)lits[i] + 0x9e3779b97f4a7c15ULL);
    return h;
}

static int table_insert(Checker *S, size_t at)
{
    if (2 * (S->tfill + 1) > S->tcap) { /* rebuild, with the active entries only */
        size_t *old = S->table, ocap = S->tcap, live = 0;
        for (size_t i = 0; i < ocap; i++)
            live += old[i] && old[i] != DELETED_ENTRY;
        size_t cap = 1024;
        while (cap < 4 * (live + 1))
            cap *= 2;
        if ((S->table = calloc(cap, sizeof(size_t))) == NULL) {
            S->table = old;
            return -1;
        }
        S->tcap = cap, S->tfill = 0;
        for (size_t i = 0; i < ocap; i++)
            if (old[i] && old[i] != DELETED_ENTRY)
                table_insert(S, old[i] - 1); /* cannot grow again */
        free(old);
    }
    int32_t *c = S->arena + at;
    size_t m = S->tcap - 1, j = hash_set(c + 2, (size_t)c[0]) & m;
    while (S->table[j])
        j = (j + 1) & m;
    S->table[j] = at + 1;
    S->tfill++;
    return 0;
}

/* make a stored clause with the set of literals lits (n >= 2) inactive, if there is one */
static void delete_clause(Checker *S, const int32_t *lits, size_t n)
{
    if (!S->tcap)
        return;
    for (size_t i = 0; i < n; i++)
        S->mark[lits[i]] = 1;
    size_t m = S->tcap - 1, j = hash_set(lits, n) & m;
    for (; S->table[j]; j = (j + 1) & m) {
        if (S->table[j] == DELETED_ENTRY)
            continue;
        int32_t *c = S->arena + (S->table[j] - 1);
        size_t k = 0;
        if ((size_t)c[0] == n)
            while (k < n && S->mark[c[2 + k]])
                k++;
        if (k == n) {
            c[1] = 0;
            S->table[j] = DELETED_ENTRY;
            break;
        }
    }
    for (size_t i = 0; i < n; i++)
        S->mark[lits[i]] = 0;
}

/* make lits (n of them, no repeats) active at the top level; -1 out of memory */
static int add_clause(Checker *S, const int32_t *lits, size_t n)
{
    size_t open = 0, i, k = 0;
    if (S->conflict)
        return 0;
    for (i = 0; i < n; i++) {
        if (S->value[lits[i]] > 0)
            return 0; /* true for good */
        open += S->value[lits[i]] == 0;
    }
    if (open < 2) {
        if (open == 0) {
            S->conflict = 1;
            return 0;
        }
        for (i = 0; S->value[lits[i]] != 0; i++)
            ;
        assign(S, lits[i]);
        int p = propagate(S);
        S->conflict = p == 0;
        return p < 0 ? -1 : 0;
    }
    if (n > (size_t)INT32_MAX || reserve(&S->arena, &S->acap, S->narena + n + 2, sizeof(int32_t)) < 0)
        return -1;
    size_t at = S->narena;
    int32_t *c = S->arena + at, *l = c + 2;
    c[0] = (int32_t)n, c[1] = 1;
    memcpy(l, lits, n * sizeof(int32_t));
    for (i = 0; k < 2; i++) /* two unassigned literals first */
        if (S->value[l[i]] == 0) {
            int32_t t = l[k];
            l[k++] = l[i], l[i] = t;
        }
    S->narena += n + 2;
    if (push_watch(S, l[0], at) < 0 || push_watch(S, l[1], at) < 0 || table_insert(S, at) < 0)
        return -1;
    return 0;
}

/* whether assuming lits false propagates to a conflict: 1 or 0; -1 out of memory */
static int rup(Checker *S, const int32_t *lits, size_t n)
{
    size_t mark = S->ntrail;
    int ok = 0;
    if (S->conflict)
        return 1;
    for (size_t i = 0; i < n && !ok; i++) {
        if (S->value[lits[i]] > 0)
            ok = 1;
        else if (S->value[lits[i]] == 0)
            assign(S, lits[i] ^ 1);
    }
    if (!ok) {
        int p = propagate(S);
        ok = p < 0 ? -1 : p == 0;
    }
    backtrack(S, mark);
    return ok;
}

/* whether lits is RAT on its first literal: 1 or 0; -1 out of memory */
static int rat(Checker *S, const int32_t *lits, size_t n)
{
    if (n == 0 || S->value[lits[0]] < 0)
        return 0;
    int32_t neg = lits[0] ^ 1;
    for (size_t at = 0; at < S->narena; at += 2 + (size_t)S->arena[at]) {
        int32_t *c = S->arena + at, size = c[0], k;
        for (k = 0; k < size && c[2 + k] != neg; k++)
            ;
        if (!c[1] || k == size)
            continue;
        if (reserve(&S->res, &S->rcap, n + (size_t)size, sizeof(int32_t)) < 0)
            return -1;
        memcpy(S->res, lits, n * sizeof(int32_t));
        size_t m = n;
        for (k = 0; k < size; k++)
            if (c[2 + k] != neg)
                S->res[m++] = c[2 + k];
        int ok = rup(S, S->res, m); /* (c is not used after: the arena does not move) */
        if (ok <= 0)
            return ok;
    }
    return 1;
}

/* append x (as written) to S->lits as an internal literal unless already there; -1 out of memory */
static int read_literal(Checker *S, int32_t x)
{
    int32_t lit = literal(S, x);
    if (lit == 0 || reserve(&S->lits, &S->lcap, S->nlits + 1, sizeof(int32_t)) < 0)
        return -1;
    if (!S->mark[lit]) {
        S->mark[lit] = 1;
        S->lits[S->nlits++] = lit;
    }
    return 0;
}

static void unmark(Checker *S)
{
    for (size_t i = 0; i < S->nlits; i++)
        S->mark[S->lits[i]] = 0;
}

static int space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* the next clause of a text proof into S->lits, *del whether a deletion, *line and *at where it
 * starts: 1; 0 at the end; a verdict code (> 1) with *line and *at where reading failed */
static int read_text(Checker *S, Reader *R, int *del, Py_ssize_t *line, size_t *at)
{
    int started = 0;
    *del = 0;
    for (;;) {
        while (R->i < R->n && space(R->p[R->i]))
            R->line += R->p[R->i++] == '\n';
        if (R->i == R->n) {
            if (!started)
                return 0;
            return UNTERMINATED;
        }
        size_t i = R->i;
        if (!started) {
            if (R->p[i] == 'c') { /* a comment line */
                while (R->i < R->n && R->p[R->i] != '\n')
                    R->i++;
                continue;
            }
            started = 1, *line = R->line, *at = i;
            if (R->p[i] == 'd' && (i + 1 == R->n || space(R->p[i + 1]))) {
                *del = 1;
                R->i++;
                continue;
            }
        }
        int neg = R->p[i] == '-', ok = 1;
        int64_t v = 0;
        size_t digits = 0;
        for (i += neg; i < R->n && !space(R->p[i]); i++) {
            unsigned char d = R->p[i];
            if (d < '0' || d > '9')
                ok = 0;
            else if (ok && (v = 10 * v + (d - '0')) > INT32_MAX)
                ok = 0;
            digits++;
        }
        if (!ok || !digits) {
            *line = R->line, *at = R->i;
            return BAD_LITERAL;
        }
        R->i = i;
        if (v == 0)
            return 1;
        if (read_literal(S, (int32_t)(neg ? -v : v)) < 0)
            return NO_MEMORY;
    }
}

/* the next clause of a binary proof: as read_text (*line 0) */
static int read_binary(Checker *S, Reader *R, int *del, Py_ssize_t *line, size_t *at)
{
    *line = 0, *at = R->i;
    if (R->i == R->n)
        return 0;
    unsigned char first = R->p[R->i++];
    if (first != 'a' && first != 'd')
        return BAD_PREFIX;
    *del = first == 'd';
    for (;;) {
        size_t lit_at = R->i;
        uint64_t number = 0;
        for (int shift = 0;;) {
            if (R->i == R->n)
                return UNTERMINATED;
            unsigned char b = R->p[R->i++];
            number |= (uint64_t)(b & 127) << shift;
            if (b < 128)
                break;
            if ((shift += 7) >= 35) {
                *at = lit_at;
                return BAD_LITERAL;
            }
        }
        if (number == 0)
            return 1;
        if (number == 1 || (number >> 1) > INT32_MAX) {
            *at = lit_at;
            return BAD_LITERAL;
        }
        int32_t v = (int32_t)(number >> 1);
        if (read_literal(S, number & 1 ? -v : v) < 0)
            return NO_MEMORY;
    }
}

/* the formula's clauses made active: 0, or a verdict code with *k (clause) and *j (literal) */
static int read_formula(Checker *S, PyObject *clauses, long long limit, Py_ssize_t *k, Py_ssize_t *j)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(clauses);
    for (*k = 0; *k < n; (*k)++) {
        PyObject *clause = PySequence_Fast_GET_ITEM(clauses, *k);
        *j = -1;
        if (!PyList_Check(clause) && !PyTuple_Check(clause))
            return FORMULA_LITERAL;
        S->nlits = 0;
        for (*j = 0; *j < PySequence_Fast_GET_SIZE(clause); (*j)++) {
            int overflow = 0;
            long long x = PyLong_AsLongLongAndOverflow(PySequence_Fast_GET_ITEM(clause, *j), &overflow);
            if (x == -1 && PyErr_Occurred()) {
                PyErr_Clear(); /* not an int */
                x = 0;
            }
            if (x == 0 || overflow || x > limit || x < -limit) {
                unmark(S);
                return FORMULA_LITERAL;
            }
            if (read_literal(S, (int32_t)x) < 0)
                return NO_MEMORY;
        }
        unmark(S);
        if (add_clause(S, S->lits, S->nlits) < 0)
            return NO_MEMORY;
    }
    return 0;
}

static void release(Checker *S)
{
    for (size_t i = 0; S->watches && i < 2 * S->vcap; i++)
        free(S->watches[i].at);
    free(S->vars), free(S->value), free(S->mark), free(S->watches);
    free(S->trail), free(S->arena), free(S->table), free(S->lits), free(S->res);
}

PyDoc_STRVAR(check_doc,
"check(clauses, proof, binary, limit) -> (code, lemmas, rat, line, offset)\n\n"
"The verdict of the DRAT proof `proof` (bytes; binary DRAT if `binary`) on the formula\n"
"`clauses` (lists of non-zero ints within +-limit): satnono.certify.drat._check_py, compiled.");

static PyObject *check(PyObject *self, PyObject *args)
{
    PyObject *clauses_in, *clauses, *result = NULL;
    Py_buffer proof;
    int binary;
    long long limit;
    if (!PyArg_ParseTuple(args, "Oy*pL", &clauses_in, &proof, &binary, &limit))
        return NULL;
    if ((clauses = PySequence_Fast(clauses_in, "clauses must be a sequence")) == NULL) {
        PyBuffer_Release(&proof);
        return NULL;
    }
    Checker S;
    memset(&S, 0, sizeof S);
    Reader R = {(const unsigned char *)proof.buf, (size_t)proof.len, 0, 1};
    Py_ssize_t lemmas = 0, rats = 0, line = 0, k = 0, j = 0;
    size_t at = 0;
    int code = read_formula(&S, clauses, limit, &k, &j), del = 0;
    if (code) {
        lemmas = k + 1, rats = j;
        goto done;
    }
    if (S.conflict) {
        code = TRIVIAL;
        goto done;
    }
    for (;;) {
        S.nlits = 0;
        int got = binary ? read_binary(&S, &R, &del, &line, &at) : read_text(&S, &R, &del, &line, &at);
        unmark(&S);
        if (got != 1) {
            code = got == 0 ? NO_EMPTY : got;
            break;
        }
        if (del) {
            if (S.nlits > 1)
                delete_clause(&S, S.lits, S.nlits);
            continue;
        }
        lemmas++;
        if ((lemmas & 4095) == 0 && PyErr_CheckSignals() < 0)
            goto done; /* interrupted: the exception goes up */
        int ok = rup(&S, S.lits, S.nlits);
        if (ok == 0 && S.nlits == 0) {
            code = EMPTY_NOT_RUP;
            break;
        }
        if (ok == 0) {
            ok = rat(&S, S.lits, S.nlits);
            if (ok == 0) {
                code = NOT_REDUNDANT;
                break;
            }
            rats += ok > 0;
        }
        if (ok < 0) {
            code = NO_MEMORY;
            break;
        }
        if (S.nlits == 0) {
            code = VERIFIED, line = 0, at = 0;
            break;
        }
        if (add_clause(&S, S.lits, S.nlits) < 0) {
            code = NO_MEMORY;
            break;
        }
    }
    if (code == NO_EMPTY)
        line = 0, at = 0;
done:
    if (!PyErr_Occurred())
        result = Py_BuildValue("(innnn)", code, lemmas, rats, line, (Py_ssize_t)at);
    release(&S);
    Py_DECREF(clauses);
    PyBuffer_Release(&proof);
    return result;
}

static PyMethodDef drat_methods[] = {
    {"check", check, METH_VARARGS, check_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef drat_module = {
    PyModuleDef_HEAD_INIT, "satnono.certify._drat",
    "The DRAT checker of satnono.certify.drat, compiled (see satnono/certify/_drat.c).",
    -1, drat_methods,
};

PyMODINIT_FUNC PyInit__drat(void)
{
    PyObject *m = PyModule_Create(&drat_module);
    if (m == NULL)
        return NULL;
#ifndef SATNONO_DRAT_SHA256
#define SATNONO_DRAT_SHA256 ""
#endif
    if (PyModule_AddStringConstant(m, "SOURCE_SHA256", SATNONO_DRAT_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
