/* lockstep — command-line front end. Dispatches to the per-machine
 * sub-commands; all printing happens here and in tools/cli_*.c. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_view.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: lockstep <machine> <command> [options]\n"
            "\n"
            "R500 fragment shader unit:\n"
            "  lockstep r500 run PROGRAM [options]   run a fragment program over an image\n"
            "  lockstep r500 asm IN.fs.asm -o OUT    assemble\n"
            "  lockstep r500 dis FILE                disassemble\n"
            "Pixel-Planes 5:\n"
            "  lockstep pp5 asm|dis|run|serialize|render ...\n"
            "Viewer (docs/viewer.md):\n"
            "  lockstep view RUN.lsr [-o view.html]   step through a --record recording\n"
            "Mesa r300 harness:\n"
            "  lockstep mesa run|check|piglit|bench ...\n"
            "\n"
            "`lockstep <machine> --help` lists each machine's commands and options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *m = argv[1];
    if (!strcmp(m, "-h") || !strcmp(m, "--help") || !strcmp(m, "help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(m, "--version")) {
        printf("lockstep 0.1.0\n");
        return CLI_OK;
    }
    if (!strcmp(m, "r500"))
        return cli_r500(argc - 1, argv + 1);
    if (!strcmp(m, "pp5"))
        return cli_pp5(argc - 1, argv + 1);
    if (!strcmp(m, "mesa"))
        return cli_mesa(argc - 1, argv + 1);
    if (!strcmp(m, "view"))
        return cli_view(argc - 1, argv + 1);
    usage(stderr);
    return cli_usage_error("unknown machine '%s' (expected r500, pp5 or mesa)", m);
}
