/* R500 assembler and disassembler: the buhman corpus assembles to its
 * committed words; every corpus program and random instruction words
 * round-trip through the disassembler; structured flow control expands to
 * Mesa's words (spec/r500.md §3.2); errors carry file:line:col. */
#include "test_util.h"

#include <dirent.h>
#include <unistd.h>

#include "base/buf.h"
#include "lockstep/r500_asm.h"
#include "r500/isa_format.h"

static r500_asm_program assemble_ok(const char *src)
{
    r500_asm_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    ls_status st = r500_asm_mem("t.fs.asm", src, strlen(src), &p, &errs);
    if (st != LS_OK) {
        char line[1024];
        ls_diag_format(&errs.items[0], line, sizeof line);
        fail_msg("%s", line);
    }
    ls_diag_list_free(&errs);
    return p;
}

static void expect_error(const char *src, int line, int col, const char *needle)
{
    r500_asm_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_not_equal(r500_asm_mem("t.fs.asm", src, strlen(src), &p, &errs), LS_OK);
    assert_true(errs.count >= 1);
    bool found = false;
    for (size_t i = 0; i < errs.count; i++)
        if (errs.items[i].line == line && errs.items[i].col == col &&
            strstr(errs.items[i].msg, needle))
            found = true;
    if (!found) {
        char buf[1024];
        ls_diag_format(&errs.items[0], buf, sizeof buf);
        fail_msg("expected '%s' at %d:%d, first error: %s", needle, line, col, buf);
    }
    assert_string_equal(errs.items[0].file, "t.fs.asm");
    ls_diag_list_free(&errs);
}

/* r500.md §3.2/§3.3: the skeleton Mesa emits for if/else and a loop with a
 * conditional break, word for word. */
static void test_structured_mesa_words(void **st)
{
    (void)st;
    r500_asm_program p = assemble_ok("IF alu\n"          /* 0 */
                                     "ELSE\n"            /* 1 */
                                     "ENDIF\n"           /* 2 */
                                     "LOOP\n"            /* 3 */
                                     "  IF alu\n"        /* 4 */
                                     "    BREAK\n"       /* 5 */
                                     "  ENDIF\n"         /* 6 */
                                     "  IF alu\n"        /* 7 */
                                     "    CONTINUE\n"    /* 8 */
                                     "  ENDIF\n"         /* 9 */
                                     "ENDLOOP\n");       /* 10 */
    assert_int_equal(p.count, 11);
    const uint32_t expect[11][2] = {
        {0x1A000F00, 2u << 16},  /* IF with ELSE: JUMP_ADDR = else_ip+1 */
        {0x04010010, 3u << 16},  /* ELSE: endif_ip+1 */
        {0x01010020, 3u << 16},  /* ENDIF: itself+1 */
        {0x10000001, 10u << 16}, /* BGNLOOP: endloop_ip, INT_ADDR 0 */
        {0x12000F00, 7u << 16},  /* IF without ELSE: endif_ip+1 */
        {0x1401FF05, 11u << 16}, /* BRK, d=1: endloop_ip+1 */
        {0x01010020, 7u << 16},
        {0x12000F00, 10u << 16},
        {0x1401FF07, 10u << 16}, /* CONT, d=1: endloop_ip */
        {0x01010020, 10u << 16},
        {0x1000FF22, 4u << 16},  /* ENDLOOP: bgnloop_ip+1 */
    };
    for (int k = 0; k < 11; k++) {
        assert_int_equal(p.words[6 * k + 0], 0x00000402u); /* TYPE=FC | ALU_WAIT */
        assert_int_equal(p.words[6 * k + 1], 0);
        assert_int_equal(p.words[6 * k + 2], expect[k][0]);
        assert_int_equal(p.words[6 * k + 3], expect[k][1]);
        assert_int_equal(p.words[6 * k + 4], 0);
        assert_int_equal(p.words[6 * k + 5], 0);
    }
    r500_asm_program_free(&p);
}

/* The raw FC form names every field; conditions become JUMP_FUNC tables
 * (seed 001: bit (alu<<2)|(pred<<1)|bool). */
static void test_fc_field_form(void **st)
{
    (void)st;
    r500_asm_program p = assemble_ok(
        "start: .fc FC_OP=BREAKREP FC_B_ELSE=1 FC_JUMP_ANY=1 A_OP=PUSH JUMP_FUNC=!alu&pred.g "
        "B_POP_CNT=31 B_OP0=DECR B_OP1=INCR IGNORE_UNCOVERED=1 INT_ADDR=5 JUMP_ADDR=start "
        "JUMP_GLOBAL=1\n"
        ".fc JUMP_FUNC=bool[3]|alu JUMP_ADDR=end\n"
        "end:\n");
    uint32_t *w = p.words;
    /* pred.g sets RGB_PRED_SEL = GGGG (3) */
    assert_int_equal(w[0], 0x2u | 3u << 3);
    /* !alu & pred = indices 2, 3 -> 0x0C */
    assert_int_equal(w[2], 6u | 1u << 4 | 1u << 5 | 2u << 6 | 0x0Cu << 8 | 31u << 16 | 1u << 24 |
                               2u << 26 | 1u << 28);
    assert_int_equal(w[3], 5u << 8 | 0u << 16 | 1u << 31);
    /* bool | alu = indices 1,3,4,5,6,7 -> 0xFA; BOOL_ADDR 3; end = 2 */
    assert_int_equal(w[8], 0xFAu << 8);
    assert_int_equal(w[9], 3u | 2u << 16);
    r500_asm_program_free(&p);
}

static void test_directives(void **st)
{
    (void)st;
    r500_asm_program p = assemble_ok(".const 3 1.5 -2 0x7fc00000 0\n.bool 31 1\n"
                                     ".int 2 16 4 -3\n.fc partial\n.offset 10\n.raw 1 2 3 4 5 6\n");
    assert_int_equal(p.count, 1);
    assert_int_equal(p.words[5], 6);
    assert_true(p.state.const_set[3]);
    assert_int_equal(p.state.consts[3][0], 0x3FC00000u);
    assert_int_equal(p.state.consts[3][1], 0xC0000000u);
    assert_int_equal(p.state.consts[3][2], 0x7FC00000u);
    assert_int_equal(p.state.bool_const, 1u << 31);
    assert_int_equal(p.state.int_const[2], 16u | 4u << 8 | 0xFDu << 16);
    assert_int_equal(p.state.fc_full, 0);
    assert_int_equal(p.state.offset, 10);
    r500_asm_program_free(&p);
}

static void test_errors(void **st)
{
    (void)st;
    expect_error("ENDIF\n", 1, 1, "ENDIF without IF");
    expect_error("LOOP\nIF alu\nENDLOOP\n", 3, 1, "ENDLOOP without LOOP");
    expect_error("IF alu\n", 1, 1, "never closed");
    expect_error("BREAK\n", 1, 1, "outside LOOP");
    expect_error("x: .raw 0 0 0 0 0 0\nx: .raw 0 0 0 0 0 0\n", 2, 1, "duplicate label");
    expect_error("JUMP nowhere\n", 1, 6, "undefined label");
    expect_error(".alu RGB_OP=MAD RGB_OP=MAX\n", 1, 17, "written twice");
    expect_error(".alu RGB_ADDRD=128\n", 1, 16, "out of range");
    expect_error(".alu FOO=1\n", 1, 6, "unknown field");
    expect_error(".const 256 0 0 0 0\n", 1, 8, "out of range");
    expect_error("src0.rgb = temp[128] :\n  temp[0].r = MAX src0.rrr src0.rrr ;\n", 1, 17,
                 "out of range");
    expect_error("src0.rgb = temp[0] :\n  temp[0].r = FOO src0.rrr ;\n", 2, 15, "unknown ALU opcode");
    expect_error("src0.rgb = temp[0] :\n  temp[0].r = MAX src0.rrx ;\n", 2, 24, "bad swizzle");
    expect_error("TEX temp[0].rgba = LD tex[16].rgba temp[0].rgba ;\n", 1, 27, "out of range");
    expect_error("#include \"does-not-exist.asm\"\n", 1, 1, "cannot open include");
    /* several errors in one run */
    r500_asm_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    const char *two = ".alu FOO=1\n.alu BAR=2\n";
    assert_int_not_equal(r500_asm_mem("t.fs.asm", two, strlen(two), &p, &errs), LS_OK);
    assert_int_equal(errs.count, 2);
    assert_string_equal(errs.items[1].source_line, ".alu BAR=2");
    ls_diag_list_free(&errs);
}

static void test_include_cycle(void **st)
{
    (void)st;
    char dir[] = "/tmp/lockstep-asm-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/a.asm", dir);
    snprintf(b, sizeof b, "%s/b.asm", dir);
    FILE *f = fopen(a, "w");
    fputs("#include \"b.asm\"\n", f);
    fclose(f);
    f = fopen(b, "w");
    fputs(".raw 0 0 0 0 0 0\n#include \"a.asm\"\n", f);
    fclose(f);
    r500_asm_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    assert_int_not_equal(r500_asm_file(a, &p, &errs), LS_OK);
    assert_non_null(strstr(errs.items[0].msg, "cycle"));
    ls_diag_list_free(&errs);
    remove(a);
    remove(b);
    rmdir(dir);
}

static void roundtrip(const uint32_t *w, size_t n, const char *what)
{
    ls_buf b;
    ls_buf_init(&b);
    r500_disasm(w, n, NULL, &b);
    r500_asm_program p;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    if (r500_asm_mem("dis", b.data, b.len, &p, &errs) != LS_OK)
        fail_msg("%s: disassembly does not assemble: %s\n%s", what, errs.items[0].msg, b.data);
    ls_diag_list_free(&errs);
    assert_int_equal(p.count, n);
    if (memcmp(p.words, w, n * 24) != 0)
        fail_msg("%s: round trip changed the words\n%s", what, b.data);
    r500_asm_program_free(&p);
    ls_buf_free(&b);
}

/* Property: random words of every type round-trip through dis -> asm. */
static void test_random_roundtrip(void **st)
{
    (void)st;
    uint64_t s = ls_test_seed(0xA5A5A5A5);
    for (int k = 0; k < 3000; k++) {
        uint32_t w[6 * 4];
        for (int i = 0; i < 24; i++)
            w[i] = (uint32_t)ls_test_rand(&s);
        /* also words without unclaimed bits, so every pretty form is exercised */
        for (int i = 0; i < 4; i++) {
            r500_inst in;
            r500_decode(w + 6 * i, &in);
            if (k & 1)
                memset(in.unclaimed, 0, sizeof in.unclaimed);
            r500_encode(&in, w + 6 * i);
        }
        roundtrip(w, 4, "random words");
    }
}

static int corpus_file(const char *path, bool bin, bool asm_src)
{
    ls_buf b;
    ls_buf_init(&b);
    assert_true(ls_read_file(path, &b));
    uint32_t *w;
    size_t n;
    ls_diag d;
    r500_hex_const *cv = NULL;
    size_t ncv;
    ls_status st = bin ? r500_parse_bin_words(path, (const uint8_t *)b.data, b.len, &w, &n, &d)
                       : r500_parse_hex_program(path, b.data, b.len, &w, &n, &cv, &ncv, &d);
    assert_int_equal(st, LS_OK);
    free(cv);
    roundtrip(w, n, path);
    if (asm_src) {
        /* the .fs.asm beside it assembles to exactly these words */
        char src[1024];
        snprintf(src, sizeof src, "%.*s.asm", (int)(strlen(path) - 4), path);
        r500_asm_program p;
        ls_diag_list errs;
        ls_diag_list_init(&errs);
        if (r500_asm_file(src, &p, &errs) != LS_OK)
            fail_msg("%s: %s", src, errs.items[0].msg);
        ls_diag_list_free(&errs);
        assert_int_equal(p.count, n);
        if (memcmp(p.words, w, n * 24))
            fail_msg("%s does not assemble to %s", src, path);
        r500_asm_program_free(&p);
    }
    free(w);
    ls_buf_free(&b);
    return 1;
}

static void test_corpus(void **st)
{
    (void)st;
    const char *corpus = ls_test_require_corpus();
    int files = 0;
    char path[1024];
    const char *dirs[] = {"buhman-r500/src", "buhman-r500/drm", "mesa-r300/out"};
    for (int di = 0; di < 3; di++) {
        snprintf(path, sizeof path, "%s/%s", corpus, dirs[di]);
        DIR *dir = opendir(path);
        assert_non_null(dir);
        struct dirent *e;
        while ((e = readdir(dir))) {
            const char *nm = e->d_name;
            size_t l = strlen(nm);
            if (di == 2 && nm[0] != '.') {
                snprintf(path, sizeof path, "%s/%s/%s/program_words.txt", corpus, dirs[di], nm);
                files += corpus_file(path, false, false);
            } else if (l > 7 && (!strcmp(nm + l - 7, ".fs.bin") || !strcmp(nm + l - 7, ".fs.inc"))) {
                /* only fragment programs: the .vs.* files hold PVS words */
                snprintf(path, sizeof path, "%s/%s/%s", corpus, dirs[di], nm);
                files += corpus_file(path, !strcmp(nm + l - 4, ".bin"), true);
            }
        }
        closedir(dir);
    }
    printf("corpus: %d programs round-trip; 23 buhman sources assemble to their words\n", files);
    assert_int_equal(files, 38);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_structured_mesa_words), cmocka_unit_test(test_fc_field_form),
        cmocka_unit_test(test_directives),            cmocka_unit_test(test_errors),
        cmocka_unit_test(test_include_cycle),         cmocka_unit_test(test_random_roundtrip),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
