/* The fast EMC array's run of a block of clocks, pp5_emc_run: each clock's
 * word decoded into the open segment (emc_seg.h) by a template copy, or
 * stepped clock by clock (emc_alu.c) where a segment cannot take it. */
#include "pp5/accel/emc_seg.h"

/* What the decode changes on most clocks — the segment's op count, clocks,
 * the plane the last clock read and whether it wrote, its Carry loads —
 * kept by pp5_emc_run in locals (registers: no store and reload from one
 * clock to the next) and put back into the seg (seg_dec_put) before anything
 * else reads them: seg_flush, the clock-by-clock path, the end of the block. */
typedef struct seg_dec {
    seg_op *op;             /* g->op (the op's byte stores could alias it: not reloaded) */
    int n, clocks, prev_plane, nldc;
    bool prev_write;
} seg_dec;

static inline void seg_dec_put(seg *g, const seg_dec *d)
{
    g->n = d->n;
    g->clocks = d->clocks;
    g->prev_plane = d->prev_plane;
    g->prev_write = d->prev_write;
    g->nldc = d->nldc;
}

static inline void seg_dec_get(const seg *g, seg_dec *d)
{
    d->op = g->op;
    d->n = g->n;
    d->clocks = g->clocks;
    d->prev_plane = g->prev_plane;
    d->prev_write = g->prev_write;
    d->nldc = g->nldc;
}

/* A clock that only reads (S follows it) joins the segment. */
static inline void seg_sense(seg_dec *d, int addr)
{
    d->prev_plane = addr < PP5_EMC_MEM_BITS ? addr : PL_ZERO;
    d->prev_write = false;
    d->clocks++;
}

/* The template key of pins p (TMPL_KEYS): the control bytes acmp .. mwrt
 * are consecutive (pp5.h: the struct has no padding), one compare of 16
 * bytes with 0 gives them as bits. */
_Static_assert(offsetof(pp5_pins, mwrt) == offsetof(pp5_pins, acmp) + 10 &&
                   offsetof(pp5_pins, agts_s) == offsetof(pp5_pins, acmp) + 1 &&
                   offsetof(pp5_pins, cgts_c) == offsetof(pp5_pins, acmp) + 7 &&
                   offsetof(pp5_pins, acmp) + 16 <= sizeof(pp5_pins),
               "pp5_pins: control bytes acmp .. mwrt consecutive");
_Static_assert(offsetof(pp5_pins, dat) + 8 <= sizeof(pp5_pins), "pp5_pins: dat[0..5] read as 8 bytes");
enum { KB_ACMP, KB_AGTS_S, KB_AGTS_T, KB_BCMP, KB_BGTS_E, KB_BGTS_M, KB_CCMP, KB_CGTS_C, KB_LDC, KB_LDE, KB_MWRT,
       KB_VALID };
static inline unsigned pins_key(const pp5_pins *p, bool valid)
{
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)&p->acmp);
    unsigned m = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) & 0x7ffu;
#else
    const uint8_t *b = &p->acmp;
    unsigned m = 0;
    for (int i = 0; i < 11; i++) m |= (unsigned)(b[i] != 0) << i;
#endif
    return m | (unsigned)valid << KB_VALID;
}

/* The template of key (made once per array): the op's fields that depend
 * only on the control pins and the address's validity. */
static __attribute__((noinline)) const seg_op *seg_tmpl_make(const pp5_emc *e, seg *g, unsigned key)
{
    _Static_assert(offsetof(seg, tmpl) + sizeof(((seg *)0)->tmpl) <= 65535, "tmap holds an offset in 16 bits");
    /* (more than TMPL_MAX keys: the spare slot, remade each time) */
    seg_op *o = &g->tmpl[g->ntmpl < TMPL_MAX ? g->ntmpl : TMPL_MAX];
    memset(o, 0, sizeof *o);
    pp5_pins q;
    memset(&q, 0, sizeof q);
    uint8_t *b = &q.acmp;
    for (int i = 0; i < 11; i++) b[i] = (uint8_t)(key >> i & 1);
    const pp5_pins *p = &q;
    bool valid = key >> KB_VALID & 1, write = p->mwrt && valid;
    bool fill = !write && !p->lde && !p->agts_s && !p->agts_t && !p->bgts_e && !p->bgts_m && !p->cgts_c;
    int idx = (1 ^ (p->acmp & 1)) << 2 | (1 ^ (p->bcmp & 1)) << 1 | (1 ^ (p->ccmp & 1));
    /* (an unselected source is all ones: A-8's wired AND) */
    o->opm = (uint8_t)(!p->agts_s << OPM_SS | !p->agts_t << OPM_TS | !p->bgts_e << OPM_ES | !p->bgts_m << OPM_MS |
                       !p->cgts_c << OPM_CS | !!p->acmp << OPM_ACM | !!p->bcmp << OPM_BCM | !!p->ccmp << OPM_CCM);
    o->write = write;
    o->ldc = p->ldc;
    o->lde = p->lde;
    o->need_t = p->agts_t;
    o->need_s = p->agts_s;
    o->reads_c = p->cgts_c;
    /* no operand depends on the pixel: Carry becomes a constant (as alu's fill) */
    o->fill = fill;
    o->fill_v = (uint8_t)(e->o.carry_table >> idx & 1);
    /* operand buses of the library's words: b=0 is BCmp with no source,
     * c=0 CCmp with no source, b=~m M with BCmp, c=cy Carry without CCmp */
    bool b0 = !p->bgts_e && !p->bgts_m && p->bcmp, c0 = !p->cgts_c && p->ccmp;
    bool at = p->agts_t && !p->agts_s && !p->acmp, as = p->agts_s && !p->agts_t && !p->acmp;
    o->shape = SH_GENERIC;
    if (p->lde) { /* (Enable loads: the generic kernel) */
    } else if (write && !p->ldc && b0 && c0 && at) o->shape = SH_WRITE_T;
    else if (write && !p->ldc && b0 && c0 && as) o->shape = SH_WRITE_S;
    else if (!write && p->ldc && at && !p->bgts_e && p->bgts_m && p->bcmp && p->cgts_c && !p->ccmp)
        o->shape = SH_CARRY_T_NM;
    /* an Enable load that only darkens (E ← E ∧ f) joins: a chip whose E
     * becomes all 0 there stops (seg_chip), dark chips stay dark */
    o->kind = !p->lde || (!p->agts_t && pp5_emcf_enable_stays_0_calc(e, p)) ? (write || p->ldc || p->lde ? OPK_JOIN : OPK_SENSE)
                                                              : OPK_STEP;
    if (g->ntmpl < TMPL_MAX) g->tmap[key] = (uint16_t)((const char *)&g->tmpl[g->ntmpl++] - (const char *)g);
    return o;
}

static inline const seg_op *seg_tmpl(const pp5_emc *e, seg *g, unsigned key)
{
    unsigned off = g->tmap[key];
    return off ? (const seg_op *)(const void *)((const char *)g + off) : seg_tmpl_make(e, g, key);
}

/* seg_add's answer: the word joined the segment; it cannot (its T bit may
 * still change: the caller steps it); the segment is full (SEG_MAX ops: the
 * caller flushes it and adds the word again) */
enum { SEG_ADDED, SEG_STEP, SEG_FULL };

/* R_T for a word that reads T, from pp5_emc_run's QEE locals (what
 * QEE_RT_PUT would store, without the stores and their loads back): the
 * shift count sh, the collecting set into and its bit count m. T is bit
 * *k of e->set[*set] (*set = -1: T = 0); false when that bit is not final
 * yet (the word steps). */
static inline __attribute__((always_inline)) bool qee_rt_now(const pp5_emc *e, const qee_set *into, uint64_t m,
                                                              uint64_t sh, int *set, int *k)
{
    int rs, rk;
    if (sh != e->shifts) { /* (a short step since the last full one: the plan's R_T) */
        rs = e->q_rt;
        rk = (int)(sh - 1 - e->q_rt_base);
    } else {
        rs = e->rt_set;
        rk = e->rt_k;
    }
    *set = -1;
    *k = 0;
    if (rs < 0 || rk >= 128) return true;
    const qee_set *s = &e->set[rs];
    int sm = s == into ? (int)m : s->m;
    /* bit k is final once coefficient bit k has arrived (or no more will) */
    if (!(rk < sm || !s->open || sm >= 128)) return false;
    *set = rs;
    *k = rk;
    return true;
}

/* The word of pins p (ALU controls; its template t of kind OPK_JOIN or
 * OPK_SENSE) joins the segment (g with its decode state d); T is bit k of
 * coefficient set set_ring (-1: T = 0, or the word does not read T:
 * qee_rt_now). lde: the word may load Enable (a constant where it is
 * inlined: the common words' copy has no Enable code). */
static inline __attribute__((always_inline)) int seg_add(pp5_emc *e, seg *g, seg_dec *d, int addr, int set_ring,
                                                         int k, const seg_op *t, bool lde)
{
    bool valid = addr < PP5_EMC_MEM_BITS;
    if (t->kind == OPK_SENSE) { /* changes nothing: S follows the read */
        if (!valid) e->warnings++; /* */
        seg_sense(d, addr);
        return SEG_ADDED;
    }
    if (t->fill && d->n && d->clocks && d->op[d->n - 1].fill && !d->prev_write) {
        /* (a fill right after a fill: the second one is all that is seen; the
         * waiting z-test repeats its Carry preset) */
        if (!valid) e->warnings++;
        seg_op *o = &d->op[d->n - 1];
        o->fill_v = t->fill_v;
        d->prev_plane = valid ? addr : PL_ZERO;
        d->clocks++;
        return SEG_ADDED;
    }
    if (d->n == SEG_MAX) return SEG_FULL;
    if (!valid) e->warnings++;
    seg_op *o = &d->op[d->n++];
    memcpy(o, t, SEG_TMPL_BYTES);
    int m_plane = valid ? addr : PL_ZERO, s_plane = d->clocks ? d->prev_plane : PL_ZERO;
    o->m_plane = (int16_t)m_plane;
    if (lde && t->lde) g->has_lde = true;
    o->set_ring = (int8_t)set_ring;
    o->k = (uint8_t)k;
    o->ldc_rank = (int16_t)d->nldc;
    if (t->ldc) {
        if (t->need_t && set_ring >= 0) g->ldc_rings |= 1u << set_ring;
        d->nldc++;
        g->last_ldc = d->n - 1;
        if (t->fill || !t->reads_c) g->last_over = d->n - 1;
    }
    o->s_plane = (int16_t)s_plane;
    if (!d->clocks) {
        o->s_mode = S_INIT;
        o->s_addr = (int16_t)e->s_addr;
    } else {
        o->s_mode = d->prev_write ? S_PREV_M : S_PLANE;
        o->s_addr = (int16_t)(s_plane == PL_ZERO ? -1 : s_plane);
    }
    o->m0 = g->pl0[m_plane];
    o->s0 = g->pl0[s_plane];
    o->t_same = 0;
    o->run = 0;
    if (t->need_t) {
        bool same = g->last_t_ring == set_ring && g->last_t_k == k;
        o->t_same = same;
        if (!same) { /* (the same set and bit as the last T op: the set's bookkeeping has it) */
            if (set_ring >= 0) {
                seg_set *ss = &g->set[set_ring];
                if (set_ring != g->last_t_ring) { /* (the same set: the segment's has it) */
                    if (k > ss->kmax) ss->kmax = k;
                    if (k < ss->kmin) ss->kmin = k;
                    g->has_t = true;
                    if (e->set[set_ring].uid < g->min_uid) g->min_uid = e->set[set_ring].uid;
                } else if (k > g->last_t_k) { /* (above a bit read: not the lowest) */
                    if (k > ss->kmax) ss->kmax = k;
                } else if (k < ss->kmin)
                    ss->kmin = k;
            }
            g->last_t_ring = set_ring;
            g->last_t_k = k;
        }
    }
    d->prev_plane = m_plane;
    d->prev_write = t->write;
    d->clocks++;
    return SEG_ADDED;
}

/* The collecting set's coefficient bits lo .. hi-1 of the short path ORed
 * into set s: dat[j] holds bit j of coefficient c at bit 8c (the pins'
 * dat[0..5] masked to bit 0, stored as one 64-bit word a shift: each is read
 * back by a load of its size, which store forwarding serves). Eight words
 * ORed at shifts 0..7 transpose them: byte c then holds bits b .. b+7 of
 * coefficient c (dat has room for the words past hi up to the next
 * multiple of 8, all holding only bits 8c: the words outside lo .. hi-1 are
 * masked off after the transpose). */
static void qee_bits_put(qee_set *s, const uint64_t *dat, int lo, int hi)
{
    for (int half = lo >> 6; half <= (hi - 1) >> 6; half++) { /* (64-bit halves: no 128-bit shifts) */
        uint64_t w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0;
        int b0 = lo > half * 64 ? lo & ~7 : half * 64, b1 = hi < half * 64 + 64 ? hi : half * 64 + 64;
        for (int b = b0; b < b1; b += 8) {
            uint64_t x = dat[b] | dat[b + 1] << 1 | dat[b + 2] << 2 | dat[b + 3] << 3 | dat[b + 4] << 4 |
                         dat[b + 5] << 5 | dat[b + 6] << 6 | dat[b + 7] << 7;
            unsigned keep = (hi - b >= 8 ? 0xffu : (1u << (hi - b)) - 1) & (0xffu << (lo > b ? lo - b : 0));
            x &= keep * 0x010101010101ull;
            int at = b & 63;
            w0 |= (x & 0xff) << at;
            w1 |= (x >> 8 & 0xff) << at;
            w2 |= (x >> 16 & 0xff) << at;
            w3 |= (x >> 24 & 0xff) << at;
            w4 |= (x >> 32 & 0xff) << at;
            w5 |= (x >> 40 & 0xff) << at;
        }
        int up = half * 64;
        s->coef[0] |= (u128)w0 << up;
        s->coef[1] |= (u128)w1 << up;
        s->coef[2] |= (u128)w2 << up;
        s->coef[3] |= (u128)w3 << up;
        s->coef[4] |= (u128)w4 << up;
        s->coef[5] |= (u128)w5 << up;
    }
}

#if defined(EMC_AVX512)
/* qee_bits_put with AVX-512 VBMI and GFNI, a 64-bit half at a time: the
 * half's 64 words (8 vectors of 8; only bit 0 of bytes 0..5 is set in each)
 * merged into one, group g shifted by g (word j, byte c, bit g = bit 8g + j
 * of coefficient c), then field8's bit transpose puts bit 8g + j of
 * coefficient c at word c, byte g, bit j. dat must hold the words of each
 * half it touches (pp5_emc_run's cdat: 256 + 8). */
__attribute__((target("avx512f,avx512bw,avx512vbmi,gfni"))) static void qee_bits_put_gfni(qee_set *s,
                                                                                         const uint64_t *dat, int lo,
                                                                                         int hi)
{
    for (int half = lo >> 6; half <= (hi - 1) >> 6; half++) {
        const uint64_t *d = dat + half * 64;
#define BITS_GROUP(g) _mm512_slli_epi64(_mm512_loadu_si512(d + 8 * (g)), g) /* (shift counts constant) */
        __m512i y = _mm512_or_si512(_mm512_or_si512(_mm512_or_si512(BITS_GROUP(0), BITS_GROUP(1)),
                                                     _mm512_or_si512(BITS_GROUP(2), BITS_GROUP(3))),
                                    _mm512_or_si512(_mm512_or_si512(BITS_GROUP(4), BITS_GROUP(5)),
                                                    _mm512_or_si512(BITS_GROUP(6), BITS_GROUP(7))));
#undef BITS_GROUP
        int b0 = lo > half * 64 ? lo - half * 64 : 0, b1 = hi < half * 64 + 64 ? hi - half * 64 : 64;
        uint64_t keep = (b1 == 64 ? ~0ull : (1ull << b1) - 1) & (~0ull << b0), w[8];
        _mm512_storeu_si512(w, _mm512_and_si512(bits_transpose_8x64_gfni(y), _mm512_set1_epi64((long long)keep)));
        if (half) /* (a constant shift: a variable 128-bit shift costs a few instructions a coefficient) */
            for (int c = 0; c < 6; c++) s->coef[c] |= (u128)w[c] << 64;
        else
            for (int c = 0; c < 6; c++) s->coef[c] |= w[c];
    }
}
#endif

/* Pins p load Carry or Enable, write, or are a redundant code (else the clock
 * only reads: seg_sense). */
_Static_assert(offsetof(pp5_pins, ldc) + 1 == offsetof(pp5_pins, lde) &&
                   offsetof(pp5_pins, lde) + 1 == offsetof(pp5_pins, mwrt) &&
                   offsetof(pp5_pins, ldc) + 6 == offsetof(pp5_pins, redundant),
               "pp5_pins: ldc, lde, mwrt .. redundant in one 8-byte word");
static inline bool pins_change(const pp5_pins *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    memcpy(&w, &p->ldc, 8); /* (ldc lde mwrt extop config_mode pair redundant dat[0]) */
    return (w & 0x00ff000000ffffffull) != 0;
#else
    return (p->ldc | p->lde | p->mwrt | p->redundant) != 0;
#endif
}

/* dat[0..5] of pins p, bit 0 of each, as bits 0, 8, .., 40 (qee_bits_put) */
static inline uint64_t dat_bits(const pp5_pins *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t dat;
    memcpy(&dat, p->dat, 8); /* (dat[0..5], then lsb and addr_l: masked off) */
    return dat & 0x010101010101ull;
#else
    uint64_t dat = 0;
    for (int c = 0; c < 6; c++) dat |= (uint64_t)(p->dat[c] & 1) << 8 * c;
    return dat;
#endif
}

/* (GCC's straight-line vectorizer packs the decode's counters into one
 * vector register and unpacks them every clock: −6 % in the decode alone) */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-slp-vectorize")))
#endif
void pp5_emc_run(pp5_emc *e, const pp5_pins *pins, size_t n)
{
    seg *g = e->seg;
    if (!g) {
        for (size_t i = 0; i < n; i++) pp5_emc_step(e, &pins[i]);
        return;
    }
    /* (the segment the last block left open carries on) */
    /* the pin latches are the previous clock's pins: read there, written back
     * before the clock-by-clock path and at the end */
    /* (the loop reads the previous clock's pins at p − 1, one register fewer
     * than a pointer of its own: the first clock runs on a copy of pins[0]
     * that follows the latches, head[1], the rest on pins[1 .. n)) */
    pp5_pins head[2];
    memset(head, 0, sizeof head);
    head[0].addr_l = e->lat_addr_l;
    head[0].addr_h = e->lat_addr_h;
    memcpy(head[0].dat, e->lat_dat, 6);
    head[0].lsb = e->lat_lsb;
    if (n) head[1] = pins[0];
    seg_dec d;
    seg_dec_get(g, &d);
    /* The QEE's short path (qee_step) in locals: the collecting set's bit
     * count m (stored in the set before seg_add reads it), the shift count
     * sh_base + m, and the set's coefficient bits of the shifts since bit
     * m_lo, one word a shift (cdat, ORed into the set before anything reads its coefficients:
     * QEE_PUT); e->shifts, R_T's set and bit index are brought up to date when
     * something reads them (QEE_RT_PUT). Every clock stores its coefficient
     * bits at m (a clock without TrSt: overwritten by the next one, or past
     * the bits read; with a collecting set m ≤ 128, the shift that fills it
     * stores at 128: cdat has room, bit 0 stays). With no collecting set, m
     * counts into nothing (cdat[m & 255]). A full step (qee_shift) that
     * collects into the same set leaves its bits to cdat too (kept). */
    qee_set *into;
    /* (the shift count is sh_base + m: both advance on a short step, so the
     * loop carries m alone, and the planned event is a bit count, m_event) */
    uint64_t m, m_lo, sh_base, m_event;
    uint64_t cdat[256 + 8];
    memset(cdat, 0, sizeof cdat); /* (qee_bits_put reads whole groups of eight, the GFNI form halves) */
    void (*const bits_put)(qee_set *, const uint64_t *, int, int) =
#if defined(EMC_AVX512)
        e->bits_gfni ? qee_bits_put_gfni :
#endif
                     qee_bits_put;
#define QEE_SH_GET()                                                                               \
    do {                                                                                           \
        sh_base = e->shifts - m;                                                                   \
        m_event = e->q_event >= sh_base ? e->q_event - sh_base : 0;                                \
    } while (0)
#define QEE_GET()                                                                                  \
    do {                                                                                           \
        into = e->q_into >= 0 ? &e->set[e->q_into] : NULL;                                         \
        m = m_lo = into ? (uint64_t)into->m : 0;                                                   \
        QEE_SH_GET();                                                                              \
    } while (0)
#define QEE_RT_PUT()                                                                               \
    do {                                                                                           \
        uint64_t sh_ = sh_base + m;                                                                \
        if (into) into->m = (int)m;                                                                \
        if (sh_ != e->shifts) {                                                                    \
            e->rt_set = e->q_rt;                                                                   \
            if (e->q_rt >= 0) e->rt_k = (int)(sh_ - 1 - e->q_rt_base);                             \
            e->shifts = sh_;                                                                       \
        }                                                                                          \
    } while (0)
#define QEE_PUT()                                                                                  \
    do {                                                                                           \
        QEE_RT_PUT();                                                                              \
        if (m > m_lo && into) bits_put(into, cdat, (int)m_lo, (int)m);                             \
        m_lo = m;                                                                                  \
    } while (0)
    QEE_GET();
    /* two ranges, one loop body: head[1] (none when n = 0), then pins[1 .. n) */
    const pp5_pins *p = head + 1, *end = n ? head + 2 : head + 1;
    for (int range = 0; range < 2; range++, p = pins + (n > 0), end = pins + n)
    for (; p < end; p++) { /* (not indented: the clock's body) */
        const pp5_pins *const prev = p - 1;
        /* the shift's coefficient bits (a clock without TrSt: overwritten by
         * the next one, or past the bits read) */
        cdat[m & 255] = dat_bits(prev);
        if (p->trst) {
            if (__builtin_expect(prev->lsb || m >= m_event, 0)) {
                /* the QEE's full step (an event of qee_plan, a new LSB token):
                 * when it collects into the set the short path would (into,
                 * the plan's), the bits just stored stand and qee_shift only
                 * counts them (kept); else it collects them itself */
                QEE_RT_PUT();
                /* a new set would take the ring slot of one the segment reads */
                if (prev->lsb && g->has_t && e->nset_total >= QEE_SETS &&
                    (uint64_t)(e->nset_total - QEE_SETS) >= g->min_uid) {
                    QEE_PUT();
                    seg_dec_put(g, &d);
                    pp5_emcf_seg_flush(e, g);
                    seg_dec_get(g, &d);
                }
                latch_pins(e, prev);
                pp5_emcf_qee_shift(e, into); /* (into's bits of this shift: cdat[m]) */
                if (into) m = (uint64_t)into->m;
                QEE_SH_GET(); /* (e->shifts and R_T are qee_shift's) */
                if (e->q_into < 0 || &e->set[e->q_into] != into) { /* (another collecting set) */
                    QEE_PUT();
                    QEE_GET();
                }
            } else {
                /* qee_step's short path (a branch on TrSt, not m += TrSt: the
                 * next clock's store address would wait on this clock's TrSt
                 * load; the branch is predicted) */
                m++;
            }
        }
        int addr = prev->addr_l;
        int added = SEG_ADDED, t_set = -1, t_k = 0;
        if (!pins_change(p)) {
            /* a run of clocks that only read: the clocks after this one
             * while they only read too and their QEE step is the short one
             * (no LSB token before them, no planned event); only the
             * coefficient bits and m change there, S follows the run's last
             * read */
            const pp5_pins *q = p;
            while (q + 1 < end && !pins_change(q + 1)) {
                cdat[m & 255] = dat_bits(q);
                if (q[1].trst) {
                    if (q->lsb || m >= m_event) break;
                    m++;
                }
                q++;
            }
            d.clocks += (int)(q - p);
            p = q;
            seg_sense(&d, p[-1].addr_l);
        } else if (!(p->lde | p->redundant)) {
            /* (a word that loads no Enable joins: OPK_JOIN; tested on the pins
             * first, so that the rare steps' branch does not wait on the
             * template's loads) */
            const seg_op *t = seg_tmpl(e, g, pins_key(p, addr < PP5_EMC_MEM_BITS));
            added = !p->agts_t ? seg_add(e, g, &d, addr, -1, 0, t, false)
                    : qee_rt_now(e, into, m, sh_base + m, &t_set, &t_k)
                        ? seg_add(e, g, &d, addr, t_set, t_k, t, false)
                        : SEG_STEP;
        } else if (p->redundant) {
            /* a configuration word joins a segment that has no op yet (its
             * read as a clock that only reads, after the segment's reads: S
             * follows it); after an op it steps (the segment's ops would run
             * with the new origins) */
            if (p->config_mode && d.n) added = SEG_STEP;
            else {
                for (int x = 0; x < 6; x++)
                    if (p->extop >> x & 1) e->extops[x]++; /* */
                if (p->config_mode) pp5_emcf_config_word(e, prev->addr_l, prev->addr_h, p->acmp);
                seg_sense(&d, addr);
            }
        } else {
            const seg_op *t = seg_tmpl(e, g, pins_key(p, addr < PP5_EMC_MEM_BITS));
            if (t->kind == OPK_STEP) added = SEG_STEP;
            else {
                added = !p->agts_t ? seg_add(e, g, &d, addr, -1, 0, t, true)
                        : qee_rt_now(e, into, m, sh_base + m, &t_set, &t_k)
                            ? seg_add(e, g, &d, addr, t_set, t_k, t, true)
                            : SEG_STEP;
            }
        }
        if (added == SEG_FULL) {
            QEE_PUT();
            seg_dec_put(g, &d);
            pp5_emcf_seg_flush(e, g);
            seg_dec_get(g, &d);
            /* (R_T as before: the flush changed no QEE state) */
            added = seg_add(e, g, &d, addr, t_set, t_k, seg_tmpl(e, g, pins_key(p, addr < PP5_EMC_MEM_BITS)), true);
        }
        if (added == SEG_STEP) {
            QEE_PUT();
            seg_dec_put(g, &d);
            pp5_emcf_seg_flush(e, g);
            latch_pins(e, prev);
            pp5_emcf_step_word(e, p);
            seg_dec_get(g, &d);
        }
    }
    QEE_PUT();
    seg_dec_put(g, &d);
#undef QEE_SH_GET
#undef QEE_GET
#undef QEE_RT_PUT
#undef QEE_PUT
    latch_pins(e, n > 1 ? pins + n - 1 : head + n);
    /* (the segment stays open: seg_settle) */
}
