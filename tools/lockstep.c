/* lockstep — the command-line front end. The commands are the table in
 * cli_table.c; cli_args.c parses and dispatches; all printing happens in
 * tools/. */
#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
