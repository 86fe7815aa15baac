/* The kernel's R5xx command-stream checker (src/mesa/cs_check.c): planted
 * streams, each against the rule of the Linux radeon driver it exercises
 * (radeon_cs.c, r300.c, r100.c, reg_srcs/rv515), and the 15 corpus streams
 * Mesa's r300 submitted, which a kernel accepted by construction (Mesa wrote
 * them for it) and the checker must accept too. */
#include <errno.h>

#include "test_util.h"

#include "lockstep/mesa_cs_check.h"
#include "lockstep/mesa_device.h"
#include "mesa/proc.h"

/* ---- a small stream builder ---------------------------------------------- */

typedef struct sb {
    uint32_t w[512];
    size_t n;
    uint32_t rel[64];
    size_t nrel;
    mesa_cs_bo_info bos[16];
    size_t nbos;
} sb;

static void pk0(sb *b, uint32_t reg, uint32_t v) /* one register */
{
    b->w[b->n++] = (reg >> 2);
    b->w[b->n++] = v;
}
static void pk3(sb *b, unsigned op, unsigned ndata, const uint32_t *data)
{
    b->w[b->n++] = 0xC0000000u | ((ndata - 1) << 16) | (op << 8);
    for (unsigned i = 0; i < ndata; i++)
        b->w[b->n++] = data[i];
}
/* A relocation NOP naming buffer k (created on first use with size bytes). */
static void reloc(sb *b, unsigned k)
{
    uint32_t d = 4 * k;
    pk3(b, 0x10, 1, &d);
}
static void bo(sb *b, unsigned k, uint64_t size, uint32_t tiling)
{
    b->bos[k] = (mesa_cs_bo_info){true, size, tiling};
    b->rel[4 * k] = 100 + k;        /* handle */
    b->rel[4 * k + 1] = 0x4;        /* read domains: VRAM */
    b->rel[4 * k + 2] = 0;
    if (k + 1 > b->nbos)
        b->nbos = k + 1;
    if (4 * (k + 1) > b->nrel)
        b->nrel = 4 * (k + 1);
}

/* A 16x16 ARGB8888 colour buffer in buffer 0, depth off, and an embedded
 * triangle: what a minimal legal draw needs (r100_cs_track_check). */
static void colour_setup(sb *b, uint64_t cb_size)
{
    bo(b, 0, cb_size, 0);
    pk0(b, 0x4E28, 0); /* RB3D_COLOROFFSET0 */
    reloc(b, 0);
    pk0(b, 0x4E38, 16 | (6u << 21)); /* RB3D_COLORPITCH0: pitch 16, ARGB8888 (cpp 4) */
    reloc(b, 0);
    pk0(b, 0x43E4, (15u << 13) | 15); /* SC_SCISSOR1: maxy = 16 */
    pk0(b, 0x4E0C, 0xF);              /* RB3D_COLOR_CHANNEL_MASK */
    pk0(b, 0x4F00, 0);                /* ZB_CNTL: depth off */
    pk0(b, 0x4E00, 0);                /* RB3D_CCTL: one colour buffer (the tracker starts at 4) */
}
/* Returns the dword index of the draw packet. */
static long immd_triangle(sb *b, unsigned vtx_size, unsigned ndw)
{
    pk0(b, 0x20B4, vtx_size); /* VAP_VTX_SIZE */
    uint32_t d[64] = {(3u << 16) | (3u << 4) | 4}; /* 3 vertices, PRIM_WALK 3, triangles */
    long at = (long)b->n;
    pk3(b, 0x35, 1 + ndw, d);
    return at;
}

static ls_status run(const sb *b, const mesa_cs_check_options *o, uint32_t *patched,
                     mesa_cs_check_result *r, ls_diag *d)
{
    mesa_cs_submit s = {b->w, b->n, b->nrel ? b->rel : NULL, b->nrel, NULL, 0, b->bos, b->nbos};
    ls_status st = mesa_cs_check(&s, o, patched, r, d);
    if (st) {
        char line[600];
        ls_diag_format(d, line, sizeof line);
        printf("  refused: %s\n", line);
    }
    return st;
}

static void expect_refused(const sb *b, const mesa_cs_check_options *o, int err, long packet,
                           uint32_t reg, const char *msg_part)
{
    mesa_cs_check_result r;
    ls_diag d;
    assert_int_not_equal(run(b, o, NULL, &r, &d), LS_OK);
    assert_int_equal(r.err, err);
    assert_int_equal(r.packet, packet);
    assert_int_equal(r.reg, reg);
    assert_non_null(strstr(d.msg, msg_part));
}

/* ---- accepted streams ------------------------------------------------------ */

static void test_minimal_draw(void **st)
{
    (void)st;
    sb b = {0};
    colour_setup(&b, 16 * 4 * 16); /* exactly pitch x cpp x maxy */
    immd_triangle(&b, 4, 12);
    mesa_cs_check_result r;
    ls_diag d;
    assert_int_equal(run(&b, NULL, NULL, &r, &d), LS_OK);
    assert_int_equal(r.err, 0);
    assert_int_equal(r.draws, 1);
}

/* ---- chunks, relocations ---------------------------------------------------- */

static void test_chunks(void **st)
{
    (void)st;
    sb b = {0};
    colour_setup(&b, 1024);
    immd_triangle(&b, 4, 12);
    mesa_cs_check_result r;
    ls_diag d;
    /* radeon_cs_parser_init: RADEON_CS_USE_VM is refused without a VM */
    uint32_t fl[3] = {2, 0, 0};
    mesa_cs_submit s = {b.w, b.n, b.rel, b.nrel, fl, 3, b.bos, b.nbos};
    assert_int_equal(mesa_cs_check(&s, NULL, NULL, &r, &d), LS_ERR_PARSE);
    assert_int_equal(r.err, EINVAL);
    assert_non_null(strstr(d.msg, "VM"));
    /* radeon_cs_get_ring: the DMA ring (2) needs RV770 */
    fl[0] = 0, fl[1] = 2;
    assert_int_equal(mesa_cs_check(&s, NULL, NULL, &r, &d), LS_ERR_PARSE);
    assert_non_null(strstr(d.msg, "ring 2"));
    /* compute (1) runs on the GFX ring before Tahiti */
    fl[1] = 1;
    assert_int_equal(mesa_cs_check(&s, NULL, NULL, &r, &d), LS_OK);
    /* "zero length IB isn't useful" */
    s.ib_dw = 0;
    assert_int_equal(mesa_cs_check(&s, NULL, NULL, &r, &d), LS_ERR_PARSE);
    assert_int_equal(r.err, EINVAL);
    /* radeon_cs_parser_relocs: an unknown handle is ENOENT */
    s.ib_dw = b.n;
    b.bos[0].exists = false;
    assert_int_equal(mesa_cs_check(&s, NULL, NULL, &r, &d), LS_ERR_RANGE);
    assert_int_equal(r.err, ENOENT);
    assert_non_null(strstr(d.msg, "handle 100"));
    b.bos[0].exists = true;
    /* ... and RADEON_GEM_DOMAIN_CPU is not valid for command submission */
    b.rel[1] = 0x1;
    assert_int_equal(mesa_cs_check(&s, NULL, NULL, &r, &d), LS_ERR_PARSE);
    assert_non_null(strstr(d.msg, "CPU domain"));
}

static void test_relocations(void **st)
{
    (void)st;
    /* radeon_cs_packet_next_reloc: the packet after a relocated register must
     * be a type-3 NOP ... */
    sb b = {0};
    bo(&b, 0, 4096, 0);
    pk0(&b, 0x4E28, 0);
    pk0(&b, 0x4E0C, 0xF); /* not a NOP */
    expect_refused(&b, NULL, EINVAL, 0, 0x4E28, "not a type-3 NOP");
    /* ... whose index lies inside the relocation chunk */
    sb c = {0};
    bo(&c, 0, 4096, 0);
    pk0(&c, 0x4E28, 0);
    uint32_t far = 4; /* relocation 1: the chunk holds only relocation 0 */
    pk3(&c, 0x10, 1, &far);
    expect_refused(&c, NULL, EINVAL, 0, 0x4E28, "past the 4-dword relocation chunk");
    /* ... and there must be a relocation chunk at all */
    sb e = {0};
    pk0(&e, 0x4540, 0); /* TX_OFFSET_0 */
    reloc(&e, 0);
    expect_refused(&e, NULL, EINVAL, 0, 0x4540, "no relocation chunk");
}

/* ---- packets ---------------------------------------------------------------- */

static void test_packets(void **st)
{
    (void)st;
    /* radeon_cs_packet_parse: type 1 is not a packet type of the R5xx checker */
    sb a = {0};
    a.w[a.n++] = 0x40000000u;
    a.w[a.n++] = 0;
    a.w[a.n++] = 0;
    expect_refused(&a, NULL, EINVAL, 0, 0, "type-1");
    /* a packet whose data runs past the IB */
    sb b = {0};
    pk0(&b, 0x4E0C, 0xF);
    b.w[b.n++] = (3u << 16) | (0x4E0C >> 2); /* 4 data dwords, none present */
    expect_refused(&b, NULL, EINVAL, 2, 0x4E0C, "ends after the 3-dword IB");
    /* r300_packet3_check: an opcode outside its list */
    sb c = {0};
    uint32_t z = 0;
    pk3(&c, 0x2D, 1, &z);
    expect_refused(&c, NULL, EINVAL, 0, 0, "opcode 0x2D");
    /* type-2 fillers are accepted */
    sb e = {0};
    e.w[e.n++] = 0x80000000u;
    pk0(&e, 0x4E0C, 1);
    e.w[e.n++] = 0x80000000u;
    mesa_cs_check_result r;
    ls_diag d;
    assert_int_equal(run(&e, NULL, NULL, &r, &d), LS_OK);
}

/* ---- registers --------------------------------------------------------------- */

static void test_registers(void **st)
{
    (void)st;
    /* GB_TILE_CONFIG (0x4018) is on no list: "Forbidden register" */
    sb a = {0};
    pk0(&a, 0x4E0C, 0xF);
    pk0(&a, 0x4018, 0);
    expect_refused(&a, NULL, EINVAL, 2, 0x4018, "0x4018");
    /* a run of writes stepping from safe registers into a forbidden one is
     * refused at that register: GA_US_VECTOR_INDEX, _DATA, then 0x4258 is
     * safe, 0x425C is not */
    sb b = {0};
    b.w[b.n++] = (3u << 16) | (0x4250 >> 2);
    for (int i = 0; i < 4; i++)
        b.w[b.n++] = 0;
    expect_refused(&b, NULL, EINVAL, 0, 0x425C, "register 0x425C");
    /* ONE_REG_WR to a safe register: every dword goes to it */
    sb c = {0};
    c.w[c.n++] = (7u << 16) | (1u << 15) | (0x4254 >> 2);
    for (int i = 0; i < 8; i++)
        c.w[c.n++] = i;
    mesa_cs_check_result r;
    ls_diag d;
    assert_int_equal(run(&c, NULL, NULL, &r, &d), LS_OK);
    /* past the register table (rv515 0x6d40) */
    sb e = {0};
    pk0(&e, 0x7000, 0);
    expect_refused(&e, NULL, EINVAL, 0, 0x7000, "outside the checker's register table");
    /* 0x4BE8: "valid register only on RV530" */
    sb f = {0};
    pk0(&f, 0x4BE8, 0);
    mesa_cs_check_options o;
    mesa_cs_check_options_default(&o);
    assert_int_equal(run(&f, &o, NULL, &r, &d), LS_OK);
    o.family = MESA_CHIP_RV515;
    expect_refused(&f, &o, EINVAL, 0, 0x4BE8, "RV530 only");
    /* RB3D_CCTL with CMASK_ENABLE without owning the CMASK */
    sb g = {0};
    pk0(&g, 0x4E00, 1u << 10);
    expect_refused(&g, NULL, EINVAL, 0, 0x4E00, "CMASK");
    mesa_cs_check_options_default(&o);
    o.cmask = true;
    assert_int_equal(run(&g, &o, NULL, &r, &d), LS_OK);
    /* ZB_BW_CNTL HIZ_ENABLE without HyperZ */
    sb h = {0};
    pk0(&h, 0x4F1C, 1);
    expect_refused(&h, NULL, EINVAL, 0, 0x4F1C, "HyperZ");
    /* a colour format the kernel does not know (RB3D_COLORPITCH bits 24:21 = 0) */
    sb k = {0};
    bo(&k, 0, 4096, 0);
    pk0(&k, 0x4E38, 16);
    reloc(&k, 0);
    expect_refused(&k, NULL, EINVAL, 0, 0x4E38, "format 0");
    /* ZB_FORMAT 3 */
    sb m = {0};
    pk0(&m, 0x4F10, 3);
    expect_refused(&m, NULL, EINVAL, 0, 0x4F10, "depth format 3");
    /* a VLINE wait: the device has no CRTC */
    sb v = {0};
    pk0(&v, 0x6538, 0);
    expect_refused(&v, NULL, ENOENT, 0, 0x6538, "CRTC");
}

/* The kernel's rewrites: tiling flags into the pitch registers and texture
 * offsets, SC_HYPERZ_EN's enable bit cleared without HyperZ. */
static void test_patches(void **st)
{
    (void)st;
    sb b = {0};
    bo(&b, 0, 1 << 20, 0x1 | 0x2);   /* macro + micro tiled */
    bo(&b, 1, 1 << 20, 0x20);        /* micro square */
    pk0(&b, 0x4E38, 64 | (6u << 21) | (7u << 16)); /* stale tiling bits in the value */
    reloc(&b, 0);
    pk0(&b, 0x4540, 0x1000); /* TX_OFFSET_0 */
    reloc(&b, 1);
    pk0(&b, 0x43A4, 1); /* SC_HYPERZ_EN */
    uint32_t patched[64];
    mesa_cs_check_result r;
    ls_diag d;
    assert_int_equal(run(&b, NULL, patched, &r, &d), LS_OK);
    /* R300_COLOR_TILE_ENABLE (16) | R300_COLOR_MICROTILE_ENABLE (17) */
    assert_int_equal(patched[1], 64 | (6u << 21) | (1u << 16) | (1u << 17));
    /* R300_TXO_MICRO_TILE_SQUARE (2 << 3) */
    assert_int_equal(patched[5], 0x1000 | (2u << 3));
    assert_int_equal(patched[9], 0);
    /* with RADEON_CS_KEEP_TILING_FLAGS the pitch keeps its bits (and needs no relocation) */
    sb c = {0};
    pk0(&c, 0x4E38, 64 | (6u << 21) | (7u << 16));
    uint32_t fl[1] = {1};
    mesa_cs_submit s = {c.w, c.n, NULL, 0, fl, 1, NULL, 0};
    assert_int_equal(mesa_cs_check(&s, NULL, patched, &r, &d), LS_OK);
    assert_int_equal(patched[1], 64 | (6u << 21) | (7u << 16));
}

/* ---- draws: r100_cs_track_check ------------------------------------------------ */

static void test_draw_sizes(void **st)
{
    (void)st;
    /* colour buffer: pitch 16 x 4 bytes x 16 rows = 1024 bytes */
    sb a = {0};
    colour_setup(&a, 1023);
    long at = immd_triangle(&a, 4, 12);
    expect_refused(&a, NULL, EINVAL, at, 0x4E38, "needs 1024 bytes");
    /* depth enabled with no depth buffer */
    sb b = {0};
    colour_setup(&b, 1024);
    pk0(&b, 0x4F00, 2); /* ZB_CNTL: Z_ENABLE */
    at = immd_triangle(&b, 4, 12);
    expect_refused(&b, NULL, EINVAL, at, 0x4F20, "ZB_DEPTHOFFSET");
    /* an embedded draw whose dwords disagree with VAP_VTX_SIZE x vertices */
    sb c = {0};
    colour_setup(&c, 1024);
    at = immd_triangle(&c, 4, 11);
    expect_refused(&c, NULL, EINVAL, at, 0x20B4, "11 vertex dwords");
    /* PRIM_WALK must be 3 for an embedded draw */
    sb e = {0};
    colour_setup(&e, 1024);
    uint32_t vf = (3u << 16) | (2u << 4) | 4;
    at = (long)e.n;
    pk3(&e, 0x35, 1, &vf);
    expect_refused(&e, NULL, EINVAL, at, 0x2084, "PRIM_WALK 2");
    /* vertex arrays (3D_LOAD_VBPNTR + 3D_DRAW_VBUF_2): stride 4 dwords x
     * (3 - 1) vertices = 32 bytes */
    for (int good = 0; good < 2; good++) {
        sb f = {0};
        colour_setup(&f, 1024);
        bo(&f, 1, good ? 32 : 31, 0);
        uint32_t vb[3] = {1, 4 | (4u << 8), 0}; /* 1 array: size 4, stride 4 dwords; offset 0 */
        pk3(&f, 0x2F, 3, vb);
        reloc(&f, 1);
        uint32_t vbuf = (3u << 16) | (2u << 4) | 4;
        at = (long)f.n;
        pk3(&f, 0x34, 1, &vbuf);
        if (good) {
            mesa_cs_check_result r;
            ls_diag d;
            assert_int_equal(run(&f, NULL, NULL, &r, &d), LS_OK);
        } else {
            expect_refused(&f, NULL, EINVAL, at, 0, "vertex array 0 needs 32 bytes");
        }
    }
}

static void test_textures(void **st)
{
    (void)st;
    /* a 16x16 W8Z8Y8X8 texture, one level: 16 x 16 x 4 = 1024 bytes
     * (r100_cs_track_texture_check) */
    for (int variant = 0; variant < 3; variant++) {
        sb b = {0};
        colour_setup(&b, 1024);
        pk0(&b, 0x4104, 1); /* TX_ENABLE unit 0 */
        pk0(&b, 0x4480, 15 | (15u << 11)); /* TX_FORMAT0: 16 x 16, 0 levels */
        pk0(&b, 0x44C0, 12);               /* TX_FORMAT1: W8Z8Y8X8, 2D */
        pk0(&b, 0x4500, 0); /* TX_FORMAT2: no 2048 bits (the tracker starts with them set) */
        if (variant > 0) {
            bo(&b, 1, variant == 1 ? 1023 : 1024, 0);
            pk0(&b, 0x4540, 0);
            reloc(&b, 1);
        }
        long at = immd_triangle(&b, 4, 12);
        mesa_cs_check_result r;
        ls_diag d;
        if (variant == 0)
            expect_refused(&b, NULL, EINVAL, at, 0x4540, "no TX_OFFSET_0");
        else if (variant == 1)
            expect_refused(&b, NULL, EINVAL, at, 0x4540, "needs 1024 bytes");
        else
            assert_int_equal(run(&b, NULL, NULL, &r, &d), LS_OK);
    }
    /* an invalid texture format (21) */
    sb c = {0};
    pk0(&c, 0x44C4, 21);
    expect_refused(&c, NULL, EINVAL, 0, 0x44C4, "TX_FORMAT1_1 texture format 21");
}

/* ---- what Mesa's r300 submitted ------------------------------------------- */

static void test_corpus_streams(void **st)
{
    (void)st;
    const char *corpus = ls_test_require_corpus();
    static const char *const shaders[] = {
        "01_if_else", "02_nested_if", "03_loop_const_small", "04_loop_const_large",
        "05_loop_uniform", "06_loop_break", "07_loop_continue", "08_discard_branch",
        "09_discard_in_loop", "10_nested_loops", "11_fragcoord_branch", "12_while_data_dependent",
        "13_uniform_bool_branch", "14_if_else_heavy", "15_loop_in_if"};
    size_t checked = 0;
    for (size_t i = 0; i < sizeof shaders / sizeof shaders[0]; i++) {
        char p[1024];
        uint32_t *ib = NULL, *rel = NULL;
        size_t n = 0, nrel = 0, cap = 0, rcap = 0;
        ls_diag rd;
        snprintf(p, sizeof p, "%s/mesa-r300/out/%s/cs/cs_0000.ib", corpus, shaders[i]);
        assert_int_equal(mesa_read_dwords(p, &ib, &n, &cap, &rd), LS_OK);
        snprintf(p, sizeof p, "%s/mesa-r300/out/%s/cs/cs_0000.relocs", corpus, shaders[i]);
        assert_int_equal(mesa_read_dwords(p, &rel, &nrel, &rcap, &rd), LS_OK);
        mesa_cs_check_options o;
        mesa_cs_check_options_default(&o);
        o.sizes_known = false; /* the corpus has no buffer contents or sizes */
        mesa_cs_submit s = {ib, n, rel, nrel, NULL, 0, NULL, 0};
        mesa_cs_check_result r;
        ls_diag d;
        ls_status stc = mesa_cs_check(&s, &o, NULL, &r, &d);
        if (stc) {
            char line[600];
            ls_diag_format(&d, line, sizeof line);
            printf("  %s: %s\n", shaders[i], line);
        }
        assert_int_equal(stc, LS_OK);
        assert_int_equal(r.draws, 2); /* the clear's blit and the quad */
        checked++;
        free(ib);
        free(rel);
    }
    printf("  %zu corpus streams accepted\n", checked);
    assert_true(checked > 0);
}


/* ---- the live device: mesa_device_submit -------------------------------- */

/* The minimal draw with a vertex program: out[0] = input[0] (words from
 * `lockstep r500 vs asm`), one float4 stream; runaway: flow-control op 0
 * jumps back to instruction 0 after it runs, so the program never ends. */
static long device_stream(sb *b, bool runaway)
{
    colour_setup(b, 1024);
    pk0(b, 0x2140, 0);                                /* VAP_CNTL_STATUS: PVS on */
    pk0(b, 0x2150, 3u | (1u << 13));                  /* PROG_STREAM_CNTL_0: float4 -> 0, last */
    pk0(b, 0x21E0, 0 | (1u << 3) | (2u << 6) | (3u << 9) | (0xFu << 12)); /* xyzw */
    pk0(b, 0x2090, 1);                                /* VAP_OUT_VTX_FMT_0: position */
    pk0(b, 0x2200, 0);                                /* VAP_PVS_VECTOR_INDX_REG */
    b->w[b->n++] = (3u << 16) | (1u << 15) | (0x2208 >> 2);
    static const uint32_t vs[4] = {0x00f00203, 0x00d10001, 0x01248001, 0x01ffe001};
    for (int i = 0; i < 4; i++)
        b->w[b->n++] = vs[i];
    pk0(b, 0x22D0, 0);                                /* VAP_PVS_CODE_CNTL_0: 0..0 */
    pk0(b, 0x22DC, runaway ? 1 : 0);                  /* VAP_PVS_FLOW_CNTL_OPC: op 0 JUMP */
    pk0(b, 0x2500, 0);                                /* ADDRS_LW_0: after 0, to 0 */
    return immd_triangle(b, 4, 12);
}

static void test_device(void **st)
{
    (void)st;
    uint8_t cb[1024] = {0};
    mesa_device_bo bos[1] = {{cb, sizeof cb, 0}};
    mesa_device_options o;
    mesa_device_options_default(&o);
    o.exec.pvs.watchdog = 100;
    mesa_submit_result r;
    ls_diag d;
    for (int runaway = 0; runaway < 2; runaway++) {
        sb b = {0};
        long at = device_stream(&b, runaway);
        mesa_cs_submit s = {b.w, b.n, b.rel, b.nrel, NULL, 0, NULL, 0};
        assert_int_equal(mesa_device_submit(&s, bos, 1, &o, &r, &d), LS_OK);
        if (!runaway) {
            assert_int_equal(r.outcome, MESA_SUBMIT_DONE);
            assert_int_equal(r.draws, 1);
            assert_int_equal(r.draws_stopped, 0);
            assert_int_equal(r.hang_packet, -1);
        } else {
            /* the vertex engine's watchdog stops the draw: a GPU hang at its packet */
            assert_int_equal(r.outcome, MESA_SUBMIT_HANG);
            assert_int_equal(r.hang_packet, at);
            assert_non_null(strstr(r.diag.msg, "watchdog: 100 instructions"));
        }
        /* check only: accepted, nothing executed */
        o.execute = false;
        assert_int_equal(mesa_device_submit(&s, bos, 1, &o, &r, &d), LS_OK);
        assert_int_equal(r.outcome, MESA_SUBMIT_DONE);
        assert_int_equal(r.draws, 0);
        o.execute = true;
    }
    /* refused: the checker's verdict, the kernel's errno */
    sb f = {0};
    pk0(&f, 0x4018, 0);
    device_stream(&f, false);
    mesa_cs_submit s = {f.w, f.n, f.rel, f.nrel, NULL, 0, NULL, 0};
    assert_int_equal(mesa_device_submit(&s, bos, 1, &o, &r, &d), LS_OK);
    assert_int_equal(r.outcome, MESA_SUBMIT_REFUSED);
    assert_int_equal(r.err, EINVAL);
    assert_int_equal(r.check.reg, 0x4018);
    /* a relocation whose object does not exist: ENOENT */
    sb g = {0};
    device_stream(&g, false);
    mesa_device_bo none[1] = {{NULL, 0, 0}};
    mesa_cs_submit s2 = {g.w, g.n, g.rel, g.nrel, NULL, 0, NULL, 0};
    assert_int_equal(mesa_device_submit(&s2, none, 1, &o, &r, &d), LS_OK);
    assert_int_equal(r.outcome, MESA_SUBMIT_REFUSED);
    assert_int_equal(r.err, ENOENT);
    assert_string_equal(mesa_submit_outcome_name(MESA_SUBMIT_HANG), "hang");
}

/* The ZB's sample counter on the device (mesa_exec_zpass): a write of
 * ZB_ZPASS_DATA loads the selected pipes' counters (zb_zpass_data.txt:
 * "writing this location resets the count to the value written"), a write of
 * ZB_ZPASS_ADDR with its relocation stores them into the buffer
 * (zb_zpass_addr.txt), the pipes being SU_REG_DEST's and FG_ZBREG_DEST's
 * common bits (r300_emit.c r300_emit_query_start/_end). The draw between
 * covers no pixel, so it adds nothing; counting is tests/r500/test_rb.c's
 * zpass and mesa/piglit-programs' occlusion_query. */
static void zpass_store(sb *b, uint32_t offset)
{
    pk0(b, 0x4F5C, offset); /* ZB_ZPASS_ADDR */
    reloc(b, 1);
}

static void test_device_zpass(void **st)
{
    (void)st;
    uint8_t cb[1024] = {0}, qb[64];
    memset(qb, 0xaa, sizeof qb);
    sb b = {0};
    bo(&b, 1, sizeof qb, 0);
    pk0(&b, 0x42C8, 0xF);   /* SU_REG_DEST: all pipes */
    pk0(&b, 0x4F58, 1234);  /* ZB_ZPASS_DATA */
    device_stream(&b, false);
    pk0(&b, 0x42C8, 1);     /* pipe 0 */
    zpass_store(&b, 8);
    pk0(&b, 0x42C8, 2);     /* pipe 1 */
    pk0(&b, 0x4F58, 7);
    zpass_store(&b, 12);
    pk0(&b, 0x4BE8, 1);     /* FG_ZBREG_DEST pipe 0 with SU_REG_DEST pipe 1: none */
    zpass_store(&b, 16);
    pk0(&b, 0x42C8, 0xF);
    pk0(&b, 0x4BE8, 0xF);
    zpass_store(&b, 20);    /* broadcast: pipe 3 (1234) writes last */
    mesa_device_bo bos[2] = {{cb, sizeof cb, 0}, {qb, sizeof qb, 0}};
    mesa_device_options o;
    mesa_device_options_default(&o);
    mesa_submit_result r;
    ls_diag d;
    mesa_cs_submit s = {b.w, b.n, b.rel, b.nrel, NULL, 0, NULL, 0};
    assert_int_equal(mesa_device_submit(&s, bos, 2, &o, &r, &d), LS_OK);
    assert_int_equal(r.outcome, MESA_SUBMIT_DONE);
    assert_int_equal(r.draws, 1);
    uint32_t w[16];
    memcpy(w, qb, sizeof w);
    assert_int_equal(w[0], 0xaaaaaaaau); /* untouched */
    assert_int_equal(w[2], 1234);
    assert_int_equal(w[3], 7);
    assert_int_equal(w[4], 0xaaaaaaaau);
    assert_int_equal(w[5], 1234);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimal_draw),  cmocka_unit_test(test_chunks),
        cmocka_unit_test(test_relocations),   cmocka_unit_test(test_packets),
        cmocka_unit_test(test_registers),     cmocka_unit_test(test_patches),
        cmocka_unit_test(test_draw_sizes),    cmocka_unit_test(test_textures),
        cmocka_unit_test(test_corpus_streams), cmocka_unit_test(test_device),
        cmocka_unit_test(test_device_zpass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
