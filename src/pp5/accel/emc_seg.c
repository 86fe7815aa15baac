/* The fast EMC array's block segments: the chip-major pass over a segment's
 * ops (emc_seg.h), with the QEE's bit-serial adder per chip and the deferred
 * log of dark chips' Carry updates; emc_run.c decodes the clocks into them. */
#include "pp5/accel/emc_seg.h"

bool pp5_emcf_seg_open(const seg *g) { return g->n || g->clocks; }

bool pp5_emcf_block_capable(const pp5_emc *e)
{
    const pp5_emc_options *o = &e->o;
    return o->sum_table == 0x96 && o->carry_table == 0xE8 && o->enable_table == 0xE8 && o->mwrt_gated_by_e &&
           !o->loads_gated_by_e && o->s_source == PP5_S_PREV_READ && e->wpc == 4;
}

void pp5_emcf_seg_free(seg *g)
{
    if (g) free(g->arena);
    free(g);
}

struct seg *pp5_emcf_seg_new(const pp5_emc *e)
{
    seg *g = malloc(sizeof(seg));
    if (g) {
        for (int a = 0; a < NPLANES; a++) g->pl0[a] = plane(e, a, 0);
        g->op = g->opbuf[0];
        g->keep_ops = false;
        g->arena = NULL;
        g->arena_cap = 0;
        memset(g->xslot, -1, sizeof g->xslot);
        memset(g->yslot, -1, sizeof g->yslot);
        g->nx = g->ny = 0;
        g->slots_made = false;
        memset(g->tmap, 0, sizeof g->tmap);
        g->ntmpl = 0;
        pp5_emcf_seg_reset(g);
    }
    return g;
}

void pp5_emcf_seg_reset(seg *g)
{
    if (g->keep_ops) { /* (the log's hole has the ops: the next segment takes the other buffer) */
        g->op = g->opbuf[g->op == g->opbuf[0]];
        g->keep_ops = false;
    }
    g->n = 0;
    g->clocks = 0;
    g->has_t = false;
    g->has_lde = false;
    g->nldc = 0;
    g->ldc_rings = 0;
    g->last_ldc = g->last_over = -1;
    for (int r = 0; r < QEE_SETS; r++) {
        g->set[r].kmax = -1;
        g->set[r].kmin = 128;
    }
    g->min_uid = UINT64_MAX;
    g->last_t_ring = -2;
    g->last_t_k = -1;
}

/* Room in the log for the segment's Carry-loading ops, made before the chip
 * pass (nothing has changed yet if there is none). */
static bool seg_log_room(pp5_emc *e, const seg *g)
{
    int count = g->nldc;
    if (!count) return true;
    if (e->log_len && !(e->pend[0] | e->pend[1] | e->pend[2] | e->pend[3])) log_clear(e);
    if (e->log_len + count > LOG_LIMIT) pp5_emcf_flush_all(e);
    if (e->log_len + count > e->log_cap) {
        int nc = e->log_cap ? e->log_cap : 256;
        while (nc < e->log_len + count) nc *= 2;
        defer_op *nl = realloc(e->log, (size_t)nc * sizeof *nl);
        if (!nl) return false;
        e->log = nl;
        e->log_cap = nc;
    }
    if (e->arch_len + QEE_SETS > e->arch_cap) {
        int nc = e->arch_cap ? e->arch_cap : 64;
        while (nc < e->arch_len + QEE_SETS) nc *= 2;
        qee_set *na = realloc(e->arch, (size_t)nc * sizeof *na);
        if (!na) return false;
        e->arch = na;
        e->arch_cap = nc;
    }
    return true;
}

/* Write the log's reserved entries (the hole seg_defer left) from the
 * segment's ops: what flush_chip reads of each word. */
void pp5_emcf_log_fill(pp5_emc *e)
{
    int j = e->hole_lo;
    for (int i = e->hole_first; i < e->hole_n; i++) {
        const seg_op *o = &e->hole_op[i];
        if (!o->ldc) continue;
        defer_op *d = &e->log[j++];
        d->u.ss = OPM(o, OPM_SS);
        d->u.ts = OPM(o, OPM_TS);
        d->u.es = OPM(o, OPM_ES);
        d->u.ms = OPM(o, OPM_MS);
        d->u.cs = OPM(o, OPM_CS);
        d->u.acm = OPM(o, OPM_ACM);
        d->u.bcm = OPM(o, OPM_BCM);
        d->u.ccm = OPM(o, OPM_CCM);
        d->u.addr = o->m_plane;
        d->u.need_t = o->need_t;
        d->u.need_s = o->need_s;
        d->s_addr = o->s_addr;
        d->set_ix = o->need_t && o->set_ring >= 0 ? e->hole_arch[o->set_ring] : -1;
        d->k = d->set_ix >= 0 ? o->k : 0;
    }
    e->hole_lo = e->hole_hi = 0;
}

/* The dark chips' share of the segment, after the chip pass: their Carry
 * updates, logged. Dark are the chips dark from the start (dark) and
 * those whose E became all 0 at an Enable load of the segment (from op
 * g->stop[c] on: the load only darkens, enable_stays_0). A chip starting at op
 * s takes the ops from the last one that overwrites Carry without reading it,
 * if that is at or after s (the z-test's preset: a constant written once),
 * else from s. The entries are made once, for the ops from the earliest start,
 * as a hole in the log (log_fill writes them if a chip's entries are ever
 * applied): the segment's op buffer is kept for it, the next segment decodes
 * into the other one. */
static void seg_defer(pp5_emc *e, seg *g, const uint64_t *dark, bool dark_filled)
{
    int last_over = g->last_over, nldc = g->nldc;
    bool any_dark = (dark[0] | dark[1] | dark[2] | dark[3]) != 0;
    bool any_stop = (g->stopped[0] | g->stopped[1] | g->stopped[2] | g->stopped[3]) != 0;
    if (!nldc || !(any_dark || any_stop)) return;
    int over_start = last_over < 0 ? g->n : g->op[last_over].fill ? last_over + 1 : last_over;
#define SEG_EFF(s) (last_over >= (s) ? over_start : (s))
    uint64_t fill_v = last_over >= 0 && g->op[last_over].fill && g->op[last_over].fill_v ? ~0ull : 0;
    bool fill = last_over >= 0 && g->op[last_over].fill;
    /* what the segment overwrites: nothing pending there (the chips that went
     * dark at an Enable load ran: nothing was pending) */
    if (any_dark && last_over >= 0) {
        for (int wd = 0; wd < 4; wd++) e->pend[wd] &= ~dark[wd];
        if (fill && !dark_filled) /* (dark_filled: the whole plane was, before the chip pass) */
            for (int wd = 0; wd < 4; wd++)
                for (uint64_t m = dark[wd]; m; m &= m - 1) {
                    uint64_t *cy = plane(e, PL_CARRY, wd * 64 + __builtin_ctzll(m));
                    cy[0] = cy[1] = cy[2] = cy[3] = fill_v;
                }
    }
    for (int wd = 0; wd < 4; wd++)
        for (uint64_t m = g->stopped[wd]; m; m &= m - 1) {
            int c = wd * 64 + __builtin_ctzll(m);
            if (last_over >= g->stop[c]) {
                drop_pending(e, c);
                if (fill) {
                    uint64_t *cy = plane(e, PL_CARRY, c);
                    cy[0] = cy[1] = cy[2] = cy[3] = fill_v;
                }
            }
        }
    /* no chip left with pending entries: the log (and an earlier hole) is dropped;
     * else an earlier hole is written before its op buffer is reused */
    if (e->log_len && !(e->pend[0] | e->pend[1] | e->pend[2] | e->pend[3])) log_clear(e);
    if (e->hole_hi > e->hole_lo) pp5_emcf_log_fill(e);
    int emin = any_dark ? SEG_EFF(0) : g->n;
    for (int wd = 0; wd < 4; wd++)
        for (uint64_t m = g->stopped[wd]; m; m &= m - 1) {
            int st = g->stop[wd * 64 + __builtin_ctzll(m)], ef = SEG_EFF(st);
            if (ef < emin) emin = ef;
        }
    /* entries (room made by seg_log_room): the Carry-loading ops from emin, the
     * first logged op at or after op i is entry lo + ldc_rank[i] - ldc_rank[emin]
     * (none when ldc_rank[i] = nldc); T of the sets as they are now (bits below k
     * were final when a word read bit k) */
    int lo = e->log_len, base = emin < g->n ? g->op[emin].ldc_rank : nldc;
#define SEG_ENTRY(i) ((i) < g->n && g->op[i].ldc_rank < nldc ? lo + g->op[i].ldc_rank - base : -1)
    if (nldc > base) {
        e->log_len += nldc - base;
        e->hole_lo = lo;
        e->hole_hi = e->log_len;
        e->hole_first = emin;
        e->hole_n = g->n;
        e->hole_op = g->op;
        for (unsigned m = g->ldc_rings; m; m &= m - 1) {
            int r = __builtin_ctz(m);
            e->arch[e->arch_len] = e->set[r];
            e->hole_arch[r] = e->arch_len++;
        }
        g->keep_ops = true; /* (seg_flush moves to the other buffer at its end) */
    }
    /* chips dark from the start (s = 0) */
    if (any_dark) {
        int ef = SEG_EFF(0), en = SEG_ENTRY(ef);
        if (en >= 0)
            for (int wd = 0; wd < 4; wd++) {
                /* the fresh ones become the group (starting at en); chips of
                 * the old group still pending take its start as their own */
                for (uint64_t old = e->grp[wd] & e->pend[wd]; old; old &= old - 1)
                    e->pend_from[wd * 64 + __builtin_ctzll(old)] = e->grp_from;
                e->grp[wd] = dark[wd] & ~e->pend[wd];
                e->pend[wd] |= dark[wd];
            }
        if (en >= 0) e->grp_from = en;
    }
    /* chips that went dark at an Enable load */
    for (int wd = 0; wd < 4; wd++)
        for (uint64_t m = g->stopped[wd]; m; m &= m - 1) {
            int c = wd * 64 + __builtin_ctzll(m), ef = SEG_EFF(g->stop[c]), en = SEG_ENTRY(ef);
            if (en < 0) continue;
            if (!chip_pending(e, c)) pend_set(e, c, en);
            e->pend[wd] |= 1ull << (c & 63);
        }
#undef SEG_EFF
#undef SEG_ENTRY
}

/* Bits klo .. klo+nb-1 (≤ 63) of 16 values as 16-bit masks (bit i: value i). */
static void masks16(const uint64_t *val, int klo, int nb, uint64_t *out)
{
    for (int b = 0; b < nb; b += 8) {
        int n = nb - b < 8 ? nb - b : 8;
#if defined(__SSE2__)
        /* byte i = bits klo+b .. of val[i], gathered in two words (bytes stored
         * one by one and read back as a vector would stall store forwarding) */
        uint64_t w0 = 0, w1 = 0;
        for (int i = 0; i < 8; i++) {
            w0 |= (val[i] >> (klo + b) & 0xff) << (8 * i);
            w1 |= (val[i + 8] >> (klo + b) & 0xff) << (8 * i);
        }
        /* the top bit of each byte by movemask, doubling brings the next one up */
        __m128i v = _mm_set_epi64x((long long)w1, (long long)w0);
        for (int j = 7; j >= 0; j--) {
            if (j < n) out[b + j] = (uint64_t)_mm_movemask_epi8(v);
            v = _mm_add_epi8(v, v);
        }
#else
        uint8_t by[16];
        for (int i = 0; i < 16; i++) by[i] = (uint8_t)(val[i] >> (klo + b));
        for (int j = 0; j < n; j++) {
            unsigned m = 0;
            for (int i = 0; i < 16; i++) m |= (unsigned)(by[i] >> j & 1) << i;
            out[b + j] = m;
        }
#endif
    }
}

/* The running chips' columns and rows as slots, once a segment: the lead
 * chips present as bit masks first (no branch per chip on "a new column?",
 * which mispredicted), then a slot per lead in lead order. (xslot/yslot are
 * read only at the leads of running chips, all set here: no clearing.) */
static void seg_slots(const pp5_emc *e, seg *g, const uint64_t *run)
{
    uint64_t xm[4] = {0}, ym[4] = {0};
    if (e->nchips <= 64) { /* (leads < 64: the masks in registers) */
        uint64_t x = 0, y = 0;
        for (uint64_t m = run[0]; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            x |= 1ull << e->xlead[c];
            y |= 1ull << e->ylead[c];
        }
        xm[0] = x;
        ym[0] = y;
    } else {
        for (int wd = 0; wd < 4; wd++)
            for (uint64_t m = run[wd]; m; m &= m - 1) {
                int c = wd * 64 + __builtin_ctzll(m), xl = e->xlead[c], yl = e->ylead[c];
                xm[xl >> 6] |= 1ull << (xl & 63);
                ym[yl >> 6] |= 1ull << (yl & 63);
            }
    }
    int nx = 0, ny = 0;
    for (int wd = 0; wd < 4; wd++) {
        for (uint64_t m = xm[wd]; m; m &= m - 1) {
            int l = wd * 64 + __builtin_ctzll(m);
            g->xslot[l] = (int16_t)nx;
            g->xl[nx++] = (int16_t)l;
        }
        for (uint64_t m = ym[wd]; m; m &= m - 1) {
            int l = wd * 64 + __builtin_ctzll(m);
            g->yslot[l] = (int16_t)ny;
            g->yl[ny++] = (int16_t)l;
        }
    }
    g->nx = nx;
    g->ny = ny;
    g->slots_made = true;
}

/* The arena data of set ring r for the running chips (seg_set). */
static bool seg_prepare_set(pp5_emc *e, seg *g, int r, const uint64_t *run)
{
    seg_set *ss = &g->set[r];
    if (!g->slots_made) seg_slots(e, g, run);
    const int16_t *xl = g->xl, *yl = g->yl;
    ss->nx = g->nx;
    ss->ny = g->ny;
    size_t xw = (size_t)ss->nb + SEG_SLOT_EXTRA, yw = xw;
    size_t need = g->arena_len + (size_t)ss->nx * xw + (size_t)ss->ny * yw;
    if (need > g->arena_cap) {
        size_t nc = g->arena_cap ? g->arena_cap : 4096;
        while (nc < need) nc *= 2;
        uint64_t *na = realloc(g->arena, nc * sizeof *na);
        if (!na) return false;
        g->arena = na;
        g->arena_cap = nc;
    }
    ss->xbase = g->arena_len;
    ss->ybase = g->arena_len + (size_t)ss->nx * xw;
    g->arena_len = need;
    memset(ss->made, 0, sizeof ss->made);
    /* (origins < 2^11 and 16 values: part_range's 64-bit path when the coefficients are narrow) */
    bool narrow[2];
    for (int a = 0; a < 2; a++) { /* (the narrow test in int64: an adder set's co[] are sign-extended from bit kmax ≤ 63) */
        int64_t q = (int64_t)ss->co[a ? 5 : 3], l = (int64_t)ss->co[a ? 1 : 0];
        narrow[a] = q >= -((int64_t)1 << 38) && q < (int64_t)1 << 38 && l >= -((int64_t)1 << 50) && l < (int64_t)1 << 50;
    }
    ss->lin = narrow[0] && narrow[1] && ss->co[3] == 0 && ss->co[5] == 0;
    if (ss->lin) {
        /* Q over a chip: C + A·(X0 + {0..15}) + B·(Y0 + {0..15}), its min
         * with min(0, 15A) + min(0, 15B), its width |15A| + |15B| < 2^55 */
        int64_t la = (int64_t)ss->co[0] * 15, lb = (int64_t)ss->co[1] * 15;
        ss->lin_lx = (uint64_t)(int64_t)ss->co[0];
        ss->lin_ly = (uint64_t)(int64_t)ss->co[1];
        ss->lin_c = (uint64_t)(int64_t)ss->co[2] + (uint64_t)(la < 0 ? la : 0) + (uint64_t)(lb < 0 ? lb : 0);
        ss->lin_w = (uint64_t)(la < 0 ? -la : la) + (uint64_t)(lb < 0 ? -lb : lb);
        return true;
    }
    for (int a = 0; a < 2; a++) {
        int n = a ? ss->ny : ss->nx;
        size_t stride = a ? yw : xw;
        if (narrow[a] && ss->co[a ? 5 : 3] == 0) {
            /* linear and narrow (the usual case: the z and colour planes): the
             * extremes l·o and l·(o + 15), in int64 (part_range's 64-bit path
             * written out for the line loop) */
            int64_t l6 = (int64_t)ss->co[a ? 1 : 0], span = l6 * 15;
            uint32_t omask = a ? e->y0_mask : e->x0_mask;
            int osh = a ? 11 : 0;
            const int16_t *ld = a ? yl : xl;
            uint64_t *lo = g->arena + (a ? ss->ybase : ss->xbase) + ss->nb + SEG_LOWS;
            for (int i = 0; i < n; i++, lo += stride) {
                int64_t u = l6 * (int64_t)(e->config[ld[i]] >> osh & omask), v = u + span;
                i128 mn = u < v ? u : v, mx = u < v ? v : u;
                memcpy(lo, &mn, sizeof mn);
                memcpy(lo + 2, &mx, sizeof mx);
            }
            continue;
        }
        for (int i = 0; i < n; i++) {
            int lead = a ? yl[i] : xl[i], origin = a ? chip_y0(e, lead) : chip_x0(e, lead);
            uint64_t *d = g->arena + (a ? ss->ybase + (size_t)i * yw : ss->xbase + (size_t)i * xw);
            uint64_t *lo = d + ss->nb;
            i128 mn, mx;
            pp5_emc_part_range(ss->co, a, narrow[a], origin, 16, &mn, &mx);
            memcpy(lo + SEG_LOWS, &mn, sizeof mn);
            memcpy(lo + SEG_LOWS + 2, &mx, sizeof mx);
        }
    }
    return true;
}

/* A line's masks and low words (d: its arena data, a: y line), for a chip
 * whose adder starts: many chips of a segment need none (constant T). */
static __attribute__((noinline)) void seg_line(const qee_set *s, const seg_set *ss, int a, int origin, uint64_t *d)
{
    uint64_t *lo = d + ss->nb;
    /* the part's 16 values mod 2^64 (bits ≤ 63 of the sum need no more):
     * forward differences v(x+1) - v(x) = q(2x+1) + l, step 2q */
    uint64_t q = (uint64_t)s->coef[a ? 5 : 3], l1 = (uint64_t)s->coef[a ? 1 : 0];
    uint64_t x = (uint64_t)origin, v = q * x * x + l1 * x + (a ? 0 : (uint64_t)s->coef[2]);
    uint64_t d1 = q * (2 * x + 1) + l1, d2 = 2 * q;
    for (int j = 0; j < 16; j++) {
        lo[j] = v;
        v += d1;
        d1 += d2;
    }
    masks16(lo, ss->klo, ss->nb, d); /* (d[0 .. nb): below lo) */
}

#ifdef EMC_AVX512
/* seg_line with AVX-512 (DQ: 64-bit products) and GFNI: the 16 values in two
 * vectors (stored as vectors: the adder start loads them so, and a vector
 * load of scalar stores would wait for them), their masks eight bits at a
 * time by a shift, a byte truncation and one affine instruction that
 * transposes the two 8×8 bit blocks (byte i: bits of value i → byte j: bit j
 * of the eight values; it reads matrix row 7 − j for result bit j, so the
 * values go in reversed) */
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,gfni"), noinline)) static void
seg_line_gfni(const qee_set *s, const seg_set *ss, int a, int origin, uint64_t *d)
{
    uint64_t *lo = d + ss->nb;
    __m512i q = _mm512_set1_epi64((long long)(uint64_t)s->coef[a ? 5 : 3]);
    __m512i l1 = _mm512_set1_epi64((long long)(uint64_t)s->coef[a ? 1 : 0]);
    __m512i c0 = _mm512_set1_epi64(a ? 0 : (long long)(uint64_t)s->coef[2]);
    __m512i x0 = _mm512_add_epi64(_mm512_set1_epi64(origin), _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
    __m512i x1 = _mm512_add_epi64(x0, _mm512_set1_epi64(8));
    /* (q·x + l)·x + c mod 2^64, as the forward differences of seg_line (l·x + c
     * for a linear part, the z and colour planes: one product fewer on the
     * chain to the masks) */
    __m512i va, vb;
    if ((uint64_t)s->coef[a ? 5 : 3] == 0) { /* (mod 2^64: the low word is all that counts) */
        va = _mm512_add_epi64(_mm512_mullo_epi64(l1, x0), c0);
        vb = _mm512_add_epi64(_mm512_mullo_epi64(l1, x1), c0);
    } else {
        va = _mm512_add_epi64(_mm512_mullo_epi64(_mm512_add_epi64(_mm512_mullo_epi64(q, x0), l1), x0), c0);
        vb = _mm512_add_epi64(_mm512_mullo_epi64(_mm512_add_epi64(_mm512_mullo_epi64(q, x1), l1), x1), c0);
    }
    _mm512_storeu_si512((void *)lo, va);
    _mm512_storeu_si512((void *)(lo + 8), vb);
    const __m512i rev = _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    va = _mm512_permutexvar_epi64(rev, va);
    vb = _mm512_permutexvar_epi64(rev, vb);
    const __m128i unit = _mm_set1_epi64x((long long)0x8040201008040201ull); /* byte i = 1 << i */
    int klo = ss->klo, nb = ss->nb;
    for (int bb = 0; bb < nb; bb += 8) {
        int n = nb - bb < 8 ? nb - bb : 8;
        __m128i sh = _mm_cvtsi32_si128(klo + bb);
        __m128i v = _mm_unpacklo_epi64(_mm512_cvtepi64_epi8(_mm512_srl_epi64(va, sh)),
                                       _mm512_cvtepi64_epi8(_mm512_srl_epi64(vb, sh)));
        __m128i t = _mm_gf2p8affine_epi64_epi8(unit, v, 0); /* qword h, byte j: bit j of values 8h .. 8h+7 */
        __m128i w = _mm_unpacklo_epi8(t, _mm_srli_si128(t, 8)); /* 16-bit lane j: bit j of the 16 values */
        _mm512_mask_storeu_epi64(d + bb, (__mmask8)((1u << n) - 1), _mm512_cvtepu16_epi64(w));
    }
}
#endif

#ifdef EMC_AVX512
/* A fused T run of the chip pass (seg_chip) with AVX-512 VL + BW on 256-bit
 * vectors: each of the run's boolean functions one vpternlogq — the
 * z-test's Carry ← maj(T, ~Z, Carry), the write M ← T where E, the adder's
 * sum and carry — and the adder's row bits (R's bit of row ly in lane ly)
 * from a mask register (vpmovm2w) instead of a broadcast, an and and a
 * compare. The run's n bits: bit 0 with T as given, bits 1 .. na-1 from the
 * adder (its carry *ak, masks xk/yk from bit 1 on), bits na .. n-1 the
 * constants of qmin. T, K, the adder's carry and the last M read come back
 * through the pointers (inlined into seg_chips_avx512: registers). */
enum { TL_XOR3 = 0x96, TL_MAJ = 0xE8, TL_SEL = 0xD8 /* a=M b=T c=E: E ? T : M */,
       TL_MAJ_NZ = 0xD4 /* a=K b=T c=Z: maj(T, ~Z, K) */ };
__attribute__((target("avx2,avx512f,avx512vl,avx512bw"))) static inline void
seg_run_avx512(const seg_op *q, size_t off, bool pair, int n, int na, const uint64_t *xk, const uint64_t *yk,
               uint64_t qmin, int k0, const v4u *Ep, v4u *Tp, v4u *Kp, v4u *akp, v4u *Mp)
{
    /* (E by pointer: a 32-byte vector by value from the portable instance of
     * seg_chip, where this call is dead code, breaks -Wpsabi at -O1) */
    __m256i e = (__m256i)*Ep, t = (__m256i)*Tp, kk = (__m256i)*Kp, ak = (__m256i)*akp, m = _mm256_setzero_si256();
#define SEG_RUN_BIT512(PAIR)                                                                                          \
    do {                                                                                                              \
        uint64_t *mp = q[PAIR].m0 + off;                                                                              \
        if (PAIR) kk = _mm256_ternarylogic_epi64(kk, t, _mm256_loadu_si256((const __m256i *)(q->m0 + off)), TL_MAJ_NZ); \
        m = _mm256_loadu_si256((const __m256i *)mp);                                                                  \
        _mm256_storeu_si256((__m256i *)mp, _mm256_ternarylogic_epi64(m, t, e, TL_SEL));                               \
        q += 1 + PAIR;                                                                                                \
    } while (0)
#define SEG_RUN512(PAIR)                                                                                              \
    do {                                                                                                              \
        SEG_RUN_BIT512(PAIR);                                                                                         \
        for (int j = 1; j < na; j++) {                                                                                \
            __m256i u = _mm256_set1_epi16((short)(uint16_t)*xk++);                                                    \
            __m256i v = _mm256_movm_epi16((__mmask16)*yk++);                                                          \
            t = _mm256_ternarylogic_epi64(u, v, ak, TL_XOR3);                                                         \
            ak = _mm256_ternarylogic_epi64(ak, u, v, TL_MAJ);                                                         \
            SEG_RUN_BIT512(PAIR);                                                                                     \
        }                                                                                                             \
        for (int j = na; j < n; j++) {                                                                                \
            t = _mm256_set1_epi64x((long long)((uint64_t)0 - (qmin >> (k0 + j) & 1)));                                \
            SEG_RUN_BIT512(PAIR);                                                                                     \
        }                                                                                                             \
    } while (0)
    if (pair) SEG_RUN512(1);
    else SEG_RUN512(0);
#undef SEG_RUN512
#undef SEG_RUN_BIT512
    *Tp = (v4u)t;
    *Kp = (v4u)kk;
    *akp = (v4u)ak;
    *Mp = (v4u)m;
}
#endif

/* Chip c runs the segment's ops. T of a set marked adder: bits from the
 * chip's constant bit up are constants; below it a bit-serial adder of
 * P(lx) + R(ly) (as compute_bit's) starts at the first bit read and steps
 * with the reads, its carry in registers. Other sets: tree_bit. */
/* One bit of the chip's bit-serial adder P(lx) + R(ly): xw, yw the column and
 * row words of the bit (bit lx of xw, bit ly of yw); *t gets the sum bit at
 * every pixel, *ak the carry into the next bit. Pixel i = 16·ly + lx: sixteen
 * 16-bit lanes, one a row; P's bit of column lx is bit lx of every lane, R's
 * bit of row ly fills lane ly. */
static inline __attribute__((always_inline)) void adder_bit(uint64_t xw, uint64_t yw, v4u *ak, v4u *t)
{
    const v16u16 row_bit = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
    uint16_t xm = (uint16_t)xw, ym = (uint16_t)yw;
    v16u16 yv = {ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym, ym};
    v16u16 xv = {xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm, xm};
    v4u u = (v4u)xv, v = (v4u)((yv & row_bit) == row_bit);
    v4u x = u ^ v;
    *t = x ^ *ak;
    *ak = (u & v) | (*ak & x);
}

/* The chip's bit-serial adder in a segment (seg_chip): the set it is for
 * (ring), Q's constant bits from kc up (qmin), the next bit it can step to
 * and the last it gave (AT), its carry (AK), the chip's column and row data of
 * the set (xd, yd: bit klo first). */
typedef struct seg_adder {
    int ring, kc, next_k, last_k, klo;
    i128 qmin;
    v4u AK, AT;
    uint64_t *xd, *yd;
    size_t xslot, yslot; /* the chip's column and row slots (the same for every set) */
} seg_adder;

/* The adder on set ring for chip c: its data, and kc, qmin (Q over the chip in
 * one 2^kc block: bits ≥ kc are constants). */
static inline __attribute__((always_inline)) void seg_adder_on(pp5_emc *e, seg *g, int c, seg_adder *a, int ring)
{
    const seg_set *ss = &g->set[ring];
    a->ring = ring;
    a->klo = ss->klo;
    a->xd = g->arena + ss->xbase + a->xslot * ((size_t)ss->nb + SEG_SLOT_EXTRA);
    a->yd = g->arena + ss->ybase + a->yslot * ((size_t)ss->nb + SEG_SLOT_EXTRA);
    if (ss->lin) {
        /* (mod 2^64: k ≤ kmax ≤ 63 is all that is read. If lo + w carries out
         * of bit 63, Q's range spans bit 64, true kc ≥ 65, and here lo has bit
         * 63 set and lo + w (w < 2^63) not: kc = 64; both leave every bit read
         * to the adder) */
        uint64_t lo = ss->lin_lx * (uint64_t)chip_x0(e, c) + ss->lin_ly * (uint64_t)chip_y0(e, c) + ss->lin_c,
                 d = lo ^ (lo + ss->lin_w);
        a->kc = d ? 64 - __builtin_clzll(d) : 0;
        a->qmin = (i128)(int64_t)lo;
    } else {
        const uint64_t *xd = a->xd, *yd = a->yd;
        i128 pmn, pmx, rmn, rmx;
        memcpy(&pmn, xd + ss->nb + SEG_LOWS, sizeof pmn);
        memcpy(&pmx, xd + ss->nb + SEG_LOWS + 2, sizeof pmx);
        memcpy(&rmn, yd + ss->nb + SEG_LOWS, sizeof rmn);
        memcpy(&rmx, yd + ss->nb + SEG_LOWS + 2, sizeof rmx);
        i128 lo = pmn + rmn + ss->co[2], hi = pmx + rmx + ss->co[2];
        u128 d = (u128)(lo ^ hi);
        uint64_t dh = (uint64_t)(d >> 64), dl = (uint64_t)d;
        a->kc = dh ? 128 - __builtin_clzll(dh) : dl ? 64 - __builtin_clzll(dl) : 0;
        a->qmin = lo;
    }
    a->next_k = a->last_k = -1;
}

/* Positions the adder (below kc) to step to bit k: the chip's column and row
 * lines made if an earlier chip did not, the carry into bit k computed
 * directly (k ≥ 4) or the adder started from bit 0. */
static inline __attribute__((always_inline)) void seg_adder_start(pp5_emc *e, seg *g, int c, seg_adder *a, int k)
{
    const int ring = a->ring;
    const seg_set *ss = &g->set[ring];
    for (int s = 0; s < 2; s++) {
        uint64_t *ld = s ? a->yd : a->xd;
        size_t sl = s ? a->yslot : a->xslot;
        uint64_t *made = &g->set[ring].made[s][sl >> 6];
        if (*made >> (sl & 63) & 1) continue; /* (made for an earlier chip) */
        int origin = s ? chip_y0(e, c) : chip_x0(e, c);
#ifdef EMC_AVX512
        if (e->avx512 == 2) seg_line_gfni(&e->set[ring], ss, s, origin, ld);
        else
#endif
            seg_line(&e->set[ring], ss, s, origin, ld);
        *made |= 1ull << (sl & 63);
    }
    /* start: the carry into bit k directly (klo = k then), or from bit 0 */
    if (k >= 4) {
        const uint64_t *pl = a->xd + ss->nb, *rl = a->yd + ss->nb;
        uint64_t cy[4];
#ifdef EMC_AVX512
        if (e->avx512) {
            pp5_emcf_carry16_avx512(pl, rl, k, cy);
        } else
#endif
        {
            uint64_t pv[16], rv[16], low = (1ull << k) - 1;
            for (int j = 0; j < 16; j++) {
                pv[j] = pl[j] & low;
                rv[j] = rl[j] & low;
            }
            pp5_emcf_carry_into(pv, rv, 16, 16, k, cy, 4);
        }
        LD4(a->AK, cy);
        a->next_k = k;
    } else {
        a->AK = SPLAT4(0);
        a->next_k = 0;
    }
}

/* T of op o for chip c into *T (o reads T, not as the previous T op's; by
 * pointer: a 32-byte vector return would change the ABI without AVX). */
static inline __attribute__((always_inline)) void seg_chip_t(pp5_emc *e, seg *g, int c, const seg_op *o, seg_adder *a,
                                                              v4u *T)
{
    if (o->set_ring < 0) {
        *T = SPLAT4(0);
        return;
    }
    const int k = o->k;
    const seg_set *ss = &g->set[o->set_ring];
    if (!ss->adder) {
        LD4(*T, tree_bit(e, c, &e->set[o->set_ring], k, !o->lde));
        return;
    }
    if (o->set_ring != a->ring)
        seg_adder_on(e, g, c, a, o->set_ring);
    if (k == a->last_k) {
        *T = a->AT;
    } else if (k >= a->kc) {
        *T = SPLAT4((uint64_t)0 - (uint64_t)((a->qmin >> k) & 1));
    } else {
        if (!(a->next_k >= 0 && a->next_k <= k && k - a->next_k <= 4))
            seg_adder_start(e, g, c, a, k);
        for (; a->next_k <= k; a->next_k++)
            adder_bit(a->xd[a->next_k - a->klo], a->yd[a->next_k - a->klo], &a->AK, &a->AT);
        a->last_k = k;
        *T = a->AT;
    }
}

/* A fused run (seg_fuse) at op o of chip c (plane words at off): bits k, k+1,
 * ... of one set, T of each bit the next one of the adder (positioned by the
 * bit before) while below kc, then constants; the ops' own kernels. The op's
 * fields in locals: the plane stores could alias its bytes. Returns the ops it
 * took. */
static inline __attribute__((always_inline)) int seg_chip_run(const seg_op *o, size_t off, seg_adder *a, int isa,
                                                               v4u *Ep, v4u *Tp, v4u *Kp, v4u *Mp)
{
    int k0 = o->k, n = o->run;
    bool pair = o->shape == SH_CARRY_T_NM;
    int st = pair ? 2 : 1;
    int na = a->kc - k0; /* bits j < na from the adder (j = 0: T as set above) */
    na = na < 1 ? 1 : na > n ? n : na;
#ifdef EMC_AVX512
    if (isa == 2) { /* (seg_chips_avx512) */
        seg_run_avx512(o, off, pair, n, na, a->xd + (k0 + 1 - a->klo), a->yd + (k0 + 1 - a->klo), (uint64_t)a->qmin,
                       k0, Ep, Tp, Kp, &a->AK, Mp);
        if (na > 1) {
            a->AT = *Tp;
            a->last_k = k0 + na - 1;
            a->next_k = a->last_k + 1;
        }
        return st * n;
    }
#else
    (void)isa;
#endif
    v4u E = *Ep, T = *Tp, K = *Kp, M = *Mp;
    const seg_op *q = o;
#define SEG_RUN_BIT()                                                                                                 \
    do {                                                                                                              \
        uint64_t *tp = q[pair].m0 + off;                                                                              \
        if (pair) { /* the z-test's pair: Carry ← maj(T, ~M), then M' ← T where E */                                  \
            v4u Z;                                                                                                    \
            LD4(Z, q->m0 + off);                                                                                      \
            v4u B = ~Z;                                                                                               \
            K = (T & B) | (K & (T | B));                                                                              \
        }                                                                                                             \
        LD4(M, tp);                                                                                                   \
        v4u nm = M ^ ((M ^ T) & E);                                                                                   \
        ST4(tp, nm);                                                                                                  \
        q += st;                                                                                                      \
    } while (0)
    SEG_RUN_BIT();
    if (na > 1) {
        const uint64_t *xk = a->xd + (k0 + 1 - a->klo), *yk = a->yd + (k0 + 1 - a->klo);
        for (int j = 1; j < na; j++) {
            adder_bit(*xk++, *yk++, &a->AK, &T);
            SEG_RUN_BIT();
        }
        a->AT = T;
        a->last_k = k0 + na - 1;
        a->next_k = a->last_k + 1;
    }
    for (int j = na; j < n; j++) {
        T = SPLAT4((uint64_t)0 - ((uint64_t)a->qmin >> (k0 + j) & 1));
        SEG_RUN_BIT();
    }
#undef SEG_RUN_BIT
    *Tp = T;
    *Kp = K;
    *Mp = M;
    return st * n;
}

static inline __attribute__((always_inline)) int seg_chip(pp5_emc *e, seg *g, int c, bool snap_at_end, bool can_stop,
                                                          int isa)
{
    size_t off = (size_t)c * 4;
    const uint64_t *zero = plane(e, PL_ZERO, c);
    uint64_t *cyp = plane(e, PL_CARRY, c);
    v4u E, K, M, Mprev = SPLAT4(0), S, T = SPLAT4(0);
    LD4(E, plane(e, PL_E, c));
    LD4(K, cyp);
    seg_adder a;
    a.ring = -1;
    a.kc = 0;
    a.next_k = a.last_k = -1;
    a.qmin = 0;
    a.AK = a.AT = SPLAT4(0);
    a.xd = a.yd = NULL;
    a.klo = 0;
    a.xslot = (size_t)g->xslot[e->xlead[c]];
    a.yslot = (size_t)g->yslot[e->ylead[c]];
    for (int i = 0; i < g->n; i++) {
        const seg_op *o = &g->op[i];
        if (o->fill) {
            K = SPLAT4(o->fill_v ? ~0ull : 0);
            continue;
        }
        /* T not read (its mask is all ones), or as the previous T op's: kept */
        if (o->need_t && !o->t_same)
            seg_chip_t(e, g, c, o, &a, &T);
        if (o->run && o->shape == SH_WRITE_S) {
            /* a fused copy run (seg_fuse): M ← S where E, S each op's plane
             * (the plane the clock before it read) */
            int n = o->run;
            for (int j = 0; j < n; j++) {
                uint64_t *tp = o[j].m0 + off;
                LD4(S, o[j].s0 + off);
                LD4(M, tp);
                v4u nm = M ^ ((M ^ S) & E);
                ST4(tp, nm);
            }
            Mprev = M; /* S of the next clock is M before the last write */
            i += n - 1;
            continue;
        }
        if (o->run) { /* a fused run (seg_fuse) */
            i += seg_chip_run(o, off, &a, isa, &E, &T, &K, &M) - 1;
            Mprev = M; /* */
            continue;
        }
        if (o->shape == SH_LDE_E_NC) {
            /* a=0 b=e c=~cy lde (seg_fuse): E ← maj(0, E, ~Carry) = E ∧ ~Carry
             * (A-8 a bus without a source is all ones, AComp makes it 0; A-9
             * the majority; A-11 LdE not gated); no M, S or T read */
            E &= ~K;
            if (can_stop && !(E[0] | E[1] | E[2] | (E[3] & e->lastmask))) { /* (as the generic Enable load) */
                ST4(plane(e, PL_E, c), E);
                ST4(cyp, K);
                return i + 1;
            }
            continue;
        }
        uint64_t *mp = o->m0 + off;
        LD4(M, mp);
        switch (o->shape) {
        case SH_WRITE_T: { /* a=t b=0 c=0 mwrt: M ← T where E */
            v4u nm = M ^ ((M ^ T) & E);
            ST4(mp, nm);
            Mprev = M; /* S of the next clock is M before the write */
            continue;
        }
        case SH_CARRY_T_NM: { /* a=t b=~m c=cy ldc: Carry ← maj(T, ~M, Carry) */
            v4u B = ~M;
            K = (T & B) | (K & (T | B));
            continue;
        }
        default: break;
        }
        if (!o->need_s) S = SPLAT4(0);
        else if (o->s_mode == S_PREV_M) S = Mprev;
        else if (o->s_mode == S_PLANE) LD4(S, o->s0 + off);
        else LD4(S, e->s_gen[c] == e->gen ? e->s_snap + off : e->s_addr >= 0 ? plane(e, e->s_addr, c) : zero);
        if (o->shape == SH_WRITE_S) { /* a=s b=0 c=0 mwrt: M ← S where E */
            v4u nm = M ^ ((M ^ S) & E);
            ST4(mp, nm);
            Mprev = M;
            continue;
        }
        v4u A = ((S | SPLAT4(OPM(o, OPM_SS))) & (T | SPLAT4(OPM(o, OPM_TS)))) ^ SPLAT4(OPM(o, OPM_ACM)); /* */
        v4u B = ((E | SPLAT4(OPM(o, OPM_ES))) & (M | SPLAT4(OPM(o, OPM_MS)))) ^ SPLAT4(OPM(o, OPM_BCM));
        v4u C = (K | SPLAT4(OPM(o, OPM_CS))) ^ SPLAT4(OPM(o, OPM_CCM));
        if (o->write) {
            v4u nm = M ^ ((M ^ (A ^ B ^ C)) & E); /* A-9 sum, A-11 gated by E */
            ST4(mp, nm);
            Mprev = M; /* S of the next clock is M before the write */
        }
        v4u maj = (A & B) | (C & (A | B)); /* */
        if (o->ldc) K = maj; /* LdC not gated */
        if (o->lde) {
            E = maj; /* LdE not gated; E ← E ∧ f (enable_stays_0) */
            if (can_stop && !o->write && !(E[0] | E[1] | E[2] | (E[3] & e->lastmask))) {
                /* dark from here on: only Carry changes (seg_defer logs it; S of the
                 * next clock is then the plane this op read, as the log has it — not
                 * after a write, whose S is M before it) */
                ST4(plane(e, PL_E, c), E);
                ST4(cyp, K);
                return i + 1;
            }
        }
    }
    if (g->has_lde) {
        ST4(plane(e, PL_E, c), E);
        /* (update_lit from the registers: a stopped chip is dark, not lit) */
        g->lit[c >> 6] |= (uint64_t)((E[0] | E[1] | E[2] | (E[3] & e->lastmask)) != 0) << (c & 63);
    }
    ST4(cyp, K);
    if (snap_at_end) ST4(e->s_snap + off, Mprev);
    return 0;
}

static inline __attribute__((always_inline)) void seg_chips_body(pp5_emc *e, seg *g, const uint64_t *run,
                                                                  bool snap_at_end, bool can_stop, int isa)
{
    for (int wd = 0; wd < 4; wd++) {
        g->stopped[wd] = 0;
        g->lit[wd] = 0;
        for (uint64_t m = run[wd]; m; m &= m - 1) {
            int c = wd * 64 + __builtin_ctzll(m), st = seg_chip(e, g, c, snap_at_end, can_stop, isa);
            if (st) {
                g->stop[c] = (int16_t)st;
                g->stopped[wd] |= 1ull << (c & 63);
            }
        }
    }
}

/* The chip pass compiled three times: portable (the vector extensions on
 * SSE2), AVX2, and AVX-512 VL (the same 256-bit code; GCC joins its
 * and/or/xor chains into vpternlogq: the select M ^ ((M ^ T) & E) and the
 * adder's sum and carry become one or two instructions each). Chosen by
 * what the processor has and PP5_EMC_SIGN_ISA, so that the isa0 and isa1
 * test builds run the portable and AVX2 forms on any machine. */
static __attribute__((noinline)) void seg_chips_portable(pp5_emc *e, seg *g, const uint64_t *run, bool snap_at_end,
                                                         bool can_stop)
{
    seg_chips_body(e, g, run, snap_at_end, can_stop, 0);
}

#ifdef EMC_AVX512
__attribute__((target("avx2"), noinline)) static void seg_chips_avx2(pp5_emc *e, seg *g, const uint64_t *run,
                                                                      bool snap_at_end, bool can_stop)
{
    seg_chips_body(e, g, run, snap_at_end, can_stop, 1);
}

__attribute__((target("avx2,avx512f,avx512vl,avx512bw"), noinline)) static void
seg_chips_avx512(pp5_emc *e, seg *g, const uint64_t *run, bool snap_at_end, bool can_stop)
{
    seg_chips_body(e, g, run, snap_at_end, can_stop, 2);
}
#endif

static void seg_chips(pp5_emc *e, seg *g, const uint64_t *run, bool snap_at_end, bool can_stop)
{
#ifdef EMC_AVX512
    if (e->avx512) { /* (F, BW, VL, and PP5_EMC_SIGN_ISA ≥ 2) */
        seg_chips_avx512(e, g, run, snap_at_end, can_stop);
        return;
    }
    if (PP5_EMC_SIGN_ISA >= 1 && __builtin_cpu_supports("avx2")) {
        seg_chips_avx2(e, g, run, snap_at_end, can_stop);
        return;
    }
#endif
    seg_chips_portable(e, g, run, snap_at_end, can_stop);
}

/* Fused runs: the z-test's pairs (a=t b=~m c=cy ldc, then a=t b=0 c=0 mwrt
 * reading the same T) and field loads (a=t b=0 c=0 mwrt) over consecutive
 * bits of one set with the adder, and copies (a=s b=0 c=0 mwrt, S the plane
 * the clock before read: the z-test's copy loop); the chip pass takes each
 * in one loop. */
static void seg_fuse(seg *g)
{
    /* (run is 0 from seg_add) */
    for (int i = 0; i < g->n;) {
        seg_op *o = &g->op[i];
        if (o->lde && !o->write && !o->ldc && !o->need_t && !o->need_s &&
            o->opm == (1u << OPM_SS | 1u << OPM_TS | 1u << OPM_MS | 1u << OPM_ACM | 1u << OPM_CCM)) {
            /* a=0 b=e c=~cy lde: A = 1 complemented, B = E, C = ~Carry (the
             * sources' masks as seg_chip's generic kernel reads them) */
            o->shape = SH_LDE_E_NC;
            i++;
            continue;
        }
        bool head = o->need_t && !o->t_same && o->set_ring >= 0 && g->set[o->set_ring].adder;
        int n = 0;
        if (head && o->shape == SH_CARRY_T_NM) {
            while (i + 2 * n + 1 < g->n && n < 255) {
                const seg_op *a = &g->op[i + 2 * n], *b = a + 1;
                if (!(a->shape == SH_CARRY_T_NM && a->need_t && !a->t_same && a->set_ring == o->set_ring &&
                      a->k == o->k + n && b->shape == SH_WRITE_T && b->t_same))
                    break;
                n++;
            }
            if (n >= 2) o->run = (uint8_t)n;
            i += n >= 2 ? 2 * n : 1;
            continue;
        }
        if (o->shape == SH_WRITE_S && o->s_mode == S_PLANE) { /* (the z-test's copy loop) */
            while (i + n < g->n && n < 255 && g->op[i + n].shape == SH_WRITE_S && g->op[i + n].s_mode == S_PLANE) n++;
            if (n >= 2) o->run = (uint8_t)n;
            i += n >= 2 ? n : 1;
            continue;
        }
        if (head && o->shape == SH_WRITE_T) {
            while (i + n < g->n && n < 255) {
                const seg_op *a = &g->op[i + n];
                if (!(a->shape == SH_WRITE_T && a->need_t && !a->t_same && a->set_ring == o->set_ring &&
                      a->k == o->k + n))
                    break;
                n++;
            }
            if (n >= 2) o->run = (uint8_t)n;
            i += n >= 2 ? n : 1;
            continue;
        }
        i++;
    }
}

/* Execute the decoded segment (the QEE is at its end already). */
void pp5_emcf_seg_flush(pp5_emc *e, seg *g)
{
    if (!g->n) {
        if (g->clocks) {
            e->s_addr = g->prev_plane == PL_ZERO ? -1 : g->prev_plane;
            e->gen += (uint64_t)g->clocks;
        }
        /* (no op: seg_add changes the segment's other fields only after it
         * adds one, and the last flush with ops reset them — seg_reset's
         * stores are not needed; ≈ 10 of these a triangle, and 1 408 a frame
         * for the configuration words) */
        g->clocks = 0;
        return;
    }
    /* a running chip's deferred Carry updates: dropped when the first op that
     * touches Carry or memory overwrites Carry without reading it, applied
     * when it reads Carry or writes memory (as settle_pending), else kept */
    int settle = 0;
    for (int i = 0; i < g->n && !settle; i++)
        settle = g->op[i].ldc && !g->op[i].reads_c ? 1 : g->op[i].reads_c || g->op[i].write ? 2 : 0;
    uint64_t run[4] = {0}, dark[4] = {0};
    for (int wd = 0; wd * 64 < e->nchips; wd++) {
        int nw = e->nchips - wd * 64;
        uint64_t all = nw >= 64 ? ~0ull : (1ull << nw) - 1;
        run[wd] = e->eany[wd];
        if (g->op[0].need_s && g->op[0].s_mode == S_INIT) /* (a chip holding S as a snapshot runs: the log reads planes) */
            for (int i = 0; i < 64 && i < nw; i++)
                if (e->s_gen[wd * 64 + i] == e->gen) run[wd] |= 1ull << i;
        dark[wd] = all & ~run[wd];
        if (settle == 1) e->pend[wd] &= ~run[wd];
        else if (settle == 2)
            for (uint64_t p = run[wd] & e->pend[wd]; p; p &= p - 1) pp5_emcf_flush_chip(e, wd * 64 + __builtin_ctzll(p));
    }
    bool can_stop = true; /* (a chip going dark at an Enable load stops, its Carry logged) */
    if (!seg_log_room(e, g)) { /* out of memory for the log: the dark chips run too, none stops */
        for (int wd = 0; wd < 4; wd++) {
            for (uint64_t p = dark[wd] & e->pend[wd]; p; p &= p - 1) pp5_emcf_flush_chip(e, wd * 64 + __builtin_ctzll(p));
            run[wd] |= dark[wd];
            dark[wd] = 0;
        }
        can_stop = false;
    }
    bool snap_at_end = g->prev_write;
    if (e->groups_dirty) pp5_emcf_regroup(e);
    g->arena_len = 0; /* (kmin, kmax: seg_add) */
    g->slots_made = false;
    for (int r = 0; r < QEE_SETS; r++) {
        seg_set *ss = &g->set[r];
        int km = ss->kmax;
        if (km < 0) continue;
        const qee_set *s = &e->set[r];
        /* the adder's geometry: whole rows in a word, 16×16 (vspread of four rows);
         * the carry into a bit k ≥ 4 comes directly, below it the adder runs from bit 0 */
        ss->adder = e->fast_uv && e->tw == 16 && e->th == 16 && km <= 63 &&
                    (s->coef[4] & (((u128)1 << (km + 1)) - 1)) == 0;
        if (!ss->adder) continue;
        for (int j = 0; j < 6; j++) /* (km ≤ 63: sext of the low word, no 128-bit shifts) */
            ss->co[j] = (int64_t)((uint64_t)s->coef[j] << (63 - km)) >> (63 - km);
        ss->klo = ss->kmin >= 4 ? ss->kmin : 0;
        ss->nb = km - ss->klo + 1;
        if (!seg_prepare_set(e, g, r, run)) ss->adder = false; /* (out of memory: tree_bit) */
    }
    seg_fuse(g);
    /* The dark chips' Carry after a segment whose last Carry overwrite is a
     * constant (the z-test's preset) is that constant (seg_defer). When no op
     * reads Carry before the first overwrite (settle 1: the running chips'
     * pending entries are dropped too), no chip's Carry before the segment
     * is ever read, so the whole plane is filled here, one memset, instead of
     * four stores for each of the ≈ 50 dark chips after the pass (the chips
     * that stop at an Enable load are filled after it, as before). */
    bool dark_filled = false;
    if (settle == 1 && g->last_over >= 0 && g->op[g->last_over].fill &&
        __builtin_popcountll(dark[0]) + __builtin_popcountll(dark[1]) + __builtin_popcountll(dark[2]) +
                __builtin_popcountll(dark[3]) >= 8) {
        memset(plane(e, PL_CARRY, 0), g->op[g->last_over].fill_v ? 0xff : 0, e->pw * sizeof(uint64_t));
        dark_filled = true;
    }
    seg_chips(e, g, run, snap_at_end, can_stop);
    if (g->last_ldc >= 0) e->carry_fill = g->op[g->last_ldc].fill ? 1 + g->op[g->last_ldc].fill_v : 0;
    seg_defer(e, g, dark, dark_filled);
    if (g->has_lde) /* (update_lit for four-word chips: seg_chip's lit bits, a word of chips at a time) */
        for (int wd = 0; wd < 4; wd++) e->eany[wd] = (e->eany[wd] & ~run[wd]) | g->lit[wd];
    e->s_addr = g->prev_plane == PL_ZERO ? -1 : g->prev_plane;
    e->gen += (uint64_t)g->clocks;
    if (snap_at_end)
        for (int wd = 0; wd < 4; wd++)
            for (uint64_t m = run[wd] & ~g->stopped[wd]; m; m &= m - 1) e->s_gen[wd * 64 + __builtin_ctzll(m)] = e->gen;
    pp5_emcf_seg_reset(g);
}
