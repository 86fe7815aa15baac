/* `lockstep r500 draw CAPTURE_DIR --vertices [--cs N] [-o OUT.json]`: execute
 * a captured command stream's packets (vertex fetch, vertex program or bypass)
 * and print every draw's post-transform vertices as JSON. Manual: docs/mesa.md
 * "Draws: vertex fetch and the vertex program". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lockstep/mesa_draw.h"

int cli_r500_draw(cli_args *a)
{
    const char *dir = a->ops[0], *out = cli_get(a, "output");
    long cs = 0;
    int rc = cli_opt_long(a, "cs", 0, 9999, &cs);
    if (rc)
        return rc;
    if (!cli_flag(a, "vertices"))
        return cli_err(a, CLI_USAGE, "--vertices is needed (the only output so far)");
    mesa_capture c;
    ls_diag d;
    if (mesa_capture_load(dir, (unsigned)cs, &c, &d))
        return cli_report(a, &d);
    mesa_exec e;
    char name[64];
    snprintf(name, sizeof name, "cs_%04ld.ib", cs);
    ls_status st = mesa_exec_stream(name, c.ib, c.n, c.relocs, c.nrelocs_dw, c.bos, c.nbos, NULL,
                                    &e, &d);
    mesa_capture_free(&c);
    if (st)
        return cli_report(a, &d);
    ls_buf b;
    ls_buf_init(&b);
    mesa_exec_json(&e, name, &b);
    rc = cli_write(a, out ? out : "-", &b);
    for (size_t k = 0; k < e.ndraws && rc == CLI_OK; k++)
        if (e.draws[k].status)
            rc = cli_report(a, &e.draws[k].diag);
    ls_buf_free(&b);
    mesa_exec_free(&e);
    return rc;
}
