/* Built against the INSTALLED library only (tests/install/install_test.sh:
 * `cc r500_pixel.c $(pkg-config --cflags --libs lockstep)`): assembles an
 * R500 program through the public API, applies its .const state to a job,
 * runs it and checks pixels; disassembles into an ls_buf; binds the PNG
 * texture loader; writes the image as a PNG (argv[1]). Exit 0 when all hold. */
#include <stdio.h>
#include <string.h>

#include <lockstep/buf.h>
#include <lockstep/image.h>
#include <lockstep/r500.h>
#include <lockstep/r500_asm.h>
#include <lockstep/r500_tex.h>

static const char src[] =
    ".const 0 0.5 0.5 0.5 0.5\n"
    ".const 1 0.25 0.5 0.75 1\n"
    ".const 2 1 0 0 1\n"
    "src0.rgb = temp[0], src1.rgb = const[0] :\n"
    "  MAD src0.rrr src0.111 -src1.rrr { ALU_WMASK=1 ALU_RESULT_OP=GE } ;\n"
    "IF alu\n"
    "    OUT src0.a = const[2], src0.rgb = const[2] :\n"
    "      out[0].a = MAX src0.a src0.a , out[0].rgb = MAX src0.rgb src0.rgb ;\n"
    "ELSE\n"
    "    OUT src0.a = const[1], src0.rgb = const[1] :\n"
    "      out[0].a = MAX src0.a src0.a , out[0].rgb = MAX src0.rgb src0.rgb ;\n"
    "ENDIF\n";

static int fail(const char *what, const ls_diag *d)
{
    char line[1024] = "";
    if (d)
        ls_diag_format(d, line, sizeof line);
    fprintf(stderr, "r500_pixel: %s %s\n", what, line);
    return 1;
}

int main(int argc, char **argv)
{
    r500_asm_program prog;
    ls_diag_list errs;
    ls_diag_list_init(&errs);
    if (r500_asm_mem("pixel.fs.asm", src, strlen(src), &prog, &errs) != LS_OK)
        return fail("assemble:", errs.count ? &errs.items[0] : NULL);
    ls_diag_list_free(&errs);

    r500_job job;
    r500_job_init(&job);
    job.texture_loader.load = r500_texture_load_file; /* the PNG side links too */
    ls_diag d;
    ls_diag_clear(&d);
    if (r500_job_apply_program(&job, &prog, &d) != LS_OK)
        return fail("apply:", &d);
    job.width = 8;
    job.height = 4;
    job.thread_size = 16;
    job.workers = 1;
    job.inputs[0].kind = R500_INPUT_UV;
    r500_result r;
    if (r500_run(&job, &r, NULL, &d) != LS_OK)
        return fail("run:", &d);
    /* left half (u < 0.5): const 1; right half: const 2 (red) */
    const float *left = &r.target[0][4 * (1 * 8 + 1)], *right = &r.target[0][4 * (2 * 8 + 6)];
    if (left[0] != 0.25f || left[1] != 0.5f || left[2] != 0.75f || left[3] != 1.0f)
        return fail("left pixel is not (0.25, 0.5, 0.75, 1)", NULL);
    if (right[0] != 1.0f || right[1] != 0.0f || right[2] != 0.0f || right[3] != 1.0f)
        return fail("right pixel is not red", NULL);
    if (r.nfaults || r.stats.faulted_threads)
        return fail("faults", NULL);

    ls_buf b;
    ls_buf_init(&b);
    r500_disasm(prog.words, prog.count, &prog.state, &b);
    if (!b.data || !strstr(b.data, ".const 1 0.25 0.5 0.75 1") || !strstr(b.data, "IF alu"))
        return fail("disassembly lacks the constants or the IF", NULL);
    ls_buf_free(&b);

    if (argc > 1) {
        ls_imagef img = {r.width, r.height, r.target[0]};
        ls_image8 i8;
        if (ls_imagef_to_8(&img, &i8, &d) != LS_OK || ls_png_write(argv[1], &i8, &d) != LS_OK)
            return fail("png:", &d);
        ls_image8_free(&i8);
    }
    r500_result_free(&r);
    r500_job_free(&job);
    r500_asm_program_free(&prog);
    printf("ok: assembled, ran and checked two pixels through the installed liblockstep\n");
    return 0;
}
