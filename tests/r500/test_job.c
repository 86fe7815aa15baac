/* R500 job loading: the corpus program.json form, lockstep's own JSON job
 * keys, hex text with constants, and one-line errors with positions for bad
 * input of every kind. */
#include <unistd.h>

#include "test_exec_util.h"

static const char *corpus_like =
    "{\n"
    " \"us_code_start\": 0, \"us_code_end\": 1,\n"
    " \"us_inst\": [\n"
    "  [\"0x00002000\", \"0x08020080\", \"0x08020080\", \"0x00d20490\", \"0x00000000\", \"0x00490000\"],\n"
    "  [\"0x00018001\", \"0x08000401\", \"0x08020098\", \"0x008e0418\", \"0x00000000\", \"0x00485000\"]\n"
    " ],\n"
    " \"us_const\": {\"0\": {\"hex\": [\"0x41800000\", \"0x00000000\", \"0x7fc00001\", \"0x80000000\"],\n"
    "                      \"f32\": [16.0, 0.0, null, -0.0]},\n"
    "              \"7\": {\"f32\": [1.5, 2.5, 3.5, 4.5]}},\n"
    " \"fc_ctrl\": 2147483648, \"fc_bool_const\": null,\n"
    " \"rs\": {\"inst\": [{\"tex_write\": true, \"tex_addr_temp\": 3}]},\n"
    " \"regs\": {\"US_CONFIG\": \"0x00000000\", \"US_FC_INT_CONST_5\": \"0x00020310\",\n"
    "          \"US_CODE_ADDR\": \"0x00010000\", \"US_CODE_RANGE\": \"0x00010000\",\n"
    "          \"US_CODE_OFFSET\": \"0x00000000\", \"RB3D_CCTL\": \"0x00004000\"}\n"
    "}\n";

static void test_corpus_form(void **state)
{
    (void)state;
    r500_job job;
    r500_job_init(&job);
    ls_diag d;
    ls_diag_clear(&d);
    ls_status st = r500_job_load_json(&job, "p.json", corpus_like, strlen(corpus_like), &d);
    if (st)
        fail_msg("%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    assert_int_equal(job.ninst, 2);
    assert_int_equal(job.words[0], 0x00002000u);
    assert_int_equal(job.words[6 + 5], 0x00485000u);
    /* constants from the exact hex bits, not the (lossy) f32 spelling */
    assert_int_equal(tx_bits(job.consts[0][0]), 0x41800000u);
    assert_int_equal(tx_bits(job.consts[0][2]), 0x7fc00001u);
    assert_int_equal(tx_bits(job.consts[0][3]), 0x80000000u);
    assert_true(job.consts[7][3] == 4.5f);
    assert_int_equal(job.regs.us_config, 0);
    assert_int_equal(job.regs.fc_ctrl, 0x80000000u);
    assert_int_equal(job.regs.fc_int_const[5], 0x00020310u);
    assert_int_equal(job.regs.code_addr, 0x00010000u);
    assert_int_equal(job.inputs[3].kind, R500_INPUT_UV);
    assert_int_equal(job.inputs[0].kind, R500_INPUT_NONE);
    r500_job_free(&job);
}

static void test_lockstep_keys(void **state)
{
    (void)state;
    char dir[] = "/tmp/lockstep_job_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char prog[256], jobp[256];
    snprintf(prog, sizeof prog, "%s/p.inc", dir);
    snprintf(jobp, sizeof jobp, "%s/job.json", dir);
    FILE *f = fopen(prog, "w");
    assert_non_null(f);
    fputs("# one OUT instruction\n0x00018001 0x08000401 0x08020098 0x008e0418 0x00000000 "
          "0x00485000\nc2: 0x3f800000 0x40000000 0x40400000 0x40800000\n",
          f);
    fclose(f);
    f = fopen(jobp, "w");
    assert_non_null(f);
    fputs("{\"program\": \"p.inc\", \"size\": [8, 4], \"thread\": 16, \"clear\": [1, 0, 0, 1],\n"
          " \"inputs\": {\"t0\": \"clip\", \"t5\": [1, 2, 3, 4]},\n"
          " \"model\": {\"rcp-zero\": \"max\", \"watchdog\": 1000}}\n",
          f);
    fclose(f);
    r500_job job;
    r500_job_init(&job);
    ls_diag d;
    ls_diag_clear(&d);
    ls_status st = r500_job_load(&job, jobp, &d);
    if (st)
        fail_msg("%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    assert_int_equal(job.ninst, 1);
    assert_true(job.consts[2][3] == 4.0f); /* from the cN: line of the program */
    assert_int_equal(job.width, 8);
    assert_int_equal(job.height, 4);
    assert_int_equal(job.thread_size, 16);
    assert_true(job.clear[0] == 1.0f && job.clear[3] == 1.0f);
    assert_int_equal(job.inputs[0].kind, R500_INPUT_CLIP);
    assert_int_equal(job.inputs[5].kind, R500_INPUT_CONST);
    assert_true(job.inputs[5].value[2] == 3.0f);
    assert_int_equal(job.options.exec.rcp_zero, R500_RCP_ZERO_MAX);
    assert_int_equal(job.options.exec.watchdog, 1000);
    r500_job_free(&job);
    unlink(prog);
    unlink(jobp);
    rmdir(dir);
}

/* Each bad job gives a parse error with a position (line, col) and a message
 * containing `what`. */
static void expect_error(const char *text, int line, const char *what)
{
    r500_job job;
    r500_job_init(&job);
    ls_diag d;
    ls_diag_clear(&d);
    ls_status st = r500_job_load_json(&job, "bad.json", text, strlen(text), &d);
    r500_job_free(&job);
    if (st == LS_OK)
        fail_msg("accepted: %s", text);
    /* line 0: an error about another file (it names that file instead) */
    if ((line && (strcmp(d.file, "bad.json") != 0 || d.line != line)) || !strstr(d.msg, what))
        fail_msg("for %s: got %s:%d:%d: %s (want line %d, '%s')", text, d.file, d.line, d.col,
                 d.msg, line, what);
}

#define INST1 "[[\"0x0\",\"0x0\",\"0x0\",\"0x0\",\"0x0\",\"0x0\"]]"

static void test_bad_jobs(void **state)
{
    (void)state;
    expect_error("{\"us_inst\": [[1,2,3]]", 1, "");                        /* malformed JSON */
    expect_error("[1, 2]", 1, "object");
    expect_error("{}", 1, "no program");
    expect_error("{\"us_inst\": [[1,2,3,4,5]]}", 1, "6 words");
    expect_error("{\"us_inst\": [[\"0xZZ\",0,0,0,0,0]]}", 1, "hex word");
    expect_error("{\"us_inst\": [[-1,0,0,0,0,0]]}", 1, "32-bit word");
    expect_error("{\"us_inst\": []}", 1, "1..512");
    expect_error("{\"us_inst\": " INST1 ",\n \"us_const\": {\"300\": [1,2,3,4]}}", 2,
                 "constant index");
    expect_error("{\"us_inst\": " INST1 ",\n\n \"us_const\": {\"1\": [1,2,3]}}", 3, "4 numbers");
    expect_error("{\"us_inst\": " INST1 ", \"inputs\": {\"t128\": \"uv\"}}", 1, "t0..t127");
    expect_error("{\"us_inst\": " INST1 ", \"inputs\": {\"t1\": \"xyz\"}}", 1, "unknown input");
    expect_error("{\"us_inst\": " INST1 ", \"regs\": {\"US_CONFIG\": \"2\"}}", 1, "hex word");
    expect_error("{\"us_inst\": " INST1 ", \"size\": [0, 4]}", 1, "size");
    expect_error("{\"us_inst\": " INST1 ", \"thread\": 65}", 1, "thread");
    expect_error("{\"us_inst\": " INST1 ",\n \"model\": {\"rcp-zero\": \"maybe\"}}", 2, "rcp-zero");
    expect_error("{\"us_inst\": " INST1 ", \"model\": {\"no-such\": \"1\"}}", 1, "no-such");
    expect_error("{\"program\": \"/nonexistent/prog.bin\"}", 0, "cannot read");
    expect_error("{\"us_inst\": " INST1 ", \"textures\": {\"16\": \"x.png\"}}", 1, "textures");
    /* misspelt and unknown registers are errors, not silently ignored */
    expect_error("{\"us_inst\": " INST1 ",\n \"regs\": {\"US_FC_INT_CONST0\": \"0x1\"}}", 2,
                 "did you mean US_FC_INT_CONST_0?");
    expect_error("{\"us_inst\": " INST1 ", \"regs\": {\"US_FC_INT_CONST_32\": \"0x1\"}}", 1,
                 "unknown register");
    expect_error("{\"us_inst\": " INST1 ", \"regs\": {\"us_config\": \"0x1\"}}", 1,
                 "did you mean US_CONFIG?");
    expect_error("{\"us_inst\": " INST1 ", \"regs\": {\"NO_SUCH_REG\": \"0x1\"}}", 1,
                 "unknown register \"NO_SUCH_REG\"");
    /* a register the decoder knows but the US ignores: its value is still checked */
    expect_error("{\"us_inst\": " INST1 ", \"regs\": {\"RB3D_CCTL\": \"zz\"}}", 1, "hex word");
}

/* The misspelt-register error carries the position of the value. */
static void test_unknown_register_position(void **state)
{
    (void)state;
    const char *text = "{\"us_inst\": " INST1 ",\n  \"regs\": {\"US_FC_INT_CONST0\": \"0x1\"}}";
    r500_job job;
    r500_job_init(&job);
    ls_diag d;
    assert_int_equal(r500_job_load_json(&job, "j.json", text, strlen(text), &d), LS_ERR_PARSE);
    assert_string_equal(d.file, "j.json");
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 32); /* the value "0x1" */
    r500_job_free(&job);
}

/* Empty programs are a clean error in every form (was: memcpy from NULL). */
static void test_empty_programs(void **state)
{
    (void)state;
    static const char *const names[] = {"empty.fs.asm", "empty.inc", "empty.bin"};
    static const char *const texts[] = {"; nothing but a comment\n.const 1 1 2 3 4\n", "# only a comment\n", ""};
    for (int i = 0; i < 3; i++) {
        r500_job job;
        r500_job_init(&job);
        ls_diag d;
        ls_diag_clear(&d);
        ls_status st = r500_job_load_mem(&job, names[i], texts[i], strlen(texts[i]), &d);
        if (st == LS_OK)
            fail_msg("%s: accepted", names[i]);
        assert_string_equal(d.file, names[i]);
        assert_null(job.words);
        r500_job_free(&job);
        r500_asm_program p;
        assert_int_not_equal(r500_program_load_mem(names[i], texts[i], strlen(texts[i]), &p, &d),
                             LS_OK);
        assert_string_equal(d.file, names[i]);
        assert_null(p.words);
    }
}

/* r500_job_apply_program: words, .offset and every kind of state; and
 * r500_job_get_program gives them back. */
static void test_apply_and_get_program(void **state)
{
    (void)state;
    const char *src = ".fc partial\n.offset 3\n.const 5 1.5 -2 0x7fc00001 0\n.int 2 7 0 1\n"
                      ".bool 4 1\n"
                      "OUT src0.a = temp[0], src0.rgb = temp[0] :\n"
                      "  out[0].a = MAX src0.a src0.a , out[0].rgb = MAX src0.rgb src0.rgb ;\n";
    r500_asm_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_equal(r500_asm_mem("s.fs.asm", src, strlen(src), &p, &errs), LS_OK);
    ls_diag_list_free(&errs);
    r500_job job;
    r500_job_init(&job);
    job.consts[9][0] = 3.0f; /* not in the program: kept */
    ls_diag d;
    assert_int_equal(r500_job_apply_program(&job, &p, &d), LS_OK);
    assert_int_equal(job.ninst, 4);
    for (int k = 0; k < 3 * 6; k++)
        assert_int_equal(job.words[k], 0);
    assert_memory_equal(job.words + 18, p.words, 6 * sizeof(uint32_t));
    assert_int_equal(job.regs.code_offset, 3);
    assert_int_equal(job.regs.code_range, 3);
    assert_int_equal(job.regs.fc_ctrl, 0);
    assert_int_equal(job.regs.fc_bool_const, 1u << 4);
    assert_int_equal(job.regs.fc_int_const[2], 7u | (1u << 16));
    assert_int_equal(job.regs.fc_int_const[0], 0xff);
    uint32_t bits[4];
    memcpy(bits, job.consts[5], sizeof bits);
    assert_int_equal(bits[0], 0x3fc00000u);
    assert_int_equal(bits[1], 0xc0000000u);
    assert_int_equal(bits[2], 0x7fc00001u);
    assert_true(job.consts[9][0] == 3.0f);

    r500_asm_program q;
    assert_int_equal(r500_job_get_program(&job, &q, &d), LS_OK);
    assert_int_equal(q.count, 1);
    assert_memory_equal(q.words, p.words, 6 * sizeof(uint32_t));
    assert_int_equal(q.state.offset, 3);
    assert_int_equal(q.state.fc_full, 0);
    assert_true(q.state.bool_set);
    assert_int_equal(q.state.bool_const, 1u << 4);
    assert_int_equal(q.state.int_set, 1u << 2);
    assert_true(q.state.const_set[5] && q.state.const_set[9] && !q.state.const_set[0]);
    assert_memory_equal(q.state.consts[5], bits, sizeof bits);
    r500_asm_program_free(&q);
    r500_asm_program_free(&p);
    r500_job_free(&job);
}

/* `r500 dis` of hex text keeps the "cN:" constants: the disassembly
 * reassembles to the same job (words and constants). */
static void test_hex_constants_round_trip(void **state)
{
    (void)state;
    const char *hex = "c3: 0x3f800000 0x40000000 0x7fc00001 0x80000000\n"
                      "0x00007800 0x08020000 0x08020080 0x00ba0118 0x00c18000 0x20490010\n"
                      "c0: 0x00000000 0x00000001 0x00000000 0x41200000\n";
    r500_job a, b;
    r500_job_init(&a);
    r500_job_init(&b);
    ls_diag d;
    assert_int_equal(r500_job_load_mem(&a, "p.inc", hex, strlen(hex), &d), LS_OK);
    r500_asm_program p;
    assert_int_equal(r500_program_load_mem("p.inc", hex, strlen(hex), &p, &d), LS_OK);
    assert_true(p.state.const_set[3] && p.state.const_set[0] && !p.state.const_set[1]);
    ls_buf out;
    ls_buf_init(&out);
    r500_disasm(p.words, p.count, &p.state, &out);
    assert_non_null(strstr(out.data, ".const 3 1 2 0x7fc00001 0x80000000"));
    assert_int_equal(r500_job_load_mem(&b, "p.fs.asm", out.data, out.len, &d), LS_OK);
    assert_int_equal(a.ninst, b.ninst);
    assert_memory_equal(a.words, b.words, a.ninst * 6 * sizeof(uint32_t));
    assert_memory_equal(a.consts, b.consts, sizeof a.consts);
    assert_memory_equal(&a.regs, &b.regs, sizeof a.regs);
    ls_buf_free(&out);
    r500_asm_program_free(&p);
    r500_job_free(&a);
    r500_job_free(&b);
}

static void test_bad_raw_programs(void **state)
{
    (void)state;
    r500_job job;
    ls_diag d;
    /* truncated .bin: not a multiple of 24 bytes */
    r500_job_init(&job);
    char bin[30] = {0};
    assert_int_not_equal(r500_job_load_mem(&job, "t.bin", bin, sizeof bin, &d), LS_OK);
    assert_string_equal(d.file, "t.bin");
    r500_job_free(&job);
    /* hex text: 5 dwords (not a multiple of 6), non-hex token */
    r500_job_init(&job);
    const char *odd = "0x1 0x2 0x3 0x4 0x5\n";
    assert_int_not_equal(r500_job_load_mem(&job, "odd.inc", odd, strlen(odd), &d), LS_OK);
    assert_string_equal(d.file, "odd.inc");
    r500_job_free(&job);
    r500_job_init(&job);
    const char *junk = "0x1 0x2 0x3\n0x4 zork 0x6\n";
    assert_int_not_equal(r500_job_load_mem(&job, "junk.inc", junk, strlen(junk), &d), LS_OK);
    assert_int_equal(d.line, 2);
    r500_job_free(&job);
    /* a missing file */
    r500_job_init(&job);
    assert_int_equal(r500_job_load(&job, "/nonexistent/x.bin", &d), LS_ERR_IO);
    assert_string_equal(d.file, "/nonexistent/x.bin");
    r500_job_free(&job);
}

static void test_run_rejects_bad_jobs(void **state)
{
    (void)state;
    tx_prog p = {.n = 0};
    r500_inst in = tx_alu(R500_TYPE_OUT);
    tx_add(&p, &in);
    r500_job job;
    tx_job(&job, &p, 4, 4, 16);
    r500_result r;
    ls_diag d;
    /* US_CODE_ADDR end beyond the loaded program */
    job.regs.code_addr = 5u << 16;
    assert_int_equal(r500_run(&job, &r, NULL, &d), LS_ERR_RANGE);
    job.regs.code_addr = 0;
    job.thread_size = 0;
    assert_int_equal(r500_run(&job, &r, NULL, &d), LS_ERR_ARG);
    job.thread_size = 16;
    job.width = 0;
    assert_int_equal(r500_run(&job, &r, NULL, &d), LS_ERR_ARG);
    r500_job_free(&job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_form),      cmocka_unit_test(test_lockstep_keys),
        cmocka_unit_test(test_bad_jobs),         cmocka_unit_test(test_bad_raw_programs),
        cmocka_unit_test(test_run_rejects_bad_jobs),
        cmocka_unit_test(test_unknown_register_position),
        cmocka_unit_test(test_empty_programs),
        cmocka_unit_test(test_apply_and_get_program),
        cmocka_unit_test(test_hex_constants_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
