/* The DRAT proof checker of satnono's certificates: check(formula, proof) -> (code, lemmas, rat, offset), on DIMACS
 * clauses (text, no header) and a text or binary DRAT proof; docs/certificates.md ("The DRAT checker") says what it
 * checks and why that is sound, satnono/certify/drat.py is the same in Python and words the verdicts.  Variables are
 * numbered 1, 2, ... as they appear (a huge one costs nothing): literal x of variable v is 2v, -x is 2v+1.  Memory
 * grows with the data read only; when it runs out, longjmp goes back to check(), which raises MemoryError. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

enum { VERIFIED, TRIVIAL, NOT_REDUNDANT, EMPTY_NOT_RUP, NO_EMPTY, BAD_LITERAL, UNTERMINATED, BAD_PREFIX, BAD_FORMULA };

typedef struct {
    signed char value;          /* 1 true, -1 false, 0 unassigned */
    char mark;                  /* in the clause read */
    size_t *watches;            /* the stored clauses watching the literal: their places in the arena */
    size_t nwatches, watches_cap;
} Literal;

typedef struct {
    jmp_buf out_of_memory;
    PyObject *numbers;          /* a dict: each variable as written -> its number */
    Literal *lit;               /* per literal */
    size_t lit_cap;
    int32_t *trail;             /* the true literals, in order: trail[:head] is propagated */
    size_t trail_cap, ntrail, head;
    int32_t *arena;             /* the stored clauses, each: its size, 1 (0 once deleted), its literals */
    size_t narena, arena_cap;
    int32_t *lits;              /* the clause read */
    size_t nlits, lits_cap;
    int conflict;               /* the top level is in conflict */
    const unsigned char *p;     /* the bytes read (the formula's, then the proof's), n of them; p[i] is next */
    size_t n, i, start;         /* start: where the last clause read starts, or where reading failed */
} Checker;

/* *p, an array of *cap elements of `size` bytes, made to hold `need` (doubled as needed, the new ones zero) */
static void reserve(Checker *S, void *p, size_t *cap, size_t need, size_t size) {
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    if (n == *cap) return;
    char *q = n > SIZE_MAX / 2 / size ? NULL : realloc(*(char **)p, n * size);
    if (q == NULL) longjmp(S->out_of_memory, 1);
    memset(q + *cap * size, 0, (n - *cap) * size);
    *(char **)p = q;
    *cap = n;
}

/* x as written (x != 0) added to the clause read as a literal, unless it is there; its variable numbered if new */
static void read_literal(Checker *S, int64_t x) {
    PyObject *v = PyLong_FromLongLong(x < 0 ? -x : x);
    PyObject *next = PyLong_FromSsize_t(PyDict_Size(S->numbers) + 1);
    PyObject *num = v != NULL && next != NULL ? PyDict_SetDefault(S->numbers, v, next) : NULL; /* (borrowed) */
    long number = num != NULL ? PyLong_AsLong(num) : 0;
    Py_XDECREF(v);
    Py_XDECREF(next);
    if (number <= 0 || number >= 1 << 29) /* (its literals must fit an int32_t) */
        longjmp(S->out_of_memory, 1);
    reserve(S, &S->lit, &S->lit_cap, 2 * (size_t)number + 2, sizeof(Literal));
    reserve(S, &S->trail, &S->trail_cap, (size_t)number + 1, sizeof(int32_t));
    reserve(S, &S->lits, &S->lits_cap, S->nlits + 1, sizeof(int32_t));
    int32_t lit = 2 * (int32_t)number + (x < 0);
    if (!S->lit[lit].mark) {
        S->lit[lit].mark = 1;
        S->lits[S->nlits++] = lit;
    }
}

static void watch(Checker *S, int32_t lit, size_t at) {
    Literal *l = &S->lit[lit];
    reserve(S, &l->watches, &l->watches_cap, l->nwatches + 1, sizeof(size_t));
    l->watches[l->nwatches++] = at;
}

static void assign(Checker *S, int32_t lit) {
    S->lit[lit].value = 1;
    S->lit[lit ^ 1].value = -1;
    S->trail[S->ntrail++] = lit;
}

/* unit propagation of the trail not yet propagated: whether it reaches a conflict.  A stored clause watches its first
 * two literals; when one turns false, the clause watches another not false instead, or is unit, or in conflict. */
static int propagate(Checker *S) {
    while (S->head < S->ntrail) {
        int32_t false_lit = S->trail[S->head++] ^ 1;
        Literal *f = &S->lit[false_lit];
        for (size_t i = 0; i < f->nwatches; i++) {
            size_t at = f->watches[i];
            int32_t size = S->arena[at], k = 2;
            int32_t *l = S->arena + at + 2;
            if (S->arena[at + 1] == 0) { /* deleted: the watch goes (the last one, moved here, is looked at next) */
                f->watches[i--] = f->watches[--f->nwatches];
                continue;
            }
            if (l[0] == false_lit) { /* the false literal second */
                l[0] = l[1];
                l[1] = false_lit;
            }
            if (S->lit[l[0]].value > 0) continue; /* true: the watch stays */
            while (k < size && S->lit[l[k]].value < 0)
                k++;
            if (k < size) { /* l[k] is not false: it is watched instead */
                l[1] = l[k];
                l[k] = false_lit;
                watch(S, l[1], at);
                f->watches[i--] = f->watches[--f->nwatches];
                continue;
            }
            if (S->lit[l[0]].value < 0) return 1; /* every literal false */
            assign(S, l[0]);
        }
    }
    return 0;
}

/* the clause read made active at the top level: stored (2 literals or more), watching two not false if it has them;
 * its literal made true if it has a single one not false; a conflict if none */
static void add_clause(Checker *S) {
    int32_t *lits = S->lits;
    size_t open = 0;
    for (size_t i = 0; i < S->nlits; i++) {
        if (S->lit[lits[i]].value >= 0) { /* the literals not false first */
            int32_t t = lits[open];
            lits[open++] = lits[i];
            lits[i] = t;
        }
    }
    if (S->nlits >= 2) {
        reserve(S, &S->arena, &S->arena_cap, S->narena + S->nlits + 2, sizeof(int32_t));
        S->arena[S->narena] = (int32_t)S->nlits;
        S->arena[S->narena + 1] = 1;
        memcpy(S->arena + S->narena + 2, lits, S->nlits * sizeof(int32_t));
        watch(S, lits[0], S->narena);
        watch(S, lits[1], S->narena);
        S->narena += S->nlits + 2;
    }
    if (open == 1 && S->lit[lits[0]].value == 0) {
        assign(S, lits[0]);
        S->conflict = S->conflict || propagate(S);
    }
    S->conflict = S->conflict || open == 0;
}

/* one stored clause with the literals of the clause read (marked), if any, made inactive: it watches two of them.
 * (A unit is not stored: no deletion undoes the top level.) */
static void delete_clause(Checker *S) {
    for (size_t i = 0; i < S->nlits; i++) {
        Literal *l = &S->lit[S->lits[i]];
        for (size_t j = 0; j < l->nwatches; j++) {
            int32_t *c = S->arena + l->watches[j];
            size_t k = 0;
            if (c[1] == 0 || (size_t)c[0] != S->nlits) continue;
            while (k < S->nlits && S->lit[c[2 + k]].mark)
                k++;
            if (k == S->nlits) {
                c[1] = 0;
                return;
            }
        }
    }
}

/* whether lits[:n] is RUP: assumed false, they propagate to a conflict */
static int rup(Checker *S, const int32_t *lits, size_t n) {
    size_t mark = S->ntrail;
    int found = S->conflict;
    for (size_t i = 0; i < n && !found; i++) {
        found = S->lit[lits[i]].value > 0; /* a literal true already */
        if (S->lit[lits[i]].value == 0)
            assign(S, lits[i] ^ 1);
    }
    found = found || propagate(S);
    while (S->ntrail > mark) { /* back to the top level */
        int32_t lit = S->trail[--S->ntrail];
        S->lit[lit].value = 0;
        S->lit[lit ^ 1].value = 0;
    }
    S->head = mark;
    return found;
}

/* whether the clause read (n >= 1 literals) is RAT on its first literal p: p is not false, and for every active clause
 * D holding -p, the clause with D's other literals is RUP (each such resolvent is made after the clause, in S->lits) */
static int rat(Checker *S) {
    size_t n = S->nlits;
    int32_t neg = S->lits[0] ^ 1;
    if (S->lit[S->lits[0]].value < 0) return 0;
    for (size_t at = 0; at < S->narena; at += 2 + (size_t)S->arena[at]) {
        size_t size = (size_t)S->arena[at], k = 0;
        while (k < size && S->arena[at + 2 + k] != neg)
            k++;
        if (S->arena[at + 1] == 0 || k == size) continue;
        reserve(S, &S->lits, &S->lits_cap, n + size, sizeof(int32_t));
        for (k = 0; k < size; k++)
            if (S->arena[at + 2 + k] != neg)
                S->lits[S->nlits++] = S->arena[at + 2 + k];
        if (!rup(S, S->lits, S->nlits)) return 0;
        S->nlits = n;
    }
    return 1;
}

static int space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* whether drat-trim reads the proof as binary: it has fewer than 2 bytes, or a byte among its first 12 that text DRAT
 * does not use (letters allowed after a leading "c ") */
static int is_binary(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n && i < 12; i++) {
        int letter = i >= 2 && p[0] == 'c' && p[1] == ' ' && p[i] >= 65 && p[i] <= 122;
        if (!letter && (p[i] == 0 || strchr("\n\r -0123456789cd", p[i]) == NULL)) return 1;
    }
    return n < 2;
}

/* the next literal of a text clause into *x (0: the clause's end): 0, or a verdict code */
static int text_literal(Checker *S, int64_t *x) {
    const unsigned char *p = S->p;
    while (S->i < S->n && space(p[S->i]))
        S->i++;
    if (S->i == S->n) return UNTERMINATED;
    size_t word = S->i, digits = word + (p[word] == '-');
    while (S->i < S->n && !space(p[S->i])) /* the word is p[word:S->i] */
        S->i++;
    *x = 0;
    for (size_t i = digits; i < S->i && *x <= INT32_MAX; i++)
        *x = p[i] >= '0' && p[i] <= '9' ? 10 * *x + (p[i] - '0') : INT64_MAX;
    if (digits == S->i || *x > INT32_MAX) {
        S->start = word;
        return BAD_LITERAL;
    }
    if (p[word] == '-')
        *x = -*x;
    return 0;
}

/* the next literal of a binary clause into *x (0: the clause's end): 0, or a verdict code */
static int binary_literal(Checker *S, int64_t *x) {
    size_t at = S->i;
    uint64_t number = 0;
    for (int shift = 0; shift < 35; shift += 7) {
        if (S->i == S->n) return UNTERMINATED;
        number |= (uint64_t)(S->p[S->i] & 127) << shift;
        if (S->p[S->i++] < 128) {
            *x = number & 1 ? -(int64_t)(number >> 1) : (int64_t)(number >> 1);
            if (number != 1 && number >> 1 <= INT32_MAX) return 0;
            break;
        }
    }
    S->start = at;
    return BAD_LITERAL;
}

/* the next clause into S->lits (the marks of the last one cleared), *del whether a deletion: 1; 0 at the end; or a
 * verdict code.  Text: comments (from a "c" where a clause would start, to the end of the line), "d" for a deletion,
 * literals -?[0-9]+ in 1..2^31-1, 0.  Binary: "a" or "d", literals x as 2|x| + (x < 0) in 7-bit groups (low first,
 * the high bit set but on the last), 0. */
static int read_clause(Checker *S, int binary, int *del) {
    const unsigned char *p = S->p;
    for (size_t i = 0; i < S->nlits; i++)
        S->lit[S->lits[i]].mark = 0;
    S->nlits = 0;
    while (!binary && S->i < S->n && (space(p[S->i]) || p[S->i] == 'c')) { /* white space, or a comment */
        const unsigned char *end = p[S->i] == 'c' ? memchr(p + S->i, '\n', S->n - S->i) : p + S->i;
        S->i = end == NULL ? S->n : (size_t)(end - p) + 1;
    }
    S->start = S->i;
    if (S->i == S->n) return 0;
    if (binary && p[S->i] != 'a' && p[S->i] != 'd') return BAD_PREFIX;
    *del = p[S->i] == 'd' && (binary || S->i + 1 == S->n || space(p[S->i + 1]));
    if (binary || *del)
        S->i++;
    for (;;) {
        int64_t x;
        int got = binary ? binary_literal(S, &x) : text_literal(S, &x);
        if (got != 0) return got;
        if (x == 0) return 1;
        read_literal(S, x);
    }
}

/* the verdict on the formula and the proof, or -1 when interrupted (the exception set): each lemma RUP on the active
 * clauses (the formula's and the lemmas', less those deleted) or RAT, up to the empty clause (no proof is needed
 * when the formula alone propagates to a conflict) */
static int run(Checker *S, PyObject *formula, PyObject *proof, Py_ssize_t *lemmas, Py_ssize_t *rats) {
    int binary = is_binary((unsigned char *)PyBytes_AS_STRING(proof), (size_t)PyBytes_GET_SIZE(proof)), del = 0, got;
    S->p = (unsigned char *)PyBytes_AS_STRING(formula);
    S->n = (size_t)PyBytes_GET_SIZE(formula);
    while ((got = read_clause(S, 0, &del)) == 1 && !del)
        add_clause(S);
    if (got != 0) return BAD_FORMULA;
    if (S->conflict) return TRIVIAL;
    S->p = (unsigned char *)PyBytes_AS_STRING(proof);
    S->n = (size_t)PyBytes_GET_SIZE(proof);
    S->i = 0;
    while ((got = read_clause(S, binary, &del)) == 1) {
        if (del)
            delete_clause(S);
        if (del) continue;
        if (++*lemmas % 4096 == 0 && PyErr_CheckSignals() < 0) return -1;
        if (!rup(S, S->lits, S->nlits)) {
            if (S->nlits == 0) return EMPTY_NOT_RUP;
            if (!rat(S)) return NOT_REDUNDANT;
            ++*rats;
        }
        if (S->nlits == 0) return VERIFIED;
        add_clause(S);
    }
    return got == 0 ? NO_EMPTY : got;
}

static PyObject *check(PyObject *self, PyObject *args) {
    PyObject *formula, *proof;
    if (!PyArg_ParseTuple(args, "SS", &formula, &proof)) return NULL;
    Py_ssize_t lemmas = 0, rats = 0;
    size_t offset = 0;
    int code = -2; /* out of memory */
    Checker *S = calloc(1, sizeof(Checker));
    if (S != NULL && (S->numbers = PyDict_New()) != NULL) {
        if (setjmp(S->out_of_memory) == 0)
            code = run(S, formula, proof, &lemmas, &rats);
        offset = S->start;
        for (size_t i = 0; i < S->lit_cap; i++)
            free(S->lit[i].watches);
        free(S->lit);
        free(S->trail);
        free(S->arena);
        free(S->lits);
    }
    if (S != NULL)
        Py_XDECREF(S->numbers);
    free(S);
    if (code == -2) return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    return code < 0 ? NULL : Py_BuildValue("(innn)", code, lemmas, rats, (Py_ssize_t)offset);
}

static PyMethodDef methods[] = {
    {"check", check, METH_VARARGS, "check(formula, proof) -> (code, lemmas, rat, offset)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "satnono.certify._drat", "The DRAT proof checker (satnono/certify/_drat.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__drat(void) {
    PyObject *m = PyModule_Create(&module);
#ifndef SATNONO_DRAT_SHA256
#define SATNONO_DRAT_SHA256 ""
#endif
    if (m != NULL && PyModule_AddStringConstant(m, "SOURCE_SHA256", SATNONO_DRAT_SHA256) < 0)
        Py_CLEAR(m);
    return m;
}
