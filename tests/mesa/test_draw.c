/* The stream executor's front half (include/lockstep/mesa_draw.h): every
 * vertex format against a reference packer written here (bytes laid out by
 * hand, expected values computed in double from the register documentation's
 * formulas: r300_reg.h R300_DATA_TYPE_*, VAP_PSC_SGN_NORM_CNTL), swizzles and
 * write masks, index buffers (16/32-bit, inline and INDX_BUFFER, index
 * offset), embedded data, a PVS program, PVS bypass, and hostile streams. */
#include "test_util.h"

#include <math.h>

#include "lockstep/mesa_draw.h"
#include "lockstep/r500.h"
#include "lockstep/r500_raster.h"
#include "lockstep/r500_pvs.h"
#include "lockstep/r500_tex.h"

/* ---- a stream builder ----------------------------------------------------- */

typedef struct sb {
    uint32_t w[4096];
    size_t n;
    uint32_t relocs[64];
    size_t nrel;
} sb;

static void put(sb *b, uint32_t v) { b->w[b->n++] = v; }
/* type-0: one register */
static void reg(sb *b, uint32_t addr, uint32_t v)
{
    put(b, (addr / 4) & 0x1fffu);
    put(b, v);
}
static void pkt3(sb *b, unsigned op, size_t ndata) { put(b, 0xC0000000u | ((uint32_t)(ndata - 1) << 16) | (op << 8)); }
/* a relocation NOP for relocation k (kernel: dword offset, 4 per reloc) */
static void reloc(sb *b, unsigned k)
{
    put(b, 0xC0001000u);
    put(b, 4 * k);
    while (b->nrel < 4 * (k + 1))
        b->relocs[b->nrel++] = 0;
}
static void vbpntr(sb *b, unsigned na, const unsigned *size_dw, const unsigned *stride_dw,
                   const uint32_t *off, const unsigned *rl)
{
    pkt3(b, 0x2F, 1 + (3 * na + 1) / 2);
    put(b, na);
    for (unsigned a = 0; a < na; a += 2) {
        uint32_t c = size_dw[a] | (stride_dw[a] << 8);
        if (a + 1 < na)
            c |= (size_dw[a + 1] << 16) | (stride_dw[a + 1] << 24);
        put(b, c);
        put(b, off[a]);
        if (a + 1 < na)
            put(b, off[a + 1]);
    }
    for (unsigned a = 0; a < na; a++)
        reloc(b, rl[a]);
}
static uint32_t psc(unsigned type, unsigned skip, unsigned dst, bool last, bool sgn, bool norm)
{
    return type | (skip << 4) | (dst << 8) | ((uint32_t)last << 13) | ((uint32_t)sgn << 14) |
           ((uint32_t)norm << 15);
}
static uint32_t pse(unsigned x, unsigned y, unsigned z, unsigned w, unsigned we)
{
    return x | (y << 3) | (z << 6) | (w << 9) | (we << 12);
}
#define XYZW pse(0, 1, 2, 3, 0xf)

static void bypass_setup(sb *b, uint32_t fmt0, uint32_t fmt1)
{
    reg(b, 0x2140, 1u << 8); /* VAP_CNTL_STATUS: PVS bypass */
    reg(b, 0x2090, fmt0);
    reg(b, 0x2094, fmt1);
    reg(b, 0x21DC, 0xAAAAAAAAu); /* SGN_NORM_NO_ZERO everywhere, as Mesa */
}

static mesa_exec run(sb *b, const mesa_bo *bos, size_t nbos)
{
    mesa_exec e;
    mesa_exec_options o;
    mesa_exec_options_default(&o);
    ls_diag d;
    ls_status st = mesa_exec_stream("t", b->w, b->n, b->relocs, b->nrel, bos, nbos, &o, &e, &d);
    if (st)
        fail_msg("exec: %s", d.msg);
    return e;
}

/* ---- reference packer ------------------------------------------------------ */

/* Half: built from sign/exponent/mantissa by hand. */
static uint16_t mkhalf(unsigned s, unsigned e, unsigned m) { return (uint16_t)((s << 15) | (e << 10) | m); }
static double half_value(uint16_t h)
{
    unsigned s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v = e ? ldexp(1.0 + m / 1024.0, (int)e - 15) : ldexp(m / 1024.0, -14);
    return s ? -v : v;
}

typedef struct fmt_case {
    unsigned type, comps, bytes;
    bool sgn, norm;
} fmt_case;

/* Fill one element at p with pseudo-random raw data, return expected xyzw. */
static void pack_element(const fmt_case *c, uint8_t *p, uint64_t *rng, double exp[4])
{
    exp[0] = exp[1] = exp[2] = 0.0;
    exp[3] = 1.0;
    for (unsigned k = 0; k < c->comps; k++) {
        *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = (uint32_t)(*rng >> 33);
        switch (c->type) {
        case 0: case 1: case 2: case 3: {
            float f = (float)((int32_t)r) / 65536.0f;
            memcpy(p + 4 * k, &f, 4);
            exp[k] = f;
            break;
        }
        case 4: { /* BYTE */
            uint8_t v = (uint8_t)r;
            p[k] = v;
            int iv = c->sgn ? (int)(int8_t)v : (int)v;
            exp[k] = !c->norm ? iv : (c->sgn ? (2.0 * iv + 1.0) / 255.0 : iv / 255.0);
            break;
        }
        case 5: { /* D3DCOLOR: memory B G R A */
            uint8_t v = (uint8_t)r;
            static const unsigned at[4] = {2, 1, 0, 3};
            p[at[k]] = v;
            exp[k] = v / 255.0;
            break;
        }
        case 6: case 7: { /* SHORT */
            uint16_t v = (uint16_t)r;
            p[2 * k] = (uint8_t)v;
            p[2 * k + 1] = (uint8_t)(v >> 8);
            int iv = c->sgn ? (int)(int16_t)v : (int)v;
            exp[k] = !c->norm ? iv : (c->sgn ? (2.0 * iv + 1.0) / 65535.0 : iv / 65535.0);
            break;
        }
        case 11: case 12: { /* FLT16: finite halves, denormals included */
            uint16_t h = mkhalf(r & 1, (r >> 1) % 31, (r >> 6) & 1023);
            p[2 * k] = (uint8_t)h;
            p[2 * k + 1] = (uint8_t)(h >> 8);
            exp[k] = half_value(h);
            break;
        }
        }
    }
}

static void test_formats(void **state)
{
    (void)state;
    static const fmt_case cases[] = {
        {0, 1, 4, 0, 0},  {1, 2, 8, 0, 0},  {2, 3, 12, 0, 0}, {3, 4, 16, 0, 0},
        {4, 4, 4, 0, 0},  {4, 4, 4, 0, 1},  {4, 4, 4, 1, 0},  {4, 4, 4, 1, 1},
        {5, 4, 4, 0, 1},  {6, 2, 4, 0, 0},  {6, 2, 4, 0, 1},  {6, 2, 4, 1, 0},
        {6, 2, 4, 1, 1},  {7, 4, 8, 0, 0},  {7, 4, 8, 1, 1},  {11, 2, 4, 0, 0},
        {12, 4, 8, 0, 0},
    };
    uint64_t rng = ls_test_seed(0x5eed);
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const fmt_case *c = &cases[ci];
        enum { NV = 7, OFF = 12 };
        unsigned stride = c->bytes + 4; /* padding between elements */
        uint8_t mem[OFF + NV * 20 + 8];
        memset(mem, 0xEE, sizeof mem);
        double exp[NV][4];
        for (unsigned v = 0; v < NV; v++)
            pack_element(c, mem + OFF + v * stride, &rng, exp[v]);
        sb b = {0};
        bypass_setup(&b, 1, 0);
        reg(&b, 0x2150, psc(c->type, 0, 0, true, c->sgn, c->norm));
        reg(&b, 0x21E0, XYZW);
        unsigned sz = (c->bytes + 3) / 4, st = stride / 4, rl = 0;
        uint32_t off = OFF;
        vbpntr(&b, 1, &sz, &st, &off, &rl);
        pkt3(&b, 0x34, 1);
        put(&b, 4u | (2u << 4) | ((uint32_t)NV << 16)); /* triangles, vertex list */
        mesa_bo bo = {mem, sizeof mem};
        mesa_exec e = run(&b, &bo, 1);
        assert_int_equal(e.ndraws, 1);
        if (e.draws[0].status)
            fail_msg("type %u: %s", c->type, e.draws[0].diag.msg);
        assert_int_equal(e.draws[0].nverts, NV);
        for (unsigned v = 0; v < NV; v++)
            for (int k = 0; k < 4; k++) {
                double got = e.draws[0].verts[v].v[R500_VTX_POS][k];
                if ((float)exp[v][k] != (float)got)
                    fail_msg("type %u sgn %d norm %d vertex %u comp %d: got %.9g expected %.9g",
                             c->type, c->sgn, c->norm, v, k, got, exp[v][k]);
            }
        mesa_exec_free(&e);
    }
}

/* Two arrays, swizzle/zero/one selects, a partial write mask and a
 * destination vector; outputs POS + COL0 + TEX0(2 comps): three output regs. */
static void test_swizzle_and_layout(void **state)
{
    (void)state;
    float pos[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    float uv[3][2] = {{0.5f, 0.25f}, {0.75f, 1.5f}, {-1, -2}};
    uint8_t mem[256] = {0};
    memcpy(mem, pos, sizeof pos);
    memcpy(mem + 128, uv, sizeof uv);
    sb b = {0};
    bypass_setup(&b, 1u | 2u, 2u);
    /* stream 0 → vec 0 xyzw; stream 1 (FLOAT_2) → vec 2 as (y, 1, x, 0); vec 1
     * (colour) gets stream 1 again into x only, others stay 0 */
    reg(&b, 0x2150, psc(3, 0, 0, false, 0, 0) | (psc(1, 0, 2, false, 0, 0) << 16));
    reg(&b, 0x2154, psc(1, 0, 1, true, 0, 0));
    reg(&b, 0x21E0, XYZW | (pse(1, 5, 0, 4, 0xf) << 16));
    reg(&b, 0x21E4, pse(0, 1, 2, 3, 0x1));
    unsigned sz[3] = {4, 2, 2}, st[3] = {4, 2, 2}, rl[3] = {0, 0, 0};
    uint32_t off[3] = {0, 128, 128};
    vbpntr(&b, 3, sz, st, off, rl);
    pkt3(&b, 0x34, 1);
    put(&b, 4u | (2u << 4) | (3u << 16));
    mesa_bo bo = {mem, sizeof mem};
    mesa_exec e = run(&b, &bo, 1);
    assert_int_equal(e.draws[0].status, LS_OK);
    const mesa_exec_draw *d = &e.draws[0];
    assert_int_equal(d->layout.present, (1u << R500_VTX_POS) | (1u << R500_VTX_COL0) |
                                            (1u << R500_VTX_TEX0));
    assert_int_equal(d->layout.out_reg[R500_VTX_COL0], 1);
    assert_int_equal(d->layout.out_reg[R500_VTX_TEX0], 2);
    assert_int_equal(d->layout.comps[R500_VTX_TEX0], 2);
    assert_int_equal(d->layout.written[R500_VTX_COL0], 0x1); /* stream 2's mask */
    assert_int_equal(d->layout.written[R500_VTX_TEX0], 0xf);
    r500_vertex rv[3];
    mesa_exec_raster_vertices(d, rv);
    for (int v = 0; v < 3; v++) {
        /* the rasterizer's packet: TEX0's 2 components first, then colour 0 */
        assert_true(rv[v].tex[0] == uv[v][1] && rv[v].tex[1] == 1.0f && rv[v].tex[2] == 0.0f);
        assert_true(rv[v].col[0][0] == uv[v][0] && rv[v].pos[3] == pos[v][3]);
        for (int k = 0; k < 4; k++)
            assert_true(d->verts[v].v[R500_VTX_POS][k] == pos[v][k]);
        const float *t = d->verts[v].v[R500_VTX_TEX0];
        assert_true(t[0] == uv[v][1] && t[1] == 1.0f && t[2] == uv[v][0] && t[3] == 0.0f);
        const float *c = d->verts[v].v[R500_VTX_COL0];
        assert_true(c[0] == uv[v][0] && c[1] == 0 && c[2] == 0 && c[3] == 0);
    }
    mesa_exec_free(&e);
}

static void idx_setup(sb *b, uint8_t *mem, float (*pos)[4], int nv)
{
    for (int v = 0; v < nv; v++)
        for (int k = 0; k < 4; k++)
            pos[v][k] = (float)(10 * v + k);
    memcpy(mem, pos, sizeof(float) * 4 * (size_t)nv);
    bypass_setup(b, 1, 0);
    reg(b, 0x2150, psc(3, 0, 0, true, 0, 0));
    reg(b, 0x21E0, XYZW);
    unsigned sz = 4, st = 4, rl = 0;
    uint32_t off = 0;
    vbpntr(b, 1, &sz, &st, &off, &rl);
}

static void test_indices(void **state)
{
    (void)state;
    float pos[8][4];
    uint8_t mem[512] = {0};
    static const uint32_t ix[5] = {7, 0, 3, 3, 5};
    for (int mode = 0; mode < 4; mode++) { /* 16/32-bit × inline/INDX_BUFFER */
        bool i32 = mode & 1, buf = mode & 2;
        sb b = {0};
        idx_setup(&b, mem, pos, 8);
        uint32_t vf = 4u | (1u << 4) | (5u << 16) | (i32 ? 1u << 11 : 0);
        uint8_t ibuf[64] = {0};
        size_t ioff = 8;
        for (int k = 0; k < 5; k++) {
            if (i32) {
                for (int y = 0; y < 4; y++)
                    ibuf[ioff + 4 * k + y] = (uint8_t)(ix[k] >> (8 * y));
            } else {
                ibuf[ioff + 2 * k] = (uint8_t)ix[k];
                ibuf[ioff + 2 * k + 1] = 0;
            }
        }
        if (!buf) {
            size_t nd = i32 ? 5 : 3;
            pkt3(&b, 0x36, 1 + nd);
            put(&b, vf);
            for (size_t k = 0; k < nd; k++)
                put(&b, i32 ? ix[k] : ix[2 * k] | (2 * k + 1 < 5 ? ix[2 * k + 1] << 16 : 0));
        } else {
            pkt3(&b, 0x36, 1);
            put(&b, vf);
            pkt3(&b, 0x33, 3);
            put(&b, 0x80000000u | (0x2040u >> 2));
            put(&b, (uint32_t)ioff);
            put(&b, i32 ? 5 : 3);
            reloc(&b, 1);
        }
        mesa_bo bos[2] = {{mem, sizeof mem}, {ibuf, sizeof ibuf}};
        mesa_exec e = run(&b, bos, 2);
        if (e.draws[0].status)
            fail_msg("mode %d: %s", mode, e.draws[0].diag.msg);
        assert_int_equal(e.draws[0].nverts, 5);
        for (int k = 0; k < 5; k++)
            assert_true(e.draws[0].verts[k].v[0][1] == pos[ix[k]][1]);
        mesa_exec_free(&e);
    }
    /* R500 VAP_INDEX_OFFSET: indices + offset */
    sb b = {0};
    idx_setup(&b, mem, pos, 8);
    reg(&b, 0x208C, (uint32_t)-2);
    pkt3(&b, 0x36, 2);
    put(&b, 1u | (1u << 4) | (2u << 16));
    put(&b, 4u | (7u << 16));
    mesa_bo bo = {mem, sizeof mem};
    mesa_exec e = run(&b, &bo, 1);
    assert_int_equal(e.draws[0].status, LS_OK);
    assert_true(e.draws[0].verts[0].v[0][0] == pos[2][0]);
    assert_true(e.draws[0].verts[1].v[0][0] == pos[5][0]);
    mesa_exec_free(&e);
    /* r300's own encoding of a negative bias: 24 bits of magnitude's two's
     * complement and the sign in bit 24 (r500_emit_index_bias), -3 here;
     * read as a 32-bit number it would be +33554429. */
    sb b2 = {0};
    idx_setup(&b2, mem, pos, 8);
    reg(&b2, 0x208C, (0xfffffffdu & 0xffffffu) | (1u << 24));
    pkt3(&b2, 0x36, 2);
    put(&b2, 1u | (1u << 4) | (2u << 16));
    put(&b2, 7u | (3u << 16));
    e = run(&b2, &bo, 1);
    assert_int_equal(e.draws[0].status, LS_OK);
    assert_true(e.draws[0].verts[0].v[0][0] == pos[4][0]);
    assert_true(e.draws[0].verts[1].v[0][0] == pos[0][0]);
    mesa_exec_free(&e);
    /* Bits 31:25 are not part of the offset: +2 with bit 25 set is +2. */
    sb b3 = {0};
    idx_setup(&b3, mem, pos, 8);
    reg(&b3, 0x208C, 0x02000002u);
    pkt3(&b3, 0x36, 2);
    put(&b3, 1u | (1u << 4) | (2u << 16));
    put(&b3, 1u | (3u << 16));
    e = run(&b3, &bo, 1);
    assert_int_equal(e.draws[0].status, LS_OK);
    assert_true(e.draws[0].verts[0].v[0][0] == pos[3][0]);
    assert_true(e.draws[0].verts[1].v[0][0] == pos[5][0]);
    mesa_exec_free(&e);
}

/* 3D_DRAW_IMMD_2: VAP_VTX_SIZE dwords per vertex, streams in order with
 * SKIP_DWORDS. */
static void test_immediate(void **state)
{
    (void)state;
    sb b = {0};
    bypass_setup(&b, 1u | 2u, 0);
    reg(&b, 0x20B4, 7); /* 4 floats + 1 skipped + 2 floats */
    reg(&b, 0x2150, psc(3, 0, 0, false, 0, 0) | (psc(1, 1, 1, true, 0, 0) << 16));
    reg(&b, 0x21E0, XYZW | (pse(0, 1, 4, 5, 0xf) << 16));
    pkt3(&b, 0x35, 1 + 2 * 7);
    put(&b, 1u | (3u << 4) | (2u << 16));
    for (int v = 0; v < 2; v++) {
        float f[7] = {1.0f + v, 2, 3, 4, 99, 0.5f * v, -0.5f};
        for (int k = 0; k < 7; k++) {
            uint32_t u;
            memcpy(&u, &f[k], 4);
            put(&b, u);
        }
    }
    mesa_exec e = run(&b, NULL, 0);
    assert_int_equal(e.draws[0].status, LS_OK);
    assert_true(e.draws[0].verts[1].v[R500_VTX_POS][0] == 2.0f);
    const float *c = e.draws[0].verts[1].v[R500_VTX_COL0];
    assert_true(c[0] == 0.5f && c[1] == -0.5f && c[2] == 0.0f && c[3] == 1.0f);
    mesa_exec_free(&e);
}

/* PVS program uploaded through VAP_PVS_VECTOR_INDX_REG / UPLOAD_DATA with a
 * constant: out[0] = input[0] * const[0]; out[1] = input[0] + const[1]. */
static void pvs_setup(sb *b, const char *src, const float c[][4], int nc)
{
    r500_pvs_program p;
    ls_diag_list errs = {0};
    if (r500_pvs_asm("t.vs.asm", src, strlen(src), &p, &errs) != LS_OK)
        fail_msg("asm failed");
    reg(b, 0x2200, 0);
    put(b, ((uint32_t)(4 * p.count - 1) << 16) | 0x8000u | (0x2208u >> 2));
    for (size_t k = 0; k < 4 * p.count; k++)
        put(b, p.words[k]);
    reg(b, 0x2200, 1024);
    put(b, ((uint32_t)(4 * nc - 1) << 16) | 0x8000u | (0x2208u >> 2));
    for (int k = 0; k < nc; k++)
        for (int j = 0; j < 4; j++) {
            uint32_t u;
            memcpy(&u, &c[k][j], 4);
            put(b, u);
        }
    reg(b, 0x22D0, (uint32_t)((p.count - 1) << 20) | (uint32_t)((p.count - 1) << 10));
    r500_pvs_program_free(&p);
}

static void test_pvs_program(void **state)
{
    (void)state;
    static const char *src = "out[0].xyzw = VE_MUL input[0].xyzw const[0].xyzw ;\n"
                             "out[1].xyzw = VE_ADD input[0].xyzw const[1].xyzw ;\n";
    static const float c[2][4] = {{2, -1, 0.5f, 1}, {10, 20, 30, 40}};
    float pos[4][4];
    uint8_t mem[256] = {0};
    sb b = {0};
    idx_setup(&b, mem, pos, 4);
    reg(&b, 0x2140, 0); /* PVS on */
    reg(&b, 0x2090, 1u | 2u);
    pvs_setup(&b, src, c, 2);
    pkt3(&b, 0x34, 1);
    put(&b, 5u | (2u << 4) | (4u << 16));
    mesa_bo bo = {mem, sizeof mem};
    mesa_exec e = run(&b, &bo, 1);
    if (e.draws[0].status)
        fail_msg("%s", e.draws[0].diag.msg);
    for (int v = 0; v < 4; v++)
        for (int k = 0; k < 4; k++) {
            assert_true(e.draws[0].verts[v].v[R500_VTX_POS][k] == pos[v][k] * c[0][k]);
            assert_true(e.draws[0].verts[v].v[R500_VTX_COL0][k] == pos[v][k] + c[1][k]);
        }
    assert_int_equal(e.draws[0].layout.written[R500_VTX_POS], 0xf);
    mesa_exec_free(&e);
}

/* A register nobody models is counted by address; known ones are not. */
static void test_unknown_registers(void **state)
{
    (void)state;
    sb b = {0};
    reg(&b, 0x1234 * 4 & 0x7ffc, 1);
    reg(&b, 0x1234 * 4 & 0x7ffc, 2);
    reg(&b, 0x2084, 0);
    pkt3(&b, 0x77, 1);
    put(&b, 0);
    mesa_exec e = run(&b, NULL, 0);
    assert_int_equal(e.nunknown, 2);
    assert_int_equal(e.unknown[0].addr, 0x1234 * 4 & 0x7ffc);
    assert_int_equal(e.unknown[0].count, 2);
    assert_int_equal(e.unknown[1].addr, MESA_EXEC_PACKET3 | 0x77);
    mesa_exec_free(&e);
}

static void expect_fail(sb *b, const mesa_bo *bos, size_t nbos, const char *needle)
{
    mesa_exec e = run(b, bos, nbos);
    assert_int_equal(e.ndraws, 1);
    if (e.draws[0].status == LS_OK)
        fail_msg("no failure for %s", needle);
    assert_null(e.draws[0].verts);
    if (!strstr(e.draws[0].diag.msg, needle) || !strstr(e.draws[0].diag.msg, "at dword"))
        fail_msg("diagnostic '%s' lacks '%s'", e.draws[0].diag.msg, needle);
    mesa_exec_free(&e);
}

static void test_hostile(void **state)
{
    (void)state;
    float pos[8][4];
    uint8_t mem[128] = {0};
    mesa_bo bo = {mem, sizeof mem};
    { /* relocation offset outside the chunk */
        sb b = {0};
        idx_setup(&b, mem, pos, 4);
        b.w[b.n - 1] = 400; /* the NOP's payload */
        pkt3(&b, 0x34, 1);
        put(&b, 4u | (2u << 4) | (3u << 16));
        expect_fail(&b, &bo, 1, "relocation");
    }
    { /* vertex past its buffer */
        sb b = {0};
        idx_setup(&b, mem, pos, 4);
        pkt3(&b, 0x34, 1);
        put(&b, 4u | (2u << 4) | (9u << 16));
        expect_fail(&b, &bo, 1, "past relocation 0");
    }
    { /* index past the buffer */
        sb b = {0};
        idx_setup(&b, mem, pos, 4);
        pkt3(&b, 0x36, 2);
        put(&b, 1u | (1u << 4) | (1u << 16) | (1u << 11));
        put(&b, 0x40000000u);
        expect_fail(&b, &bo, 1, "index 1073741824");
    }
    { /* INDX_BUFFER past its object */
        sb b = {0};
        idx_setup(&b, mem, pos, 4);
        pkt3(&b, 0x36, 1);
        put(&b, 4u | (1u << 4) | (3u << 16));
        pkt3(&b, 0x33, 3);
        put(&b, 0x80000000u | (0x2040u >> 2));
        put(&b, 124); /* 3 16-bit indices at 124..129 of 128 bytes */
        put(&b, 2);
        reloc(&b, 0);
        expect_fail(&b, &bo, 1, "INDX_BUFFER");
    }
    { /* a vertex count of 16 M through VAP_ALT_NUM_VERTICES */
        sb b = {0};
        idx_setup(&b, mem, pos, 4);
        reg(&b, 0x2088, 0xffffff);
        pkt3(&b, 0x34, 1);
        put(&b, 4u | (2u << 4) | (1u << 14));
        expect_fail(&b, &bo, 1, "exceed");
    }
    { /* PVS_LAST_INST past the uploaded code */
        sb b = {0};
        idx_setup(&b, mem, pos, 4);
        reg(&b, 0x2140, 0);
        reg(&b, 0x22D0, 500u << 20);
        pkt3(&b, 0x34, 1);
        put(&b, 4u | (2u << 4) | (3u << 16));
        expect_fail(&b, &bo, 1, "PVS_CODE_CNTL_0");
    }
    { /* a PVS fault (reserved vector opcode 63) stops the draw, naming vertex and instruction */
        sb b = {0};
        idx_setup(&b, mem, pos, 4);
        reg(&b, 0x2140, 0);
        reg(&b, 0x2200, 0);
        put(&b, (3u << 16) | 0x8000u | (0x2208u >> 2));
        put(&b, 0x3fu | (2u << 8) | (0xfu << 20));
        put(&b, 0);
        put(&b, 0);
        put(&b, 0);
        reg(&b, 0x22D0, 0);
        pkt3(&b, 0x34, 1);
        put(&b, 4u | (2u << 4) | (3u << 16));
        expect_fail(&b, &bo, 1, "vertex 0: PVS instruction 0");
    }
    { /* a relocation whose buffer was not captured */
        sb b = {0};
        idx_setup(&b, mem, pos, 4);
        pkt3(&b, 0x34, 1);
        put(&b, 4u | (2u << 4) | (3u << 16));
        expect_fail(&b, NULL, 0, "no captured buffer");
    }
    { /* a packet running past the end: the whole stream is refused */
        sb b = {0};
        pkt3(&b, 0x34, 5);
        put(&b, 0);
        mesa_exec e;
        mesa_exec_options o;
        mesa_exec_options_default(&o);
        ls_diag d;
        assert_int_equal(mesa_exec_stream("t", b.w, b.n, NULL, 0, NULL, 0, &o, &e, &d),
                         LS_ERR_PARSE);
        assert_non_null(strstr(d.msg, "dword 0"));
    }
}


/* Texture units of a draw (mesa_exec_bind_textures): TX_* registers as
 * Mesa's r300_emit_textures_state writes them, TX_OFFSET_n followed by the
 * texture's relocation NOP. A 4x4 W8Z8Y8X8 texture in a 128-byte buffer
 * (rows of 8 texels: r300_texture_desc.c aligns a linear 32-bit texture's
 * width to 8) binds and samples its texels; hostile values stop with a diagnostic
 * naming the register, never reading past the buffer (ASan checks). */
static mesa_exec tex_stream(unsigned unit, uint32_t fmt0, uint32_t fmt1, uint32_t fmt2,
                            uint32_t offset, int reloc_k)
{
    sb b = {0};
    bypass_setup(&b, 1u, 0);
    reg(&b, 0x20B4, 4);
    reg(&b, 0x2150, psc(3, 0, 0, true, 0, 0));
    reg(&b, 0x21E0, XYZW);
    reg(&b, 0x4104, 1u << unit);                   /* TX_ENABLE */
    reg(&b, 0x4400 + 4 * unit, (uint32_t)unit << 28 | 2u << 9 | 2u << 11); /* FILTER0: ID, linear */
    reg(&b, 0x4480 + 4 * unit, fmt0);              /* FORMAT0 */
    reg(&b, 0x44C0 + 4 * unit, fmt1);              /* FORMAT1 */
    reg(&b, 0x4500 + 4 * unit, fmt2);              /* FORMAT2 */
    reg(&b, 0x4540 + 4 * unit, offset);            /* TX_OFFSET */
    if (reloc_k >= 0)
        reloc(&b, (unsigned)reloc_k);
    pkt3(&b, 0x35, 1 + 4);
    put(&b, 1u | (3u << 4) | (1u << 16));
    for (int k = 0; k < 4; k++)
        put(&b, 0);
    if (b.nrel < 8)
        b.nrel = 8; /* two relocations */
    return run(&b, NULL, 0);
}

/* W8Z8Y8X8 (12), SEL R = X, G = Y, B = Z, A = W (r300 order: 0x0008860c) */
#define FMT1_RGBA8 0x0008860cu
#define FMT0(w, h) ((uint32_t)((w) - 1) | (uint32_t)((h) - 1) << 11)

static ls_status bind_unit(const mesa_exec *e, uint8_t **mem, const size_t *msz, r500_job *job,
                           ls_diag *d)
{
    return mesa_exec_bind_textures(job, &e->draws[0], mem, msz, 2, NULL, d);
}

static void test_textures(void **state)
{
    (void)state;
    uint8_t texels[128], small[16];
    for (int i = 0; i < 128; i++)
        texels[i] = (uint8_t)(i * 37 + 5);
    memset(small, 0, sizeof small);
    uint8_t *mem[2] = {texels, small};
    size_t msz[2] = {sizeof texels, sizeof small};
    ls_diag d;
    r500_job job;

    /* a good unit 3: texel (2, 1) through the job's sampler 3, nearest at its centre */
    mesa_exec e = tex_stream(3, FMT0(4, 4), FMT1_RGBA8, 0, 0, 0);
    assert_int_equal(e.draws[0].tx_reloc[3], 0);
    r500_job_init(&job);
    if (bind_unit(&e, mem, msz, &job, &d) != LS_OK)
        fail_msg("bind: %s", d.msg);
    assert_non_null(job.tex[3]);
    float co[4][R500_TEX_MAX_LANES] = {{0}}, out[4][R500_TEX_MAX_LANES] = {{0}};
    co[0][0] = 2.5f / 4, co[1][0] = 1.5f / 4;
    r500_tex_request rq = {.n = 1, .mask = 1, .coord = co, .out = out};
    assert_int_equal(r500_tex_sample(job.tex[3], &rq, &d), LS_OK);
    for (int c = 0; c < 4; c++)
        assert_true(fabs(out[c][0] - texels[4 * (1 * 8 + 2) + c] / 255.0) < 1e-6);
    /* sampler 0 is no enabled unit's: a disabled unit reads (0, 0, 0, 1) */
    assert_int_equal(r500_tex_sample(job.tex[0], &rq, &d), LS_OK);
    assert_true(out[0][0] == 0 && out[3][0] == 1);
    r500_job_free(&job);
    mesa_exec_free(&e);

    struct {
        uint32_t fmt0, fmt1, fmt2, offset;
        int reloc_k;
        const char *needle;
    } bad[] = {
        {FMT0(4, 4), FMT1_RGBA8, 0, 0, -1, "TX_OFFSET_3"},             /* no relocation */
        {FMT0(4, 4), FMT1_RGBA8, 0, 0, 1, "TX_OFFSET_3"},              /* 128 bytes in 16 */
        {FMT0(8, 8), FMT1_RGBA8, 0, 0, 0, "TX_FORMAT0_3"},             /* larger than its BO */
        {FMT0(4, 4), FMT1_RGBA8, 0, 32, 0, "TX_OFFSET_3"},             /* offset past the end */
        {FMT0(4, 4) | 1u << 31, FMT1_RGBA8, 0, 0, 0, "TX_FORMAT2_3.TXPITCH"}, /* pitch 0 */
        {FMT0(4, 4), (FMT1_RGBA8 & ~31u) | 8u, 0, 0, 0, "TX_FORMAT1_3"}, /* unknown format */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e = tex_stream(3, bad[i].fmt0, bad[i].fmt1, bad[i].fmt2, bad[i].offset, bad[i].reloc_k);
        r500_job_init(&job);
        ls_diag_clear(&d);
        assert_int_not_equal(bind_unit(&e, mem, msz, &job, &d), LS_OK);
        if (!strstr(d.msg, bad[i].needle))
            fail_msg("case %zu: '%s' does not name %s", i, d.msg, bad[i].needle);
        assert_null(job.tex[3]);
        r500_job_free(&job);
        mesa_exec_free(&e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats),        cmocka_unit_test(test_swizzle_and_layout),
        cmocka_unit_test(test_indices),        cmocka_unit_test(test_immediate),
        cmocka_unit_test(test_pvs_program),    cmocka_unit_test(test_unknown_registers),
        cmocka_unit_test(test_hostile),        cmocka_unit_test(test_textures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
