/* `lockstep r500 ...`: dispatch only. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: lockstep r500 run|asm|dis|vs ...  (lockstep r500 <command> --help)\n");
}

int cli_r500(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *c = argv[1];
    if (!strcmp(c, "-h") || !strcmp(c, "--help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(c, "run"))
        return cli_r500_run(argc - 1, argv + 1);
    if (!strcmp(c, "asm"))
        return cli_r500_asm(argc - 1, argv + 1);
    if (!strcmp(c, "dis"))
        return cli_r500_dis(argc - 1, argv + 1);
    if (!strcmp(c, "vs"))
        return cli_r500_vs(argc - 1, argv + 1); /* tools/cli_r500_vs.c */
    if (!strcmp(c, "draw"))
        return cli_r500_draw(argc - 1, argv + 1); /* tools/cli_r500_draw.c */
    usage(stderr);
    return cli_usage_error("unknown r500 command '%s'", c);
}
