/* The compiled core: the black-and-white line kernel, the black-and-white clause builder and
 * the black-and-white line fixpoint.
 *
 * All are exact C transcriptions of the reference implementations in Python,
 * satnono/lines/bw.py (_solve_line_py), satnono/cnf/ladders.py (_bw_line_clauses_py) and
 * satnono/logic/propagate.py (_lines_fixpoint): same results, same clause order, same
 * literal order, the same sweeps.
 * Lines of up to KERNEL_MAX_N cells run on one fixed-width mask, longer ones
 * (up to WIDE_MAX_N) on arrays of 64-bit words.  Whatever falls outside what
 * this code handles (a block length outside 1..n, a mask with bits beyond the
 * line, keyword arguments, ...) goes to the Python reference, so the answer is
 * always the reference's.  Setting SATNONO_PURE=1 keeps this module from being used at all.
 */
#include "_native_masks.h"

/* At most (n + 1) / 2 blocks fit in n cells. */
#define MAX_BLOCKS ((KERNEL_MAX_N + 1) / 2 + 1)

/* ------------------------------------------------------------- the kernel */

static PyObject *LineResultType; /* satnono.lines.bw.LineResult */
static PyObject *kernel_fallback; /* satnono.lines.bw._solve_line_py */

typedef struct {
    mask_t black, white;
    mask_t starts[MAX_BLOCKS];
} facts_t;

/* bw._forward: fills ls[0..k] and ss[0..k-1]; 0 when infeasible. */
static int forward(const int *clue, int k, int n, mask_t may_black, mask_t may_white, mask_t *ls, mask_t *ss)
{
    mask_t e = 1;
    for (int j = 0; j < k; j++) {
        int c = clue[j];
        mask_t reach = ((may_white + (e & may_white)) ^ may_white) | e;
        ls[j] = reach;
        mask_t s = reach & runs_of(may_black, c) & (may_white >> c);
        if (!s)
            return 0;
        ss[j] = s;
        e = s << (c + 1);
    }
    mask_t reach = ((may_white + (e & may_white)) ^ may_white) | e;
    if (!((reach >> (n + 1)) & 1))
        return 0;
    ls[k] = reach;
    return 1;
}

/* bw._solve: the full solver on a line with black & white == 0; 0 when infeasible. */
static int solve_full(const int *clue, int k, int n, mask_t black, mask_t white, facts_t *out)
{
    mask_t full = low_bits(n);
    if (k == 0) {
        if (black)
            return 0;
        out->black = 0;
        out->white = full;
        return 1;
    }
    mask_t may_black = full & ~white;
    mask_t may_white = (full & ~black) | (ONE << n);
    mask_t lf[MAX_BLOCKS + 1], sf[MAX_BLOCKS], lb[MAX_BLOCKS + 1], sb[MAX_BLOCKS];
    int rclue[MAX_BLOCKS];
    if (!forward(clue, k, n, may_black, may_white, lf, sf))
        return 0;
    for (int j = 0; j < k; j++)
        rclue[j] = clue[k - 1 - j];
    mask_t rmay_black = reverse_width(may_black, n);
    mask_t rmay_white = reverse_width(may_white & full, n) | (ONE << n);
    if (!forward(rclue, k, n, rmay_black, rmay_white, lb, sb))
        return 0;
    /* a mirrored start s' of block j is the start n - c_j - s'; a mirrored gap position q' is n + 1 - q' */
    mask_t can_black = 0;
    for (int j = 0; j < k; j++) {
        int c = clue[j];
        mask_t v = sf[j] & (m_rev(sb[k - 1 - j]) >> (MASK_BITS - 1 - n + c));
        if (!v)
            return 0;
        out->starts[j] = v;
        can_black |= spread(v, c);
    }
    mask_t can_white = 0;
    for (int j = 0; j <= k; j++)
        can_white |= lf[j] & (m_rev(lb[k - j]) >> (MASK_BITS - 2 - n));
    can_white = (can_white >> 1) & may_white & full;
    mask_t forced_black = full & ~can_white;
    mask_t forced_white = full & ~can_black;
    if (forced_black & forced_white)
        return 0;
    out->black = forced_black;
    out->white = forced_white;
    return 1;
}

/* bw._run_starts: the start bits of the runs of x if their lengths are exactly clue[0..m-1]. */
static int run_starts(mask_t x, const int *clue, int m, int n, mask_t *out)
{
    mask_t s = x & ~(x << 1);
    mask_t total = 0;
    for (int j = 0; j < m; j++) {
        mask_t low = s & (~s + 1);
        s ^= low;
        out[j] = low;
        if (!low)
            return 0; /* cannot happen: m is the number of runs */
        int p = m_ctz(low);
        if (p + clue[j] > n)
            return 0; /* the run would leave the line: the total cannot be x */
        total += low_bits(clue[j]) << p;
    }
    return !s && total == x;
}

/* bw.solve_line on masks: 1 with out filled (nstarts = k), 0 when infeasible. */
static int solve_line_masks(const int *clue, int k, int n, mask_t black, mask_t white, facts_t *out)
{
    if (black & white)
        return 0;
    mask_t full = low_bits(n);
    mask_t unknown = full & ~(black | white);
    int t, t2;
    if (unknown) {
        mask_t lowu = unknown & (~unknown + 1);
        t = m_bitlen(white & (lowu - 1));
        int hi = m_bitlen(unknown);
        mask_t after = white >> hi;
        t2 = after ? hi + m_ctz(after) : n;
        if (t == 0 && t2 == n)
            return solve_full(clue, k, n, black, white, out);
    } else {
        t = t2 = n;
    }
    mask_t pre = black & low_bits(t);
    mask_t suf = t2 < n ? black >> (t2 + 1) : 0;
    int m = m_popcount(pre & ~(pre << 1));
    int m2 = m_popcount(suf & ~(suf << 1));
    if (m + m2 > k || (!unknown && m != k))
        return 0;
    mask_t pre_starts[MAX_BLOCKS], suf_starts[MAX_BLOCKS];
    if (!run_starts(pre, clue, m, n, pre_starts) || !run_starts(suf, clue + (k - m2), m2, n, suf_starts))
        return 0;
    if (!unknown) {
        out->black = black;
        out->white = white;
        memcpy(out->starts, pre_starts, sizeof(mask_t) * m);
        return 1;
    }
    int size = t2 - t;
    mask_t mask = low_bits(size);
    facts_t sub;
    if (!solve_full(clue + m, k - m - m2, size, (black >> t) & mask, (white >> t) & mask, &sub))
        return 0;
    out->black = black | (sub.black << t);
    out->white = white | (sub.white << t);
    int j = 0;
    for (int i = 0; i < m; i++)
        out->starts[j++] = pre_starts[i];
    for (int i = 0; i < k - m - m2; i++)
        out->starts[j++] = sub.starts[i] << t;
    for (int i = 0; i < m2; i++)
        out->starts[j++] = suf_starts[i] << (t2 + 1);
    return 1;
}

/* --------------------------------------------- the kernel on multi-word masks
 *
 * The same algorithm on masks of W little-endian 64-bit words (bit i of a mask is bit i & 63
 * of word i >> 6), for lines of any length: a line of n cells uses W = words_for(n) words, enough
 * for bits 0..n+1, and every operation is truncated to 64 W bits, as the fixed-width kernel's
 * are to MASK_BITS (no set ever needs a bit above n + 1).  The scratch memory of one call is
 * one block: a buffer on the stack for most lines, the heap beyond. */

typedef uint64_t word_t;

static inline int words_for(int n) { return (n + 2 + 63) >> 6; }

static inline int w_any(const word_t *a, int W)
{
    for (int i = 0; i < W; i++)
        if (a[i])
            return 1;
    return 0;
}

/* d = s >> sh (d may be s) */
static void w_shr(word_t *d, const word_t *s, int W, int sh)
{
    int q = sh >> 6, r = sh & 63;
    for (int i = 0; i < W; i++) {
        int a = i + q;
        word_t lo = a < W ? s[a] : 0;
        if (r) {
            word_t hi = a + 1 < W ? s[a + 1] : 0;
            lo = (lo >> r) | (hi << (64 - r));
        }
        d[i] = lo;
    }
}

/* d = s << sh, truncated to W words (d may be s) */
static void w_shl(word_t *d, const word_t *s, int W, int sh)
{
    int q = sh >> 6, r = sh & 63;
    for (int i = W - 1; i >= 0; i--) {
        int a = i - q;
        word_t hi = a >= 0 ? s[a] : 0;
        if (r) {
            word_t lo = a >= 1 ? s[a - 1] : 0;
            hi = (hi << r) | (lo >> (64 - r));
        }
        d[i] = hi;
    }
}

/* d = ((mw + (e & mw)) ^ mw) | e: bw._reach, the carry running across words */
static void w_reach(word_t *d, const word_t *e, const word_t *mw, int W)
{
    word_t carry = 0;
    for (int i = 0; i < W; i++) {
        word_t m = mw[i], x = e[i];
        word_t s = m + (x & m);
        word_t c1 = s < m;
        word_t s2 = s + carry;
        carry = c1 | (s2 < s);
        d[i] = (s2 ^ m) | x;
    }
}

/* d = runs_of(s, c) (d is not s; tmp: W words) */
static void w_runs_of(word_t *d, const word_t *s, int c, int W, word_t *tmp)
{
    memcpy(d, s, sizeof(word_t) * W);
    int have = 1;
    while (have < c) {
        int step = have <= c - have ? have : c - have;
        w_shr(tmp, d, W, step);
        for (int i = 0; i < W; i++)
            d[i] &= tmp[i];
        have += step;
    }
}

/* acc |= spread(v, c) (v is overwritten; tmp: W words) */
static void w_or_spread(word_t *acc, word_t *v, int c, int W, word_t *tmp)
{
    int have = 1;
    while (have < c) {
        int step = have <= c - have ? have : c - have;
        w_shl(tmp, v, W, step);
        for (int i = 0; i < W; i++)
            v[i] |= tmp[i];
        have += step;
    }
    for (int i = 0; i < W; i++)
        acc[i] |= v[i];
}

/* d = (s mirrored over all 64 W bits) >> sh (d is not s) */
static void w_rev_shr(word_t *d, const word_t *s, int W, int sh)
{
    for (int i = 0; i < W; i++)
        d[i] = rev64(s[W - 1 - i]);
    w_shr(d, d, W, sh);
}

/* bits 0..n-1 set, the rest of the W words clear */
static void w_low_bits(word_t *d, int W, int n)
{
    for (int i = 0; i < W; i++) {
        int lo = i << 6;
        d[i] = n >= lo + 64 ? ~(word_t)0 : n <= lo ? 0 : (((word_t)1 << (n - lo)) - 1);
    }
}

static inline int w_bit(const word_t *a, int i) { return (int)((a[i >> 6] >> (i & 63)) & 1); }

/* the lowest set bit at position >= from, or -1 */
static int w_next_set(const word_t *a, int W, int from)
{
    int i = from >> 6;
    if (i >= W)
        return -1;
    word_t x = a[i] & (~(word_t)0 << (from & 63));
    while (!x) {
        if (++i >= W)
            return -1;
        x = a[i];
    }
    return (i << 6) + ctz64(x);
}

/* the lowest clear bit at position >= from, or 64 W */
static int w_next_clear(const word_t *a, int W, int from)
{
    int i = from >> 6;
    if (i >= W)
        return W << 6;
    word_t x = ~a[i] & (~(word_t)0 << (from & 63));
    while (!x) {
        if (++i >= W)
            return W << 6;
        x = ~a[i];
    }
    return (i << 6) + ctz64(x);
}

/* the highest set bit below position `below`, or -1 */
static int w_prev_set(const word_t *a, int below)
{
    if (below <= 0)
        return -1;
    int i = (below - 1) >> 6, r = (below - 1) & 63;
    word_t x = a[i] & (r == 63 ? ~(word_t)0 : (((word_t)1 << (r + 1)) - 1));
    while (!x) {
        if (--i < 0)
            return -1;
        x = a[i];
    }
    return (i << 6) + bitlen64(x) - 1;
}

/* bw._forward on W words: fills ls[0..k] and ss[0..k-1] (stride W); 0 when infeasible.
 * tmp: 3 W words. */
static int w_forward(const int *clue, int k, int n, const word_t *mb, const word_t *mw,
                     word_t *ls, word_t *ss, int W, word_t *tmp)
{
    word_t *e = tmp, *f = tmp + W, *t = tmp + 2 * W;
    memset(e, 0, sizeof(word_t) * W);
    e[0] = 1;
    for (int j = 0; j < k; j++) {
        int c = clue[j];
        word_t *reach = ls + (size_t)j * W, *s = ss + (size_t)j * W;
        w_reach(reach, e, mw, W);
        w_runs_of(f, mb, c, W, t);
        w_shr(t, mw, W, c);
        word_t any = 0;
        for (int i = 0; i < W; i++)
            any |= s[i] = reach[i] & f[i] & t[i];
        if (!any)
            return 0;
        w_shl(e, s, W, c + 1);
    }
    word_t *reach = ls + (size_t)k * W;
    w_reach(reach, e, mw, W);
    return w_bit(reach, n + 1);
}

/* bw._solve on W = words_for(n) words, black & white == 0 (no bits at n or above): fills fb, fw
 * and starts (block j at starts + j * stride); 0 when infeasible.  rclue: k ints; work: (4 k + 10) W
 * words. */
static int w_solve_full(const int *clue, int k, int n, const word_t *black, const word_t *white, int W,
                        word_t *fb, word_t *fw, word_t *starts, int stride, int *rclue, word_t *work)
{
    word_t *full = work, *mb = full + W, *mw = mb + W, *rmb = mw + W, *rmw = rmb + W;
    word_t *t1 = rmw + W, *t2 = t1 + W, *tmp = t2 + W; /* tmp: 3 W */
    word_t *lf = tmp + 3 * W, *lb = lf + (size_t)(k + 1) * W;
    word_t *sf = lb + (size_t)(k + 1) * W, *sb = sf + (size_t)k * W;
    int bits = W << 6;
    w_low_bits(full, W, n);
    if (k == 0) {
        if (w_any(black, W))
            return 0;
        memset(fb, 0, sizeof(word_t) * W);
        memcpy(fw, full, sizeof(word_t) * W);
        return 1;
    }
    for (int i = 0; i < W; i++) {
        mb[i] = full[i] & ~white[i];
        mw[i] = full[i] & ~black[i];
    }
    mw[n >> 6] |= (word_t)1 << (n & 63); /* the virtual white cell n */
    if (!w_forward(clue, k, n, mb, mw, lf, sf, W, tmp))
        return 0;
    for (int j = 0; j < k; j++)
        rclue[j] = clue[k - 1 - j];
    w_rev_shr(rmb, mb, W, bits - n);
    for (int i = 0; i < W; i++)
        t1[i] = mw[i] & full[i];
    w_rev_shr(rmw, t1, W, bits - n);
    rmw[n >> 6] |= (word_t)1 << (n & 63);
    if (!w_forward(rclue, k, n, rmb, rmw, lb, sb, W, tmp))
        return 0;
    /* can_black in fw, can_white in t2 */
    memset(fw, 0, sizeof(word_t) * W);
    for (int j = 0; j < k; j++) {
        int c = clue[j];
        word_t *v = starts + (size_t)j * stride, *f = sf + (size_t)j * W;
        w_rev_shr(t1, sb + (size_t)(k - 1 - j) * W, W, bits - 1 - n + c);
        word_t any = 0;
        for (int i = 0; i < W; i++)
            any |= v[i] = f[i] & t1[i];
        if (!any)
            return 0;
        memcpy(t2, v, sizeof(word_t) * W);
        w_or_spread(fw, t2, c, W, tmp);
    }
    memset(t2, 0, sizeof(word_t) * W);
    for (int j = 0; j <= k; j++) {
        const word_t *l = lf + (size_t)j * W;
        w_rev_shr(t1, lb + (size_t)(k - j) * W, W, bits - 2 - n);
        for (int i = 0; i < W; i++)
            t2[i] |= l[i] & t1[i];
    }
    w_shr(t2, t2, W, 1);
    word_t clash = 0;
    for (int i = 0; i < W; i++) {
        word_t can_white = t2[i] & mw[i] & full[i];
        fb[i] = full[i] & ~can_white;
        fw[i] = full[i] & ~fw[i];
        clash |= fb[i] & fw[i];
    }
    return !clash;
}

/* bw.solve_line on W = words_for(n) words (black and white have no bits at n or above): 1 with
 * fb, fw and starts (stride W) filled, 0 when infeasible.  A trimmed middle of at most
 * KERNEL_MAX_N cells and fewer than MAX_BLOCKS blocks goes to the fixed-width solve_full when
 * narrow_ok.  ints: 2 k; work: (4 k + 17) W words. */
static int w_solve_line(const int *clue, int k, int n, const word_t *black, const word_t *white, int W,
                        int narrow_ok, word_t *fb, word_t *fw, word_t *starts, int *ints, word_t *work)
{
    int *pos = ints, *rclue = ints + k;
    word_t *unknown = work, *sbk = unknown + W, *swh = sbk + W, *sfb = swh + W, *sfw = sfb + W;
    word_t *rest = sfw + W;
    for (int i = 0; i < W; i++)
        if (black[i] & white[i])
            return 0;
    w_low_bits(unknown, W, n);
    for (int i = 0; i < W; i++)
        unknown[i] &= ~(black[i] | white[i]);
    int t, t2, u0 = w_next_set(unknown, W, 0);
    if (u0 >= 0) {
        /* cells [0, t) known with cell t - 1 white; cells (t2, n) known with cell t2 white */
        t = w_prev_set(white, u0) + 1;
        int hi = w_prev_set(unknown, W << 6) + 1;
        int a = w_next_set(white, W, hi);
        t2 = a >= 0 ? a : n;
    } else {
        t = t2 = n; /* a complete line: it is its own prefix */
    }
    /* the black runs of the prefix and of the suffix must be the first and the last blocks */
    int m = 0, m2 = 0;
    for (int p = 0; (p = w_next_set(black, W, p)) >= 0 && p < t;) {
        int end = w_next_clear(black, W, p);
        if (m >= k || end - p != clue[m])
            return 0;
        pos[m++] = p;
        p = end;
    }
    if (t2 < n) {
        for (int p = t2 + 1; (p = w_next_set(black, W, p)) >= 0;) {
            if (m + m2 >= k)
                return 0;
            pos[m + m2++] = p;
            p = w_next_clear(black, W, p);
        }
        for (int i = 0; i < m2; i++) {
            int p = pos[m + i];
            if (w_next_clear(black, W, p) - p != clue[k - m2 + i])
                return 0;
        }
    }
    if (u0 < 0 && m != k)
        return 0;
    memset(starts, 0, sizeof(word_t) * W * (size_t)k);
    for (int i = 0; i < m; i++)
        starts[(size_t)i * W + (pos[i] >> 6)] = (word_t)1 << (pos[i] & 63);
    for (int i = 0; i < m2; i++) {
        int p = pos[m + i];
        starts[(size_t)(k - m2 + i) * W + (p >> 6)] = (word_t)1 << (p & 63);
    }
    if (u0 < 0) {
        memcpy(fb, black, sizeof(word_t) * W);
        memcpy(fw, white, sizeof(word_t) * W);
        return 1;
    }
    int size = t2 - t, ks = k - m - m2, Ws = words_for(size);
    word_t *sub_starts = starts + (size_t)m * W;
    w_low_bits(unknown, W, size); /* the middle's cells, reusing unknown */
    w_shr(sbk, black, W, t);
    w_shr(swh, white, W, t);
    for (int i = 0; i < W; i++) {
        sbk[i] &= unknown[i];
        swh[i] &= unknown[i];
    }
    if (narrow_ok && size <= KERNEL_MAX_N && ks < MAX_BLOCKS) {
        facts_t f;
#if MASK_BITS == 128
        mask_t b = ((mask_t)sbk[1] << 64) | sbk[0], w = ((mask_t)swh[1] << 64) | swh[0];
#else
        mask_t b = sbk[0], w = swh[0];
#endif
        if (!solve_full(clue + m, ks, size, b, w, &f))
            return 0;
        memset(sfb, 0, sizeof(word_t) * 2 * W); /* sfb and sfw */
        sfb[0] = (word_t)f.black;
        sfw[0] = (word_t)f.white;
#if MASK_BITS == 128
        sfb[1] = (word_t)(f.black >> 64);
        sfw[1] = (word_t)(f.white >> 64);
#endif
        for (int j = 0; j < ks; j++) {
            word_t *v = sub_starts + (size_t)j * W;
            v[0] = (word_t)f.starts[j];
#if MASK_BITS == 128
            v[1] = (word_t)(f.starts[j] >> 64);
#endif
        }
    } else {
        if (!w_solve_full(clue + m, ks, size, sbk, swh, Ws, sfb, sfw, sub_starts, W, rclue, rest))
            return 0;
        for (int i = Ws; i < W; i++)
            sfb[i] = sfw[i] = 0;
        for (int j = 0; j < ks; j++)
            for (int i = Ws; i < W; i++)
                sub_starts[(size_t)j * W + i] = 0;
    }
    w_shl(sfb, sfb, W, t);
    w_shl(sfw, sfw, W, t);
    for (int i = 0; i < W; i++) {
        fb[i] = black[i] | sfb[i];
        fw[i] = white[i] | sfw[i];
    }
    for (int j = 0; j < ks; j++)
        w_shl(sub_starts + (size_t)j * W, sub_starts + (size_t)j * W, W, t);
    return 1;
}

/* x (an int) as W words; 1 on success, 0 when it does not fit (negative or 64 W bits or wider),
 * -1 on error. */
static int words_of_py(PyObject *x, word_t *d, int W)
{
    if (!PyLong_Check(x))
        return 0;
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t r = PyLong_AsNativeBytes(x, d, (Py_ssize_t)W * 8,
                                        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER
                                            | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (r < 0) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    if (r > (Py_ssize_t)W * 8)
        return 0;
#else
    if (_PyLong_AsByteArray((PyLongObject *)x, (unsigned char *)d, (size_t)W * 8, 1, 0) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
        return 0;
    }
#endif
#if !PY_LITTLE_ENDIAN
    for (int i = 0; i < W; i++)
        d[i] = __builtin_bswap64(d[i]);
#endif
    return 1;
}

/* W words as an int (on a big-endian machine the words are byte-swapped in place) */
static PyObject *py_of_words(word_t *d, int W)
{
#if !PY_LITTLE_ENDIAN
    for (int i = 0; i < W; i++)
        d[i] = __builtin_bswap64(d[i]);
#endif
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(d, (Py_ssize_t)W * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray((const unsigned char *)d, (size_t)W * 8, 1, 0);
#endif
}

/* tuple.__new__(LineResult, (black, white, starts)), as namedtuple's _make does; steals the three */
static PyObject *new_line_result(PyObject *b, PyObject *w, PyObject *starts)
{
    PyTypeObject *tp = (PyTypeObject *)LineResultType;
    PyObject *r = tp->tp_alloc(tp, 3);
    if (r == NULL) {
        Py_DECREF(b);
        Py_DECREF(w);
        Py_DECREF(starts);
        return NULL;
    }
    PyTuple_SET_ITEM(r, 0, b);
    PyTuple_SET_ITEM(r, 1, w);
    PyTuple_SET_ITEM(r, 2, starts);
    return r;
}

/* Most lines' scratch fits on the stack; a longer one takes it from the heap. */
#define STACK_WORDS 2048
#define STACK_INTS 256
#define WIDE_MAX_N (1 << 20)

/* solve_line on multi-word masks for a line of n cells (0 <= n <= WIDE_MAX_N); clue is a tuple or
 * a list.  NotImplemented (a new reference) when the arguments are outside what it handles. */
static PyObject *wide_solve_line(PyObject *clue, long n, PyObject *const *args, Py_ssize_t nargs, int narrow_ok)
{
    Py_ssize_t k = PySequence_Fast_GET_SIZE(clue);
    if (k > WIDE_MAX_N)
        Py_RETURN_NOTIMPLEMENTED;
    int W = words_for((int)n);
    /* in: black, white; out: fb, fw, starts (k W); w_solve_line: (4 k + 17) W */
    size_t nwords = (size_t)W * (5 * (size_t)k + 21), nints = 3 * (size_t)k;
    word_t stack_words[STACK_WORDS], *words = stack_words;
    int stack_ints[STACK_INTS], *ints = stack_ints;
    PyObject *result = NULL;
    if (nwords > STACK_WORDS)
        words = PyMem_Malloc(sizeof(word_t) * nwords);
    if (nints > STACK_INTS)
        ints = PyMem_Malloc(sizeof(int) * nints);
    if (words == NULL || ints == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    word_t *black = words, *white = black + W, *fb = white + W, *fw = fb + W, *starts = fw + W;
    word_t *work = starts + (size_t)k * W;
    int *cl = ints + 2 * (size_t)k;
    PyObject **items = PySequence_Fast_ITEMS(clue);
    int got = read_lengths(items, k, n, cl);
    if (got < 0)
        goto done;
    if (!got)
        goto notimpl;
    memset(black, 0, sizeof(word_t) * 2 * W);
    for (int a = 0; a < 2; a++) {
        if (nargs <= 2 + a)
            break;
        int ok = words_of_py(args[2 + a], black + a * W, W);
        if (ok < 0)
            goto done;
        if (!ok)
            goto notimpl;
    }
    {
        /* bits beyond the line: the reference says what that means */
        word_t *bits = fb;
        w_low_bits(bits, W, (int)n);
        for (int i = 0; i < W; i++)
            if ((black[i] | white[i]) & ~bits[i])
                goto notimpl;
    }
    if (!w_solve_line(cl, (int)k, (int)n, black, white, W, narrow_ok, fb, fw, starts, ints, work)) {
        Py_INCREF(Py_None);
        result = Py_None;
        goto done;
    }
    {
        PyObject *st = PyTuple_New(k);
        if (st == NULL)
            goto done;
        for (Py_ssize_t j = 0; j < k; j++) {
            PyObject *v = py_of_words(starts + (size_t)j * W, W);
            if (v == NULL) {
                Py_DECREF(st);
                goto done;
            }
            PyTuple_SET_ITEM(st, j, v);
        }
        PyObject *b = py_of_words(fb, W);
        PyObject *w = b ? py_of_words(fw, W) : NULL;
        if (w == NULL) {
            Py_XDECREF(b);
            Py_DECREF(st);
            goto done;
        }
        result = new_line_result(b, w, st);
    }
    goto done;
notimpl:
    if (!PyErr_Occurred()) {
        Py_INCREF(Py_NotImplemented);
        result = Py_NotImplemented;
    }
done:
    if (words != stack_words)
        PyMem_Free(words);
    if (ints != stack_ints)
        PyMem_Free(ints);
    return result;
}

static PyObject *call_kernel_fallback(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (kernel_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "satnono.lines._native is not configured (import satnono.lines.bw)");
        return NULL;
    }
    return PyObject_Vectorcall(kernel_fallback, args, nargs, kwnames);
}

static PyObject *make_line_result(const facts_t *f, int k)
{
    PyObject *starts = PyTuple_New(k);
    if (starts == NULL)
        return NULL;
    for (int j = 0; j < k; j++) {
        PyObject *v = mask_to_py(f->starts[j]);
        if (v == NULL) {
            Py_DECREF(starts);
            return NULL;
        }
        PyTuple_SET_ITEM(starts, j, v);
    }
    PyObject *b = mask_to_py(f->black);
    PyObject *w = b ? mask_to_py(f->white) : NULL;
    if (w == NULL) {
        Py_XDECREF(b);
        Py_DECREF(starts);
        return NULL;
    }
    return new_line_result(b, w, starts);
}

PyDoc_STRVAR(solve_line_doc,
"solve_line(clue, n, black=0, white=0)\n--\n\n"
"satnono.lines.bw.solve_line in C (lines of any length up to WIDE_MAX_N cells; anything\n"
"unusual goes to the Python reference).");

static PyObject *native_solve_line(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (kwnames != NULL || nargs < 2 || nargs > 4 || LineResultType == NULL)
        goto fallback;
    PyObject *clue = args[0];
    if (!PyTuple_Check(clue) && !PyList_Check(clue))
        goto fallback;
    int n;
    int got = small_int(args[1], 0, WIDE_MAX_N, &n);
    if (got < 0)
        return NULL;
    if (!got)
        goto fallback;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(clue);
    if (n > KERNEL_MAX_N || k >= MAX_BLOCKS)
        goto wide;
    int cl[MAX_BLOCKS];
    PyObject **items = PySequence_Fast_ITEMS(clue);
    got = read_lengths(items, k, n, cl);
    if (got < 0)
        return NULL;
    if (!got)
        goto fallback;
    mask_t black = 0, white = 0;
    int ok;
    if (nargs > 2) {
        if ((ok = mask_from_py(args[2], &black)) < 0)
            return NULL;
        if (!ok)
            goto fallback;
    }
    if (nargs > 3) {
        if ((ok = mask_from_py(args[3], &white)) < 0)
            return NULL;
        if (!ok)
            goto fallback;
    }
    if ((black | white) >> n)
        goto fallback; /* bits beyond the line: the reference says what that means */
    facts_t f;
    if (!solve_line_masks(cl, (int)k, (int)n, black, white, &f))
        Py_RETURN_NONE;
    return make_line_result(&f, (int)k);
wide:
    {
        PyObject *r = wide_solve_line(clue, n, args, nargs, 1);
        if (r != Py_NotImplemented)
            return r;
        Py_DECREF(r);
    }
fallback:
    if (PyErr_Occurred())
        return NULL;
    return call_kernel_fallback(args, nargs, kwnames);
}

PyDoc_STRVAR(solve_line_wide_doc,
"solve_line_wide(clue, n, black=0, white=0)\n--\n\n"
"solve_line on multi-word masks whatever the line's length, trimmed middles included (for tests\n"
"and measurements: solve_line uses the fixed-width kernel where it can).");

static PyObject *native_solve_line_wide(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 2 || nargs > 4 || LineResultType == NULL || !(PyTuple_Check(args[0]) || PyList_Check(args[0])))
        goto fallback;
    int n;
    int got = small_int(args[1], 0, WIDE_MAX_N, &n);
    if (got < 0)
        return NULL;
    if (!got)
        goto fallback;
    PyObject *r = wide_solve_line(args[0], n, args, nargs, 0);
    if (r != Py_NotImplemented)
        return r;
    Py_DECREF(r);
fallback:
    return call_kernel_fallback(args, nargs, NULL);
}

PyDoc_STRVAR(configure_doc,
"configure(line_result, fallback)\n--\n\n"
"Give the kernel its result type and the Python reference for the lines it does not handle.");

static PyObject *native_configure(PyObject *self, PyObject *args)
{
    PyObject *rt, *fb;
    if (!PyArg_ParseTuple(args, "OO:configure", &rt, &fb))
        return NULL;
    if (!PyType_Check(rt) || !PyType_IsSubtype((PyTypeObject *)rt, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "line_result must be a tuple subclass");
        return NULL;
    }
    if (((PyTypeObject *)rt)->tp_dictoffset != 0) {
        PyErr_SetString(PyExc_TypeError, "line_result must have __slots__ = ()");
        return NULL;
    }
    Py_INCREF(rt);
    Py_INCREF(fb);
    Py_XSETREF(LineResultType, rt);
    Py_XSETREF(kernel_fallback, fb);
    Py_RETURN_NONE;
}

/* ----------------------------------------------------- the clause builder */

/* A Python int mask as little-endian 64-bit words: its low 64 * nw bits.  1 on success,
 * 0 when it is not a non-negative int (or, when strict, has bits beyond those words),
 * -1 on error. */
static int words_from_py(PyObject *x, uint64_t *out, Py_ssize_t nw, int strict)
{
    if (!PyLong_Check(x))
        return 0;
    memset(out, 0, sizeof(uint64_t) * nw);
    unsigned long long v = PyLong_AsUnsignedLongLong(x);
    if (!(v == (unsigned long long)-1 && PyErr_Occurred())) {
        out[0] = v;
        return 1;
    }
    if (!PyErr_ExceptionMatches(PyExc_OverflowError))
        return -1;
    PyErr_Clear();
    int neg = PyObject_RichCompareBool(x, SIXTY_FOUR, Py_LT); /* it overflowed: < 64 means negative */
    if (neg < 0)
        return -1;
    if (neg)
        return 0;
    Py_INCREF(x);
    PyObject *cur = x; /* x >> (64 * w) */
    for (Py_ssize_t w = 0; w < nw; w++) {
        out[w] = PyLong_AsUnsignedLongLongMask(cur);
        if (out[w] == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(cur);
            return -1;
        }
        if (w + 1 < nw) {
            PyObject *next = PyNumber_Rshift(cur, SIXTY_FOUR);
            Py_DECREF(cur);
            if (next == NULL)
                return -1;
            cur = next;
        }
    }
    if (strict) { /* the last word must be all of what is left */
        v = PyLong_AsUnsignedLongLong(cur);
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(cur);
            if (!PyErr_ExceptionMatches(PyExc_OverflowError))
                return -1;
            PyErr_Clear();
            return 0;
        }
    }
    Py_DECREF(cur);
    return 1;
}

static inline int word_bit(const uint64_t *w, Py_ssize_t i)
{
    return (int)((w[i >> 6] >> (i & 63)) & 1);
}

/* The int objects of the literals -LIT_CACHE_MAX..LIT_CACHE_MAX, made on first use and kept:
 * an encoding's ~25,000 literals (a 25x25 puzzle) are a few thousand distinct values, and an
 * int object each, made then freed with its clause, cost a third of the builder's time. */
#define LIT_CACHE_MAX 16384
static PyObject *lit_cache[2 * LIT_CACHE_MAX + 1];

/* a new reference to the int ``lit``; NULL with an exception set on failure */
static PyObject *lit_object(long long lit)
{
    if (lit < -LIT_CACHE_MAX || lit > LIT_CACHE_MAX)
        return PyLong_FromLongLong(lit);
    PyObject **slot = &lit_cache[lit + LIT_CACHE_MAX];
    if (*slot == NULL && (*slot = PyLong_FromLongLong(lit)) == NULL)
        return NULL;
    Py_INCREF(*slot);
    return *slot;
}

/* Where the clause builder writes: a list of clauses (lists of ints), or with ``flat`` a
 * growing buffer of C ints, each clause's literals followed by 0 (what a SAT solver's
 * literal-by-literal API takes, without a Python object per clause or literal). */
typedef struct {
    PyObject *list;     /* list mode */
    int *buf;           /* flat mode */
    Py_ssize_t len, cap, nclauses;
    int empty;          /* flat mode: an empty clause was written */
} Sink;

/* append a clause of len literals; 0 on error */
static int emit(Sink *out, const long long *lits, int len)
{
    if (out->list == NULL) {
        if (out->len + len + 1 > out->cap) {
            Py_ssize_t cap = out->cap ? out->cap : 4096;
            while (out->len + len + 1 > cap)
                cap *= 2;
            int *bigger = PyMem_Realloc(out->buf, sizeof(int) * (size_t)cap);
            if (bigger == NULL) {
                PyErr_NoMemory();
                return 0;
            }
            out->buf = bigger;
            out->cap = cap;
        }
        for (int i = 0; i < len; i++)
            out->buf[out->len++] = (int)lits[i]; /* (the caller checked every literal fits) */
        out->buf[out->len++] = 0;
        out->nclauses++;
        if (len == 0)
            out->empty = 1;
        return 1;
    }
    PyObject *cl = PyList_New(len);
    if (cl == NULL)
        return 0;
    for (int i = 0; i < len; i++) {
        PyObject *v = lit_object(lits[i]);
        if (v == NULL) {
            Py_DECREF(cl);
            return 0;
        }
        PyList_SET_ITEM(cl, i, v);
    }
    /* a list of ints cannot be part of a reference cycle: the cyclic collector need not
     * track the thousands of clauses of an encoding (it would traverse them all after the
     * encoding, once for each generation they reach) */
    PyObject_GC_UnTrack(cl);
    int r = PyList_Append(out->list, cl);
    Py_DECREF(cl);
    return r == 0;
}

#define EMIT(...)                                               \
    do {                                                        \
        const long long lits_[] = {__VA_ARGS__};                \
        if (!emit(out, lits_, sizeof(lits_) / sizeof(lits_[0]))) \
            goto error;                                         \
    } while (0)

PyDoc_STRVAR(bw_line_clauses_doc,
"bw_line_clauses(first_var, clue, n, starts, black, white, base, stride, flat=False)\n--\n\n"
"satnono.cnf.ladders.bw_line_clauses in C with cell i's variable base + i * stride, or, when\n"
"stride is a tuple or list of n ints (a lane's cells), base + stride[i];\n"
"with flat true, (bytes of C ints: each clause's literals then 0, clause count, next variable,\n"
"whether a clause is empty) instead of (list of clauses, next variable);\n"
"NotImplemented for arguments outside what it handles (the caller uses the reference).");

static PyObject *native_bw_line_clauses(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8 && nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "bw_line_clauses takes 8 or 9 arguments");
        return NULL;
    }
    int flat = nargs == 9 ? PyObject_IsTrue(args[8]) : 0;
    if (flat < 0)
        return NULL;
    PyObject *clue = args[1], *starts_obj = args[3];
    long long first_var, n, base, stride = 0;
    int overflow;
    PyObject *cells_obj = PyTuple_Check(args[7]) || PyList_Check(args[7]) ? args[7] : NULL;
    PyObject *ints[4] = {args[0], args[2], args[6], args[7]};
    long long *dst[4] = {&first_var, &n, &base, &stride};
    for (int i = 0; i < 4 - (cells_obj != NULL); i++) {
        if (!PyLong_Check(ints[i]))
            Py_RETURN_NOTIMPLEMENTED;
        *dst[i] = PyLong_AsLongLongAndOverflow(ints[i], &overflow);
        if (*dst[i] == -1 && PyErr_Occurred())
            return NULL;
        if (overflow || *dst[i] > (1LL << 40) || *dst[i] < -(1LL << 40))
            Py_RETURN_NOTIMPLEMENTED;
    }
    if (n < 0 || n > (1 << 24))
        Py_RETURN_NOTIMPLEMENTED;
    if (!(PyTuple_Check(clue) || PyList_Check(clue)) || !(PyTuple_Check(starts_obj) || PyList_Check(starts_obj)))
        Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(clue);
    if (PySequence_Fast_GET_SIZE(starts_obj) != k || (cells_obj != NULL && PySequence_Fast_GET_SIZE(cells_obj) != n))
        Py_RETURN_NOTIMPLEMENTED;

    PyObject *result = NULL;
    Sink sink = {0}, *out = &sink;
    long long *los = NULL, *his = NULL, *bases = NULL, *cs = NULL;
    uint64_t *sw = NULL, *bw = NULL, *ww = NULL;
    int *cover = NULL;
    signed char *nxl = NULL;
    long long *cv = NULL; /* cv[i]: cell i's variable */
    Py_ssize_t nw = (Py_ssize_t)((n + 63) / 64);
    if (nw == 0)
        nw = 1;
    los = PyMem_Malloc(sizeof(long long) * (4 * k + 1));
    sw = PyMem_Malloc(sizeof(uint64_t) * nw * (k + 1));
    cv = PyMem_Malloc(sizeof(long long) * ((size_t)n + 1));
    if (los == NULL || sw == NULL || cv == NULL) {
        PyErr_NoMemory();
        goto error;
    }
    long long cell_lo = base, cell_hi = base; /* the least and the greatest cell variable */
    if (cells_obj == NULL) {
        for (long long i = 0; i < n; i++)
            cv[i] = base + i * stride;
        if (n)
            cell_hi = cv[n - 1];
    } else {
        PyObject **items = PySequence_Fast_ITEMS(cells_obj);
        for (long long i = 0; i < n; i++) {
            if (!PyLong_Check(items[i]))
                goto notimpl;
            long long c = PyLong_AsLongLongAndOverflow(items[i], &overflow);
            if (c == -1 && PyErr_Occurred())
                goto error;
            if (overflow || c < 0 || c > (1LL << 40))
                goto notimpl;
            cv[i] = base + c;
            if (cv[i] < cell_lo || i == 0)
                cell_lo = cv[i];
            if (cv[i] > cell_hi || i == 0)
                cell_hi = cv[i];
        }
    }
    his = los + k;
    bases = his + k;
    cs = bases + k;
    PyObject **citems = PySequence_Fast_ITEMS(clue), **sitems = PySequence_Fast_ITEMS(starts_obj);
    /* ladders(): lowest and highest valid start of each block, the base of its ladder */
    long long nv = first_var, extent = n; /* extent: cells the white side may reach */
    for (Py_ssize_t j = 0; j < k; j++) {
        if (!PyLong_Check(citems[j]))
            goto notimpl;
        long long c = PyLong_AsLongLongAndOverflow(citems[j], &overflow);
        if (c == -1 && PyErr_Occurred())
            goto error;
        if (overflow || c < 0 || c > (1 << 24))
            goto notimpl;
        cs[j] = c;
        uint64_t *w = sw + nw * j;
        int ok = words_from_py(sitems[j], w, nw, 1);
        if (ok < 0)
            goto error;
        if (!ok)
            goto notimpl; /* not a mask, or a start beyond the line */
        Py_ssize_t lo = -1, hi = -1;
        for (Py_ssize_t i = 0; i < nw; i++)
            if (w[i]) {
                lo = 64 * i + ctz64(w[i]);
                break;
            }
        for (Py_ssize_t i = nw - 1; i >= 0; i--)
            if (w[i]) {
                hi = 64 * i + bitlen64(w[i]) - 1;
                break;
            }
        if (lo < 0)
            goto notimpl; /* no valid start: the reference's arithmetic on -1 is not worth copying */
        los[j] = lo;
        his[j] = hi;
        bases[j] = nv - lo;
        nv += hi - lo;
        if (hi + c > extent)
            extent = hi + c;
    }
    if (cells_obj != NULL && extent > n)
        goto notimpl; /* a block past the lane's end has no cell variable (the reference raises) */
    Py_ssize_t nwc = (Py_ssize_t)((extent + 63) / 64) + 1;
    bw = PyMem_Malloc(sizeof(uint64_t) * nwc * 2);
    cover = PyMem_Calloc((size_t)extent + 1, sizeof(int));
    nxl = PyMem_Malloc((size_t)n + 1);
    if (bw == NULL || cover == NULL || nxl == NULL) {
        PyErr_NoMemory();
        goto error;
    }
    ww = bw + nwc;
    {
        int ok = words_from_py(args[4], bw, nwc, 0);
        if (ok < 0)
            goto error;
        if (!ok)
            goto notimpl;
        ok = words_from_py(args[5], ww, nwc, 0);
        if (ok < 0)
            goto error;
        if (!ok)
            goto notimpl;
    }
    if (flat) {
        /* every literal must be a non-zero C int: the cells' variables and the ladders' (from
         * first_var, below nv) */
        if (first_var < 1 || nv > INT_MAX || cell_lo < 1 || cell_lo > INT_MAX || cell_hi < 1 || cell_hi > INT_MAX)
            goto notimpl;
    } else {
        sink.list = PyList_New(0);
        if (sink.list == NULL)
            goto error;
    }
    for (Py_ssize_t j = 0; j < k; j++) {
        long long c = cs[j], lo = los[j], hi = his[j], b = bases[j];
        const uint64_t *v = sw + nw * j;
        /* order_clauses(out, j, c + 1, ...) */
        for (long long p = lo; p < hi - 1; p++)
            EMIT(-(b + p), b + p + 1);
        for (long long p = lo + 1; p < hi; p++)
            if (!word_bit(v, p))
                EMIT(-(b + p), b + p - 1);
        if (j + 1 < k) {
            long long lo1 = los[j + 1], hi1 = his[j + 1], b1 = bases[j + 1], gap = c + 1;
            long long end = hi1 < hi + gap ? hi1 : hi + gap;
            for (long long p = lo1; p < end; p++) {
                long long q = p - gap;
                if (q >= lo)
                    EMIT(-(b1 + p), b + q);
                else
                    EMIT(-(b1 + p));
            }
        }
        /* white side: block j covering an unknown cell i makes it black */
        memset(cover, 0, sizeof(int) * ((size_t)extent + 1));
        for (long long p = lo; p <= hi; p++)
            if (word_bit(v, p)) {
                cover[p]++;
                cover[p + c]--;
            }
        int run = 0;
        for (long long i = 0; i < extent; i++) {
            run += cover[i];
            if (!run || word_bit(bw, i) || word_bit(ww, i))
                continue;
            long long lits[3];
            int len = 0;
            lits[len++] = i < n ? cv[i] : base + i * stride;
            if (i < hi)
                lits[len++] = -(b + i);
            if (i - c >= lo)
                lits[len++] = b + i - c;
            if (!emit(out, lits, len))
                goto error;
        }
    }
    /* black side; nxl[i]: -1 a known white cell (no clause), 0 a known black cell (no literal),
     * 1 an unknown cell (the literal -x_i) */
    for (long long i = 0; i < n; i++)
        nxl[i] = word_bit(ww, i) ? -1 : word_bit(bw, i) ? 0 : 1;
    if (k == 0) {
        for (long long i = 0; i < n; i++) {
            if (nxl[i] < 0)
                continue;
            long long lit = -cv[i];
            if (!emit(out, &lit, nxl[i]))
                goto error;
        }
        goto done;
    }
    {
        long long lo0 = los[0], b0 = bases[0], end0 = his[0] < n ? his[0] : n;
        for (long long i = 0; i < end0; i++) {
            if (nxl[i] < 0)
                continue;
            long long lits[2];
            int len = 0;
            if (nxl[i])
                lits[len++] = -cv[i];
            if (i >= lo0)
                lits[len++] = b0 + i;
            if (!emit(out, lits, len))
                goto error;
        }
    }
    for (Py_ssize_t j = 0; j < k; j++) {
        long long c = cs[j], lo = los[j], hi = his[j], b = bases[j], lo1, end, b1;
        if (j + 1 < k) {
            lo1 = los[j + 1];
            end = his[j + 1];
            b1 = bases[j + 1];
        } else {
            lo1 = end = n;
            b1 = 0;
        }
        if (end > n)
            end = n;
        long long hic = hi + c;
        for (long long i = lo + c; i < end; i++) {
            if (nxl[i] < 0)
                continue;
            long long lits[4];
            int len = 0;
            if (nxl[i])
                lits[len++] = -cv[i];
            if (i < hi)
                lits[len++] = -(b + i);
            if (i >= lo1)
                lits[len++] = b1 + i;
            if (i < hic)
                lits[len++] = c - b - i;
            if (!emit(out, lits, len))
                goto error;
        }
    }
done:
    if (flat) {
        PyObject *data = PyBytes_FromStringAndSize((const char *)sink.buf, (Py_ssize_t)sizeof(int) * sink.len);
        if (data == NULL)
            goto error;
        result = Py_BuildValue("(NnLO)", data, sink.nclauses, nv, sink.empty ? Py_True : Py_False);
    } else {
        PyObject *nvo = PyLong_FromLongLong(nv);
        if (nvo == NULL)
            goto error;
        result = PyTuple_Pack(2, sink.list, nvo);
        Py_DECREF(nvo);
    }
    goto cleanup;
notimpl:
    Py_INCREF(Py_NotImplemented);
    result = Py_NotImplemented;
    goto cleanup;
error:
    result = NULL;
cleanup:
    Py_XDECREF(sink.list);
    PyMem_Free(sink.buf);
    PyMem_Free(los);
    PyMem_Free(sw);
    PyMem_Free(bw);
    PyMem_Free(cover);
    PyMem_Free(nxl);
    PyMem_Free(cv);
    return result;
}

/* ----------------------------------------------------------------- feeding a SAT solver */

typedef void (*add_literal)(void *solver, int literal);

/* The two addresses a feeder is given, ``add`` and ``solver`` (args[0], args[1]) of a call of 3
 * arguments; 0 with an exception set when they are not there or null. */
static int feed_target(const char *name, PyObject *const *args, Py_ssize_t nargs, add_literal *add, void **solver)
{
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "%s takes 3 arguments", name);
        return 0;
    }
    *add = (add_literal)PyLong_AsVoidPtr(args[0]);
    if (*add == NULL && PyErr_Occurred())
        return 0;
    *solver = PyLong_AsVoidPtr(args[1]);
    if (*solver == NULL && PyErr_Occurred())
        return 0;
    if (*add == NULL || *solver == NULL) {
        PyErr_Format(PyExc_ValueError, "%s: a null address", name);
        return 0;
    }
    return 1;
}

PyDoc_STRVAR(feed_clauses_doc,
"feed_clauses(add, solver, clauses)\n--\n\n"
"Hand ``clauses`` (a list of iterables of non-zero ints) to a SAT solver through its C\n"
"entry point ``add(solver, literal)`` (both given as addresses): each clause literal by literal,\n"
"then 0, in order.  python-sat's binding takes one clause per Python call, which costs as much\n"
"again as the solver's own work.  Each clause is checked whole before any of its literals is\n"
"handed over: on a bad one (TypeError: not iterable, or a literal not an int; ValueError: zero or\n"
"beyond a C int) the clauses before it are added and nothing of it.  Returns the count added.");

static PyObject *native_feed_clauses(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    add_literal add;
    void *solver;
    if (!feed_target("feed_clauses", args, nargs, &add, &solver))
        return NULL;
    PyObject *clauses = args[2];
    if (!PyList_Check(clauses)) {
        PyErr_SetString(PyExc_TypeError, "feed_clauses: the clauses must be a list");
        return NULL;
    }
    int small[256], *lits = small;
    Py_ssize_t cap = 256, done = 0;
    PyObject *seq = NULL;
    for (; done < PyList_GET_SIZE(clauses); done++) {
        /* a list or tuple as it is; any other iterable is read into a list first (which may
         * run Python code: the clause is held meanwhile, the list's size read again each time;
         * what that code raises, a KeyboardInterrupt say, is left as it is) */
        PyObject *cl = PyList_GET_ITEM(clauses, done);
        Py_INCREF(cl);
        seq = PySequence_Fast(cl, "a clause is not iterable");
        Py_DECREF(cl);
        if (seq == NULL) {
            if (PyErr_ExceptionMatches(PyExc_TypeError))
                PyErr_Format(PyExc_TypeError, "clause %zd is not iterable", done);
            goto error;
        }
        Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
        PyObject **items = PySequence_Fast_ITEMS(seq);
        if (len > cap) {
            int *bigger = PyMem_Malloc(sizeof(int) * (size_t)len);
            if (bigger == NULL) {
                PyErr_NoMemory();
                goto error;
            }
            if (lits != small)
                PyMem_Free(lits);
            lits = bigger;
            cap = len;
        }
        /* ints only, read without __index__: no Python code runs from here to the next clause */
        for (Py_ssize_t i = 0; i < len; i++) {
            if (!PyLong_Check(items[i])) {
                PyErr_Format(PyExc_TypeError, "clause %zd: a literal is not an int", done);
                goto error;
            }
            int overflow;
            long long v = PyLong_AsLongLongAndOverflow(items[i], &overflow);
            if (overflow || v == 0 || v > INT_MAX || v < -INT_MAX) {
                PyErr_Format(PyExc_ValueError, "clause %zd: literal %R is zero or beyond a C int", done, items[i]);
                goto error;
            }
            lits[i] = (int)v;
        }
        for (Py_ssize_t i = 0; i < len; i++)
            add(solver, lits[i]);
        add(solver, 0);
        Py_CLEAR(seq);
    }
    if (lits != small)
        PyMem_Free(lits);
    return PyLong_FromSsize_t(done);
error:
    Py_XDECREF(seq);
    if (lits != small)
        PyMem_Free(lits);
    return NULL;
}

PyDoc_STRVAR(feed_flat_doc,
"feed_flat(add, solver, data)\n--\n\n"
"Hand the clauses in ``data`` (a bytes-like object of C ints: each clause's literals, then 0;\n"
"bw_line_clauses(..., flat=True) writes them) to a SAT solver through its C entry point\n"
"``add(solver, literal)``, every int in order.  ValueError, with nothing handed over, when\n"
"``data`` is not whole ints or does not end a clause.  Returns the count of clauses.");

static PyObject *native_feed_flat(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    add_literal add;
    void *solver;
    if (!feed_target("feed_flat", args, nargs, &add, &solver))
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[2], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    Py_ssize_t n = view.len / (Py_ssize_t)sizeof(int), count = 0;
    const int *lits = (const int *)view.buf;
    if (view.len % (Py_ssize_t)sizeof(int) || (n && lits[n - 1] != 0)) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "feed_flat: the data is not whole clauses of C ints");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        add(solver, lits[i]);
        count += lits[i] == 0;
    }
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(count);
}

/* ------------------------------------------------------ the line fixpoint
 *
 * satnono.logic.propagate._lines_fixpoint for black and white: the same sweeps in the same order
 * (every dirty row, each one's new cells pushed to the columns, then every dirty column, pushed
 * to the rows, until no line is dirty), each line solved as native_solve_line solves it (the
 * fixed-width kernel when the line and its clue fit it, w_solve_line otherwise), so the masks,
 * the dirty flags, the number of line solves and the line a contradiction is found in are the
 * reference's.  Each line's two masks are held as W = words_for(n) words. */

#define FIX_MAX_SIDE 4096

typedef struct {
    Py_ssize_t count;            /* lines */
    int n, W;                    /* cells a line, words a mask */
    int *lengths;                /* the clues, one after another */
    Py_ssize_t *offset;          /* line i's clue: lengths[offset[i] .. offset[i + 1]) */
    word_t *black, *white;       /* count * W words each: now */
    word_t *black0, *white0;     /* ... and as read */
    char *dirty;
    int kmax;                    /* the most blocks of a line */
} fix_axis;

static void fix_axis_free(fix_axis *a)
{
    PyMem_Free(a->lengths);
    PyMem_Free(a->offset);
    PyMem_Free(a->black);
    PyMem_Free(a->dirty);
}

static int fix_read_flags(PyObject *list, Py_ssize_t count, char *out)
{
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != count)
        return 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        int t = PyObject_IsTrue(PyList_GET_ITEM(list, i));
        if (t < 0)
            return -1;
        out[i] = (char)t;
    }
    return 1;
}

static int fix_write_flags(PyObject *list, Py_ssize_t count, const char *flags)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *v = flags[i] ? Py_True : Py_False;
        if (PyList_GET_ITEM(list, i) != v) {
            Py_INCREF(v);
            PyList_SetItem(list, i, v);
        }
    }
    return 1;
}

/* Read one axis: its clues (a tuple or list of tuples or lists of block lengths), its two lists of
 * masks and its dirty flags.  1 on success, 0 when something is not what the kernel handles
 * (NotImplemented), -1 on error. */
static int fix_axis_read(fix_axis *a, PyObject *clues, int n, PyObject *black, PyObject *white, PyObject *dirty)
{
    Py_ssize_t count = a->count;
    PyObject **lines = PySequence_Fast_ITEMS(clues);
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *c = lines[i];
        if (!PyTuple_Check(c) && !PyList_Check(c))
            return 0;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(c);
        if (k > n)
            return 0;
        total += k;
        if (k > a->kmax)
            a->kmax = (int)k;
    }
    a->n = n;
    a->W = words_for(n);
    size_t words = (size_t)count * (size_t)a->W;
    a->lengths = PyMem_Malloc(sizeof(int) * (size_t)(total + 1));
    a->offset = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(count + 1));
    a->black = PyMem_Calloc(4 * words + 1, sizeof(word_t));
    a->dirty = PyMem_Malloc((size_t)count + 1);
    if (a->lengths == NULL || a->offset == NULL || a->black == NULL || a->dirty == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    a->white = a->black + words;
    a->black0 = a->white + words;
    a->white0 = a->black0 + words;
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *c = lines[i];
        Py_ssize_t k = PySequence_Fast_GET_SIZE(c);
        a->offset[i] = at;
        int r = read_lengths(PySequence_Fast_ITEMS(c), k, n, a->lengths + at);
        if (r <= 0)
            return r;
        at += k;
    }
    a->offset[count] = at;
    PyObject *lists[2] = {black, white};
    word_t *into[2] = {a->black, a->white};
    word_t low[FIX_MAX_SIDE / 64 + 2];
    w_low_bits(low, a->W, n);
    for (int v = 0; v < 2; v++) {
        if (!PyList_Check(lists[v]) || PyList_GET_SIZE(lists[v]) != count)
            return 0;
        for (Py_ssize_t i = 0; i < count; i++) {
            word_t *d = into[v] + (size_t)i * a->W;
            int r = words_of_py(PyList_GET_ITEM(lists[v], i), d, a->W);
            if (r <= 0)
                return r;
            for (int j = 0; j < a->W; j++)
                if (d[j] & ~low[j])
                    return 0; /* bits beyond the line: the reference says what that means */
        }
    }
    memcpy(a->black0, a->black, sizeof(word_t) * 2 * words);
    return fix_read_flags(dirty, count, a->dirty);
}

/* Write back the masks that changed and the flags; 0 on error. */
static int fix_axis_write(fix_axis *a, PyObject *black, PyObject *white, PyObject *dirty)
{
    PyObject *lists[2] = {black, white};
    word_t *now[2] = {a->black, a->white}, *was[2] = {a->black0, a->white0};
    for (int v = 0; v < 2; v++)
        for (Py_ssize_t i = 0; i < a->count; i++) {
            word_t *x = now[v] + (size_t)i * a->W;
            if (!memcmp(x, was[v] + (size_t)i * a->W, sizeof(word_t) * a->W))
                continue;
            PyObject *o = py_of_words(x, a->W);
            if (o == NULL)
                return 0;
            PyList_SetItem(lists[v], i, o); /* (steals o) */
        }
    return fix_write_flags(dirty, a->count, a->dirty);
}

/* One line as native_solve_line solves it: 1 with fb and fw (W words), 0 when it has no placement. */
static int fix_line(const int *clue, int k, int n, const word_t *black, const word_t *white, int W,
                    word_t *fb, word_t *fw, word_t *starts, int *ints, word_t *work)
{
    if (n <= KERNEL_MAX_N && k < MAX_BLOCKS) {
        mask_t b = black[0], w = white[0];
#if MASK_BITS == 128
        if (W > 1) {
            b |= (mask_t)black[1] << 64;
            w |= (mask_t)white[1] << 64;
        }
#endif
        facts_t f;
        if (!solve_line_masks(clue, k, n, b, w, &f))
            return 0;
        memset(fb, 0, sizeof(word_t) * W);
        memset(fw, 0, sizeof(word_t) * W);
        fb[0] = (word_t)f.black;
        fw[0] = (word_t)f.white;
#if MASK_BITS == 128
        if (W > 1) {
            fb[1] = (word_t)(f.black >> 64);
            fw[1] = (word_t)(f.white >> 64);
        }
#endif
        return 1;
    }
    return w_solve_line(clue, k, n, black, white, W, 1, fb, fw, starts, ints, work);
}

/* One sweep of axis a: solve every dirty line, scatter its new cells into the crossing axis x's
 * masks and mark those lines dirty.  Returns the index of the first line without a placement
 * (the sweep stops there, as the reference's does, its earlier lines' cells pushed), else -1. */
static Py_ssize_t fix_sweep(fix_axis *a, fix_axis *x, word_t *fb, word_t *fw, word_t *starts, int *ints,
                            word_t *work, long *calls)
{
    int W = a->W, XW = x->W;
    for (Py_ssize_t i = 0; i < a->count; i++) {
        if (!a->dirty[i])
            continue;
        a->dirty[i] = 0;
        ++*calls;
        word_t *b = a->black + (size_t)i * W, *w = a->white + (size_t)i * W;
        int k = (int)(a->offset[i + 1] - a->offset[i]);
        if (!fix_line(a->lengths + a->offset[i], k, a->n, b, w, W, fb, fw, starts, ints, work))
            return i;
        word_t one = (word_t)1 << (i & 63);
        size_t at = (size_t)(i >> 6);
        for (int colour = 0; colour < 2; colour++) {
            word_t *mine = colour ? w : b, *after = colour ? fw : fb, *cross = colour ? x->white : x->black;
            for (int j = 0; j < W; j++) {
                if (after[j] == mine[j])
                    continue;
                word_t fresh = after[j] & ~mine[j];
                mine[j] = after[j];
                while (fresh) {
                    Py_ssize_t c = (Py_ssize_t)j * 64 + ctz64(fresh);
                    fresh &= fresh - 1;
                    if (c < x->count) {
                        cross[(size_t)c * XW + at] |= one;
                        x->dirty[c] = 1;
                    }
                }
            }
        }
    }
    return -1;
}

static int fix_any_dirty(const fix_axis *a)
{
    for (Py_ssize_t i = 0; i < a->count; i++)
        if (a->dirty[i])
            return 1;
    return 0;
}

/* Whether clock() has passed deadline: 3 (bw_fixpoint's "past the deadline"), 0 not yet, -1 on
   an error (raised). */
static int fix_past(PyObject *clock, double deadline)
{
    PyObject *now = PyObject_CallNoArgs(clock);
    if (now == NULL)
        return -1;
    double t = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (t == -1.0 && PyErr_Occurred())
        return -1;
    return t > deadline ? 3 : 0;
}

PyDoc_STRVAR(bw_fixpoint_doc,
"bw_fixpoint(row_clues, column_clues, row_black, row_white, column_black, column_white,\n"
"            dirty_rows, dirty_columns, deadline, clock)\n--\n\n"
"satnono.logic.propagate._lines_fixpoint for a black-and-white grid (sides up to FIXPOINT_MAX_SIDE):\n"
"the clues as tuples of block lengths, the four lists of masks and the two lists of dirty flags\n"
"(updated in place), a deadline on clock() (None: none).  Returns (line solves, what, index):\n"
"what 0 at the fixpoint, 1 or 2 when row or column `index` has no placement, 3 when clock()\n"
"passed the deadline at the start of a round or between its sweeps; NotImplemented (nothing\n"
"changed) for what it\n"
"does not handle.");

static PyObject *native_bw_fixpoint(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "bw_fixpoint takes 10 arguments");
        return NULL;
    }
    PyObject *rc = args[0], *cc = args[1];
    if ((!PyTuple_Check(rc) && !PyList_Check(rc)) || (!PyTuple_Check(cc) && !PyList_Check(cc)))
        Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t h = PySequence_Fast_GET_SIZE(rc), w = PySequence_Fast_GET_SIZE(cc);
    if (h < 1 || w < 1 || h > FIX_MAX_SIDE || w > FIX_MAX_SIDE)
        Py_RETURN_NOTIMPLEMENTED;
    double deadline = 0.0;
    int timed = args[8] != Py_None;
    if (timed) {
        deadline = PyFloat_AsDouble(args[8]);
        if (deadline == -1.0 && PyErr_Occurred())
            return NULL;
    }
    fix_axis rows = {0}, cols = {0};
    rows.count = h;
    cols.count = w;
    word_t *scratch = NULL;
    int *ints = NULL;
    PyObject *result = NULL;
    int ok;
    /* everything is read and checked before anything is written: NotImplemented changes nothing */
    if ((ok = fix_axis_read(&rows, rc, (int)w, args[2], args[3], args[6])) <= 0
        || (ok = fix_axis_read(&cols, cc, (int)h, args[4], args[5], args[7])) <= 0) {
        if (ok == 0 && !PyErr_Occurred()) {
            Py_INCREF(Py_NotImplemented);
            result = Py_NotImplemented;
        }
        goto done;
    }
    int kmax = rows.kmax > cols.kmax ? rows.kmax : cols.kmax;
    int Wmax = rows.W > cols.W ? rows.W : cols.W;
    /* fb, fw, starts (kmax W), w_solve_line's work ((4 kmax + 17) W); its ints: 2 kmax */
    scratch = PyMem_Malloc(sizeof(word_t) * (size_t)Wmax * (5 * (size_t)kmax + 19));
    ints = PyMem_Malloc(sizeof(int) * (2 * (size_t)kmax + 1));
    if (scratch == NULL || ints == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    word_t *fb = scratch, *fw = fb + Wmax, *starts = fw + Wmax, *work = starts + (size_t)kmax * Wmax;
    long calls = 0;
    int what = 0, failed = 0;
    Py_ssize_t where = -1;
    for (;;) {
        /* the deadline at the start of every round and between its two sweeps, as the reference
           checks it */
        if (timed && (what = fix_past(args[9], deadline)) != 0) {
            failed = what < 0;
            what = what < 0 ? 0 : what;
            break;
        }
        if (PyErr_CheckSignals() < 0) {
            failed = 1;
            break;
        }
        if ((where = fix_sweep(&rows, &cols, fb, fw, starts, ints, work, &calls)) >= 0) {
            what = 1;
            break;
        }
        if (timed && (what = fix_past(args[9], deadline)) != 0) {
            failed = what < 0;
            what = what < 0 ? 0 : what;
            break;
        }
        if ((where = fix_sweep(&cols, &rows, fb, fw, starts, ints, work, &calls)) >= 0) {
            what = 2;
            break;
        }
        if (!fix_any_dirty(&rows) && !fix_any_dirty(&cols))
            break;
    }
    /* what was done stays done, an error or not (the reference's state would have it too) */
    if (!fix_axis_write(&rows, args[2], args[3], args[6]) || !fix_axis_write(&cols, args[4], args[5], args[7]))
        failed = 1;
    if (!failed)
        result = Py_BuildValue("(lin)", calls, what, where < 0 ? (Py_ssize_t)0 : where);
done:
    fix_axis_free(&rows);
    fix_axis_free(&cols);
    PyMem_Free(scratch);
    PyMem_Free(ints);
    return result;
}

/* ----------------------------------------------------------------- module */

static PyMethodDef native_methods[] = {
    {"solve_line", (PyCFunction)(void (*)(void))native_solve_line, METH_FASTCALL | METH_KEYWORDS, solve_line_doc},
    {"solve_line_wide", (PyCFunction)(void (*)(void))native_solve_line_wide, METH_FASTCALL, solve_line_wide_doc},
    {"bw_line_clauses", (PyCFunction)(void (*)(void))native_bw_line_clauses, METH_FASTCALL, bw_line_clauses_doc},
    {"feed_clauses", (PyCFunction)(void (*)(void))native_feed_clauses, METH_FASTCALL, feed_clauses_doc},
    {"feed_flat", (PyCFunction)(void (*)(void))native_feed_flat, METH_FASTCALL, feed_flat_doc},
    {"bw_fixpoint", (PyCFunction)(void (*)(void))native_bw_fixpoint, METH_FASTCALL, bw_fixpoint_doc},
    {"configure", native_configure, METH_VARARGS, configure_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "satnono.lines._native",
    "The compiled core: the black-and-white line kernel, clause builder and line fixpoint (see satnono/lines/_native.c).",
    -1, native_methods,
};

PyMODINIT_FUNC PyInit__native(void)
{
    SIXTY_FOUR = PyLong_FromLong(64);
    if (SIXTY_FOUR == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&native_module);
    if (m == NULL)
        return NULL;
#ifndef SATNONO_NATIVE_SHA256
#define SATNONO_NATIVE_SHA256 ""
#endif
    if (PyModule_AddIntConstant(m, "KERNEL_MAX_N", KERNEL_MAX_N) < 0
        || PyModule_AddIntConstant(m, "WIDE_MAX_N", WIDE_MAX_N) < 0
        || PyModule_AddIntConstant(m, "FIXPOINT_MAX_SIDE", FIX_MAX_SIDE) < 0
        || PyModule_AddStringConstant(m, "SOURCE_SHA256", SATNONO_NATIVE_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
