/* The fast EMC array: creation, the accessors and the plane/field read-out
 * (see emc_int.h for the file map). */
#include "pp5/accel/emc_int.h"

/* n zeroed words on a 64-byte boundary: a four-word chip's words then never
 * straddle two cache lines (a split load or store costs more). free() them. */
static uint64_t *zalloc64(size_t n)
{
    size_t bytes = (n * sizeof(uint64_t) + 63) / 64 * 64;
    uint64_t *p = aligned_alloc(64, bytes ? bytes : 64);
    if (p) memset(p, 0, bytes);
    return p;
}

ls_status pp5_emc_create(pp5_emc **out, const pp5_emc_options *opt, ls_diag *d)
{
    pp5_emc_options o;
    if (opt) o = *opt; else pp5_emc_options_default(&o);
    *out = NULL;
    ls_status st = emc_ref_check_options(&o, d); /* (the model's rule) */
    if (st != LS_OK)
        return st;
    if (!o.config_origin_full && ((o.tile_w & (o.tile_w - 1)) || (o.tile_h & (o.tile_h - 1))))
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "pp5 emc: origins of high-order bits only (A-14 "
                           "alternative) need power-of-two tile sides");
    pp5_emc *e = calloc(1, sizeof *e);
    if (!e) return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "pp5 emc: out of memory");
    e->o = o;
    e->x0_mask = o.config_origin_full ? 0x7ffu : 0x7ffu & ~(uint32_t)(o.tile_w - 1);
    e->y0_mask = o.config_origin_full ? 0x7ffu : 0x7ffu & ~(uint32_t)(o.tile_h - 1);
    e->tw = o.tile_w;
    e->th = o.tile_h;
    e->w = o.tile_w * o.chips_x;
    e->h = o.tile_h * o.chips_y;
    e->nchips = o.chips_x * o.chips_y;
    e->npix = e->w * e->h;
    e->tpix = e->tw * e->th;
    e->wpc = (e->tpix + 63) / 64;
    e->lastmask = e->tpix % 64 ? (1ull << (e->tpix % 64)) - 1 : ~0ull;
    e->pw = (size_t)e->nchips * (size_t)e->wpc;
    size_t nc = (size_t)e->nchips;
    e->ps = e->pw + PLANE_PAD;
    e->mem = zalloc64(e->ps * NPLANES);
    e->s_snap = zalloc64(e->pw);
    e->s_gen = calloc(nc, sizeof(uint64_t));
    e->config = calloc(nc, sizeof *e->config);
    e->te = calloc(nc, sizeof *e->te);
    e->t_carry = zalloc64(e->pw);
    e->t_last = zalloc64(e->pw);
    e->t_win = zalloc64(e->pw * T_WIN);
    e->pr = calloc(nc * (size_t)(e->tw + e->th), sizeof(u128));
    e->pend_from = malloc(nc * sizeof *e->pend_from);
    e->xlead = calloc(nc, sizeof *e->xlead);
    e->ylead = calloc(nc, sizeof *e->ylead);
    bool fast = 64 % e->tw == 0 && e->th <= 64;
    if (fast) {
        /* (not zeroed: 2 KB a chip and axis, every field behind the uid, which
         * is set below, and line_key's header) */
        e->xline = malloc(nc * sizeof *e->xline);
        e->yline = malloc(nc * sizeof *e->yline);
    }
    if (!e->mem || !e->s_snap || !e->s_gen || !e->config || !e->te || !e->t_carry || !e->t_last || !e->t_win ||
        !e->pr ||
        !e->xlead || !e->ylead || !e->pend_from || (fast && (!e->xline || !e->yline))) {
        pp5_emc_destroy(e);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "pp5 emc: out of memory");
    }
    e->gen = 1;
    e->s_addr = -1;
    for (int w = 0; w < 4; w++) e->ones4[w] = ~0ull;
    for (int k = 0; k < e->nchips; k++) {
        uint32_t x0 = (uint32_t)(o.tile_w * (k % o.chips_x)), y0 = (uint32_t)(o.tile_h * (k / o.chips_x));
        e->config[k] = (x0 & 0x7ff) | (y0 & 0x7ff) << 11;
        e->te[k].uid = e->te[k].last_uid = e->te[k].win_uid = UINT64_MAX;
        e->pend_from[k] = -1;
    }
    e->rt_set = -1;
    e->groups_dirty = true;
    if (fast) {
        for (int k = 0; k < e->nchips; k++)
            for (int a = 0; a < 2; a++) {
                axis_line *L = a ? &e->yline[k] : &e->xline[k];
                L->uid = UINT64_MAX;
                L->origin = L->m_used = L->rk = L->rk_m = -1;
                L->win_valid = 0;
            }
        e->fast_uv = true;
        e->rpw = 64 / e->tw;
        e->row_ones = e->tw == 64 ? ~0ull : (1ull << e->tw) - 1;
        e->rows_mask = e->rpw == 64 ? ~0ull : (1ull << e->rpw) - 1;
        for (int r = 0; r < e->rpw; r++) e->rep |= 1ull << (r * e->tw);
        if (e->rpw <= 8) {
            e->vspread = calloc((size_t)1 << e->rpw, sizeof(uint64_t));
            if (!e->vspread) {
                pp5_emc_destroy(e);
                return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "pp5 emc: out of memory");
            }
            for (unsigned rows = 0; rows < 1u << e->rpw; rows++)
                for (int r = 0; r < e->rpw; r++)
                    if (rows >> r & 1) e->vspread[rows] |= e->row_ones << (r * e->tw);
        }
    }
    if (pp5_emcf_block_capable(e)) e->seg = pp5_emcf_seg_new(e); /* (none: pp5_emc_run steps) */
#ifdef EMC_AVX512
    __builtin_cpu_init();
    e->avx512 = PP5_EMC_SIGN_ISA >= 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                __builtin_cpu_supports("avx512vl");
    if (e->avx512 && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("gfni")) e->avx512 = 2;
    e->bits_gfni = e->avx512 == 2 && __builtin_cpu_supports("avx512vbmi");
#endif
    *out = e;
    return LS_OK;
}

void pp5_emc_destroy(pp5_emc *e)
{
    if (!e) return;
    free(e->mem);
    free(e->s_snap);
    free(e->s_gen);
    free(e->config);
    free(e->te);
    free(e->t_carry);
    free(e->t_last);
    free(e->t_win);
    free(e->vspread);
    free(e->pr);
    free(e->pend_from);
    free(e->log);
    free(e->arch);
    free(e->xlead);
    free(e->ylead);
    free(e->xline);
    free(e->yline);
    pp5_emcf_seg_free(e->seg);
    free(e);
}


void pp5_emc_sync(pp5_emc *e)
{
    seg_settle(e);
    pp5_emcf_flush_all(e);
}
int pp5_emc_width(const pp5_emc *e) { return e->w; }
int pp5_emc_height(const pp5_emc *e) { return e->h; }
int pp5_emc_chips(const pp5_emc *e) { return e->nchips; }
uint64_t pp5_emc_extop_count(const pp5_emc *e, int i) { return (i >= 0 && i < 6) ? e->extops[i] : 0; }
uint64_t pp5_emc_warning_count(const pp5_emc *e) { return e->warnings; }
uint64_t pp5_emc_sets(const pp5_emc *e) { return (uint64_t)e->nset_total; }
#ifdef PP5_PLANTED_FIELD /* (left out: the accelerator does not keep it up) */
uint64_t pp5_emc_planted(const pp5_emc *e) { (void)e; return 0; }
#endif
uint32_t pp5_emc_config(const pp5_emc *e, int k) { return (k >= 0 && k < e->nchips) ? e->config[k] : 0; }
void pp5_emc_set_config(pp5_emc *e, int k, uint32_t v)
{
    if (k < 0 || k >= e->nchips) return;
    seg_settle(e);
    if (chip_pending(e, k)) pp5_emcf_flush_chip(e, k); /* their T used the old origin */
    e->config[k] = v & 0x3fffff;
    e->groups_dirty = true;
}

/* chip and bit index of local pixel (x, y) */
static int locate(const pp5_emc *e, int x, int y, int *bit)
{
    int tx = x / e->tw, ty = y / e->th;
    *bit = (y % e->th) * e->tw + x % e->tw;
    return ty * e->o.chips_x + tx;
}
static int getbit(const uint64_t *pl, int i) { return (int)(pl[i >> 6] >> (i & 63) & 1); }

int pp5_emc_mem_bit(const pp5_emc *e, int x, int y, int a)
{
    if (x < 0 || y < 0 || x >= e->w || y >= e->h || a < 0 || a >= PP5_EMC_MEM_BITS) return 0;
    seg_settle(e);
    int i, c = locate(e, x, y, &i);
    return getbit(plane(e, a, c), i);
}
uint64_t pp5_emc_field(const pp5_emc *e, int x, int y, int a, int len)
{
    uint64_t v = 0;
    for (int i = 0; i < len && i < 64; i++) v |= (uint64_t)pp5_emc_mem_bit(e, x, y, a + i) << i;
    return v;
}
void pp5_emc_set_field(pp5_emc *e, int x, int y, int a, int len, uint64_t v)
{
    if (x < 0 || y < 0 || x >= e->w || y >= e->h) return;
    seg_settle(e);
    int i, c = locate(e, x, y, &i);
    if (chip_pending(e, c)) pp5_emcf_flush_chip(e, c); /* they read this memory */
    if (e->s_addr >= 0 && e->s_addr >= a && e->s_addr < a + len && e->s_gen[c] != e->gen) {
        /* keep S = the value read, not the new one */
        memcpy(e->s_snap + (size_t)c * (size_t)e->wpc, plane(e, e->s_addr, c), (size_t)e->wpc * 8);
        e->s_gen[c] = e->gen;
    }
    for (int b = 0; b < len && b < 64; b++) {
        if (a + b < 0 || a + b >= PP5_EMC_MEM_BITS) continue;
        uint64_t *pl = plane(e, a + b, c), m = 1ull << (i & 63);
        pl[i >> 6] = (v >> b & 1) ? pl[i >> 6] | m : pl[i >> 6] & ~m;
    }
}
int pp5_emc_enable(const pp5_emc *e, int x, int y)
{
    if (x < 0 || y < 0 || x >= e->w || y >= e->h) return 0;
    seg_settle(e);
    int i, c = locate(e, x, y, &i);
    return getbit(plane(e, PL_E, c), i);
}
int pp5_emc_carry(const pp5_emc *e, int x, int y)
{
    if (x < 0 || y < 0 || x >= e->w || y >= e->h) return 0;
    seg_settle(e);
    int i, c = locate(e, x, y, &i);
    /* logically const: brings the chip's deferred Carry updates up to date */
    if (chip_pending(e, c)) pp5_emcf_flush_chip((pp5_emc *)e, c);
    return getbit(plane(e, PL_CARRY, c), i);
}

/* len ≤ 64 bits from src at bit spos to dst at bit dpos */
static void copy_bits(uint64_t *dst, size_t dpos, const uint64_t *src, size_t spos, int len)
{
    while (len > 0) {
        int n = len < 64 ? len : 64;
        size_t sw = spos >> 6;
        int sb = (int)(spos & 63);
        uint64_t v = src[sw] >> sb;
        if (sb && sb + n > 64) v |= src[sw + 1] << (64 - sb);
        if (n < 64) v &= (1ull << n) - 1;
        size_t dw = dpos >> 6;
        int db = (int)(dpos & 63);
        int n1 = 64 - db < n ? 64 - db : n;
        uint64_t m1 = (n1 == 64 ? ~0ull : ((1ull << n1) - 1)) << db;
        dst[dw] = (dst[dw] & ~m1) | ((v << db) & m1);
        if (n1 < n) {
            uint64_t m2 = (1ull << (n - n1)) - 1;
            dst[dw + 1] = (dst[dw + 1] & ~m2) | ((v >> n1) & m2);
        }
        len -= n;
        spos += (size_t)n;
        dpos += (size_t)n;
    }
}

void pp5_emc_plane(const pp5_emc *e, int which, uint64_t *out)
{
    int a = which == PP5_EMC_PLANE_E ? PL_E : which == PP5_EMC_PLANE_CARRY ? PL_CARRY
          : (which >= 0 && which < PP5_EMC_MEM_BITS) ? which : PL_ZERO;
    seg_settle(e);
    if (a == PL_CARRY) pp5_emcf_flush_all((pp5_emc *)e); /* logically const, as pp5_emc_carry */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (e->tw == 16 && e->w % 16 == 0) {
        /* (the default chips) a chip row is one aligned 16-bit piece of the
         * picture's words (bit order = byte order here): no merging, and every
         * piece is written, so no clearing first */
        typedef uint16_t __attribute__((may_alias)) u16_alias;
        u16_alias *o16 = (u16_alias *)out;
        for (int c = 0; c < e->nchips; c++) {
            const uint64_t *src = plane(e, a, c);
            size_t x0 = (size_t)(c % e->o.chips_x) * 16, y0 = (size_t)(c / e->o.chips_x) * (size_t)e->th;
            for (int ly = 0; ly < e->th; ly++)
                o16[((y0 + (size_t)ly) * (size_t)e->w + x0) >> 4] = (uint16_t)(src[ly >> 2] >> (16 * (ly & 3)));
        }
        return;
    }
#endif
    if (64 % e->tw == 0) {
        /* whole chip rows sit in one word on both sides */
        memset(out, 0, (size_t)e->npix / 8);
        uint64_t rm = e->tw == 64 ? ~0ull : (1ull << e->tw) - 1;
        for (int c = 0; c < e->nchips; c++) {
            const uint64_t *src = plane(e, a, c);
            size_t x0 = (size_t)(c % e->o.chips_x) * (size_t)e->tw, y0 = (size_t)(c / e->o.chips_x) * (size_t)e->th;
            for (int ly = 0; ly < e->th; ly++) {
                size_t sp = (size_t)ly * (size_t)e->tw, dp = (y0 + (size_t)ly) * (size_t)e->w + x0;
                out[dp >> 6] |= (src[sp >> 6] >> (sp & 63) & rm) << (dp & 63);
            }
        }
        return;
    }
    /* (every bit is written below; cleared first all the same, so that the
     * compiler's xor form of copy_bits' masked merge never reads undefined
     * bytes: valgrind memcheck flagged the caller's compares) */
    memset(out, 0, (size_t)e->npix / 8);
    for (int c = 0; c < e->nchips; c++) {
        const uint64_t *src = plane(e, a, c);
        size_t x0 = (size_t)(c % e->o.chips_x) * (size_t)e->tw, y0 = (size_t)(c / e->o.chips_x) * (size_t)e->th;
        for (int ly = 0; ly < e->th; ly++)
            for (int lx = 0; lx < e->tw; lx += 64)
                copy_bits(out, (y0 + (size_t)ly) * (size_t)e->w + x0 + (size_t)lx, src,
                          (size_t)ly * (size_t)e->tw + (size_t)lx, e->tw - lx < 64 ? e->tw - lx : 64);
    }
}

/* ---- fields as bytes (read-back) -------------------------------------------
 * A field of up to 8 bits as one byte a pixel: bit b of the byte is bit b of
 * the pixel's plane first + b. 64 pixels of one chip word and 8 planes are an
 * 8×64 bit matrix to transpose: bytes first (byte j of the 8 plane words into
 * one word), then bits (an 8×8 transpose per word). */


/* 64 pixels' bytes from the 8 plane words x[b] (bit p of x[b] = bit b of
 * pixel p): byte p of out[p / 8]. */
static void field_word_c(const uint64_t x[8], uint64_t out[8])
{
    for (int j = 0; j < 8; j++) {
        uint64_t g = 0; /* byte b = byte j of plane b */
        for (int b = 0; b < 8; b++) g |= (x[b] >> (8 * j) & 0xff) << (8 * b);
        out[j] = pp5_emc_transpose8(g);
    }
}

#if defined(EMC_AVX512)
__attribute__((target("avx512f,avx512bw,avx512vbmi,gfni"))) static void field_word_gfni(const uint64_t x[8],
                                                                                       uint64_t out[8])
{
    _mm512_storeu_si512(out, bits_transpose_8x64_gfni(_mm512_loadu_si512(x)));
}
#endif

void pp5_emc_field8(const pp5_emc *e, int first, int n, uint8_t *out)
{
    seg_settle(e);
    if (n < 0) n = 0;
    if (n > 8) n = 8;
    int pl[8]; /* the planes read (planes past n, or outside memory, read 0) */
    for (int b = 0; b < 8; b++) {
        long a = (long)first + b;
        pl[b] = b < n && a >= 0 && a < PP5_EMC_MEM_BITS ? (int)a : PL_ZERO;
    }
    void (*word)(const uint64_t *, uint64_t *) = field_word_c;
#if defined(EMC_AVX512)
    if (PP5_EMC_SIGN_ISA >= 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("gfni"))
        word = field_word_gfni;
#endif
    for (int c = 0; c < e->nchips; c++) {
        const uint64_t *src[8];
        for (int b = 0; b < 8; b++) src[b] = plane(e, pl[b], c);
        const size_t x0 = (size_t)(c % e->o.chips_x) * (size_t)e->tw, y0 = (size_t)(c / e->o.chips_x) * (size_t)e->th;
        for (int w = 0; w < e->wpc; w++) {
            uint64_t x[8], bytes[8];
            for (int b = 0; b < 8; b++) x[b] = src[b][w];
            word(x, bytes);
            const uint8_t *by = (const uint8_t *)bytes;
            if (e->tw == 16 && 64 * w + 64 <= e->tpix) {
                /* (the default chips) four whole chip rows */
                uint8_t *o = out + (y0 + 4 * (size_t)w) * (size_t)e->w + x0;
                for (int r = 0; r < 4; r++) memcpy(o + (size_t)r * (size_t)e->w, by + 16 * r, 16);
                continue;
            }
            /* pixel p of the chip is (p % tw, p / tw): whole runs of a chip row */
            for (int p = 0; p < 64;) {
                const int lp = 64 * w + p, lx = lp % e->tw, ly = lp / e->tw;
                int run = e->tw - lx < 64 - p ? e->tw - lx : 64 - p;
                if (lp >= e->tpix) break;
                if (run > e->tpix - lp) run = e->tpix - lp;
                memcpy(out + (y0 + (size_t)ly) * (size_t)e->w + x0 + (size_t)lx, by + p, (size_t)run);
                p += run;
            }
        }
    }
}

/* ---- QEE ---------------------------------------------------------------- */

/* the chip's origin X0<0:10>, Y0<0:10>; with config_origin_full off
 * only the bits above the tile size count (the register holds the high-order
 * bits of the chip's screen area, US 4,783,649; the low ones are the pixel's
 * place in the chip), so origins act as multiples of the tile size. */
