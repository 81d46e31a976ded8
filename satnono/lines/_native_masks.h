/* What the compiled line kernels share: fixed-width masks (128 bits where the compiler has
 * them, else 64), the bit helpers of satnono/lines/bits.py on them, and Python int <-> mask.
 * Included by _native.c (black and white) and _native_color.c (colour), each its own module:
 * every static here exists once per module (SIXTY_FOUR is set by each module's init).
 */
#ifndef SATNONO_NATIVE_MASKS_H
#define SATNONO_NATIVE_MASKS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ masks */

#if defined(__SIZEOF_INT128__)
typedef unsigned __int128 mask_t;
#define MASK_BITS 128
#else
typedef uint64_t mask_t;
#define MASK_BITS 64
#endif

/* A line's sets need bits 0..n+1 (cell n is a virtual background cell, n + 1 "past the end"). */
#define KERNEL_MAX_N (MASK_BITS - 2)

#define ONE ((mask_t)1)

static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int bitlen64(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }

static inline uint64_t rev64(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return __builtin_bswap64(x);
}

#if MASK_BITS == 128
static inline int m_popcount(mask_t x) { return popcount64((uint64_t)x) + popcount64((uint64_t)(x >> 64)); }
static inline int m_ctz(mask_t x) /* x != 0 */
{
    uint64_t lo = (uint64_t)x;
    return lo ? ctz64(lo) : 64 + ctz64((uint64_t)(x >> 64));
}
static inline int m_bitlen(mask_t x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 64 + bitlen64(hi) : bitlen64((uint64_t)x);
}
static inline mask_t m_rev(mask_t x) /* bit b -> bit MASK_BITS - 1 - b */
{
    return ((mask_t)rev64((uint64_t)x) << 64) | (mask_t)rev64((uint64_t)(x >> 64));
}
#else
static inline int m_popcount(mask_t x) { return popcount64(x); }
static inline int m_ctz(mask_t x) { return ctz64(x); }
static inline int m_bitlen(mask_t x) { return bitlen64(x); }
static inline mask_t m_rev(mask_t x) { return rev64(x); }
#endif

static inline mask_t low_bits(int n) /* (1 << n) - 1, 0 <= n < MASK_BITS */
{
    return (ONE << n) - 1;
}

/* bits.runs_of: positions p such that bits p..p+c-1 of mask are all set (1 <= c < MASK_BITS) */
static inline mask_t runs_of(mask_t r, int c)
{
    int have = 1;
    while (have < c) {
        int step = have <= c - have ? have : c - have;
        r &= r >> step;
        have += step;
    }
    return r;
}

/* bits.spread: OR of v shifted left by 0..c-1 */
static inline mask_t spread(mask_t r, int c)
{
    int have = 1;
    while (have < c) {
        int step = have <= c - have ? have : c - have;
        r |= r << step;
        have += step;
    }
    return r;
}

/* bits.reverse: mirror the low width bits */
static inline mask_t reverse_width(mask_t x, int width)
{
    if (width <= 0)
        return 0;
    return m_rev(x) >> (MASK_BITS - width);
}

/* ------------------------------------------------------- Python int <-> mask */

static PyObject *SIXTY_FOUR; /* the int 64 */

/* x (an int) as a mask; 1 on success, 0 when it does not fit (negative or too wide), -1 on error. */
static inline int mask_from_py(PyObject *x, mask_t *out)
{
    if (!PyLong_Check(x))
        return 0;
    unsigned long long v = PyLong_AsUnsignedLongLong(x);
    if (!(v == (unsigned long long)-1 && PyErr_Occurred())) {
        *out = (mask_t)v;
        return 1;
    }
    if (!PyErr_ExceptionMatches(PyExc_OverflowError))
        return -1;
    PyErr_Clear();
#if MASK_BITS == 128
    PyObject *hi = PyNumber_Rshift(x, SIXTY_FOUR);
    if (hi == NULL)
        return -1;
    unsigned long long h = PyLong_AsUnsignedLongLong(hi);
    Py_DECREF(hi);
    if (h == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
        return 0; /* negative or wider than 128 bits */
    }
    unsigned long long l = PyLong_AsUnsignedLongLongMask(x);
    if (l == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = ((mask_t)h << 64) | (mask_t)l;
    return 1;
#else
    return 0;
#endif
}

static inline PyObject *mask_to_py(mask_t x)
{
#if MASK_BITS == 128
    uint64_t hi = (uint64_t)(x >> 64);
    if (hi) {
        PyObject *h = PyLong_FromUnsignedLongLong(hi);
        if (h == NULL)
            return NULL;
        PyObject *hs = PyNumber_Lshift(h, SIXTY_FOUR);
        Py_DECREF(h);
        if (hs == NULL)
            return NULL;
        PyObject *l = PyLong_FromUnsignedLongLong((uint64_t)x);
        if (l == NULL) {
            Py_DECREF(hs);
            return NULL;
        }
        PyObject *r = PyNumber_Or(hs, l);
        Py_DECREF(hs);
        Py_DECREF(l);
        return r;
    }
#endif
    return PyLong_FromUnsignedLongLong((uint64_t)x);
}

/* A small exact int in lo..hi: 1 with *out set, 0 otherwise, -1 on error. */
static inline int small_int(PyObject *x, long lo, long hi, int *out)
{
    if (!PyLong_CheckExact(x))
        return 0;
    int overflow;
    long v = PyLong_AsLongAndOverflow(x, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < lo || v > hi)
        return 0;
    *out = (int)v;
    return 1;
}

/* The block lengths of a clue (the items of a list or tuple) into out[0..k-1]: 1 when each is
 * a small exact int in 1..n, 0 when one is not (the caller hands the line to the reference),
 * -1 on error. */
static inline int read_lengths(PyObject *const *items, Py_ssize_t k, long n, int *out)
{
    for (Py_ssize_t j = 0; j < k; j++) {
        int r = small_int(items[j], 1, n, &out[j]);
        if (r <= 0)
            return r;
    }
    return 1;
}

#endif /* SATNONO_NATIVE_MASKS_H */
