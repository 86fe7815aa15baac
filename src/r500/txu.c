/* R500 texture units from registers. Manual: docs/r500-tex.md; model
 * options: docs/assumptions.md ("R500: texture units from registers"). Sources
 * are cited per rule; the register and field table is R500_TX_REGS /
 * R500_TX_FIELDS in include/lockstep/r500_txu.h. */
#include "lockstep/r500_txu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- register table ---------------------------------------------------- */

static const struct {
    const char *name;
    uint32_t addr;
    bool per_unit;
} reg_table[R500_TXR_COUNT] = {
#define REG_DESC_(id, name_, addr_, per_unit_)                                                  \
    [R500_TXR_##id] = {.name = name_, .addr = addr_, .per_unit = per_unit_},
    R500_TX_REGS(REG_DESC_)
#undef REG_DESC_
};

static const r500_tx_field_desc field_table[R500_TXF_COUNT] = {
#define FIELD_DESC_(id, reg_, lo_, width_, name_)                                               \
    [R500_TXF_##id] = {.name = name_, .reg = R500_TXR_##reg_, .lo = lo_, .width = width_},
    R500_TX_FIELDS(FIELD_DESC_)
#undef FIELD_DESC_
};

const r500_tx_field_desc *r500_tx_field_info(r500_tx_field f)
{
    return (unsigned)f < R500_TXF_COUNT ? &field_table[f] : NULL;
}

const char *r500_tx_reg_name(r500_tx_reg r)
{
    return (unsigned)r < R500_TXR_COUNT ? reg_table[r].name : NULL;
}

uint32_t r500_tx_reg_addr(r500_tx_reg r, unsigned unit)
{
    if ((unsigned)r >= R500_TXR_COUNT)
        return 0;
    return reg_table[r].addr + (reg_table[r].per_unit ? 4u * (unit % R500_TX_UNITS) : 0u);
}

bool r500_tx_decode_addr(uint32_t addr, r500_tx_reg *r, unsigned *unit)
{
    for (unsigned i = 0; i < R500_TXR_COUNT; i++) {
        uint32_t a = reg_table[i].addr;
        uint32_t span = reg_table[i].per_unit ? 4u * R500_TX_UNITS : 4u;
        if (addr >= a && addr < a + span && (addr & 3u) == 0) {
            *r = (r500_tx_reg)i;
            *unit = (addr - a) / 4u;
            return true;
        }
    }
    return false;
}

bool r500_tx_write(r500_tx_state *s, uint32_t addr, uint32_t value)
{
    r500_tx_reg r;
    unsigned u;
    if (!r500_tx_decode_addr(addr, &r, &u))
        return false;
    s->reg[r][u] = value;
    return true;
}

void r500_tx_state_from_regfile(r500_tx_state *s, const uint32_t *reg, const uint8_t *written,
                                size_t nreg)
{
    memset(s, 0, sizeof *s);
    for (unsigned r = 0; r < R500_TXR_COUNT; r++)
        for (unsigned u = 0; u < (reg_table[r].per_unit ? R500_TX_UNITS : 1u); u++) {
            size_t i = r500_tx_reg_addr((r500_tx_reg)r, u) / 4;
            s->reg[r][u] = i < nreg && (!written || written[i]) ? reg[i] : 0;
        }
}

static uint32_t field_mask(const r500_tx_field_desc *f)
{
    return f->width >= 32 ? 0xffffffffu : ((1u << f->width) - 1u);
}

uint32_t r500_tx_get(const r500_tx_state *s, unsigned unit, r500_tx_field f)
{
    const r500_tx_field_desc *fd = r500_tx_field_info(f);
    if (!fd)
        return 0;
    unsigned u = reg_table[fd->reg].per_unit ? unit % R500_TX_UNITS : 0;
    return (s->reg[fd->reg][u] >> fd->lo) & field_mask(fd);
}

void r500_tx_set(r500_tx_state *s, unsigned unit, r500_tx_field f, uint32_t v)
{
    const r500_tx_field_desc *fd = r500_tx_field_info(f);
    if (!fd)
        return;
    unsigned u = reg_table[fd->reg].per_unit ? unit % R500_TX_UNITS : 0;
    uint32_t m = field_mask(fd) << fd->lo;
    s->reg[fd->reg][u] = (s->reg[fd->reg][u] & ~m) | ((v << fd->lo) & m);
}

static uint32_t fld(uint32_t word, r500_tx_field f)
{
    const r500_tx_field_desc *fd = &field_table[f];
    return (word >> fd->lo) & field_mask(fd);
}

/* ---- model options ------------------------------------------------------ */

const char *const r500_tx_option_names[] = {"tx-tile-order", "tx-y8x24", "tx-dxt-interp",
                                            "tx-aniso", "tx-lod-rho", "tx-weight-bits",
                                            "tx-shadow", "tx-missing", "tx-mip-round",
                                            "tx-cube-lod", NULL};

void r500_tx_options_default(r500_tx_options *o)
{
    memset(o, 0, sizeof *o);
    o->tile_order = R500_TXO_TILE_ROW_MAJOR;
    o->y8x24 = R500_TXO_Z24_HIGH;
    o->dxt = R500_TXO_DXT_ROUND8;
    o->aniso = R500_TXO_ANISO_LINEAR;
    o->rho = R500_TXO_RHO_SQRT;
    o->weight_bits = 0;
    o->shadow = R500_TXO_SHADOW_NONE;
    o->missing_w_one = true;
}

static int pick(const char *v, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(v, names[i]) == 0)
            return i;
    return -1;
}

ls_status r500_tx_options_set(r500_tx_options *o, const char *name, const char *value,
                              ls_diag *d)
{
    /* each option named by a value (its index: the enum's value) */
    enum { TILE, Y8X24, DXT, ANISO, RHO, SHADOW, MISSING, MIP_ROUND, CUBE_LOD, NAMED };
    static const struct {
        const char *name;
        const char *const values[6]; /* NULL-terminated */
    } named[NAMED] = {
        [TILE] = {"tx-tile-order", {"row-major", "column-major"}},
        [Y8X24] = {"tx-y8x24", {"z-high", "z-low"}},
        [DXT] = {"tx-dxt-interp", {"round8", "exact"}},
        [ANISO] = {"tx-aniso", {"linear", "footprint"}},
        [RHO] = {"tx-lod-rho", {"sqrt", "max-abs"}},
        [SHADOW] = {"tx-shadow", {"none", "less", "lequal", "greater", "gequal"}},
        [MISSING] = {"tx-missing", {"0001", "0000"}},
        [MIP_ROUND] = {"tx-mip-round", {"gl", "half-up"}},
        [CUBE_LOD] = {"tx-cube-lod", {"lane-face", "quad-face"}},
    };
    int k = -1, i = 0;
    while (i < NAMED && strcmp(name, named[i].name) != 0)
        i++;
    if (i < NAMED) {
        k = pick(value, named[i].values);
        switch (k < 0 ? NAMED : i) {
        case TILE: o->tile_order = (r500_txo_tile_order)k; break;
        case Y8X24: o->y8x24 = (r500_txo_y8x24)k; break;
        case DXT: o->dxt = (r500_txo_dxt)k; break;
        case ANISO: o->aniso = (r500_txo_aniso)k; break;
        case RHO: o->rho = (r500_txo_rho)k; break;
        case SHADOW: o->shadow = (r500_txo_shadow)k; break;
        case MISSING: o->missing_w_one = k == 0; break;
        case MIP_ROUND: o->mip_half_up = k == 1; break;
        case CUBE_LOD: o->cube_quad_face = k == 1; break;
        default: break;
        }
    } else if (strcmp(name, "tx-weight-bits") == 0) {
        char *end = NULL;
        unsigned long v = strtoul(value, &end, 10);
        if (end && *end == 0 && end != value && v <= 16) {
            o->weight_bits = (unsigned)v;
            k = 0;
        }
    } else {
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "unknown texture model option '%s'", name);
    }
    if (k < 0)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "bad value '%s' for model option %s", value,
                           name);
    return LS_OK;
}

/* ---- formats ------------------------------------------------------------ */

typedef enum { K_PACKED, K_HALF, K_FLOAT, K_DXT1, K_DXT3, K_DXT5, K_ATI1N, K_ATI2N, K_Y8X24 } fmt_kind;

static bool is_block(int kind)
{
    return kind == K_DXT1 || kind == K_DXT3 || kind == K_DXT5 || kind == K_ATI1N ||
           kind == K_ATI2N;
}

typedef struct fmt_info {
    unsigned code;
    fmt_kind kind;
    unsigned bytes; /* per texel, per 4x4 block for DXT */
    unsigned ncomp;
    unsigned bits[4]; /* K_PACKED: component widths from bit 0 up (X first) */
    bool small;       /* components of 8 bits or less: GAMMA applies (tx_format1.txt) */
} fmt_info;

/* tx_format1.txt: "Components are numbered right to left", X = component 0
 * in the lowest bits. Codes 15..17 (DXT1/3/5) from r300_reg.h; 32 + 6 is
 * R500_TX_FORMAT_Y8X24 (r300_reg.h, needs TXFORMAT_MSB), which Mesa uses for
 * X8Z24 / S8_UINT_Z24 depth textures (r300_texture.c). */
static const fmt_info formats[] = {
    {R500_TXFMT_X8, K_PACKED, 1, 1, {8}, true},
    {R500_TXFMT_X16, K_PACKED, 2, 1, {16}, false},
    {R500_TXFMT_Y4X4, K_PACKED, 1, 2, {4, 4}, true},
    {R500_TXFMT_Y8X8, K_PACKED, 2, 2, {8, 8}, true},
    {R500_TXFMT_Y16X16, K_PACKED, 4, 2, {16, 16}, false},
    {R500_TXFMT_Z3Y3X2, K_PACKED, 1, 3, {2, 3, 3}, true},
    {R500_TXFMT_Z5Y6X5, K_PACKED, 2, 3, {5, 6, 5}, true},
    {R500_TXFMT_Z6Y5X5, K_PACKED, 2, 3, {5, 5, 6}, true},
    {R500_TXFMT_W4Z4Y4X4, K_PACKED, 2, 4, {4, 4, 4, 4}, true},
    {R500_TXFMT_W1Z5Y5X5, K_PACKED, 2, 4, {5, 5, 5, 1}, true},
    {R500_TXFMT_W8Z8Y8X8, K_PACKED, 4, 4, {8, 8, 8, 8}, true},
    {R500_TXFMT_W2Z10Y10X10, K_PACKED, 4, 4, {10, 10, 10, 2}, false},
    {R500_TXFMT_W16Z16Y16X16, K_PACKED, 8, 4, {16, 16, 16, 16}, false},
    {R500_TXFMT_DXT1, K_DXT1, 8, 4, {0}, true},
    {R500_TXFMT_DXT3, K_DXT3, 16, 4, {0}, true},
    {R500_TXFMT_DXT5, K_DXT5, 16, 4, {0}, true},
    {R500_TXFMT_16F, K_HALF, 2, 1, {0}, false},
    {R500_TXFMT_16F_16F, K_HALF, 4, 2, {0}, false},
    {R500_TXFMT_16F_16F_16F_16F, K_HALF, 8, 4, {0}, false},
    {R500_TXFMT_32F, K_FLOAT, 4, 1, {0}, false},
    {R500_TXFMT_32F_32F, K_FLOAT, 8, 2, {0}, false},
    {R500_TXFMT_32F_32F_32F_32F, K_FLOAT, 16, 4, {0}, false},
    {R500_TXFMT_Y8X24, K_Y8X24, 4, 2, {0}, false},
    /* r300_reg.h R500_TX_FORMAT_ATI1N (MSB + 5) and R400_TX_FORMAT_ATI2N (31);
     * Mesa uses them for RGTC1/LATC1 and RGTC2/LATC2 (r300_texture.c) */
    {R500_TXFMT_ATI1N, K_ATI1N, 8, 1, {0}, false},
    {R500_TXFMT_ATI2N, K_ATI2N, 16, 2, {0}, false},
};

static const fmt_info *find_format(unsigned code)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].code == code)
            return &formats[i];
    return NULL;
}

float r500_tx_half_to_float(uint16_t h)
{
    unsigned s = h >> 15, e = (h >> 10) & 31u, m = h & 1023u;
    float v;
    if (e == 0)
        v = ldexpf((float)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexpf((float)(m | 1024u), (int)e - 25);
    return s ? -v : v;
}

/* ---- layout ------------------------------------------------------------- */

/* r300_texture_desc.c, r300_get_pixel_alignment: the tile in texels for
 * [macro tiled][log2 bytes per texel][micro: linear, tiled, square][w, h].
 * A micro tile is one 32-byte cache line (tx_offset.txt MICRO_TILE), a macro
 * tile a 2 KB page of 8 x 8 micro tiles (MACRO_TILE). 0 = no such layout. */
static const unsigned tile_table[2][5][3][2] = {
    {{{32, 1}, {8, 4}, {0, 0}},
     {{16, 1}, {8, 2}, {4, 4}},
     {{8, 1}, {4, 2}, {0, 0}},
     {{4, 1}, {2, 2}, {0, 0}},
     {{2, 1}, {0, 0}, {0, 0}}},
    {{{256, 8}, {64, 32}, {0, 0}},
     {{128, 8}, {64, 16}, {32, 32}},
     {{64, 8}, {32, 16}, {0, 0}},
     {{32, 8}, {16, 16}, {0, 0}},
     {{16, 8}, {0, 0}, {0, 0}}},
};

static unsigned log2u(unsigned v)
{
    unsigned l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

static size_t align_up(size_t v, size_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

static size_t next_pot(size_t v)
{
    size_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

bool r500_tx_tile_size(unsigned bpp, bool macro, unsigned micro, unsigned *w, unsigned *h)
{
    unsigned lb = log2u(bpp);
    if (bpp == 0 || (bpp & (bpp - 1)) || lb > 4 || micro > 2)
        return false;
    *w = tile_table[macro ? 1 : 0][lb][micro][0];
    *h = tile_table[macro ? 1 : 0][lb][micro][1];
    return *w != 0;
}

static unsigned micro_mode(const r500_txu *t)
{
    return t->square ? 2u : (t->micro ? 1u : 0u);
}

size_t r500_txu_texel_addr(const r500_txu *t, int level, int layer, int x, int y)
{
    const struct r500_txu_level *L = &t->lv[level];
    size_t base = L->offset + (size_t)layer * L->layer;
    size_t bpp = t->bpp;
    /* linear (and DXT blocks): rows of `pitch` texels */
    if (t->block || (!t->micro && !t->square && !L->macro))
        return base + ((size_t)y * L->pitch + (size_t)x) * bpp;
    unsigned lb = log2u(t->bpp), mm = micro_mode(t);
    size_t mw = tile_table[0][lb][mm][0], mh = tile_table[0][lb][mm][1];
    size_t ux = (size_t)x, uy = (size_t)y;
    size_t in_micro = ((uy % mh) * mw + (ux % mw)) * bpp;
    size_t mx = ux / mw, my = uy / mh; /* micro tile coordinates */
    if (!L->macro) {
        size_t per_row = L->pitch / mw;
        return base + (my * per_row + mx) * 32u + in_micro;
    }
    size_t Mx = mx / 8, My = my / 8, per_row = L->pitch / (mw * 8);
    size_t ix = mx % 8, iy = my % 8;
    size_t micro_index = t->opt.tile_order == R500_TXO_TILE_COLUMN_MAJOR ? ix * 8 + iy : iy * 8 + ix;
    return base + (My * per_row + Mx) * 2048u + micro_index * 32u + in_micro;
}

/* Read n bytes at addr through TX_OFFSET.ENDIAN_SWAP (tx_offset.txt: 16-bit,
 * 32-bit or half-dword swap; r300_reg.h R300_VC_*_SWAP gives the byte
 * orders), applied per aligned dword. Bytes past the buffer read 0. */
static void read_bytes(const r500_txu *t, size_t addr, unsigned n, uint8_t *out)
{
    static const uint8_t perm[4][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {3, 2, 1, 0}, {2, 3, 0, 1}};
    unsigned sw = fld(t->offset_reg, R500_TXF_ENDIAN_SWAP);
    for (unsigned i = 0; i < n; i++) {
        size_t a = addr + i, dw = a & ~(size_t)3;
        size_t src = dw + perm[sw][a & 3u];
        out[i] = src < t->size ? t->mem[src] : 0;
    }
}

static uint64_t le64(const uint8_t *b, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static float unorm(uint32_t v, unsigned bits)
{
    return (float)((double)v / (double)((1ull << bits) - 1));
}

static float snorm(uint32_t v, unsigned bits)
{
    /* two's complement, v / (2^(bits-1) - 1), -2^(bits-1) clamps to -1
     * (documented choice, docs/assumptions.md "tx-signed") */
    int64_t s = (v & (1u << (bits - 1))) ? (int64_t)v - (int64_t)(1ull << bits) : (int64_t)v;
    double r = (double)s / (double)((1ull << (bits - 1)) - 1);
    return (float)(r < -1.0 ? -1.0 : r);
}

static void decode_packed(const r500_txu *t, const fmt_info *f, uint64_t v, float c[4])
{
    unsigned lo = 0;
    bool pow2 = fld(t->fmt2, R500_TXF_POW2FIX2FLT) != 0;
    for (unsigned k = 0; k < f->ncomp; k++) {
        unsigned b = f->bits[k];
        uint32_t x = (uint32_t)((v >> lo) & ((1ull << b) - 1));
        lo += b;
        if ((t->fmt1 >> (5 + k)) & 1u) /* SIGNED_COMPk */
            c[k] = b > 1 ? snorm(x, b) : (float)x;
        else if (pow2 && b == 8) /* tx_format2.txt POW2FIX2FLT: divide by 256 */
            c[k] = (float)x / 256.0f;
        else
            c[k] = unorm(x, b);
    }
}

static unsigned expand(unsigned v, unsigned bits)
{
    /* bit replication to 8 bits */
    return bits == 5 ? (v << 3) | (v >> 2) : (v << 2) | (v >> 4);
}

/* One DXT texel (S3TC as Mesa's DXT1/3/5 formats define it). Returns RGBA in
 * [0,1]. The interpolation follows "tx-dxt-interp". */
static void decode_dxt(const r500_txu *t, const fmt_info *f, const uint8_t *blk, int px, int py,
                       float rgba[4])
{
    const uint8_t *cb = f->kind == K_DXT1 ? blk : blk + 8;
    unsigned c0 = cb[0] | (cb[1] << 8), c1 = cb[2] | (cb[3] << 8);
    uint32_t idx = (uint32_t)le64(cb + 4, 4);
    unsigned sel = (idx >> (2 * (4 * py + px))) & 3u;
    double e[2][3];
    unsigned cc[2] = {c0, c1};
    for (int i = 0; i < 2; i++) {
        e[i][0] = expand((cc[i] >> 11) & 31u, 5);
        e[i][1] = expand((cc[i] >> 5) & 63u, 6);
        e[i][2] = expand(cc[i] & 31u, 5);
    }
    bool four = f->kind != K_DXT1 || c0 > c1;
    double a = 255.0, col[3];
    bool exact = t->opt.dxt == R500_TXO_DXT_EXACT;
    for (int k = 0; k < 3; k++) {
        double v;
        if (sel == 0)
            v = e[0][k];
        else if (sel == 1)
            v = e[1][k];
        else if (four) {
            double p = sel == 2 ? 2 * e[0][k] + e[1][k] : e[0][k] + 2 * e[1][k];
            v = exact ? p / 3.0 : floor((p + 1.0) / 3.0);
        } else if (sel == 2) {
            double p = e[0][k] + e[1][k];
            v = exact ? p / 2.0 : floor((p + 1.0) / 2.0);
        } else {
            v = 0.0;
            a = 0.0;
        }
        col[k] = v;
    }
    if (f->kind == K_DXT3) {
        unsigned n = (unsigned)((le64(blk, 8) >> (4 * (4 * py + px))) & 15u);
        a = n * 17.0;
    } else if (f->kind == K_DXT5) {
        double a0 = blk[0], a1 = blk[1];
        unsigned k = (unsigned)((le64(blk + 2, 6) >> (3 * (4 * py + px))) & 7u);
        if (k == 0)
            a = a0;
        else if (k == 1)
            a = a1;
        else if (a0 > a1) {
            double p = (8 - k) * a0 + (k - 1) * a1;
            a = exact ? p / 7.0 : floor((p + 3.0) / 7.0);
        } else if (k < 6) {
            double p = (6 - k) * a0 + (k - 1) * a1;
            a = exact ? p / 5.0 : floor((p + 2.0) / 5.0);
        } else {
            a = k == 6 ? 0.0 : 255.0;
        }
    }
    for (int k = 0; k < 3; k++)
        rgba[k] = (float)(col[k] / 255.0);
    rgba[3] = (float)(a / 255.0);
}

/* One channel of an ATI1N / ATI2N block (RGTC): two 8-bit endpoints and
 * 3-bit indices as DXT5 alpha; signed (SIGNED_COMPk) endpoints are int8 with
 * -128 read as -127, values / 127 (GL's RGTC rules). Rounding per
 * "tx-dxt-interp". */
static float decode_bc4(const r500_txu *t, const uint8_t *blk, int px, int py, bool sgn)
{
    double a0 = sgn ? (double)(int8_t)blk[0] : blk[0], a1 = sgn ? (double)(int8_t)blk[1] : blk[1];
    if (sgn) {
        a0 = a0 < -127 ? -127 : a0;
        a1 = a1 < -127 ? -127 : a1;
    }
    bool exact = t->opt.dxt == R500_TXO_DXT_EXACT;
    unsigned k = (unsigned)((le64(blk + 2, 6) >> (3 * (4 * py + px))) & 7u);
    double v;
    if (k == 0)
        v = a0;
    else if (k == 1)
        v = a1;
    else if (a0 > a1) {
        double p = (8 - k) * a0 + (k - 1) * a1;
        v = exact ? p / 7.0 : floor((p + 3.0) / 7.0);
    } else if (k < 6) {
        double p = (6 - k) * a0 + (k - 1) * a1;
        v = exact ? p / 5.0 : floor((p + 2.0) / 5.0);
    } else {
        v = k == 6 ? (sgn ? -127.0 : 0.0) : (sgn ? 127.0 : 255.0);
    }
    return (float)(v / (sgn ? 127.0 : 255.0));
}

void r500_txu_texel_raw(const r500_txu *t, int level, int layer, int x, int y, float c[4])
{
    const fmt_info *f = find_format(t->format);
    c[0] = c[1] = c[2] = 0.0f;
    c[3] = t->opt.missing_w_one ? 1.0f : 0.0f;
    if (!f)
        return;
    uint8_t b[16];
    if (f->kind == K_ATI1N || f->kind == K_ATI2N) {
        read_bytes(t, r500_txu_texel_addr(t, level, layer, x / 4, y / 4), f->bytes, b);
        for (unsigned k = 0; k < f->ncomp; k++)
            c[k] = decode_bc4(t, b + 8 * k, x % 4, y % 4, (t->fmt1 >> (5 + k)) & 1u);
        return;
    }
    if (f->kind == K_DXT1 || f->kind == K_DXT3 || f->kind == K_DXT5) {
        read_bytes(t, r500_txu_texel_addr(t, level, layer, x / 4, y / 4), f->bytes, b);
        float rgba[4];
        decode_dxt(t, f, b, x % 4, y % 4, rgba);
        /* FILTER1.DXTC_SWIZZLE (r300_reg.h R400_DXTC_SWIZZLE_ENABLE): Mesa
         * then selects R from component Z and B from X (r300_texture.c,
         * r300_get_swizzle_combined with dxtc_swizzle), so the decoder puts
         * blue in component 0. */
        bool sw = fld(t->f1, R500_TXF_DXTC_SWIZZLE) != 0;
        c[0] = sw ? rgba[2] : rgba[0];
        c[1] = rgba[1];
        c[2] = sw ? rgba[0] : rgba[2];
        c[3] = rgba[3];
        return;
    }
    read_bytes(t, r500_txu_texel_addr(t, level, layer, x, y), f->bytes, b);
    switch (f->kind) {
    case K_PACKED:
        decode_packed(t, f, le64(b, f->bytes), c);
        break;
    case K_HALF:
        for (unsigned k = 0; k < f->ncomp; k++)
            c[k] = r500_tx_half_to_float((uint16_t)le64(b + 2 * k, 2));
        break;
    case K_FLOAT:
        for (unsigned k = 0; k < f->ncomp; k++) {
            uint32_t u = (uint32_t)le64(b + 4 * k, 4);
            memcpy(&c[k], &u, 4);
        }
        break;
    case K_Y8X24: {
        uint32_t v = (uint32_t)le64(b, 4);
        bool high = t->opt.y8x24 == R500_TXO_Z24_HIGH;
        c[0] = unorm(high ? v >> 8 : v & 0xffffffu, 24);
        c[1] = unorm(high ? v & 0xffu : v >> 24, 8);
        break;
    }
    default:
        break;
    }
}

static float srgb_to_linear(float c)
{
    double v = c;
    return (float)(v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4));
}

/* SEL_RED/GREEN/BLUE/ALPHA (tx_format1.txt) and GAMMA ("remove gamma ...
 * only apply to 8bit or less components"; applied to R, G, B, not A:
 * docs/assumptions.md "tx-gamma"). */
static void swizzle(const r500_txu *t, const float c[4], float rgba[4])
{
    static const r500_tx_field sel[4] = {R500_TXF_SEL_RED, R500_TXF_SEL_GREEN, R500_TXF_SEL_BLUE,
                                         R500_TXF_SEL_ALPHA};
    const fmt_info *f = find_format(t->format);
    bool gamma = fld(t->fmt1, R500_TXF_GAMMA) && f && f->small;
    for (int i = 0; i < 4; i++) {
        unsigned s = fld(t->fmt1, sel[i]);
        float v = s < 4 ? c[s] : (s == R500_TXSEL_1 ? 1.0f : 0.0f);
        if (gamma && i < 3 && s < 4)
            v = srgb_to_linear(v);
        rgba[i] = v;
    }
}

void r500_txu_texel(const r500_txu *t, int level, int layer, int x, int y, float rgba[4])
{
    float c[4];
    r500_txu_texel_raw(t, level, layer, x, y, c);
    swizzle(t, c, rgba);
}

/* TX_BORDER_COLOR: "Format is the same as the texture being bordered"
 * (tx_border_color.txt); formats wider than 32 bits and DXT read it as
 * W8Z8Y8X8, signed components (SIGNED_COMPk) as 8-bit snorm
 * (docs/assumptions.md "tx-border"). */
static void border_color(const r500_txu *t, float rgba[4])
{
    const fmt_info *f = find_format(t->format);
    float c[4] = {0, 0, 0, t->opt.missing_w_one ? 1.0f : 0.0f};
    uint32_t v = t->border;
    if (f && (f->kind == K_PACKED || f->kind == K_HALF || f->kind == K_FLOAT) && f->bytes <= 4) {
        if (f->kind == K_PACKED)
            decode_packed(t, f, v, c);
        else if (f->kind == K_HALF)
            for (unsigned k = 0; k < f->ncomp; k++)
                c[k] = r500_tx_half_to_float((uint16_t)(v >> (16 * k)));
        else
            memcpy(&c[0], &v, 4);
    } else if (f && f->kind == K_Y8X24) {
        c[0] = unorm(v >> 8, 24);
        c[1] = unorm(v & 0xffu, 8);
    } else {
        /* 8 bits a component; SIGNED_COMPk makes component k snorm: r300
         * packs R8G8B8A8_SNORM for signed 16-bit RGB(A) and RGTC2/LATC2
         * (r300_state.c r300_get_border_color) */
        for (int k = 0; k < 4; k++) {
            uint32_t b = (v >> (8 * k)) & 0xffu;
            c[k] = (t->fmt1 >> (5 + k)) & 1u ? snorm(b, 8) : unorm(b, 8);
        }
    }
    swizzle(t, c, rgba);
}

/* ---- bind ---------------------------------------------------------------- */

#define REGNAME(r) reg_table[R500_TXR_##r].name

ls_status r500_txu_bind(r500_txu *t, const r500_tx_state *s, unsigned unit, const uint8_t *mem,
                        size_t size, const r500_tx_options *o, ls_diag *d)
{
    memset(t, 0, sizeof *t);
    if (unit >= R500_TX_UNITS)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "texture unit %u is not one of 0..15", unit);
    if (o)
        t->opt = *o;
    else
        r500_tx_options_default(&t->opt);
    t->unit = unit;
    t->mem = mem;
    t->size = mem ? size : 0;
    t->f0 = s->reg[R500_TXR_FILTER0][unit];
    t->f1 = s->reg[R500_TXR_FILTER1][unit];
    uint32_t fmt0 = s->reg[R500_TXR_FORMAT0][unit];
    t->fmt0 = fmt0;
    t->fmt1 = s->reg[R500_TXR_FORMAT1][unit];
    t->fmt2 = s->reg[R500_TXR_FORMAT2][unit];
    t->offset_reg = s->reg[R500_TXR_OFFSET][unit];
    t->border = s->reg[R500_TXR_BORDER_COLOR][unit];

    t->format = fld(t->fmt1, R500_TXF_TXFORMAT) + 32u * fld(t->fmt2, R500_TXF_TXFORMAT_MSB);
    const fmt_info *f = find_format(t->format);
    if (!f)
        return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                           "%s_%u.TXFORMAT = %u (%s_%u.TXFORMAT_MSB = %u) is not a format the "
                           "model decodes",
                           REGNAME(FORMAT1), unit, fld(t->fmt1, R500_TXF_TXFORMAT),
                           REGNAME(FORMAT2), unit, fld(t->fmt2, R500_TXF_TXFORMAT_MSB));
    if (fld(t->fmt1, R500_TXF_YUV_TO_RGB))
        return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                           "%s_%u.YUV_TO_RGB = %u is not modelled", REGNAME(FORMAT1), unit,
                           fld(t->fmt1, R500_TXF_YUV_TO_RGB));
    static const r500_tx_field sels[4] = {R500_TXF_SEL_RED, R500_TXF_SEL_GREEN, R500_TXF_SEL_BLUE,
                                          R500_TXF_SEL_ALPHA};
    for (int i = 0; i < 4; i++)
        if (fld(t->fmt1, sels[i]) > R500_TXSEL_1)
            return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                               "%s_%u.%s = %u is not one of the values 0..5", REGNAME(FORMAT1),
                               unit, field_table[sels[i]].name, fld(t->fmt1, sels[i]));
    t->type = fld(t->fmt1, R500_TXF_TEX_COORD_TYPE);
    if (t->type == 3)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "%s_%u.TEX_COORD_TYPE = 3 is reserved",
                           REGNAME(FORMAT1), unit);
    static const r500_tx_field filt[2] = {R500_TXF_MAG_FILTER, R500_TXF_MIN_FILTER};
    for (int i = 0; i < 2; i++)
        if (fld(t->f0, filt[i]) == 0)
            return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                               "%s_%u.%s = 0 (Filter4) is not modelled", REGNAME(FILTER0), unit,
                               field_table[filt[i]].name);
    if (fld(t->f0, R500_TXF_MIP_FILTER) == 3 || fld(t->f0, R500_TXF_VOL_FILTER) == 3)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "%s_%u.%s = 3 is reserved",
                           REGNAME(FILTER0), unit,
                           fld(t->f0, R500_TXF_MIP_FILTER) == 3 ? "MIP_FILTER" : "VOL_FILTER");
    if (fld(t->f1, R500_TXF_CHROMA_KEY_MODE))
        return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                           "%s_%u.CHROMA_KEY_MODE = %u is not modelled", REGNAME(FILTER1), unit,
                           fld(t->f1, R500_TXF_CHROMA_KEY_MODE));

    t->bpp = f->bytes;
    t->block = is_block(f->kind);
    t->w = (int)(fld(fmt0, R500_TXF_TXWIDTH) | fld(t->fmt2, R500_TXF_TXWIDTH_11) << 11) + 1;
    t->h = (int)(fld(fmt0, R500_TXF_TXHEIGHT) | fld(t->fmt2, R500_TXF_TXHEIGHT_11) << 11) + 1;
    t->d = t->type == 1 ? 1 << fld(fmt0, R500_TXF_TXDEPTH) : 1;
    if (t->type == 1 && fld(fmt0, R500_TXF_TXDEPTH) > 12)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "%s_%u.TXDEPTH = %u: a depth above 4096 slices", REGNAME(FORMAT0),
                           unit, fld(fmt0, R500_TXF_TXDEPTH));
    if (t->w > 4096 || t->h > 4096)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "%s_%u: %dx%d texels is above the 4096 limit (tx_format0.txt)",
                           REGNAME(FORMAT0), unit, t->w, t->h);
    if (t->type == 2 && t->w != t->h)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "%s_%u: a cube map must be square, not %dx%d", REGNAME(FORMAT0), unit,
                           t->w, t->h);
    unsigned micro = fld(t->offset_reg, R500_TXF_MICRO_TILE);
    t->macro_req = fld(t->offset_reg, R500_TXF_MACRO_TILE) != 0;
    if (micro == 3)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "%s_%u.MICRO_TILE = 3 is reserved",
                           REGNAME(OFFSET), unit);
    t->micro = micro == 1;
    t->square = micro == 2;
    if (t->block && (micro || t->macro_req))
        return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                           "%s_%u: tiling (MACRO_TILE %u, MICRO_TILE %u) of a compressed texture is "
                           "not modelled (Mesa never tiles compressed textures)",
                           REGNAME(OFFSET), unit, t->macro_req, micro);
    unsigned lb = log2u(t->bpp);
    if (!t->block && (tile_table[0][lb][micro][0] == 0 || tile_table[1][lb][micro][0] == 0))
        return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                           "%s_%u.MICRO_TILE = %u does not exist for %u-byte texels "
                           "(r300_texture_desc.c tile table)",
                           REGNAME(OFFSET), unit, micro, t->bpp);

    /* levels: NUM_LEVELS + 1, at most the chain down to 1x1x1 */
    int maxdim = t->w > t->h ? t->w : t->h;
    if (t->d > maxdim)
        maxdim = t->d;
    int chain = (int)log2u((unsigned)maxdim) + 1;
    t->levels = (int)fld(fmt0, R500_TXF_NUM_LEVELS) + 1;
    if (t->levels > chain)
        t->levels = chain;
    if (t->levels > R500_TXU_MAX_LEVELS)
        t->levels = R500_TXU_MAX_LEVELS;
    t->min_level = (int)fld(t->f0, R500_TXF_MAX_MIP_LEVEL);
    if (t->min_level > t->levels - 1)
        t->min_level = t->levels - 1;

    bool pitch_en = fld(fmt0, R500_TXF_TXPITCH_EN) != 0;
    size_t reg_pitch = (size_t)fld(t->fmt2, R500_TXF_TXPITCH) + 1;
    if (pitch_en && reg_pitch < (size_t)t->w)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "%s_%u.TXPITCH = %zu: a pitch of %zu texels is below the width %d",
                           REGNAME(FORMAT2), unit, reg_pitch - 1, reg_pitch, t->w);
    /* r300_texture_desc.c r300_setup_miptree / get_stride / get_nblocksy:
     * each level follows the previous one; POT height when mipmapped, 3D or
     * cube; width and height aligned to the level's tile. */
    bool pot_h = t->levels > 1 || t->type != 0;
    bool macro_switch = fld(t->f1, R500_TXF_MACRO_SWITCH) != 0;
    size_t off = (size_t)fld(t->offset_reg, R500_TXF_TXOFFSET) << 5;
    for (int l = 0; l < t->levels; l++) {
        struct r500_txu_level *L = &t->lv[l];
        L->w = t->w >> l ? t->w >> l : 1;
        L->h = t->h >> l ? t->h >> l : 1;
        L->d = t->d >> l ? t->d >> l : 1;
        size_t hh = pot_h ? next_pot((size_t)L->h) : (size_t)L->h;
        if (t->block) {
            size_t bw = ((size_t)L->w + 3) / 4;
            if (l == 0 && pitch_en)
                bw = (reg_pitch + 3) / 4;
            L->pitch = align_up(bw * t->bpp, 32) / t->bpp;
            if (l == 0 && pitch_en)
                L->pitch = bw;
            L->rows = (hh + 3) / 4;
        } else {
            /* MACRO_SWITCH (tx_filter1.txt): macro-linear when the level is
             * below (RV350 mode) or at most (R500 mode) 8 micro tiles */
            unsigned tw = tile_table[1][lb][micro][0], th = tile_table[1][lb][micro][1];
            bool big_w = macro_switch ? (unsigned)L->w > tw : (unsigned)L->w >= tw;
            bool big_h = macro_switch ? (unsigned)L->h > th : (unsigned)L->h >= th;
            L->macro = t->macro_req && big_w && big_h;
            unsigned aw = tile_table[L->macro][lb][micro][0], ah = tile_table[L->macro][lb][micro][1];
            if (l == 0 && pitch_en) {
                L->pitch = reg_pitch;
                if ((micro || L->macro) && reg_pitch % aw)
                    return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                                       "%s_%u.TXPITCH = %zu: a tiled pitch must be a multiple "
                                       "of the %u-texel tile",
                                       REGNAME(FORMAT2), unit, reg_pitch - 1, aw);
            } else {
                L->pitch = align_up((size_t)L->w, aw);
                if (pitch_en && L->macro && t->type != 1)
                    L->pitch = align_up((size_t)L->w, 2u * aw);
            }
            L->rows = align_up(hh, ah);
        }
        L->layer = L->pitch * t->bpp * L->rows;
        size_t layers = t->type == 2 ? 6u : (size_t)L->d;
        L->offset = off;
        off += L->layer * layers;
    }
    if (!mem || off > size)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "texture unit %u needs bytes up to %zu (%s_%u = 0x%08x, %s_%u = "
                           "0x%08x) but its buffer holds %zu",
                           unit, off, REGNAME(OFFSET), unit, t->offset_reg, REGNAME(FORMAT0),
                           unit, fmt0, t->size);
    return LS_OK;
}

ls_status r500_txu_bind_source(r500_txu *t, const r500_tx_state *s, unsigned unit, int w, int h,
                               int levels, const r500_texel_source *src,
                               const r500_tx_options *o, ls_diag *d)
{
    memset(t, 0, sizeof *t);
    if (unit >= R500_TX_UNITS || !src || !src->fetch || w < 1 || h < 1 || w > 16384 ||
        h > 16384 || levels < 1)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "bad texel source for texture unit %u",
                           unit);
    if (o)
        t->opt = *o;
    else
        r500_tx_options_default(&t->opt);
    t->unit = unit;
    t->src = src;
    t->f0 = s->reg[R500_TXR_FILTER0][unit];
    t->f1 = s->reg[R500_TXR_FILTER1][unit];
    t->fmt0 = s->reg[R500_TXR_FORMAT0][unit];
    /* the source's RGBA go through unchanged: X, Y, Z, W selected as R, G, B, A */
    t->fmt1 = (uint32_t)R500_TXFMT_W8Z8Y8X8 | 3u << 9 | 0u << 12 | 1u << 15 | 2u << 18;
    t->border = s->reg[R500_TXR_BORDER_COLOR][unit];
    t->format = R500_TXFMT_W8Z8Y8X8;
    t->bpp = 4;
    t->type = 0;
    static const r500_tx_field filt[2] = {R500_TXF_MAG_FILTER, R500_TXF_MIN_FILTER};
    for (int i = 0; i < 2; i++)
        if (fld(t->f0, filt[i]) == 0)
            return ls_diag_set(d, LS_ERR_UNSUPPORTED, NULL, 0, 0,
                               "%s_%u.%s = 0 (Filter4) is not modelled", REGNAME(FILTER0), unit,
                               field_table[filt[i]].name);
    if (fld(t->f0, R500_TXF_MIP_FILTER) == 3)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "%s_%u.MIP_FILTER = 3 is reserved",
                           REGNAME(FILTER0), unit);
    t->w = w;
    t->h = h;
    t->d = 1;
    int chain = (int)log2u((unsigned)(w > h ? w : h)) + 1;
    t->levels = levels > chain ? chain : levels;
    if (t->levels > R500_TXU_MAX_LEVELS)
        t->levels = R500_TXU_MAX_LEVELS;
    t->min_level = (int)fld(t->f0, R500_TXF_MAX_MIP_LEVEL);
    if (t->min_level > t->levels - 1)
        t->min_level = t->levels - 1;
    for (int l = 0; l < t->levels; l++) {
        t->lv[l].w = w >> l ? w >> l : 1;
        t->lv[l].h = h >> l ? h >> l : 1;
        t->lv[l].d = 1;
    }
    return LS_OK;
}

/* ---- sampling ------------------------------------------------------------ */

static double finite0(double v)
{
    return isfinite(v) ? v : 0.0;
}

/* TX_FILTER0.CLAMP_* (tx_filter0.txt): the coordinate step (u in texels,
 * n texels) and the index step; -1 = border colour. Modes follow GL's
 * definitions of the same names: 0 repeat, 1 mirrored repeat, 2 clamp to
 * edge, 3 mirror once to edge, 4 clamp half way to border (GL_CLAMP),
 * 5 mirror once half way, 6 clamp to border, 7 mirror once to border. */
static double wrap_coord(unsigned mode, double u, int n)
{
    double dn = n;
    switch (mode) {
    case 0:
    case 1: {
        /* reduce modulo the period; far coordinates lose their fraction in
         * double and may land outside it, which becomes 0 */
        double p = mode == 0 ? dn : 2 * dn, r = u - floor(u / p) * p;
        return r >= 0 && r < p ? r : 0.0;
    }
    case 4:
        return u < 0 ? 0 : (u > dn ? dn : u);
    case 5:
        return fabs(u) > dn ? dn : fabs(u);
    case 3:
    case 7:
        return fabs(u) > dn + 1 ? dn + 1 : fabs(u);
    default:
        return u < -1 ? -1 : (u > dn + 1 ? dn + 1 : u);
    }
}

static int wrap_index(unsigned mode, int i, int n)
{
    int m;
    switch (mode) {
    case 0:
        m = i % n;
        return m < 0 ? m + n : m;
    case 1:
        m = i % (2 * n);
        if (m < 0)
            m += 2 * n;
        return m < n ? m : 2 * n - 1 - m;
    case 2:
        return i < 0 ? 0 : (i >= n ? n - 1 : i);
    case 3:
        m = i < 0 ? -1 - i : i;
        return m >= n ? n - 1 : m;
    case 5:
    case 7:
        m = i < 0 ? -1 - i : i;
        return m >= n ? -1 : m;
    default:
        return i < 0 || i >= n ? -1 : i;
    }
}

typedef struct lane_coord {
    double u, v, w; /* texels of level 0 (normalized * size unless unscaled) */
    int layer;      /* cube face */
    double ref;     /* shadow reference */
} lane_coord;

static float weight(const r500_txu *t, double f)
{
    if (t->opt.weight_bits) {
        double s = ldexp(1.0, (int)t->opt.weight_bits);
        return (float)(floor(f * s + 0.5) / s);
    }
    return (float)f;
}

static void fetch(const r500_txu *t, int level, int layer, int x, int y, int z,
                  const lane_coord *c, float out[4])
{
    if (x < 0 || y < 0 || z < 0) {
        border_color(t, out);
        return;
    }
    if (t->src)
        t->src->fetch(t->src->ctx, level, t->type == 1 ? z : layer, x, y, out);
    else
        r500_txu_texel(t, level, t->type == 1 ? z : layer, x, y, out);
    if (t->opt.shadow != R500_TXO_SHADOW_NONE &&
        (t->format == R500_TXFMT_X16 || t->format == R500_TXFMT_Y8X24)) {
        float dz = out[0];
        double r = c->ref;
        bool pass = t->opt.shadow == R500_TXO_SHADOW_LESS      ? r < dz
                    : t->opt.shadow == R500_TXO_SHADOW_LEQUAL  ? r <= dz
                    : t->opt.shadow == R500_TXO_SHADOW_GREATER ? r > dz
                                                               : r >= dz;
        out[0] = out[1] = out[2] = out[3] = pass ? 1.0f : 0.0f;
    }
}

/* Sample one level at (u, v, w) in level-0 texels, nearest or linear. */
static void sample_level(const r500_txu *t, int l, bool linear, const lane_coord *c, double du,
                         double dv, float out[4])
{
    const struct r500_txu_level *L = &t->lv[l];
    unsigned ms = fld(t->f0, R500_TXF_CLAMP_S), mt = fld(t->f0, R500_TXF_CLAMP_T),
             mr = fld(t->f0, R500_TXF_CLAMP_R);
    double u = finite0(c->u + du) * L->w / t->w, v = finite0(c->v + dv) * L->h / t->h,
           w = c->w * L->d / t->d;
    u = wrap_coord(ms, u, L->w);
    v = wrap_coord(mt, v, L->h);
    bool vol = t->type == 1;
    unsigned vf = fld(t->f0, R500_TXF_VOL_FILTER);
    bool zlin = vol && (vf == 0 ? linear : vf == 2);
    if (vol)
        w = wrap_coord(mr, w, L->d);
    if (!linear) {
        int x = wrap_index(ms, (int)floor(u), L->w), y = wrap_index(mt, (int)floor(v), L->h);
        int z = 0;
        if (vol && !zlin)
            z = wrap_index(mr, (int)floor(w), L->d);
        if (!zlin) {
            fetch(t, l, c->layer, x, y, z, c, out);
            return;
        }
    }
    double x = u - 0.5, y = v - 0.5;
    double x0 = floor(x), y0 = floor(y);
    float fx = weight(t, x - x0), fy = weight(t, y - y0);
    int xi[2], yi[2];
    if (linear) {
        xi[0] = wrap_index(ms, (int)x0, L->w);
        xi[1] = wrap_index(ms, (int)x0 + 1, L->w);
        yi[0] = wrap_index(mt, (int)y0, L->h);
        yi[1] = wrap_index(mt, (int)y0 + 1, L->h);
    } else {
        xi[0] = xi[1] = wrap_index(ms, (int)floor(u), L->w);
        yi[0] = yi[1] = wrap_index(mt, (int)floor(v), L->h);
        fx = fy = 0;
    }
    int zs = 1, zi[2] = {0, 0};
    float fz = 0;
    if (vol) {
        if (zlin) {
            double zz = w - 0.5, z0 = floor(zz);
            fz = weight(t, zz - z0);
            zi[0] = wrap_index(mr, (int)z0, L->d);
            zi[1] = wrap_index(mr, (int)z0 + 1, L->d);
            zs = 2;
        } else {
            zi[0] = wrap_index(mr, (int)floor(w), L->d);
        }
    }
    float acc[2][4];
    for (int k = 0; k < zs; k++) {
        float a[4], b[4], cc[4], e[4];
        fetch(t, l, c->layer, xi[0], yi[0], zi[k], c, a);
        fetch(t, l, c->layer, xi[1], yi[0], zi[k], c, b);
        fetch(t, l, c->layer, xi[0], yi[1], zi[k], c, cc);
        fetch(t, l, c->layer, xi[1], yi[1], zi[k], c, e);
        for (int ch = 0; ch < 4; ch++) {
            float top = a[ch] + (b[ch] - a[ch]) * fx;
            float bot = cc[ch] + (e[ch] - cc[ch]) * fx;
            acc[k][ch] = top + (bot - top) * fy;
        }
    }
    for (int ch = 0; ch < 4; ch++)
        out[ch] = zs == 2 ? acc[0][ch] + (acc[1][ch] - acc[0][ch]) * fz : acc[0][ch];
}

/* GL's cube face selection (major axis, then sc, tc); faces in memory in
 * the order +X, -X, +Y, -Y, +Z, -Z (Mesa: layer i of a PIPE_TEXTURE_CUBE). */
static int cube_major(double x, double y, double z)
{
    double ax = fabs(x), ay = fabs(y), az = fabs(z);
    if (ax >= ay && ax >= az)
        return x >= 0 ? 0 : 1;
    if (ay >= az)
        return y >= 0 ? 2 : 3;
    return z >= 0 ? 4 : 5;
}

/* (s, t) of direction (x, y, z) on `face` (GL's table, ma = |the face's
 * axis component|), whether or not that axis is the major one. */
static void cube_on_face(double x, double y, double z, int face, double *s, double *t)
{
    double sc, tc, ma;
    switch (face) {
    case 0: sc = -z, tc = -y, ma = fabs(x); break;
    case 1: sc = z, tc = -y, ma = fabs(x); break;
    case 2: sc = x, tc = z, ma = fabs(y); break;
    case 3: sc = x, tc = -z, ma = fabs(y); break;
    case 4: sc = x, tc = -y, ma = fabs(z); break;
    default: sc = -x, tc = -y, ma = fabs(z); break;
    }
    if (!(ma > 0))
        ma = 1;
    *s = (sc / ma + 1) * 0.5;
    *t = (tc / ma + 1) * 0.5;
}

static void cube_face(double x, double y, double z, double *s, double *t, int *face)
{
    *face = cube_major(x, y, z);
    cube_on_face(x, y, z, *face, s, t);
}

static double rho_of(const r500_txu *t, const double a[3], const double b[3])
{
    if (t->opt.rho == R500_TXO_RHO_MAXABS) {
        double m = 0;
        for (int k = 0; k < 3; k++) {
            m = fmax(m, fabs(a[k]));
            m = fmax(m, fabs(b[k]));
        }
        return m;
    }
    return fmax(sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]),
                sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]));
}

static void sample_lane(const r500_txu *t, const lane_coord *c, double lod, const double dx[3],
                        const double dy[3], float out[4])
{
    unsigned magf = fld(t->f0, R500_TXF_MAG_FILTER), minf = fld(t->f0, R500_TXF_MIN_FILTER);
    unsigned mip = fld(t->f0, R500_TXF_MIP_FILTER);
    bool minify = lod > 0;
    unsigned filt = minify ? minf : magf;
    bool aniso = filt == 3 && t->opt.aniso == R500_TXO_ANISO_FOOTPRINT && dx && dy;
    bool linear = filt != 1;
    int n = 1;
    double axis[2] = {0, 0};
    if (aniso) {
        double px = hypot(dx[0], dx[1]), py = hypot(dy[0], dy[1]);
        double pmax = fmax(px, py), pmin = fmin(px, py);
        if (pmin > 0 && pmax > pmin) {
            double ratio = pmax / pmin;
            n = (int)ceil(ratio > 16 ? 16 : ratio);
            const double *ax = px >= py ? dx : dy;
            axis[0] = ax[0];
            axis[1] = ax[1];
            lod = log2(pmax / n);
            minify = lod > 0;
        }
    }
    double lo = t->min_level, hi = t->levels - 1;
    double cl = !(lod >= lo) ? lo : (lod > hi ? hi : lod); /* NaN: the finest level */
    int l0 = t->min_level, l1 = l0;
    float frac = 0;
    if (minify && mip == 1) {
        l0 = cl <= lo + 0.5 ? (int)lo
             : t->opt.mip_half_up ? (int)floor(cl + 0.5)
                                  : (int)ceil(cl + 0.5) - 1;
        if (l0 > (int)hi)
            l0 = (int)hi;
        l1 = l0;
    } else if (minify && mip == 2) {
        l0 = (int)floor(cl);
        l1 = l0 + 1 > (int)hi ? (int)hi : l0 + 1;
        frac = (float)(cl - l0);
    }
    float acc[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        double o = n > 1 ? ((i + 0.5) / n - 0.5) : 0.0;
        float a[4], b[4];
        sample_level(t, l0, linear, c, o * axis[0], o * axis[1], a);
        if (l1 != l0) {
            sample_level(t, l1, linear, c, o * axis[0], o * axis[1], b);
            for (int ch = 0; ch < 4; ch++)
                a[ch] = a[ch] + (b[ch] - a[ch]) * frac;
        }
        for (int ch = 0; ch < 4; ch++)
            acc[ch] += a[ch];
    }
    for (int ch = 0; ch < 4; ch++)
        out[ch] = n > 1 ? acc[ch] / (float)n : acc[ch];
}

ls_status r500_txu_sample(const r500_txu *t, const r500_tex_request *rq, ls_diag *d)
{
    if (!t || (!t->mem && !t->src))
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "texture lookup on an unbound unit");
    unsigned n = rq->n > R500_TEX_MAX_LANES ? R500_TEX_MAX_LANES : rq->n;
    bool proj = fld(t->fmt0, R500_TXF_PROJECTED) != 0;
    lane_coord c[R500_TEX_MAX_LANES];
    double dir[R500_TEX_MAX_LANES][3]; /* cube maps: each lane's direction */
    /* LOD_BIAS: s4.5 (tx_filter1.txt), added before the clamp */
    uint32_t lb = fld(t->f1, R500_TXF_LOD_BIAS);
    double bias = (double)((lb & 0x200u) ? (int)lb - 1024 : (int)lb) / 32.0;
    for (unsigned l = 0; l < n; l++) {
        double s = rq->coord[0][l], tt = rq->coord[1][l], r = rq->coord[2][l],
               q = rq->coord[3][l];
        if (proj && t->type != 2) {
            /* FORMAT0.PROJECTED: "texture coords are projected" (tx_format0.txt) */
            s /= q;
            tt /= q;
            r /= q;
        }
        c[l].ref = finite0(r);
        c[l].layer = 0;
        if (t->type == 2) {
            double fs, ft;
            int face;
            dir[l][0] = finite0(s);
            dir[l][1] = finite0(tt);
            dir[l][2] = finite0(r);
            cube_face(dir[l][0], dir[l][1], dir[l][2], &fs, &ft, &face);
            s = fs;
            tt = ft;
            c[l].layer = face;
            c[l].ref = finite0(q);
        }
        double sx = rq->unscaled ? 1.0 : t->w, sy = rq->unscaled ? 1.0 : t->h,
               sz = rq->unscaled ? 1.0 : t->d;
        c[l].u = finite0(s * sx);
        c[l].v = finite0(tt * sy);
        c[l].w = t->type == 1 ? finite0(r * sz) : 0.0;
    }
    for (unsigned l = 0; l < n; l++) {
        if (!((rq->mask >> l) & 1u))
            continue;
        double lod = 0;
        double dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
        bool have_d = false;
        if (rq->lod_mode == R500_TEX_LOD_EXPLICIT) {
            lod = (rq->lod ? rq->lod[l] : 0.0) + bias;
        } else {
            if (rq->lod_mode == R500_TEX_LOD_DERIV && rq->ddx && rq->ddy) {
                double sc[3] = {rq->unscaled ? 1.0 : t->w, rq->unscaled ? 1.0 : t->h,
                                rq->unscaled ? 1.0 : t->d};
                for (int k = 0; k < (t->type == 1 ? 3 : 2); k++) {
                    /* infinite derivatives give an infinite LOD (the last
                     * level), NaN a NaN LOD (the finest level) */
                    dx[k] = rq->ddx[k][l] * sc[k];
                    dy[k] = rq->ddy[k][l] * sc[k];
                }
                have_d = true;
            } else if (rq->quad) {
                const uint8_t *qd = rq->quad[l];
                unsigned tl = qd[0] < n ? qd[0] : l, tr = qd[1] < n ? qd[1] : l,
                         bl = qd[2] < n ? qd[2] : l;
                dx[0] = c[tr].u - c[tl].u, dx[1] = c[tr].v - c[tl].v, dx[2] = c[tr].w - c[tl].w;
                dy[0] = c[bl].u - c[tl].u, dy[1] = c[bl].v - c[tl].v, dy[2] = c[bl].w - c[tl].w;
                if (t->type == 2 && t->opt.cube_quad_face) {
                    /* tx-cube-lod = quad-face: the three lanes projected on
                     * this lane's face, so a quad across a cube edge keeps
                     * one face's coordinates (docs/assumptions.md) */
                    double st[3][2];
                    const unsigned q3[3] = {tl, tr, bl};
                    for (int k = 0; k < 3; k++) {
                        cube_on_face(dir[q3[k]][0], dir[q3[k]][1], dir[q3[k]][2], c[l].layer,
                                     &st[k][0], &st[k][1]);
                        st[k][0] *= rq->unscaled ? 1.0 : t->w;
                        st[k][1] *= rq->unscaled ? 1.0 : t->h;
                    }
                    dx[0] = st[1][0] - st[0][0], dx[1] = st[1][1] - st[0][1];
                    dy[0] = st[2][0] - st[0][0], dy[1] = st[2][1] - st[0][1];
                }
                have_d = true;
            }
            double rho = have_d ? rho_of(t, dx, dy) : 0.0;
            lod = rho > 0 ? log2(rho) : (have_d ? -INFINITY : 0.0);
            if (rq->lod_mode == R500_TEX_LOD_BIAS && rq->lod)
                lod += rq->lod[l];
            lod += bias;
        }
        float px[4];
        sample_lane(t, &c[l], lod, have_d ? dx : NULL, have_d ? dy : NULL, px);
        for (int ch = 0; ch < 4; ch++)
            rq->out[ch][l] = px[ch];
    }
    return LS_OK;
}
