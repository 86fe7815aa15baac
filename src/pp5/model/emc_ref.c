/* The EMC array model: the straightforward PP5 EMC array (src/pp5/emc.c as of
 * commit deec2ab, before the per-chip rewrite), under its own names;
 * tests/pp5/test_emc_diff.c checks the fast array against it clock by clock,
 * and pp5_render draws with it under PP5_ENGINE_MODEL. Whole-array bit-planes, per-pixel Q
 * evaluation: slow and simple on purpose. Do not optimise.
 *
 * One deliberate change from that commit: T is always the bit of Q at the
 * chips' current configuration. The original returned a cached plane after a
 * configuration change when the same bit was read again without a QEE shift
 * on some paths and re-evaluated on others; the cache check now includes
 * coords_dirty (the rewrite has the same rule: docs/pp5-render.md).
 * Second: emc_ref_set_field takes S's snapshot before writing the field, as
 * its comment always said ("keep S = the value read, not the new one"); the
 * original copied the plane after the write (and, with S = 0 and a negative
 * address, read a plane before the array). Both only concern the host back
 * door (set_field/set_config), never a pin sequence. */
#include "pp5/model/emc_ref.h"
#include "pp5/model/emc_bits.h"
#include "pp5/model/emc_state.h"
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

enum { QEE_SETS = 8, SET_TOKEN_TO_BIT0 = 2 /* seed: LSB "precedes the coefficient LSBs by 2" */ };

typedef struct qee_set {
    uint64_t token_shift;   /* shift index on which the LSB token was consumed */
    u128 coef[6];           /* bits received so far, unsigned (two's complement mod 2^m) */
    int m;                  /* bits received */
    bool open;              /* still collecting */
    /* evaluation cache */
    int eval_m;             /* bits of the coefficients used for q (0: none) */
    int plane_k;            /* bit of q held in plane (-1: none) */
} qee_set;

struct emc_ref {
    pp5_emc_options o;
    int w, h, nchips, npix, nwords;
    uint64_t *mem;          /* PP5_EMC_MEM_BITS planes */
    uint64_t *e, *carry, *s_plane, *t_plane, *zero, *tmp_sum, *tmp_c, *tmp_e;
    int s_addr;             /* S = plane s_addr, or s_plane when -1 */
    uint32_t *config;       /* per chip */
    uint16_t *px, *py;      /* absolute coordinates per pixel */
    bool coords_dirty;
    /* QEE */
    qee_set set[QEE_SETS];
    int nset_total;         /* sets started (ring index = n % QEE_SETS) */
    uint64_t shifts;
    int rt_set;             /* R_T source set (ring index), -1 = no set: T = 0 */
    int rt_k;
    int plane_owner;        /* set whose plane is in t_plane, -1 */
    uint64_t *q64;
    uint64_t *qplanes;      /* bits of q64 as planes: all 64 (win_k0 = 64) or the eight
                             * bits win_k0..win_k0+7 */
    int win_k0;
    u128 *q128;
    int q_owner;
    /* pin latches */
    uint8_t lat_addr_l, lat_addr_h, lat_dat[6], lat_lsb;
    uint64_t extops[6], warnings;
#ifdef PP5_PLANTED_FIELD /* tests/pp5: a part of the state list only the model keeps up */
    uint64_t planted;
#endif
};

void pp5_emc_options_default(pp5_emc_options *o)
{
    memset(o, 0, sizeof *o);
    o->tile_w = 16;
    o->tile_h = 16;
    o->chips_x = 8;
    o->chips_y = 8;
    o->sum_table = 0x96;    /* A⊕B⊕C to memory */
    o->carry_table = 0xE8;  /* maj(A,B,C) to Carry */
    o->enable_table = 0xE8; /* maj(A,B,C) to Enable */
    o->mwrt_gated_by_e = true;
    o->loads_gated_by_e = false;
    o->s_source = PP5_S_PREV_READ;
    o->qee_latency = 22;
    o->config_origin_full = true;
}

/* The geometry and latency the array accepts (the model's rule; the fast
 * array checks the same). */
ls_status emc_ref_check_options(const pp5_emc_options *o, ls_diag *d)
{
    if (o->tile_w < 1 || o->tile_h < 1 || o->chips_x < 1 || o->chips_y < 1 ||
        o->tile_w * o->chips_x > 2048 || o->tile_h * o->chips_y > 2048 ||
        o->chips_x * o->chips_y > 256 || (o->tile_w * o->chips_x * o->tile_h * o->chips_y) % 64 ||
        o->qee_latency < 0 || o->qee_latency > 64)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "pp5 emc: bad geometry (need ≤ 256 chips, ≤ 2048 "
                           "pixels a side, a pixel count that is a multiple of 64, latency 0..64)");
    return LS_OK;
}

static uint64_t *plane(emc_ref *e, int a) { return e->mem + (size_t)a * (size_t)e->nwords; }

ls_status emc_ref_create(emc_ref **out, const pp5_emc_options *opt, ls_diag *d)
{
    pp5_emc_options o;
    if (opt) o = *opt; else pp5_emc_options_default(&o);
    *out = NULL;
    ls_status st = emc_ref_check_options(&o, d); /* (the model's rule) */
    if (st != LS_OK)
        return st;
    emc_ref *e = calloc(1, sizeof *e);
    if (!e) return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "pp5 emc: out of memory");
    e->o = o;
    e->w = o.tile_w * o.chips_x;
    e->h = o.tile_h * o.chips_y;
    e->nchips = o.chips_x * o.chips_y;
    e->npix = e->w * e->h;
    e->nwords = e->npix / 64;
    size_t nw = (size_t)e->nwords;
    e->mem = calloc(nw * (PP5_EMC_MEM_BITS + 8), sizeof(uint64_t));
    e->config = calloc((size_t)e->nchips, sizeof *e->config);
    e->px = calloc((size_t)e->npix, sizeof *e->px);
    e->py = calloc((size_t)e->npix, sizeof *e->py);
    e->q64 = calloc((size_t)e->npix, sizeof *e->q64);
    e->q128 = calloc((size_t)e->npix, sizeof *e->q128);
    e->qplanes = calloc((size_t)e->npix, sizeof *e->qplanes);
    if (!e->qplanes || !e->mem || !e->config || !e->px || !e->py || !e->q64 || !e->q128) {
        emc_ref_destroy(e);
        return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "pp5 emc: out of memory");
    }
    uint64_t *extra = e->mem + nw * PP5_EMC_MEM_BITS;
    e->e = extra;
    e->carry = extra + nw;
    e->s_plane = extra + 2 * nw;
    e->t_plane = extra + 3 * nw;
    e->zero = extra + 4 * nw;
    e->tmp_sum = extra + 5 * nw;
    e->tmp_c = extra + 6 * nw;
    e->tmp_e = extra + 7 * nw;
    e->s_addr = -1;
    for (int k = 0; k < e->nchips; k++) {
        uint32_t x0 = (uint32_t)(o.tile_w * (k % o.chips_x)), y0 = (uint32_t)(o.tile_h * (k / o.chips_x));
        e->config[k] = (x0 & 0x7ff) | (y0 & 0x7ff) << 11;
    }
    e->coords_dirty = true;
    e->rt_set = -1;
    e->plane_owner = -1;
    e->q_owner = -1;
    *out = e;
    return LS_OK;
}

void emc_ref_destroy(emc_ref *e)
{
    if (!e) return;
    free(e->mem);
    free(e->config);
    free(e->px);
    free(e->py);
    free(e->q64);
    free(e->q128);
    free(e->qplanes);
    free(e);
}

int emc_ref_width(const emc_ref *e) { return e->w; }
int emc_ref_height(const emc_ref *e) { return e->h; }
int emc_ref_chips(const emc_ref *e) { return e->nchips; }
uint64_t emc_ref_extop_count(const emc_ref *e, int i) { return (i >= 0 && i < 6) ? e->extops[i] : 0; }
uint64_t emc_ref_warning_count(const emc_ref *e) { return e->warnings; }
uint64_t emc_ref_sets(const emc_ref *e) { return (uint64_t)e->nset_total; }
#ifdef PP5_PLANTED_FIELD
uint64_t emc_ref_planted(const emc_ref *e) { return e->planted; }
#endif
uint32_t emc_ref_config(const emc_ref *e, int k) { return (k >= 0 && k < e->nchips) ? e->config[k] : 0; }
void emc_ref_set_config(emc_ref *e, int k, uint32_t v)
{
    if (k < 0 || k >= e->nchips) return;
    e->config[k] = v & 0x3fffff;
    e->coords_dirty = true;
}

static int pix(const emc_ref *e, int x, int y) { return y * e->w + x; }
static int getbit(const uint64_t *pl, int p) { return (int)(pl[p >> 6] >> (p & 63) & 1); }

int emc_ref_mem_bit(const emc_ref *e, int x, int y, int a)
{
    if (x < 0 || y < 0 || x >= e->w || y >= e->h || a < 0 || a >= PP5_EMC_MEM_BITS) return 0;
    return getbit(e->mem + (size_t)a * (size_t)e->nwords, pix(e, x, y));
}
uint64_t emc_ref_field(const emc_ref *e, int x, int y, int a, int len)
{
    uint64_t v = 0;
    for (int i = 0; i < len && i < 64; i++) v |= (uint64_t)emc_ref_mem_bit(e, x, y, a + i) << i;
    return v;
}
void emc_ref_set_field(emc_ref *e, int x, int y, int a, int len, uint64_t v)
{
    if (x < 0 || y < 0 || x >= e->w || y >= e->h) return;
    int p = pix(e, x, y);
    if (e->s_addr >= 0 && e->s_addr >= a && e->s_addr < a + len) { /* keep S = the value read, not the new one */
        memcpy(e->s_plane, plane(e, e->s_addr), (size_t)e->nwords * 8); /* (reference: copied before the write) */
        e->s_addr = -1;
    }
    for (int i = 0; i < len && i < 64; i++) {
        if (a + i < 0 || a + i >= PP5_EMC_MEM_BITS) continue;
        uint64_t *pl = plane(e, a + i);
        uint64_t m = 1ull << (p & 63);
        pl[p >> 6] = (v >> i & 1) ? pl[p >> 6] | m : pl[p >> 6] & ~m;
    }
}
int emc_ref_enable(const emc_ref *e, int x, int y) { return getbit(e->e, pix(e, x, y)); }
int emc_ref_carry(const emc_ref *e, int x, int y) { return getbit(e->carry, pix(e, x, y)); }

/* ---- QEE ---------------------------------------------------------------- */

static void update_coords(emc_ref *e)
{
    for (int y = 0; y < e->h; y++)
        for (int x = 0; x < e->w; x++) {
            int tx = x / e->o.tile_w, ty = y / e->o.tile_h;
            uint32_t c = e->config[ty * e->o.chips_x + tx];
            int p = pix(e, x, y);
            /* config = X0<0:10>, Y0<0:10>, the chip's pixel (0, 0) on screen;
             * the alternative keeps only the bits above the tile size */
            uint32_t x0 = c & 0x7ff, y0 = c >> 11 & 0x7ff;
            if (!e->o.config_origin_full) {
                x0 -= x0 % (uint32_t)e->o.tile_w;
                y0 -= y0 % (uint32_t)e->o.tile_h;
            }
            e->px[p] = (uint16_t)(x0 + (uint32_t)(x % e->o.tile_w));
            e->py[p] = (uint16_t)(y0 + (uint32_t)(y % e->o.tile_h));
        }
    e->coords_dirty = false;
    e->q_owner = -1;
    e->plane_owner = -1;
}

/* Planes k0..k0+7 of q64 (k0 a multiple of 8): byte k0/8 of every pixel, then
 * per group of 8 pixels (one 64-bit load) an 8×8 bit transpose. */
__attribute__((noinline)) static void cut_window(emc_ref *e, int k0)
{
    size_t nw = (size_t)e->nwords, np = (size_t)e->npix;
    uint8_t *bytes = (uint8_t *)e->q128; /* scratch: npix bytes */
    for (size_t p = 0; p < np; p++) bytes[p] = (uint8_t)(e->q64[p] >> k0);
    for (size_t w = 0; w < nw; w++) {
        uint64_t out[8] = {0};
        for (int g = 0; g < 8; g++) {
            uint64_t x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            memcpy(&x, bytes + w * 64 + (size_t)g * 8, 8); /* byte j = pixel 8g + j */
#else
            for (int j = 0; j < 8; j++) x |= (uint64_t)bytes[w * 64 + (size_t)g * 8 + (size_t)j] << (8 * j);
#endif
            x = pp5_emc_transpose8(x); /* byte j bit i -> byte i bit j */
            for (int b = 0; b < 8; b++) out[b] |= (x >> (8 * b) & 0xff) << (8 * g);
        }
        for (int b = 0; b < 8; b++) e->qplanes[(size_t)(k0 + b) * nw + w] = out[b];
    }
    e->win_k0 = k0;
}

/* Q over the received coefficient bits: exact modulo 2^m (pp5.md §2.4 item 2),
 * the value a bit-serial tree delivers in its first m bits. */
static void evaluate(emc_ref *e, int si, int k)
{
    qee_set *s = &e->set[si];
    if (e->coords_dirty) update_coords(e);
    size_t nw = (size_t)e->nwords;
    if (k < 64) {
        /* bits below 64 depend only on the coefficients modulo 2^64 */
        uint64_t A = (uint64_t)s->coef[0], B = (uint64_t)s->coef[1], C = (uint64_t)s->coef[2];
        uint64_t D = (uint64_t)s->coef[3], E = (uint64_t)s->coef[4], F = (uint64_t)s->coef[5];
        if (!A && !B && !D && !E && !F) {
            /* constant: every pixel gets C */
            for (int b = 0; b < 64; b++) {
                uint64_t v = (C >> b & 1) ? ~0ull : 0;
                for (size_t w = 0; w < nw; w++) e->qplanes[(size_t)b * nw + w] = v;
            }
            e->win_k0 = 64; /* all 64 planes valid */
        } else {
            if (!D && !E && !F) {
                /* linear: per chip, q = a[lx] + b[ly] (adds only) */
                uint64_t ax[2048], by[2048];
                int tw = e->o.tile_w, th = e->o.tile_h;
                for (int k = 0; k < e->nchips; k++) {
                    int tx = k % e->o.chips_x, ty = k / e->o.chips_x;
                    int p0 = pix(e, tx * tw, ty * th);
                    for (int lx = 0; lx < tw; lx++) ax[lx] = A * e->px[p0 + lx];
                    for (int ly = 0; ly < th; ly++) by[ly] = B * e->py[p0 + ly * e->w] + C;
                    for (int ly = 0; ly < th; ly++) {
                        uint64_t *q = e->q64 + p0 + ly * e->w, bb = by[ly];
                        for (int lx = 0; lx < tw; lx++) q[lx] = ax[lx] + bb;
                    }
                }
            } else
                for (int p = 0; p < e->npix; p++) {
                    uint64_t x = e->px[p], y = e->py[p];
                    e->q64[p] = A * x + B * y + C + D * x * x + E * x * y + F * y * y;
                }
            e->win_k0 = -1; /* planes are cut from q64 eight bits at a time */
        }
        s->eval_m = s->m < 64 ? s->m : 64;
    } else {
        const u128 *c = s->coef;
        for (int p = 0; p < e->npix; p++) {
            u128 x = e->px[p], y = e->py[p];
            e->q128[p] = c[0] * x + c[1] * y + c[2] + c[3] * x * x + c[4] * x * y + c[5] * y * y;
        }
        s->eval_m = s->m;
    }
    e->q_owner = si;
    e->plane_owner = -1;
}

/* The plane of T (R_T) for the current clock. */
static const uint64_t *tree_plane(emc_ref *e)
{
    if (e->rt_set < 0) return e->zero;
    int si = e->rt_set, k = e->rt_k;
    qee_set *s = &e->set[si];
    if (k >= 128) return e->zero;
    if (e->plane_owner == si && s->plane_k == k && e->q_owner == si && !e->coords_dirty)
        return e->t_plane; /* (reference: && !coords_dirty, see header) */
    if (e->q_owner != si || e->coords_dirty || k >= s->eval_m || (k >= 64) != (s->eval_m > 64))
        evaluate(e, si, k);
    /* k < eval_m always holds at the A-17 latency: coefficient bit k has arrived
     * latency shifts before result bit k is due */
    if (k < 64) {
        if (e->win_k0 != 64 && (e->win_k0 < 0 || k < e->win_k0 || k >= e->win_k0 + 8)) {
            if (s->plane_k < 0) {
                /* first bit read from this set (EDGE reads only its sign bit): one plane */
                size_t nw = (size_t)e->nwords;
                for (size_t w = 0; w < nw; w++) {
                    const uint64_t *q = e->q64 + w * 64;
                    uint64_t v = 0;
                    for (int i = 0; i < 64; i++) v |= (q[i] >> k & 1) << i;
                    e->t_plane[w] = v;
                }
                e->plane_owner = si;
                s->plane_k = k;
                return e->t_plane;
            }
            cut_window(e, k & ~7);
        }
        s->plane_k = k;          /* marks "read before" */
        if (e->plane_owner == si) e->plane_owner = -1; /* t_plane is not this bit */
        return e->qplanes + (size_t)k * (size_t)e->nwords; /* k < eval_m <= 64 */
    } else {
        for (int w = 0; w < e->nwords; w++) {
            const u128 *q = e->q128 + (size_t)w * 64;
            uint64_t v = 0;
            for (int i = 0; i < 64; i++) v |= (uint64_t)(q[i] >> k & 1) << i;
            e->t_plane[w] = v;
        }
    }
    e->plane_owner = si;
    s->plane_k = k;
    return e->t_plane;
}

static void qee_shift(emc_ref *e)
{
    uint64_t sh = e->shifts;
    /* coefficient bits consumed on this shift go to the newest set whose bit 0
     * has started; an older set stops collecting when a newer one starts */
    if (e->nset_total > 0) {
        int si = (e->nset_total - 1) % QEE_SETS;
        qee_set *s = &e->set[si];
        if (sh >= s->token_shift + SET_TOKEN_TO_BIT0) {
            if (e->nset_total > 1) e->set[(e->nset_total - 2) % QEE_SETS].open = false;
            if (s->open && s->m < 128) {
                for (int c = 0; c < 6; c++)
                    if (e->lat_dat[c]) s->coef[c] |= (u128)1 << s->m;
                s->m++;
            }
        } else if (e->nset_total > 1) {
            qee_set *o = &e->set[(e->nset_total - 2) % QEE_SETS];
            if (o->open && o->m < 128) {
                for (int c = 0; c < 6; c++)
                    if (e->lat_dat[c]) o->coef[c] |= (u128)1 << o->m;
                o->m++;
            }
        }
    }
    if (e->lat_lsb) {
        int si = e->nset_total % QEE_SETS;
        if (e->q_owner == si) e->q_owner = -1;
        if (e->plane_owner == si) e->plane_owner = -1;
        if (e->rt_set == si) e->rt_set = -1;
        memset(&e->set[si], 0, sizeof e->set[si]);
        e->set[si].token_shift = sh;
        e->set[si].open = true;
        e->set[si].plane_k = -1;
        e->nset_total++;
    }
    /* R_T at the end of this shift: result bit k of the newest set that has
     * reached its output, k = sh − token − 2 − latency */
    e->rt_set = -1;
    uint64_t lead = SET_TOKEN_TO_BIT0 + (uint64_t)e->o.qee_latency;
    for (int i = e->nset_total - 1; i >= 0 && i >= e->nset_total - QEE_SETS; i--) {
        qee_set *s = &e->set[i % QEE_SETS];
        if (sh >= s->token_shift + lead) {
            e->rt_set = i % QEE_SETS;
            e->rt_k = (int)(sh - s->token_shift - lead);
            break;
        }
    }
    e->shifts = sh + 1;
}

/* ---- ALU ------------------------------------------------------------------ */

__attribute__((noinline)) static void alu(emc_ref *e, const pp5_pins *p, int addr)
{
    int nw = e->nwords;
    bool valid = addr < PP5_EMC_MEM_BITS;
    if (!valid) e->warnings++; /* reads 0, writes ignored */
    uint64_t *m = valid ? plane(e, addr) : e->zero;
    const uint64_t *s = e->s_addr >= 0 ? plane(e, e->s_addr) : e->s_plane;
    const uint64_t *t = p->agts_t ? tree_plane(e) : e->zero;
    uint64_t acm = p->acmp ? ~0ull : 0, bcm = p->bcmp ? ~0ull : 0, ccm = p->ccmp ? ~0ull : 0;
    bool write = p->mwrt && valid;
    /* S ← the bit read now (pre-write) */
    bool s_from_read = e->o.s_source == PP5_S_PREV_READ;
    bool save_read = s_from_read && write; /* the new S is M before the write */
    uint64_t *new_s = e->tmp_c;
    bool std = e->o.sum_table == 0x96 && e->o.carry_table == 0xE8 && e->o.enable_table == 0xE8;
    bool gate_w = e->o.mwrt_gated_by_e, gate_l = e->o.loads_gated_by_e;
    bool ldc = p->ldc, lde = p->lde, keep_sum = !s_from_read;
    uint64_t ss = p->agts_s ? 0 : ~0ull, ts = p->agts_t ? 0 : ~0ull; /* unselected: 1 */
    uint64_t es = p->bgts_e ? 0 : ~0ull, ms = p->bgts_m ? 0 : ~0ull, cs = p->cgts_c ? 0 : ~0ull;
    for (int w = 0; w < nw; w++) {
        /* each bus is a wired-AND of its selected sources (1 if none) XOR its Cmp bit */
        uint64_t en = e->e[w];
        uint64_t A = ((s[w] | ss) & (t[w] | ts)) ^ acm;
        uint64_t B = ((en | es) & (m[w] | ms)) ^ bcm;
        uint64_t C = (e->carry[w] | cs) ^ ccm;
        uint64_t sum, cy, ev;
        if (std) { /* A-9 defaults */
            sum = A ^ B ^ C;
            cy = ev = (A & B) | (C & (A | B));
        } else {
            sum = pp5_emc_truth(e->o.sum_table, A, B, C);
            cy = pp5_emc_truth(e->o.carry_table, A, B, C);
            ev = pp5_emc_truth(e->o.enable_table, A, B, C);
        }
        uint64_t lg = gate_l ? en : ~0ull;
        if (save_read) new_s[w] = m[w];
        if (write) {
            uint64_t wm = gate_w ? en : ~0ull; /* */
            m[w] = (m[w] & ~wm) | (sum & wm);
        }
        if (ldc) e->carry[w] = (e->carry[w] & ~lg) | (cy & lg);
        if (lde) e->e[w] = (en & ~lg) | (ev & lg);
        if (keep_sum) e->tmp_sum[w] = sum;
    }
    if (!s_from_read) {
        memcpy(e->s_plane, e->tmp_sum, (size_t)nw * 8);
        e->s_addr = -1;
    } else if (write) {
        e->tmp_c = e->s_plane; /* swap buffers: s_plane now holds the pre-write M */
        e->s_plane = new_s;
        e->s_addr = -1;
    } else {
        e->s_addr = valid ? addr : -1;
        if (!valid) memset(e->s_plane, 0, (size_t)nw * 8);
    }
}

void emc_ref_step(emc_ref *e, const pp5_pins *p)
{
#ifdef PP5_PLANTED_FIELD
    e->planted++;
#endif
    if (p->trst) qee_shift(e);
    int addr = e->lat_addr_l;
    if (p->redundant) {
        /* redundant code; ExtOp strobes are logged */
        for (int i = 0; i < 6; i++)
            if (p->extop >> i & 1) e->extops[i]++;
        if (p->config_mode) {
            /* chip k takes address bit i from AddrH where bit i of k is 1;
             * selected when the address it sees is all 0; shifts in the ACmp pin */
            for (int k = 0; k < e->nchips; k++) {
                uint8_t kk = (uint8_t)k;
                uint8_t seen = (uint8_t)((e->lat_addr_l & ~kk) | (e->lat_addr_h & kk));
                if (seen == 0) {
                    e->config[k] = (e->config[k] >> 1) | ((uint32_t)(p->acmp & 1) << 21);
                    e->coords_dirty = true;
                }
            }
        }
        if (e->o.s_source == PP5_S_PREV_READ) {
            if (addr < PP5_EMC_MEM_BITS) e->s_addr = addr;
            else { e->s_addr = -1; memset(e->s_plane, 0, (size_t)e->nwords * 8); }
        }
    } else if (p->ldc || p->lde || p->mwrt) {
        alu(e, p, addr);
    } else if (e->o.s_source == PP5_S_PREV_READ) {
        /* no state change: only the sense latch S follows the read */
        if (addr < PP5_EMC_MEM_BITS) e->s_addr = addr;
        else { e->s_addr = -1; memset(e->s_plane, 0, (size_t)e->nwords * 8); }
    }
    e->lat_addr_l = p->addr_l;
    e->lat_addr_h = p->addr_h;
    memcpy(e->lat_dat, p->dat, 6);
    e->lat_lsb = p->lsb;
}

void emc_ref_plane(const emc_ref *e, int which, uint64_t *out)
{
    const uint64_t *src = which == PP5_EMC_PLANE_E ? e->e
                        : which == PP5_EMC_PLANE_CARRY ? e->carry
                        : (which >= 0 && which < PP5_EMC_MEM_BITS) ? e->mem + (size_t)which * (size_t)e->nwords
                        : e->zero;
    memcpy(out, src, (size_t)e->nwords * 8);
}
