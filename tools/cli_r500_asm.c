#include "cli.h"

int cli_r500_asm(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_usage_error("'%s' is not implemented yet", argv[0]);
}
