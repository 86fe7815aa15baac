/* Recordings (include/lockstep/record.h): what the writer appends is what the
 * reader finds; every malformed record the checker must refuse is refused;
 * and the R500 observer sees exactly the instructions the trace lists. */
#include "test_util.h"

#include "lockstep/r500.h"
#include "lockstep/r500_asm.h"
#include "lockstep/record.h"

static void meta(ls_buf *b)
{
    size_t r = ls_rec_begin(b, LS_REC_META);
    ls_buf_puts(b, "{}");
    ls_rec_end(b, r);
}

/* A small R500 recording: one thread of n lanes (pixels (l, 0)), t0.x = 1.5
 * in lane 0 at the start, two instructions: pc 3 with active 5 and a loop
 * stack of loop_depth frames, then pc 4 writing 2.5 to t0.x in write_mask
 * (relative to active 5). */
static void r500_rec(ls_buf *b, unsigned n, uint64_t write_mask, unsigned loop_depth)
{
    ls_rec_header(b, LS_REC_R500);
    meta(b);
    size_t r = ls_rec_begin(b, LS_REC_R500_THREAD);
    ls_rec_varint(b, 7);
    ls_rec_u8(b, (uint8_t)n);
    ls_rec_mask_raw(b, n == 64 ? ~0ull : (1ull << n) - 1, n);
    for (unsigned l = 0; l < n; l++) { ls_rec_svarint(b, l ? 1 : 0); ls_rec_svarint(b, 0); }
    ls_rec_u8(b, 1); /* ntemps */
    ls_rec_u8(b, 1); /* one lane block: t0.x, r = 0 */
    ls_rec_u8(b, 0); ls_rec_u8(b, 0); ls_rec_u8(b, 0); ls_rec_u8(b, 0);
    {
        uint32_t v[64] = {0}, z[64] = {0};
        float one5 = 1.5f;
        memcpy(&v[0], &one5, 4);
        ls_rec_floats(b, v, z, n);
    }
    ls_buf ctl;
    ls_buf_init(&ctl);
    ls_rec_u8(&ctl, LS_REC_C_PC | LS_REC_C_ACTIVE | LS_REC_C_LOOPS);
    ls_rec_varint(&ctl, 3);
    ls_rec_mask(&ctl, 5, 0, n);
    ls_rec_u8(&ctl, (uint8_t)loop_depth);
    for (unsigned k = 0; k < loop_depth; k++) {
        ls_rec_u8(&ctl, 1 | 2 | 4);
        ls_rec_varint(&ctl, 300);
        ls_rec_svarint(&ctl, -2);
        ls_rec_u8(&ctl, 1);
    }
    ls_rec_u8(&ctl, 0); /* pc 4, nothing changed */
    ls_rec_varint(b, 2);
    ls_rec_varint(b, ctl.len);
    ls_buf_append(b, ctl.data, ctl.len);
    ls_buf_free(&ctl);
    ls_rec_u8(b, 0); /* no final outputs */
    ls_buf val;
    ls_buf_init(&val);
    ls_rec_varint(&val, 0);
    ls_rec_varint(&val, 1);
    ls_rec_varint(&val, 0 * 16 + 0 * 4 + 0); /* t0.x */
    ls_rec_mask(&val, write_mask, 5, n);
    {
        uint32_t v[64], ref[64] = {0};
        float x = 2.5f;
        unsigned k = 0;
        for (unsigned l = 0; l < 64; l++)
            if ((write_mask >> l) & 1) memcpy(&v[k++], &x, 4);
        float one5 = 1.5f;
        if (write_mask & 1) memcpy(&ref[0], &one5, 4);
        ls_rec_floats(&val, v, ref, k);
    }
    ls_rec_u8(b, 1);
    ls_rec_varint(b, val.len);
    ls_buf_append(b, val.data, val.len);
    ls_buf_free(&val);
    ls_rec_end(b, r);
}

static void test_round_trip(void **st)
{
    (void)st;
    ls_buf b;
    ls_buf_init(&b);
    r500_rec(&b, 4, 0x9, 2);
    /* little-endian header: "LSR\0", version 2, machine 2 */
    assert_memory_equal(b.data, "LSR\0\2\0\2\0", 8);
    ls_rec_reader rd;
    ls_diag d;
    assert_int_equal(ls_rec_open(&rd, b.data, b.len, &d), LS_OK);
    assert_int_equal(rd.machine, LS_REC_R500);
    ls_rec_record rec;
    bool more;
    int tags[4] = {0}, n = 0;
    ls_rec_record thr = {0};
    while (ls_rec_next(&rd, &rec, &more, &d) == LS_OK && more && n < 4) {
        tags[n++] = rec.tag;
        if (rec.tag == LS_REC_R500_THREAD) thr = rec;
    }
    assert_int_equal(n, 2);
    assert_int_equal(tags[0], LS_REC_META);
    assert_int_equal(tags[1], LS_REC_R500_THREAD);
    /* the cursor gives back what was written */
    ls_rec_r500_cursor *c = malloc(sizeof *c);
    assert_non_null(c);
    assert_int_equal(ls_rec_r500_begin(c, &thr, &d), LS_OK);
    assert_int_equal(c->thread, 7);
    assert_int_equal(c->n, 4);
    assert_int_equal(c->covered, 0xf);
    assert_int_equal(c->px[3], 3);
    assert_int_equal(c->py[3], 0);
    assert_int_equal(c->ninst, 2);
    assert_true(c->has_values);
    float f;
    memcpy(&f, &c->regs.temp[0][0][0], 4);
    assert_true(f == 1.5f);
    assert_int_equal(ls_rec_r500_step(c, &d), LS_OK);
    assert_int_equal(c->st.pc, 3);
    assert_int_equal(c->st.active, 5);
    assert_int_equal(c->st.loop_depth, 2);
    assert_int_equal(c->st.loop[1].count, 300);
    assert_int_equal(c->st.loop[1].al, -2);
    assert_int_equal(c->st.loop[1].is_loop, 1);
    assert_int_equal(c->nwrites, 0);
    assert_int_equal(ls_rec_r500_step(c, &d), LS_OK);
    assert_int_equal(c->st.pc, 4);
    assert_int_equal(c->st.active, 5);
    assert_int_equal(c->nwrites, 1);
    assert_int_equal(c->writes[0].lanes, 0x9);
    memcpy(&f, &c->regs.temp[0][0][3], 4);
    assert_true(f == 2.5f);
    memcpy(&f, &c->regs.temp[0][0][0], 4);
    assert_true(f == 2.5f);
    assert_int_equal(c->regs.temp[0][0][1], 0);
    assert_int_equal(ls_rec_r500_end(c, &d), LS_OK);
    assert_int_not_equal(ls_rec_r500_step(c, &d), LS_OK); /* no third instruction */
    free(c);
    ls_rec_summary s;
    assert_int_equal(ls_rec_check(b.data, b.len, &s, &d), LS_OK);
    assert_int_equal(s.threads, 1);
    assert_int_equal(s.value_threads, 1);
    assert_int_equal(s.instructions, 2);
    assert_int_equal(s.values, 2);
    assert_int_equal(s.meta_bytes, 2);
    ls_buf_free(&b);
}

static void expect_bad(const ls_buf *b, const char *msg_part)
{
    ls_rec_summary s;
    ls_diag d;
    ls_diag_clear(&d);
    assert_int_not_equal(ls_rec_check(b->data, b->len, &s, &d), LS_OK);
    if (!strstr(d.msg, msg_part)) fail_msg("message '%s' lacks '%s'", d.msg, msg_part);
}

/* A thread record with the given control stream of ninst entries and no
 * values. */
static void ctl_rec(ls_buf *b, unsigned n, unsigned ninst, const uint8_t *ctl, size_t len)
{
    ls_rec_header(b, LS_REC_R500);
    meta(b);
    size_t r = ls_rec_begin(b, LS_REC_R500_THREAD);
    ls_rec_varint(b, 0);
    ls_rec_u8(b, (uint8_t)n);
    ls_rec_mask_raw(b, (1ull << n) - 1, n);
    for (unsigned l = 0; l < n; l++) { ls_rec_svarint(b, 0); ls_rec_svarint(b, 0); }
    ls_rec_u8(b, 0);
    ls_rec_u8(b, 0);
    ls_rec_varint(b, ninst);
    ls_rec_varint(b, len);
    ls_buf_append(b, ctl, len);
    ls_rec_u8(b, 0);
    ls_rec_u8(b, 0);
    ls_rec_end(b, r);
}

/* Runs of plain entries and "loop count one less". */
static void test_runs(void **st)
{
    (void)st;
    /* entry 0: pc 4, loop depth 1 with count 9; a run of 3 (pc 5, 6, 7);
     * then pc 4 with the count one less; then a plain entry (pc 5) */
    const uint8_t ctl[] = {LS_REC_C_PC | LS_REC_C_LOOPS, 4, 1, 1, 9, LS_REC_C_EXT, 0, 3,
                           LS_REC_C_PC | LS_REC_C_LOOPS, 4, 1, 32, 0};
    ls_buf b;
    ls_buf_init(&b);
    ctl_rec(&b, 4, 6, ctl, sizeof ctl);
    ls_rec_reader rd;
    ls_diag d;
    ls_rec_record rec;
    bool more;
    assert_int_equal(ls_rec_open(&rd, b.data, b.len, &d), LS_OK);
    ls_rec_next(&rd, &rec, &more, &d);
    ls_rec_next(&rd, &rec, &more, &d);
    ls_rec_r500_cursor *c = malloc(sizeof *c);
    assert_non_null(c);
    assert_int_equal(ls_rec_r500_begin(c, &rec, &d), LS_OK);
    const unsigned pcs[6] = {4, 5, 6, 7, 4, 5}, counts[6] = {9, 9, 9, 9, 8, 8};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(ls_rec_r500_step(c, &d), LS_OK);
        assert_int_equal(c->st.pc, pcs[i]);
        assert_int_equal(c->st.loop_depth, 1);
        assert_int_equal(c->st.loop[0].count, counts[i]);
    }
    assert_int_equal(ls_rec_r500_end(c, &d), LS_OK);
    free(c);
    /* a run longer than the instructions left; a run of 1; count with both bits */
    ls_buf_reset(&b);
    ctl_rec(&b, 4, 3, ctl, 8);
    expect_bad(&b, "run beyond");
    const uint8_t one[] = {LS_REC_C_EXT, 0, 1};
    ls_buf_reset(&b);
    ctl_rec(&b, 4, 1, one, sizeof one);
    expect_bad(&b, "fewer than 2");
    const uint8_t both[] = {LS_REC_C_LOOPS, 1, 33, 5};
    ls_buf_reset(&b);
    ctl_rec(&b, 4, 1, both, sizeof both);
    expect_bad(&b, "clashing");
    /* a mask naming lane 5 of a 4-lane thread */
    const uint8_t lane5[] = {LS_REC_C_ACTIVE, 1, 5};
    ls_buf_reset(&b);
    ctl_rec(&b, 4, 1, lane5, sizeof lane5);
    expect_bad(&b, "outside the thread");
    ls_buf_free(&b);
}

/* The primitives' byte layout (docs/viewer.md, "Recording format"). */
static void test_primitives(void **st)
{
    (void)st;
    ls_buf b;
    ls_buf_init(&b);
    ls_rec_varint(&b, 300); /* 0xac 0x02 */
    ls_rec_svarint(&b, -2); /* zigzag 3 */
    ls_rec_mask(&b, 0x5, 0x4, 48); /* one flip: lane 0 */
    ls_rec_mask(&b, 0xff, 0, 16);  /* eight flips > 2 bytes: raw */
    uint32_t v[3] = {0x3fc00000, 0x3fc00001, 7}, ref[3] = {0x3fc00000, 0, 0};
    ls_rec_floats(&b, v, ref, 3);
    const uint8_t want[] = {0xac, 0x02, 0x03, 0x01, 0x00, 0xff, 0xff, 0x00,
                            0xd0, 0x01, /* nibbles: 0 | d (byte 1 is 0), then 1 */
                            0x01, 0xc0, 0x3f, 0x07};
    assert_int_equal(b.len, sizeof want);
    assert_memory_equal(b.data, want, sizeof want);
    ls_buf_free(&b);
}

static void test_refused(void **st)
{
    (void)st;
    ls_buf b;
    ls_buf_init(&b);
    r500_rec(&b, 4, 0x10, 0); /* lane 4 of a 4-lane thread */
    expect_bad(&b, "outside the thread");
    ls_buf_reset(&b);
    r500_rec(&b, 4, 0x1, 0);
    b.data[4] = 1;
    expect_bad(&b, "version 1 (written by an older lockstep)");
    ls_buf_reset(&b);
    r500_rec(&b, 4, 0x1, 17);
    expect_bad(&b, "deeper than 16");
    ls_buf_reset(&b);
    r500_rec(&b, 4, 0x1, 0);
    b.len -= 3; /* truncated */
    expect_bad(&b, "runs past the end");
    ls_buf_reset(&b);
    r500_rec(&b, 4, 0x1, 0);
    b.data[1] = 'X';
    expect_bad(&b, "not a lockstep recording");
    ls_buf_reset(&b);
    r500_rec(&b, 4, 0x1, 0);
    b.data[4] = 9;
    expect_bad(&b, "version 9");
    /* PP5: a sparse field with pixels out of order, a clock going back */
    ls_buf_reset(&b);
    ls_rec_header(&b, LS_REC_PP5);
    meta(&b);
    size_t r = ls_rec_begin(&b, LS_REC_PP5_FIELD);
    ls_rec_u32(&b, 10); ls_rec_u8(&b, 0); ls_rec_u8(&b, 1); ls_rec_u8(&b, LS_REC_PP5_SPARSE);
    ls_rec_u32(&b, 16); ls_rec_u32(&b, 2);
    ls_rec_u32(&b, 5); ls_rec_u8(&b, 1); ls_rec_u32(&b, 3); ls_rec_u8(&b, 1);
    ls_rec_end(&b, r);
    expect_bad(&b, "disagrees");
    /* changed bits: bit 9 of a 1-byte field */
    ls_buf_reset(&b);
    ls_rec_header(&b, LS_REC_PP5);
    meta(&b);
    r = ls_rec_begin(&b, LS_REC_PP5_FIELD);
    ls_rec_u32(&b, 10); ls_rec_u8(&b, 0); ls_rec_u8(&b, 1); ls_rec_u8(&b, LS_REC_PP5_XOR);
    ls_rec_u32(&b, 16); ls_rec_u8(&b, 1); ls_rec_u8(&b, 9); ls_rec_u16(&b, 0xffff);
    ls_rec_end(&b, r);
    expect_bad(&b, "beyond the value size");
    b.data[b.len - 3] = 7; /* bit 7: accepted */
    {
        ls_rec_summary s;
        ls_diag d;
        assert_int_equal(ls_rec_check(b.data, b.len, &s, &d), LS_OK);
        assert_int_equal(s.field_records, 1);
    }
    ls_buf_reset(&b);
    ls_rec_header(&b, LS_REC_PP5);
    meta(&b);
    for (uint32_t c = 5; c + 1 > 3; c -= 2) {
        r = ls_rec_begin(&b, LS_REC_PP5_CLOCK);
        ls_rec_u32(&b, c); ls_rec_u8(&b, 1); ls_rec_u8(&b, 0); ls_rec_u32(&b, c);
        ls_rec_end(&b, r);
    }
    expect_bad(&b, "clock goes back");
    /* threads out of order */
    ls_buf_reset(&b);
    r500_rec(&b, 4, 0x1, 0);
    {
        ls_buf two;
        ls_buf_init(&two);
        ls_buf_append(&two, b.data, b.len);
        ls_rec_reader rd;
        ls_diag d;
        ls_rec_record rec;
        bool more;
        assert_int_equal(ls_rec_open(&rd, b.data, b.len, &d), LS_OK);
        while (ls_rec_next(&rd, &rec, &more, &d) == LS_OK && more)
            if (rec.tag == LS_REC_R500_THREAD) ls_buf_append(&two, b.data + rec.offset, rec.len + 5);
        expect_bad(&two, "do not increase");
        ls_buf_free(&two);
    }
    ls_buf_free(&b);
}

typedef struct counts {
    size_t threads, issued, retired;
    unsigned last_pc;
} counts;
static void c_begin(void *u, size_t t, unsigned n, const int *px, const int *py, uint64_t cov,
                    const float (*temps)[4][R500_MAX_LANES], unsigned nt)
{
    (void)t; (void)n; (void)px; (void)py; (void)cov; (void)temps; (void)nt;
    ((counts *)u)->threads++;
}
static void c_issue(void *u, size_t t, unsigned pc, unsigned type, const r500_fc_thread *fc)
{
    (void)t; (void)type; (void)fc;
    ((counts *)u)->issued++;
    ((counts *)u)->last_pc = pc;
}
static void c_retire(void *u, size_t t, unsigned pc, const float (*temps)[4][R500_MAX_LANES],
                     unsigned nt, const float (*out)[4][R500_MAX_LANES], const float *w)
{
    (void)t; (void)pc; (void)temps; (void)nt; (void)out; (void)w;
    ((counts *)u)->retired++;
}

static void test_observer(void **st)
{
    (void)st;
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/r500/mandelbrot.fs.asm", getenv("LOCKSTEP_SOURCE_ROOT"));
    r500_job job;
    r500_job_init(&job);
    ls_diag d;
    assert_int_equal(r500_job_load(&job, path, &d), LS_OK);
    job.width = job.height = 12;
    job.inputs[0].kind = R500_INPUT_UV;
    counts c = {0};
    r500_observer obs = {&c, c_begin, c_issue, c_retire};
    r500_result res;
    ls_buf trace;
    ls_buf_init(&trace);
    assert_int_equal(r500_run_observed(&job, &res, &trace, &obs, &d), LS_OK);
    uint64_t total = res.stats.inst_alu + res.stats.inst_out + res.stats.inst_tex + res.stats.inst_fc;
    assert_int_equal(c.threads, res.stats.threads);
    assert_int_equal(c.issued, total);
    assert_int_equal(c.retired, total); /* no thread faulted */
    /* one trace object per issued instruction: count "\"thread\":" */
    size_t k = 0;
    for (const char *p = trace.data; (p = strstr(p, "{\"thread\":")); p++) k++;
    assert_int_equal(k, total);
    assert_int_equal(c.last_pc, 18); /* the OUT at the end (examples/r500/mandelbrot.fs.asm) */
    ls_buf_free(&trace);
    r500_result_free(&res);
    r500_job_free(&job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_primitives),
        cmocka_unit_test(test_runs),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_observer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
