/* IGC module and pipeline tests, each citing the seed (003 §IV.3.3). */
#include "test_util.h"

#include "lockstep/pp5.h"
#include "pp5/model/igc/igc_internal.h"
#include "pp5/uasm.h"

static pp5_igc *make_igc(const char *src, const pp5_options *opt)
{
    pp5_ucode *u = calloc(1, sizeof *u);
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    ls_status st = pp5_uasm(src, strlen(src), "test.pp5m", u, &errs);
    for (size_t i = 0; i < errs.count; i++)
        printf("%s:%d:%d: %s\n", errs.items[i].file, errs.items[i].line, errs.items[i].col,
               errs.items[i].msg);
    assert_int_equal(st, LS_OK);
    ls_diag_list_free(&errs);
    pp5_igc *g;
    ls_diag d;
    assert_int_equal(pp5_igc_create(&g, opt, &d), LS_OK);
    assert_int_equal(pp5_igc_load_ucode(g, 0, u->words, u->count, &d), LS_OK);
    free(u);
    return g;
}

static uint64_t sig(const pp5_igc *g, const char *name)
{
    long i = pp5_igc_signal_find(name);
    assert_true(i >= 0);
    return pp5_igc_signal_value(g, (size_t)i);
}

static void ok_write(pp5_igc *g, pp5_reg r, uint32_t v)
{
    ls_diag d;
    assert_int_equal(pp5_igc_write(g, r, v, NULL, &d), LS_OK);
}
static void ok_go(pp5_igc *g)
{
    ls_diag d;
    assert_int_equal(pp5_igc_go(g, NULL, &d), LS_OK);
}
static void ok_step(pp5_igc *g, pp5_pins *p)
{
    ls_diag d;
    assert_int_equal(pp5_igc_step(g, NULL, p, &d), LS_OK);
}

static const char *idle_src = "idle: nop cond jmp idle done\n";

/* ---- LoopCount: "the value in bits 23-29 is the desired count value plus 116";
 * "TC1HSP1 when the count value is 116"; counter 2 "TC2HSP1 … when the count
 * value is zero"; "The loop counters do not halt when they reach 0." */
static void test_loopcount(void **state)
{
    (void)state;
    pp5_loopcount lc = {0};
    lc.lc1_post = 116 + 3;
    lc.lc2_post = 2;
    pp5_loopcount_clock(&lc, true, false, false); /* Done loads */
    assert_int_equal(lc.lc1, 119);
    assert_false(lc.tc1);
    assert_false(lc.tc2);
    pp5_loopcount_clock(&lc, false, true, true);
    assert_false(lc.tc1);
    assert_false(lc.tc2); /* 1 */
    pp5_loopcount_clock(&lc, false, true, true);
    assert_false(lc.tc1);
    assert_true(lc.tc2); /* 0: look-ahead, in the cycle of the decrement */
    pp5_loopcount_clock(&lc, false, true, true);
    assert_true(lc.tc1); /* 116 */
    assert_int_equal(lc.lc2, 127); /* no halt at 0: wraps */
    assert_false(lc.tc2);
    /* counter 1 keeps going through 0 as well */
    for (int i = 0; i < 116; i++)
        pp5_loopcount_clock(&lc, false, true, false);
    assert_int_equal(lc.lc1, 0);
    pp5_loopcount_clock(&lc, false, true, false);
    assert_int_equal(lc.lc1, 127);
    /* no count enable: holds */
    pp5_loopcount_clock(&lc, false, false, false);
    assert_int_equal(lc.lc1, 127);
    /* load of 116 asserts TC1 in the loading cycle (look-ahead zero detect) */
    lc.lc1_post = 116;
    pp5_loopcount_clock(&lc, true, false, false);
    assert_true(lc.tc1);
}

/* ---- PixMemAddr: all eight PMAInstr codes, post-increment only, aux+ only. */
static void test_pma_codes(void **state)
{
    (void)state;
    static const struct { int ctr, step; } table[8] = {
        /* aux */ {2, 0}, /* dst */ {0, 0}, /* dst+ */ {0, 1}, /* dst- */ {0, -1},
        /* aux+ */ {2, 1}, /* src */ {1, 0}, /* src+ */ {1, 1}, /* src- */ {1, -1},
    };
    for (unsigned code = 0; code < 8; code++) {
        pp5_pixmemaddr p = {0};
        p.ctr[PP5_CTR_DST] = 10;
        p.ctr[PP5_CTR_SRC] = 20;
        p.ctr[PP5_CTR_AUX] = 30;
        uint8_t before[3] = {10, 20, 30};
        uint8_t a = pp5_pixmemaddr_clock(&p, code, false);
        /* the address leaves before the step: no pre-increment */
        assert_int_equal(a, before[table[code].ctr]);
        for (int c = 0; c < 3; c++) {
            int want = before[c] + (c == table[code].ctr ? table[code].step : 0);
            assert_int_equal(p.ctr[c], (uint8_t)want);
        }
        /* "the Auxiliary address counter cannot be decremented" */
        assert_true(p.ctr[PP5_CTR_AUX] >= 30);
    }
    /* Done loads the counters from the PostILatch's after the access */
    pp5_pixmemaddr p = {0};
    p.ctr[0] = 5;
    p.post[0] = 40;
    p.post[1] = 41;
    p.post[2] = 42;
    assert_int_equal(pp5_pixmemaddr_clock(&p, 2, true), 5);
    assert_int_equal(p.ctr[0], 40);
    assert_int_equal(p.ctr[1], 41);
    assert_int_equal(p.ctr[2], 42);
}

/* ---- DirectReg: "shifts right one bit … LSB position … on ALUDatHSP1 … If the
 * shifter is bumped more than 32 times, the value is sign-extended." */
static void test_directreg(void **state)
{
    (void)state;
    const uint32_t vals[] = {0x80000005u, 0x00000003u, 0xdeadbeefu};
    for (size_t v = 0; v < 3; v++) {
        pp5_directreg r = {0};
        r.post = vals[v];
        pp5_directreg_clock(&r, false, true); /* execution begins */
        for (int i = 0; i < 40; i++) {
            bool bit = pp5_directreg_clock(&r, true, false);
            int want = i < 32 ? (int)((vals[v] >> i) & 1u) : (int)(vals[v] >> 31);
            assert_int_equal(bit, want);
        }
    }
    /* without DirEn the register holds */
    pp5_directreg r = {0};
    r.post = 2;
    pp5_directreg_clock(&r, false, true);
    assert_false(pp5_directreg_clock(&r, false, false));
    assert_false(pp5_directreg_clock(&r, false, false));
}

/* ---- Controller shift-control table, every row (A-27 for the Reset row). */
static void test_shift_table(void **state)
{
    (void)state;
    pp5_options o;
    pp5_options_default(&o);
    pp5_controller c = {0};
    const uint32_t t1 = PP5_UW_TREE1, t0 = PP5_UW_TREE0;
    for (int trr = 0; trr <= 1; trr++) {
        c.rmode = true;
        for (uint32_t tree = 0; tree < 4; tree++) {
            uint32_t uw = (tree & 1 ? t0 : 0) | (tree & 2 ? t1 : 0);
            o.rmode_shift = true; /* text: "Shift is unconditionally asserted" */
            assert_true(pp5_controller_shift(&c, &o, uw, trr));
            o.rmode_shift = false; /* table row "Reset … 0" */
            assert_false(pp5_controller_shift(&c, &o, uw, trr));
        }
        c.rmode = false;
        /* Tree Force: Tree1 = 0, Tree0 = x → 1 */
        assert_true(pp5_controller_shift(&c, &o, 0, trr));
        assert_true(pp5_controller_shift(&c, &o, t0, trr));
        /* Conditional: Tree1 = 1, Tree0 = 0 → ¬TRR */
        assert_int_equal(pp5_controller_shift(&c, &o, t1, trr), !trr);
        /* Tree Halt → 0 */
        assert_false(pp5_controller_shift(&c, &o, t1 | t0, trr));
    }
}

/* Leave RMode (power-on = Reset = RMode) with a P write, FBITS = 2. */
static void leave_rmode(pp5_igc *g)
{
    ok_write(g, PP5_REG_P, 131u << 23);
    ok_step(g, NULL);
    assert_int_equal(sig(g, "RMode"), 0);
}

/* ---- Done/NewL hand-off: "when the instruction completes, control jumps either
 * to the next instruction (if IPHSP1 = 1), or to address 0". Two instructions
 * back to back run without an idle word between them. */
static void test_back_to_back(void **state)
{
    (void)state;
    const char *src = "idle: nop cond jmp idle done\n"
                      "r:    nop cond inc\n"
                      "      nop cond inc\n"
                      "      nop cond inc\n"
                      "      nop cond jmp idle done\n";
    pp5_igc *g = make_igc(src, NULL);
    leave_rmode(g);
    ok_write(g, PP5_REG_I, 1); /* uaddr 1, no QEE */
    ok_go(g);
    int pcs[40], posti[40], ip[40];
    int n = 0;
    bool second = false;
    for (int i = 0; i < 30; i++) {
        if (!second && !pp5_igc_busy(g)) {
            /* the first instruction was posted: load the second at once */
            ok_write(g, PP5_REG_I, 1);
        } else {
            ok_step(g, NULL);
        }
        if (!second && sig(g, "PC") == 1) {
            ok_go(g);
            second = true;
        }
        pcs[n] = (int)sig(g, "PC");
        posti[n] = (int)sig(g, "PostI");
        ip[n] = (int)sig(g, "IP");
        n++;
    }
    /* find the first routine's done word (pc 4) and check the next word is 1 */
    int i4 = -1;
    for (int i = 0; i < n; i++)
        if (pcs[i] == 4) {
            i4 = i;
            break;
        }
    assert_true(i4 >= 0 && i4 + 5 < n);
    assert_int_equal(pcs[i4 + 1], 1);
    assert_int_equal(pcs[i4 + 2], 2);
    assert_int_equal(pcs[i4 + 4], 4);
    assert_int_equal(pcs[i4 + 5], 0); /* then idle */
    /* "Neither PostI nor PostC should be asserted on successive cycles" and IP is
     * set by PostI, cleared by NewL */
    for (int i = 1; i < n; i++) {
        assert_false(posti[i] && posti[i - 1]);
        if (posti[i - 1])
            assert_true(ip[i - 1]);
    }
    pp5_igc_destroy(g);
}

/* ---- OutputLatch delays, checked against the undelayed internal signals of
 * the same run: coefficient streams and LSB +1.5 (→ 2 whole clocks), TrSt 2.5
 * after ShiftHSP2 (→ 3), ALU controls +2, addresses +1. */
static void test_output_delays(void **state)
{
    (void)state;
    const char *src = "idle: nop cond jmp idle done\n"
                      "q:    a=t b=m c=cy ldc mwrt dst+ force inc\n"
                      "      a=~s b=~e c=~cy lde src+ halt inc\n"
                      "      a=st b=0 ldc aux+ force inc\n"
                      "w:    nop cond bntrr w\n"
                      "      nop force inc\n"
                      "      nop cond jmp idle done\n";
    pp5_igc *g = make_igc(src, NULL);
    leave_rmode(g);
    ok_write(g, PP5_REG_A, 0x40400000u); /* 3.0 */
    ok_write(g, PP5_REG_B, 0xc0a00000u); /* -5.0 */
    ok_write(g, PP5_REG_C, 0x42c90000u); /* 100.5 */
    ok_write(g, PP5_REG_P, (131u << 23) | 0x0302u); /* src 2, aux 3 */
    ok_write(g, PP5_REG_I, 1u | (7u << 9) | (2u << 18) | (1u << 22) | (116u << 23));
    ok_go(g);
    enum { N = 90 };
    uint32_t uw[N];
    int shift[N], dat[N][3], lsb[N], addr[N], aludat[N], dir[N], rm[N];
    pp5_pins pins[N];
    for (int i = 0; i < N; i++) {
        ok_step(g, &pins[i]);
        uw[i] = (uint32_t)sig(g, "UWord");
        shift[i] = (int)sig(g, "Shift");
        dat[i][0] = (int)sig(g, "ADatInt");
        dat[i][2] = (int)sig(g, "CDatInt");
        lsb[i] = (int)sig(g, "LSBInt");
        addr[i] = (int)sig(g, "Addr");
        aludat[i] = (int)sig(g, "ALUDatInt");
        dir[i] = (int)(uw[i] & 1u);
        rm[i] = (int)sig(g, "RMode");
    }
    int saw_lsb = 0, saw_dat = 0, saw_ctl = 0;
    for (int i = 3; i < N; i++) {
        const pp5_pins *p = &pins[i];
        assert_int_equal(p->dat[0], dat[i - 2][0]);
        assert_int_equal(p->dat[2], dat[i - 2][2]);
        assert_int_equal(p->lsb, lsb[i - 2]);
        assert_int_equal(p->trst, shift[i - 3]);
        assert_int_equal(p->addr_l, addr[i - 1]);
        uint32_t w = uw[i - 2];
        assert_int_equal(p->agts_t, (w >> 3) & 1);
        assert_int_equal(p->agts_s, (w >> 2) & 1);
        assert_int_equal(p->bgts_m, (w >> 8) & 1);
        assert_int_equal(p->bgts_e, (w >> 7) & 1);
        assert_int_equal(p->bcmp, (w >> 6) & 1);
        assert_int_equal(p->cgts_c, (w >> 5) & 1);
        assert_int_equal(p->ldc, !rm[i - 2] && ((w >> 9) & 1));
        assert_int_equal(p->lde, !rm[i - 2] && ((w >> 10) & 1));
        assert_int_equal(p->mwrt, !rm[i - 2] && ((w >> 11) & 1));
        int acmp = (w >> 1) & 1;
        assert_int_equal(p->acmp, dir[i - 2] ? !(acmp ^ aludat[i - 2]) : acmp);
        saw_lsb += p->lsb;
        saw_dat += p->dat[2];
        saw_ctl += p->mwrt;
    }
    assert_true(saw_lsb == 1 && saw_dat > 0 && saw_ctl > 0);
    pp5_igc_destroy(g);
}

/* ---- Direct-to-ALU: "if DirEnHSP1 = 1, then ACmpHSPR becomes the logical
 * exclusive-NOR of ACmpHSP1 and ALUDatHSP1". */
static void test_direct_xnor(void **state)
{
    (void)state;
    const char *src = "idle: nop cond jmp idle done\n"
                      "d0:   a=d b=0 c=0 mwrt dst+ cond cnt1 bntc1 d0\n"
                      "      a=~d b=0 c=0 mwrt dst+ cond inc\n"
                      "      a=~d b=0 c=0 mwrt dst+ cond jmp idle done\n";
    pp5_igc *g = make_igc(src, NULL);
    leave_rmode(g);
    const uint32_t data = 0xa5c3u;
    ok_write(g, PP5_REG_C, data);
    ok_write(g, PP5_REG_I, 1u | ((116u + 6u) << 23)); /* 6 loop iterations */
    ok_go(g);
    int bit = 0;
    pp5_pins p;
    uint32_t prev_uw[2] = {0, 0};
    for (int i = 0; i < 30; i++) {
        ok_step(g, &p);
        uint32_t w2 = prev_uw[1];
        if (w2 & PP5_UW_DIREN) {
            int want = (int)((data >> bit) & 1u);
            bool acmp = w2 & PP5_UW_ACMP;
            /* a=d: ACmp 0 → pin = ¬bit; a=~d: ACmp 1 → pin = bit */
            assert_int_equal(p.acmp, acmp ? want : !want);
            assert_true(p.mwrt);
            bit++;
        }
        prev_uw[1] = prev_uw[0];
        prev_uw[0] = (uint32_t)sig(g, "UWord");
    }
    assert_int_equal(bit, 8);
    pp5_igc_destroy(g);
}

/* ---- ExtOp / paired-address table (seed, OutputLatch): index
 * AGtsT*4 + AGtsS*2 + ACmp; 0-5 ExtOp, 6-7 config; odd = H,L paired. */
static void test_extop_pair(void **state)
{
    (void)state;
    const char *src = "idle: nop cond jmp idle done\n"
                      "e:    extop 0 aux+ cond inc\n"
                      "      extop 1 aux+ cond inc\n"
                      "      extop 2 aux+ cond inc\n"
                      "      extop 3 aux+ cond inc\n"
                      "      extop 4 aux+ cond inc\n"
                      "      extop 5 aux+ cond inc\n"
                      "      config aux+ cond inc\n"
                      "      config pair aux+ cond inc\n"
                      "      nop cond jmp idle done\n";
    pp5_igc *g = make_igc(src, NULL);
    leave_rmode(g);
    ok_write(g, PP5_REG_P, (131u << 23) | (0x35u << 8)); /* aux = 0x35 */
    ok_write(g, PP5_REG_I, 1u);
    ok_go(g);
    int seen = 0;
    pp5_pins p;
    for (int i = 0; i < 30; i++) {
        ok_step(g, &p);
        if (!p.redundant)
            continue;
        unsigned idx = (unsigned)(p.agts_t * 4 + p.agts_s * 2 + p.acmp);
        assert_int_equal(idx, (unsigned)seen);
        if (idx < 6) {
            assert_int_equal(p.extop, 1u << idx);
            assert_false(p.config_mode);
        } else {
            assert_int_equal(p.extop, 0);
            assert_true(p.config_mode);
        }
        assert_int_equal(p.pair, idx & 1u);
        seen++;
    }
    assert_int_equal(seen, 8);
    /* the address pins one clock after each word: aux = 0x35 + k, paired for odd k */
    pp5_igc_destroy(g);
    g = make_igc(src, NULL);
    leave_rmode(g);
    ok_write(g, PP5_REG_P, (131u << 23) | (0x35u << 8));
    ok_write(g, PP5_REG_I, 1u);
    ok_go(g);
    int k = -1;
    for (int i = 0; i < 30; i++) {
        ok_step(g, &p);
        if (k >= 0 && k < 8) {
            assert_int_equal(p.addr_l, 0x35 + k);
            assert_int_equal(p.addr_h, (k & 1) ? (uint8_t)~(0x35 + k) : 0x35 + k);
            k++;
        }
        if (k < 0 && sig(g, "PC") == 1)
            k = 0;
    }
    assert_int_equal(k, 8);
    pp5_igc_destroy(g);
}

/* ---- RMode: "LdC = 0 and LdE = 0 …, MWrt = 0 …, and CCmp = 0" forced at the
 * pins; microcode written through I/C/Go and read back with TestPE/TestOE. */
static void test_rmode_load_readback(void **state)
{
    (void)state;
    pp5_igc *g = make_igc(idle_src, NULL);
    /* power-on = RMode */
    assert_int_equal(sig(g, "RMode"), 1);
    ok_write(g, PP5_REG_P, 0x80000000u); /* D31 = 1: enter RMode */
    ok_step(g, NULL);
    assert_int_equal(sig(g, "RMode"), 1);
    const uint32_t words[4] = {0x00000e30u | PP5_UW_AGTST, 0x12345678u & ~PP5_UW_DONE, 0x0badf00du, 0x00000e3eu};
    for (int k = 0; k < 4; k++) {
        ok_write(g, PP5_REG_I, 100u + (uint32_t)k);
        ok_write(g, PP5_REG_C, words[k]);
        ok_go(g);
        for (int i = 0; i < 4; i++) {
            pp5_pins p;
            ok_step(g, &p);
            /* every word executed in RMode has LdC/LdE/MWrt/CCmp forced to 0 */
            assert_false(p.ldc || p.lde || p.mwrt || p.ccmp);
            assert_false(p.extop || p.config_mode);
        }
        assert_false(pp5_igc_busy(g)); /* "the IGC can never get hung" */
    }
    for (int k = 0; k < 4; k++)
        assert_int_equal(pp5_igc_ucode(g, 100u + (unsigned)k), words[k]);
    /* Read back: in RMode pc = posted UADDR; TestPE then TestOE. */
    for (int k = 0; k < 4; k++) {
        ok_write(g, PP5_REG_I, 100u + (uint32_t)k);
        ok_go(g);
        ok_step(g, NULL);
        ok_step(g, NULL);
        pp5_host_in in = {0};
        in.test_pe = true;
        pp5_pins p;
        ls_diag d;
        assert_int_equal(pp5_igc_step(g, &in, &p, &d), LS_OK);
        in.test_oe = true;
        assert_int_equal(pp5_igc_step(g, &in, &p, &d), LS_OK);
        assert_true(p.d_out_en);
        assert_int_equal(p.d_out, words[k]);
    }
    pp5_igc_destroy(g);
}

/* ---- Hung IGC: "if the IGC becomes hung, putting it in RMode will always reset
 * Controller to its quiescent state … RMode must be entered either by asserting
 * ResetHLPR, or by overriding the normal input protocol". */
static void test_hung_recovery(void **state)
{
    (void)state;
    const char *src = "idle: nop cond jmp idle done\n"
                      "hang: nop cond jmp hang\n";
    for (int via_reset = 0; via_reset <= 1; via_reset++) {
        pp5_igc *g = make_igc(src, NULL);
        leave_rmode(g);
        ok_write(g, PP5_REG_I, 1u);
        ok_go(g);
        for (int i = 0; i < 5; i++)
            ok_step(g, NULL);
        ok_write(g, PP5_REG_I, 1u);
        ok_go(g);
        for (int i = 0; i < 20; i++)
            ok_step(g, NULL);
        /* second instruction pending forever, third can't be loaded */
        ok_write(g, PP5_REG_I, 1u);
        ok_go(g);
        for (int i = 0; i < 20; i++)
            ok_step(g, NULL);
        assert_true(pp5_igc_busy(g));
        assert_int_equal(sig(g, "IP"), 1);
        ls_diag d;
        if (via_reset) {
            pp5_host_in in = {0};
            in.reset = true;
            assert_int_equal(pp5_igc_step(g, &in, NULL, &d), LS_OK);
        } else {
            /* allowed while Busy: this is the recovery path */
            assert_int_equal(pp5_igc_write(g, PP5_REG_P, 0x80000000u, NULL, &d), LS_OK);
        }
        for (int i = 0; i < 6; i++)
            ok_step(g, NULL);
        assert_false(pp5_igc_busy(g));
        assert_int_equal(sig(g, "IP"), 0);
        assert_int_equal(sig(g, "PostI"), 0);
        assert_int_equal(sig(g, "PostC"), 0);
        assert_int_equal(sig(g, "RMode"), 1);
        pp5_igc_destroy(g);
    }
}

/* ---- Host protocol: a write while Busy is an error (strict) or a
 * warning (lenient); Go while Busy is ignored with a warning. */
static void test_protocol(void **state)
{
    (void)state;
    const char *src = "idle: nop cond jmp idle done\n"
                      "hang: nop cond jmp hang\n";
    pp5_options o;
    pp5_options_default(&o);
    for (int lenient = 0; lenient <= 1; lenient++) {
        o.busy_write = lenient ? PP5_BUSY_WRITE_LAST_WINS : PP5_BUSY_WRITE_ERROR;
        pp5_igc *g = make_igc(src, &o);
        leave_rmode(g);
        ok_write(g, PP5_REG_I, 1u);
        ok_go(g);
        ls_diag d;
        /* Busy is high in the clock after Go */
        assert_true(pp5_igc_busy(g));
        ls_status st = pp5_igc_write(g, PP5_REG_A, 0x3f800000u, NULL, &d);
        size_t w0 = pp5_igc_warning_count(g);
        if (lenient) {
            assert_int_equal(st, LS_OK);
            assert_true(w0 >= 1);
        } else {
            assert_int_equal(st, LS_ERR_FAULT);
            assert_non_null(strstr(d.msg, "while Busy"));
        }
        for (int i = 0; i < 10; i++)
            ok_step(g, NULL);
        for (int rep = 0; rep < 2; rep++) { /* one pending, one waiting for PostI */
            ok_write(g, PP5_REG_I, 1u);
            ok_go(g);
            for (int i = 0; i < 10; i++)
                ok_step(g, NULL);
        }
        assert_true(pp5_igc_busy(g)); /* stuck behind the hung routine */
        size_t w1 = pp5_igc_warning_count(g);
        assert_int_equal(pp5_igc_go(g, NULL, &d), LS_OK);
        assert_int_equal(pp5_igc_warning_count(g), w1 + 1);
        assert_non_null(strstr(pp5_igc_warning(g, pp5_igc_warning_count(g) - 1), "Go while Busy"));
        pp5_igc_destroy(g);
    }
}

/* ---- TRR "bump": in Conditional mode TRR inhibits Shift; the LSB token comes
 * FBITS + 24 shifts after PostC and holds while Shift = 0. */
static void test_trr_bump(void **state)
{
    (void)state;
    const char *src = "idle: nop cond jmp idle done\n"
                      "long: nop cond cnt2 bntc2 long\n"
                      "      nop cond jmp idle done\n"
                      "q:    nop force bntrr q\n"
                      "      nop force inc\n"
                      "      nop cond jmp idle done\n";
    pp5_igc *g = make_igc(src, NULL);
    leave_rmode(g);
    ok_write(g, PP5_REG_P, (131u << 23) | (100u << 16)); /* LC2 = 100: a long instruction */
    ok_write(g, PP5_REG_I, 1u);
    ok_go(g);
    ok_step(g, NULL);
    ok_step(g, NULL);
    ok_write(g, PP5_REG_C, 0x40000000u);
    ok_write(g, PP5_REG_I, 3u | (1u << 17) | (1u << 18) | (120u << 23)); /* const, TRREn */
    ok_go(g);
    int shifts_since_post = -1, trr_at = -1, held = 0;
    for (int i = 0; i < 200; i++) {
        ok_step(g, NULL);
        if (sig(g, "PostC") && shifts_since_post < 0) {
            shifts_since_post = 0;
            continue;
        }
        if (shifts_since_post >= 0 && trr_at < 0) {
            shifts_since_post++;
            if (sig(g, "TRR"))
                trr_at = shifts_since_post;
        }
        if (sig(g, "TRR") && sig(g, "PC") == 1) {
            /* the long instruction (Conditional) is frozen by the token */
            assert_int_equal(sig(g, "Shift"), 0);
            held++;
        }
    }
    assert_int_equal(trr_at, 2 + 24); /* FBITS = 2 */
    assert_true(held > 10);
    pp5_igc_destroy(g);
}

/* ---- AddrGen conditions: "For conditional branches, the branch is taken if the
 * condition is 0" — ST1/ST2 (A-1 codes bnst1/bnst2, A-23 logical levels) and
 * btc1 (condition TC1L = ¬TC1). */
static void test_status_branches(void **state)
{
    (void)state;
    const char *src = "idle: nop cond jmp idle done\n"
                      "w1:   nop cond bnst1 w1\n"
                      "w2:   nop cond bnst2 w2\n"
                      "t:    nop cond cnt1 btc1 out\n"
                      "      nop cond jmp t\n"
                      "out:  nop cond jmp idle done\n";
    pp5_igc *g = make_igc(src, NULL);
    leave_rmode(g);
    ok_write(g, PP5_REG_I, 1u | ((116u + 3u) << 23));
    ok_go(g);
    for (int i = 0; i < 10; i++)
        ok_step(g, NULL);
    assert_int_equal(sig(g, "PC"), 1); /* waiting for ST1 */
    pp5_igc_set_status(g, true, false);
    for (int i = 0; i < 5; i++)
        ok_step(g, NULL);
    assert_int_equal(sig(g, "PC"), 2); /* waiting for ST2 */
    pp5_igc_set_status(g, true, true);
    int visits_t = 0;
    for (int i = 0; i < 12; i++) {
        ok_step(g, NULL);
        visits_t += sig(g, "PC") == 3;
    }
    /* LC1 = 116 + 3 counts 118, 117, 116: btc1 falls through twice and branches
     * to "out" on the third visit, when TC1 = 1 */
    assert_int_equal(visits_t, 3);
    assert_int_equal(sig(g, "PC"), 0);
    pp5_igc_destroy(g);
}

/* The signal table made from the state lists (igc_state.h: each field's
 * signal entry, at its rank): every rank has a row (a rank left out would be a
 * row without a name), names are unique, and after a few clocks every value
 * was written by the walk (out was filled with all ones) and fits its width. */
static void test_signal_table(void **state)
{
    (void)state;
    size_t n = pp5_igc_signal_count();
    assert_true(n >= 42);
    for (size_t i = 0; i < n; i++) {
        const pp5_signal_info *s = pp5_igc_signal_info(i);
        assert_non_null(s->name);
        assert_true(s->width >= 1 && s->width <= 32);
        assert_int_equal(pp5_igc_signal_find(s->name), (long)i); /* the first of that name */
    }
    assert_null(pp5_igc_signal_info(n));
    pp5_igc *g = make_igc(idle_src, NULL);
    leave_rmode(g);
    ok_write(g, PP5_REG_I, 0xffffffffu >> 1);
    ok_go(g);
    for (int c = 0; c < 5; c++)
        ok_step(g, NULL);
    uint64_t *v = malloc(n * sizeof *v);
    memset(v, 0xff, n * sizeof *v);
    pp5_igc_signal_values(g, v);
    for (size_t i = 0; i < n; i++)
        assert_true(v[i] >> pp5_igc_signal_info(i)->width == 0);
    free(v);
    pp5_igc_destroy(g);
}

/* "Every signal the seed names … can be observed by name"; the bulk reader
 * agrees with the single reader. */
static void test_signal_names(void **state)
{
    (void)state;
    static const char *const seed_names[] = {
        "IBsy", "CBsy", "Busy", "IP", "PostI", "PostC", "NewL", "Done", "Shift", "TRR", "CSB",
        "LSB", "TC1", "TC2", "RMode", "MsIn", "DirEn", "ALUDat", "TrSt", "ACmp", "AGtsS",
        "AGtsT", "BCmp", "BGtsE", "BGtsM", "CCmp", "CGtsC", "LdC", "LdE", "MWrt", "AddrL",
        "AddrH", "ADat", "BDat", "CDat", "DDat", "EDat", "FDat", "ExtOp", "Branch", "ST1", "ST2"};
    for (size_t i = 0; i < sizeof seed_names / sizeof seed_names[0]; i++) {
        if (pp5_igc_signal_find(seed_names[i]) < 0)
            printf("missing %s\n", seed_names[i]);
        assert_true(pp5_igc_signal_find(seed_names[i]) >= 0);
    }
    pp5_igc *g = make_igc(idle_src, NULL);
    leave_rmode(g);
    ok_write(g, PP5_REG_I, 0u);
    ok_go(g);
    ok_step(g, NULL);
    size_t n = pp5_igc_signal_count();
    uint64_t *v = calloc(n, sizeof *v);
    pp5_igc_signal_values(g, v);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(v[i], pp5_igc_signal_value(g, i));
    free(v);
    /* a coefficient above the range is counted as a warning */
    size_t w0 = pp5_igc_warning_count(g);
    ok_write(g, PP5_REG_A, 0x7f000000u); /* 2^127 */
    assert_int_equal(pp5_igc_warning_count(g), w0 + 1);
    ok_write(g, PP5_REG_A, 0x3f800000u); /* 1.0 */
    assert_int_equal(pp5_igc_warning_count(g), w0 + 1);
    pp5_igc_destroy(g);
}

/* ---- Tree Halt: "the tree halt shift control mode can be asserted to
 * unconditionally de-assert ShiftHSP1 on alternate cycles" — the QEE runs at half
 * speed: CSB stays high for N shift cycles, about 2N clocks. */
static void test_half_speed(void **state)
{
    (void)state;
    const char *src = "idle: nop cond jmp idle done\n"
                      "z:    nop halt inc\n"
                      "      nop force jmp z\n";
    pp5_igc *g = make_igc(src, NULL);
    leave_rmode(g);
    ok_write(g, PP5_REG_C, 0x3f800000u);
    ok_write(g, PP5_REG_I, 1u | (1u << 18) | ((115u + 18u) << 23)); /* const, FNI 18 → N 20 */
    ok_go(g);
    int csb_clocks = 0, csb_shifts = 0;
    for (int i = 0; i < 100; i++) {
        ok_step(g, NULL);
        if (sig(g, "CSB")) {
            csb_clocks++;
            csb_shifts += (int)sig(g, "Shift");
        }
    }
    assert_int_equal(csb_shifts, 20);
    assert_true(csb_clocks >= 39 && csb_clocks <= 41);
    pp5_igc_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loopcount),
        cmocka_unit_test(test_pma_codes),
        cmocka_unit_test(test_directreg),
        cmocka_unit_test(test_shift_table),
        cmocka_unit_test(test_back_to_back),
        cmocka_unit_test(test_output_delays),
        cmocka_unit_test(test_direct_xnor),
        cmocka_unit_test(test_extop_pair),
        cmocka_unit_test(test_rmode_load_readback),
        cmocka_unit_test(test_hung_recovery),
        cmocka_unit_test(test_protocol),
        cmocka_unit_test(test_trr_bump),
        cmocka_unit_test(test_status_branches),
        cmocka_unit_test(test_signal_table),
        cmocka_unit_test(test_signal_names),
        cmocka_unit_test(test_half_speed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
