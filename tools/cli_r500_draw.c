/* `lockstep r500 draw CAPTURE_DIR --vertices [--cs N] [-o OUT.json]`: execute
 * a captured command stream's packets (vertex fetch, vertex program or bypass)
 * and print every draw's post-transform vertices as JSON. Manual: docs/mesa.md
 * "Draws: vertex fetch and the vertex program". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lockstep/mesa_draw.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: lockstep r500 draw CAPTURE_DIR --vertices [--cs N] [-o OUT.json]\n"
               "  Executes cs_NNNN.ib of a capture directory (made with LOCKSTEP_SHIM_BOS=1 so\n"
               "  the buffers are saved as cs_NNNN.bo_K) and prints each draw's transformed\n"
               "  vertices, or the diagnostic that stopped it, and the registers the model does\n"
               "  not know, as JSON ('-' or no -o: stdout). Exit 1 if any draw stopped.\n");
}

int cli_r500_draw(int argc, char **argv)
{
    const char *dir = NULL, *out = "-";
    long cs = 0;
    bool vertices = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return CLI_OK;
        } else if (!strcmp(argv[i], "--vertices"))
            vertices = true;
        else if (!strcmp(argv[i], "--cs") && i + 1 < argc) {
            if (!cli_parse_int(argv[++i], 0, 9999, &cs))
                return cli_usage_error("--cs needs a number 0..9999");
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] != '-' && !dir)
            dir = argv[i];
        else {
            usage(stderr);
            return cli_usage_error("unexpected argument '%s'", argv[i]);
        }
    }
    if (!dir || !vertices) {
        usage(stderr);
        return cli_usage_error("draw needs CAPTURE_DIR and --vertices (the only output so far)");
    }
    mesa_capture c;
    ls_diag d;
    if (mesa_capture_load(dir, (unsigned)cs, &c, &d))
        return cli_report(&d);
    mesa_exec_options o;
    mesa_exec_options_default(&o);
    mesa_exec e;
    char name[64];
    snprintf(name, sizeof name, "cs_%04ld.ib", cs);
    ls_status st = mesa_exec_stream(name, c.ib, c.n, c.relocs, c.nrelocs_dw, c.bos, c.nbos, &o,
                                    &e, &d);
    mesa_capture_free(&c);
    if (st)
        return cli_report(&d);
    ls_buf b;
    ls_buf_init(&b);
    mesa_exec_json(&e, name, &b);
    int rc = cli_write_file(out, &b);
    for (size_t k = 0; k < e.ndraws && rc == CLI_OK; k++)
        if (e.draws[k].status) {
            cli_report(&e.draws[k].diag);
            rc = CLI_FAIL;
        }
    ls_buf_free(&b);
    mesa_exec_free(&e);
    return rc;
}
