/* The DRAT proof checker of satnono's certificates (issue #40), as `satnono verify` runs it: check(formula, proof)
 * -> (code, lemmas, rat, offset).  docs/certificates.md ("The DRAT checker") says what it checks and why that is
 * sound; satnono/certify/drat.py is the same checker in plain Python (used where this is not compiled), and words
 * the verdicts.  The formula is DIMACS clauses (text, no header); the proof, text or binary DRAT.  `lemmas` counts the
 * lemmas read, `rat` those accepted by RAT; `offset` is where the last clause read starts, or where the proof cannot
 * be read.  Variables are numbered 1, 2, ... as they appear (a hash table), so a huge one costs nothing: literal x
 * of variable v is 2v, -x is 2v+1.  Memory grows with the data read only; when it runs out, longjmp goes back to
 * check(), which raises MemoryError. */

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
    int32_t key, num;           /* a variable as written (0: a free slot), its number */
} Slot;

typedef struct {
    jmp_buf out_of_memory;
    Slot *table;                /* the variables' numbers, by open addressing; at most half full */
    size_t slots;               /* its size, a power of 2 */
    int32_t nvars;
    Literal *lit;               /* per literal */
    size_t lit_cap;
    int32_t *trail;             /* the true literals, in order: trail[:head] is propagated */
    size_t trail_cap, ntrail, head;
    int32_t *arena;             /* the stored clauses, each: its size, 1 (0 once deleted), its literals */
    size_t narena, arena_cap;
    int32_t *lits;              /* the clause read */
    size_t nlits, lits_cap;
    int conflict;               /* the top level is in conflict */
} Checker;

typedef struct {
    const unsigned char *p;     /* n bytes; p[i] is read next */
    size_t n, i;
    size_t start;               /* where the last clause read starts, or where reading failed */
} Reader;

/* *p, an array of *cap elements of `size` bytes, made to hold `need` (doubled as needed, the new ones zero) */
static void reserve(Checker *S, void *p, size_t *cap, size_t need, size_t size) {
    size_t old = *cap, n = old ? old : 16;
    if (need <= old)
        return;
    while (n < need)
        n *= 2;
    char *q = n > SIZE_MAX / 2 / size ? NULL : realloc(*(char **)p, n * size);
    if (q == NULL)
        longjmp(S->out_of_memory, 1);
    memset(q + old * size, 0, (n - old) * size);
    *(char **)p = q;
    *cap = n;
}

/* the slot of variable v in a table of `slots`: where it is, or the free one for it */
static size_t find(const Slot *table, size_t slots, int32_t v) {
    size_t j = ((uint64_t)v * 0x9e3779b97f4a7c15ULL >> 32) & (slots - 1);
    while (table[j].key != 0 && table[j].key != v)
        j = (j + 1) & (slots - 1);
    return j;
}

/* x as written (x != 0) added to the clause read, as a literal, unless it is there; its variable numbered if new */
static void read_literal(Checker *S, int32_t x) {
    int32_t v = x < 0 ? -x : x;
    if (2 * ((size_t)S->nvars + 1) > S->slots) { /* the table made twice as large */
        size_t slots = S->slots ? 2 * S->slots : 1024;
        Slot *table = S->nvars < 1 << 29 ? calloc(slots, sizeof(Slot)) : NULL; /* (literals fit an int32_t) */
        if (table == NULL)
            longjmp(S->out_of_memory, 1);
        for (size_t i = 0; i < S->slots; i++)
            if (S->table[i].key != 0)
                table[find(table, slots, S->table[i].key)] = S->table[i];
        free(S->table);
        S->table = table;
        S->slots = slots;
    }
    Slot *slot = &S->table[find(S->table, S->slots, v)];
    if (slot->key == 0) {
        reserve(S, &S->lit, &S->lit_cap, 2 * (size_t)S->nvars + 4, sizeof(Literal));
        reserve(S, &S->trail, &S->trail_cap, (size_t)S->nvars + 2, sizeof(int32_t));
        slot->key = v;
        slot->num = ++S->nvars;
    }
    int32_t lit = 2 * slot->num + (x < 0);
    reserve(S, &S->lits, &S->lits_cap, S->nlits + 1, sizeof(int32_t));
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
 * two literals: it is looked at when one of them turns false, and then watches another that is not false, or is unit
 * (its other watched literal made true), or in conflict. */
static int propagate(Checker *S) {
    while (S->head < S->ntrail) {
        int32_t false_lit = S->trail[S->head++] ^ 1;
        Literal *f = &S->lit[false_lit];
        size_t i = 0, kept = 0;
        while (i < f->nwatches) {
            size_t at = f->watches[i++];
            int32_t size = S->arena[at];
            int32_t *l = S->arena + at + 2;
            if (S->arena[at + 1] == 0)
                continue; /* deleted: the watch goes */
            if (l[0] == false_lit) { /* the false literal second */
                l[0] = l[1];
                l[1] = false_lit;
            }
            if (S->lit[l[0]].value > 0) { /* true: the watch stays */
                f->watches[kept++] = at;
                continue;
            }
            int32_t k = 2;
            while (k < size && S->lit[l[k]].value < 0)
                k++;
            if (k < size) { /* l[k] is not false: watched instead */
                l[1] = l[k];
                l[k] = false_lit;
                watch(S, l[1], at);
                continue;
            }
            f->watches[kept++] = at;
            if (S->lit[l[0]].value < 0) { /* every literal false: the watches left stay */
                while (i < f->nwatches)
                    f->watches[kept++] = f->watches[i++];
                f->nwatches = kept;
                return 1;
            }
            assign(S, l[0]);
        }
        f->nwatches = kept;
    }
    return 0;
}

/* the clause read made active at the top level.  Not stored: a clause true there (it never propagates), or with one
 * literal not false (that literal is made true for good). */
static void add_clause(Checker *S) {
    int32_t *lits = S->lits;
    size_t open = 0;
    for (size_t i = 0; i < S->nlits; i++) {
        if (S->lit[lits[i]].value > 0)
            return;
        if (S->lit[lits[i]].value == 0) { /* the literals not false first */
            int32_t t = lits[open];
            lits[open++] = lits[i];
            lits[i] = t;
        }
    }
    if (open < 2) {
        if (open == 1)
            assign(S, lits[0]);
        S->conflict = S->conflict || open == 0 || propagate(S);
        return;
    }
    reserve(S, &S->arena, &S->arena_cap, S->narena + S->nlits + 2, sizeof(int32_t));
    S->arena[S->narena] = (int32_t)S->nlits;
    S->arena[S->narena + 1] = 1;
    memcpy(S->arena + S->narena + 2, lits, S->nlits * sizeof(int32_t));
    watch(S, lits[0], S->narena);
    watch(S, lits[1], S->narena);
    S->narena += S->nlits + 2;
}

/* one stored clause with the literals of the clause read (n >= 2, marked), if any, made inactive: it watches two of
 * them.  (A clause not stored stays: no deletion undoes the top level.) */
static void delete_clause(Checker *S) {
    for (size_t i = 0; i < S->nlits; i++) {
        Literal *l = &S->lit[S->lits[i]];
        for (size_t j = 0; j < l->nwatches; j++) {
            int32_t *c = S->arena + l->watches[j];
            size_t k = 0;
            if (c[1] == 0 || (size_t)c[0] != S->nlits)
                continue;
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
        if (S->lit[lits[i]].value > 0)
            found = 1; /* a literal true already */
        else if (S->lit[lits[i]].value == 0)
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
    if (S->lit[S->lits[0]].value < 0)
        return 0;
    for (size_t at = 0; at < S->narena; at += 2 + (size_t)S->arena[at]) {
        size_t size = (size_t)S->arena[at], k = 0;
        while (k < size && S->arena[at + 2 + k] != neg)
            k++;
        if (S->arena[at + 1] == 0 || k == size)
            continue;
        reserve(S, &S->lits, &S->lits_cap, n + size, sizeof(int32_t));
        for (k = 0; k < size; k++)
            if (S->arena[at + 2 + k] != neg)
                S->lits[S->nlits++] = S->arena[at + 2 + k];
        int found = rup(S, S->lits, S->nlits);
        S->nlits = n;
        if (!found)
            return 0;
    }
    return 1;
}

static int space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* the next clause of a text proof into S->lits, *del whether a deletion ("d" first): 1; 0 at the end; or a verdict
 * code.  A literal is -?[0-9]+ within 1..2^31-1 (0 ends the clause); a word starting with "c" where a clause would
 * start begins a comment, to the end of its line. */
static int read_text(Checker *S, Reader *R, int *del) {
    const unsigned char *p = R->p;
    int started = 0;
    for (;;) {
        while (R->i < R->n && space(p[R->i]))
            R->i++;
        if (R->i == R->n)
            return started ? UNTERMINATED : 0;
        size_t word = R->i, digits = word + (p[word] == '-');
        while (R->i < R->n && !space(p[R->i])) /* the word is p[word:R->i] */
            R->i++;
        if (!started && p[word] == 'c') { /* a comment */
            while (R->i < R->n && p[R->i] != '\n')
                R->i++;
            continue;
        }
        if (!started) {
            started = 1;
            R->start = word;
            *del = R->i == word + 1 && p[word] == 'd';
            if (*del)
                continue;
        }
        int64_t v = 0;
        for (size_t i = digits; i < R->i && v <= INT32_MAX; i++)
            v = p[i] >= '0' && p[i] <= '9' ? 10 * v + (p[i] - '0') : INT64_MAX;
        if (digits == R->i || v > INT32_MAX) {
            R->start = word;
            return BAD_LITERAL;
        }
        if (v == 0)
            return 1;
        read_literal(S, (int32_t)(p[word] == '-' ? -v : v));
    }
}

/* the next clause of a binary proof: as read_text.  A clause is "a" (a lemma) or "d", then each literal x as the
 * number 2|x| + (x < 0) in 7-bit groups, low group first, all but the last with the high bit set; then 0. */
static int read_binary(Checker *S, Reader *R, int *del) {
    R->start = R->i;
    if (R->i == R->n)
        return 0;
    if (R->p[R->i] != 'a' && R->p[R->i] != 'd')
        return BAD_PREFIX;
    *del = R->p[R->i++] == 'd';
    for (;;) {
        size_t at = R->i;
        uint64_t number = 0;
        for (int shift = 0;; shift += 7) {
            if (shift == 35) {
                R->start = at;
                return BAD_LITERAL;
            }
            if (R->i == R->n)
                return UNTERMINATED;
            number |= (uint64_t)(R->p[R->i] & 127) << shift;
            if (R->p[R->i++] < 128)
                break;
        }
        if (number == 0)
            return 1;
        if (number == 1 || number >> 1 > INT32_MAX) {
            R->start = at;
            return BAD_LITERAL;
        }
        read_literal(S, (int32_t)(number >> 1) * (number & 1 ? -1 : 1));
    }
}

/* whether drat-trim reads the proof as binary: it has fewer than 2 bytes, or a byte among its first 12 that text DRAT
 * does not use (letters allowed after a leading "c ") */
static int is_binary(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n && i < 12; i++) {
        int letter = i >= 2 && p[0] == 'c' && p[1] == ' ' && p[i] >= 65 && p[i] <= 122;
        if (!letter && (p[i] == 0 || strchr("\n\r -0123456789cd", p[i]) == NULL))
            return 1;
    }
    return n < 2;
}

/* the next clause of the formula (text) or of the proof into S->lits, the marks of the last one cleared first */
static int next_clause(Checker *S, Reader *R, int binary, int *del) {
    for (size_t i = 0; i < S->nlits; i++)
        S->lit[S->lits[i]].mark = 0;
    S->nlits = 0;
    *del = 0;
    return binary ? read_binary(S, R, del) : read_text(S, R, del);
}

/* the verdict on the formula and the proof, or -1 when interrupted (the exception set).  Each lemma must be RUP on the
 * active clauses (the formula's, then the lemmas accepted, less those deleted), else RAT; the proof must add the empty
 * clause, unless the formula alone propagates to a conflict. */
static int run(Checker *S, Reader *formula, Reader *proof, Py_ssize_t *lemmas, Py_ssize_t *rats) {
    int binary = is_binary(proof->p, proof->n), del, got;
    while ((got = next_clause(S, formula, 0, &del)) == 1 && !del)
        add_clause(S);
    if (got != 0)
        return BAD_FORMULA;
    if (S->conflict)
        return TRIVIAL;
    while ((got = next_clause(S, proof, binary, &del)) == 1) {
        if (del && S->nlits > 1)
            delete_clause(S);
        if (del)
            continue;
        if (++*lemmas % 4096 == 0 && PyErr_CheckSignals() < 0)
            return -1;
        if (!rup(S, S->lits, S->nlits)) {
            if (S->nlits == 0)
                return EMPTY_NOT_RUP;
            if (!rat(S))
                return NOT_REDUNDANT;
            ++*rats;
        }
        if (S->nlits == 0)
            return VERIFIED;
        add_clause(S);
    }
    return got == 0 ? NO_EMPTY : got;
}

static PyObject *check(PyObject *self, PyObject *args) {
    Py_buffer formula, proof;
    if (!PyArg_ParseTuple(args, "y*y*", &formula, &proof))
        return NULL;
    Reader F = {formula.buf, (size_t)formula.len, 0, 0};
    Reader R = {proof.buf, (size_t)proof.len, 0, 0};
    Py_ssize_t lemmas = 0, rats = 0;
    int code = -2; /* out of memory */
    Checker *S = calloc(1, sizeof(Checker));
    if (S != NULL) {
        if (setjmp(S->out_of_memory) == 0)
            code = run(S, &F, &R, &lemmas, &rats);
        for (size_t i = 0; i < S->lit_cap; i++)
            free(S->lit[i].watches);
        free(S->table);
        free(S->lit);
        free(S->trail);
        free(S->arena);
        free(S->lits);
        free(S);
    }
    PyBuffer_Release(&formula);
    PyBuffer_Release(&proof);
    if (code == -2)
        return PyErr_NoMemory();
    return code < 0 ? NULL : Py_BuildValue("(innn)", code, lemmas, rats, (Py_ssize_t)R.start);
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
