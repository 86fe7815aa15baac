/* THE table of the lockstep command line: every machine, command and option,
 * and the exit statuses. Help, man pages (`lockstep help --man PAGE`), bash
 * completion (`lockstep help --completion`) and the conventions test
 * (tests/cli) are all generated from it.
 *
 * Adding a command (also docs/cli.md, "Adding a command"):
 *   1. Write `int cli_<machine>_<cmd>(cli_args *a)` in tools/cli_<machine>*.c
 *      and declare it in tools/cli.h. Read options with cli_get(a, "name")
 *      (last value, NULL if absent), cli_flag(), cli_opt_long(),
 *      cli_opt_size(), or loop over a->ov[0..nov) for repeated options (in
 *      command-line order); operands are a->ops[0..nops). Read inputs with
 *      cli_read() ('-' = stdin), write with cli_write() ('-' = stdout),
 *      report with cli_report()/cli_err()/cli_usage()/cli_warn(), and return
 *      one of the exit statuses of cli_exit_table.
 *   2. Add an options array below (one row per option: long name, short
 *      letter or 0, metavariable or NULL for a flag, help line, default shown
 *      or NULL, "a|b" choices the parser enforces or NULL, flags: CLI_O_OUT
 *      for output files (checked before any work), CLI_O_STREAM if '-' is
 *      stdout, CLI_O_IN for inputs, CLI_O_REPEAT, CLI_O_HIDDEN + alias_of
 *      for a deprecated spelling).
 *   3. Add a row to the machine's command array: name, operand synopsis,
 *      summary, description, options, function, NULL, min/max operands,
 *      flags (CLI_C_IN: operands are input files), examples.
 * --help, -h and --version are added to every command by the parser; the
 * man page, completion and the conventions test pick the command up with no
 * further change. A command with sub-commands (`r500 vs asm`) has `subs`
 * instead of a function. */
#include "cli.h"
#include "lockstep/mesa_r300.h"

/* Exit statuses: one list for the code, the help, the man pages and docs. */
const cli_exit_info cli_exit_table[] = {
    {CLI_OK, CLI_OK, "ok", "success; for comparing commands, everything agreed"},
    {CLI_MISMATCH, CLI_MISMATCH, "mismatch",
     "a comparison found a difference (mesa check disagrees with llvmpipe, a piglit test fails)"},
    {CLI_USAGE, CLI_USAGE, "usage", "bad command line (unknown option, missing value, bad operand)"},
    {CLI_INPUT, CLI_INPUT, "bad-input",
     "an input could not be read, is malformed, out of range or not supported"},
    {CLI_FAULT, CLI_FAULT, "fault",
     "the emulated machine faulted (watchdog, bad register access, busy-write conflict)"},
    {CLI_OUTPUT, CLI_OUTPUT, "output", "an output file could not be written"},
    {CLI_UNAVAILABLE, CLI_UNAVAILABLE, "unavailable",
     "an outside component is missing or failed: the Mesa r300 shim, r300_dri.so, llvmpipe, "
     "the piglit package"},
    /* the outcome classes of mesa check/run/fuzz (include/lockstep/mesa_r300.h,
     * docs/mesa-fuzz.md) */
#define MESA_EXIT_ROW(e, name, status, meaning) {status, status, name, meaning},
    MESA_OUTCOME_LIST_OWN(MESA_EXIT_ROW)
#undef MESA_EXIT_ROW
    {CLI_INTERNAL, CLI_INTERNAL, "internal", "out of memory or an internal error (a bug)"},
    {126, 126, "cannot-execute",
     "mesa exec: the program was found but could not be started (otherwise mesa exec exits with "
     "the program's own status, 128 + N when signal N ended it)"},
    {127, 127, "not-found", "mesa exec: the program was not found"},
    {0, 0, NULL, NULL},
};

#define END {NULL, 0, NULL, NULL, NULL, NULL, 0, NULL}
#define LANES_CHOICES NULL

/* ---- r500 ------------------------------------------------------------------- */

static const cli_opt r500_run_opts[] = {
    {"size", 0, "WxH", "image size", "16x16, or the job's", NULL, 0, NULL},
    {"input", 0, "tN=uv|clip|none|a,b,c,d",
     "preload temp N per pixel: uv = ((x+.5)/W, (y+.5)/H, 0, 1),\n"
     "clip = (2(x+.5)/W-1, 2(y+.5)/H-1, 0, 1), or a constant; y counts from the bottom row",
     NULL, NULL, CLI_O_REPEAT, NULL},
    {"const", 0, "N=a,b,c,d", "constant N (0..255)", NULL, NULL, CLI_O_REPEAT, NULL},
    {"bool", 0, "N=0|1", "bit N of US_FC_BOOL_CONST", NULL, NULL, CLI_O_REPEAT, NULL},
    {"int", 0, "N=count,init,step", "US_FC_INT_CONST_N (KR, KG, KB)", NULL, NULL, CLI_O_REPEAT, NULL},
    {"tex", 0, "N=FILE[@WxH][,filter][,wrap]",
     "texture N: a PNG, or raw float32 RGBA as FILE@WxH; add ,nearest ,bilinear\n"
     ",repeat ,clamp for the sampler",
     NULL, NULL, CLI_O_REPEAT, NULL},
    {"lanes", 0, "N|quad|r520|rv530|r580", "pixels per thread, 1..64", "48 = RV530", NULL, 0, NULL},
    {"thread", 0, "N", "deprecated spelling of --lanes", NULL, NULL, CLI_O_HIDDEN, "lanes"},
    {"model", 0, "NAME=VALUE", "a model option (docs/assumptions.md)", NULL, NULL, CLI_O_REPEAT, NULL},
    {"clear", 0, "r,g,b,a", "colour of killed pixels", "0,0,0,0", NULL, 0, NULL},
    {"max-instructions", 0, "N",
     "stop the whole run (a fault) when it would issue more than N instructions over all threads",
     "0 = no limit", NULL, 0, NULL},
    {"timeout", 0, "SECONDS", "stop the whole run (a fault) after this wall-clock time", "0 = none",
     NULL, 0, NULL},
    {"engine", 0, "auto|interp|jit",
     "which engine runs the job (same bits; jit: only when built with LLVM; auto: jit from "
     "1024x1024 pixels when built with it, docs/r500-jit.md)",
     "auto", "auto|interp|jit", 0, NULL},
    {"output", 'o', "FILE.png", "render target 0 as an 8-bit PNG ('-' = stdout)", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"raw", 0, "FILE", "render target 0 as float32 RGBA, bottom row first ('-' = stdout)", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"work", 0, "FILE.png", "instructions per pixel (while active), log-scale heat map", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"stats", 0, "FILE.json", "instruction counts, FC jumps, SIMD efficiency, per thread", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"trace", 0, "FILE.json", "per instruction and thread: PC, masks, FC stacks", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"trace-writes", 0, NULL,
     "the trace also gives, after each ALU/TEX instruction, the temp channels it wrote with\n"
     "every lane's value",
     NULL, NULL, 0, NULL},
    {"record", 0, "FILE.lsr", "a recording of every issued instruction for `lockstep view` (docs/viewer.md)", NULL, NULL,
     CLI_O_OUT, NULL},
    {"record-values", 0, "all|none|X,Y,W,H", "whose register values --record keeps: every thread, none, or the threads covering a pixel of the rectangle (the others: control flow, inputs, final outputs)",
     "all up to 64x64 pixels, else the 32x32 at the centre", NULL, 0, NULL},
    {"workers", 'j', "N", "host threads", "one per core", NULL, 0, NULL},
    {"threads", 0, "N", "deprecated spelling of --workers", NULL, NULL, CLI_O_HIDDEN, "workers"},
    {"quiet", 'q', NULL, "no summary on stderr", NULL, NULL, 0, NULL},
    END,
};

static const cli_opt r500_asm_opts[] = {
    {"output", 'o', "FILE",
     "output: little-endian dwords (.bin), or with --hex hex text ('-' = stdout;\n"
     "binary is not written to a terminal)",
     "-", NULL, CLI_O_OUT | CLI_O_STREAM, NULL},
    {"hex", 0, NULL, "hex text (0x%08x, one dword per line, a blank line between instructions)", NULL,
     NULL, 0, NULL},
    END,
};

static const cli_opt r500_dis_opts[] = {
    {"fields", 0, NULL, "print every field of every instruction by name", NULL, NULL, 0, NULL},
    {"output", 'o', "FILE", "where the listing goes", "- (stdout)", NULL, CLI_O_OUT | CLI_O_STREAM,
     NULL},
    END,
};

/* r500 vs: the vertex engine (PVS), docs/r500-vs.md */
static const cli_opt r500_vs_asm_opts[] = {
    {"output", 'o', "FILE",
     "little-endian dwords, or with --hex one instruction of 4 hex dwords a line ('-' = stdout;\n"
     "binary is not written to a terminal)",
     "-", NULL, CLI_O_OUT | CLI_O_STREAM, NULL},
    {"hex", 0, NULL, "hex text, as buhman/r500's drm/*.vs.inc", NULL, NULL, 0, NULL},
    END,
};

static const cli_opt r500_vs_dis_opts[] = {
    {"fields", 0, NULL, "print every field of every instruction by name", NULL, NULL, 0, NULL},
    {"output", 'o', "FILE", "where the listing goes", "- (stdout)", NULL, CLI_O_OUT | CLI_O_STREAM,
     NULL},
    END,
};

static const cli_opt r500_vs_run_opts[] = {
    {"input", 0, "iN=x[,y[,z[,w]]]", "input register N (missing channels are 0)", NULL, NULL,
     CLI_O_REPEAT, NULL},
    {"const", 0, "cN=x[,y[,z[,w]]]", "constant N (0..255)", NULL, NULL, CLI_O_REPEAT, NULL},
    {"first", 0, "N", "PVS_FIRST_INST", "0", NULL, 0, NULL},
    {"last", 0, "N", "PVS_LAST_INST", "the last instruction", NULL, 0, NULL},
    {"reg", 0, "NAME=VALUE",
     "VAP_PVS_CODE_CNTL_0 (first/last), VAP_PVS_FLOW_CNTL_OPC, VAP_PVS_FLOW_CNTL_ADDRS_LW_n, "
     "_ADDRS_UW_n, _LOOP_INDEX_n (n 0..15)",
     NULL, NULL, CLI_O_REPEAT, NULL},
    {"model", 0, "NAME=VALUE",
     "vs-sincos-range, vs-ff-inf, vs-me-b, vs-zero-times-anything, vs-minmax-nan, vs-temps, "
     "vs-alt-temps, vs-inputs, vs-outputs, vs-fc-depth, vs-watchdog, rcp-zero, rsq-negative, ln2-zero, clamp-nan, mad "
     "(docs/assumptions.md)",
     NULL, NULL, CLI_O_REPEAT, NULL},
    END,
};

static const cli_cmd r500_vs_cmds[] = {
    {"asm", "IN.vs.asm", "assemble a vertex program",
     "Assembles buhman/r500's vertex syntax (docs/r500-vs.md) into 4-dword instructions. An empty "
     "program is an error.",
     r500_vs_asm_opts, cli_r500_vs_asm, NULL, 1, 1, CLI_C_IN,
     "lockstep r500 vs asm examples/r500/transform.vs.asm --hex"},
    {"dis", "PROGRAM", "disassemble a vertex program",
     "Prints .bin, hex text or .vs.asm as source that assembles back to the same words.",
     r500_vs_dis_opts, cli_r500_vs_dis, NULL, 1, 1, CLI_C_IN, NULL},
    {"run", "PROGRAM", "run one vertex",
     "Runs the program on one vertex and prints every output register it wrote (stdout).",
     r500_vs_run_opts, cli_r500_vs_run, NULL, 1, 1, CLI_C_IN,
     "lockstep r500 vs run examples/r500/transform.vs.asm --input i0=1,2,3,1 --const c0=1,0,0,0"},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL},
};

/* r500 draw: the stream executor's front half (docs/mesa.md, "Draws") */
static const cli_opt r500_draw_opts[] = {
    {"output", 'o', "FILE.png",
     "the frame as an 8-bit PNG ('-' = stdout); with --vertices, where the JSON goes", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"raw", 0, "FILE", "the frame as float32 RGBA, row 0 = window y 0 ('-' = stdout)", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"stats", 0, "FILE.json",
     "draws, vertices, primitives, pixels, killed, faults, unknown registers by name", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"vertices", 0, NULL, "print each draw's post-transform vertices as JSON instead", NULL, NULL,
     0, NULL},
    {"buffers-out", 0, "DIR",
     "also write every buffer object of the submission as the draws left it, as "
     "DIR/cs_NNNN.after_K (K = relocation; the live device's --capture writes the same files)",
     NULL, NULL, CLI_O_DIR, NULL},
    {"cs", 0, "N", "which cs_NNNN.ib of the capture (0..9999)", "0", NULL, 0, NULL},
    {"size", 0, "WxH", "the colour buffer's size", "SC_SCISSOR1 + 1 (the largest over the draws)",
     NULL, 0, NULL},
    {"model", 0, "NAME=VALUE",
     "raster-subpixel, clip-z, interp-position, color-interp, point-minmax, face-sign, "
     "point-stuff, poly-offset (docs/assumptions.md)", NULL, NULL,
     CLI_O_REPEAT, NULL},
    {"workers", 'j', "N", "host threads for the fragment runs", "one per core", NULL, 0, NULL},
    {"engine", 0, "auto|interp|jit",
     "which engine runs the vertex and the fragment programs (same bits; jit: only when built "
     "with LLVM; auto: the interpreter for vertices, the JIT for fragment runs of 1024x1024 "
     "pixels or more when built with it; docs/r500-jit.md)",
     "auto", "auto|interp|jit", 0, NULL},
    {"quiet", 'q', NULL, "no summary on stderr", NULL, NULL, 0, NULL},
    END,
};

#define R500_PROGRAM_FORMS                                                                        \
    "PROGRAM is .bin (little-endian dwords), hex-dword text (.inc, .txt; 'cN:' lines are "        \
    "constants), assembly (.fs.asm, docs/r500-asm.md) or a JSON job (the corpus program.json as " \
    "it is; docs/assumptions.md, R500 jobs); '-' reads it from stdin."

static const cli_cmd r500_cmds[] = {
    {"run", "PROGRAM", "run a fragment program over an image",
     "Runs the program once per pixel, in threads of --lanes pixels that share one program "
     "counter, and writes what was asked. " R500_PROGRAM_FORMS,
     r500_run_opts, cli_r500_run, NULL, 1, 1, CLI_C_IN,
     "lockstep r500 run examples/r500/mandelbrot.inc --size 64x48 --input t0=uv -o m.png"},
    {"asm", "IN.fs.asm", "assemble fragment-program source",
     "Assembles the language of docs/r500-asm.md into instruction words. An empty program is an "
     "error.",
     r500_asm_opts, cli_r500_asm, NULL, 1, 1, CLI_C_IN,
     "lockstep r500 asm examples/r500/gradient.fs.asm -o gradient.bin"},
    {"dis", "PROGRAM", "disassemble a fragment program",
     "Prints source that `lockstep r500 asm` turns back into the same words, with the program's "
     "constants and flow-control state as directives. " R500_PROGRAM_FORMS,
     r500_dis_opts, cli_r500_dis, NULL, 1, 1, CLI_C_IN, NULL},
    {"draw", "CAPTURE_DIR", "execute a captured command stream's draws into a frame",
     "Walks every packet of cs_NNNN.ib in a capture directory (made with LOCKSTEP_SHIM_BOS=1, so "
     "the buffers are saved as cs_NNNN.bo_K), keeping every register; each draw goes through "
     "vertex fetch, the vertex program (or PVS bypass), clipping, set-up, scan conversion, RS "
     "interpolation and its fragment program into one colour buffer (target 0 stored as it is: "
     "no blending, no depth yet). --vertices prints the transformed vertices instead. A draw "
     "that stops is reported with its packet and dword and sets the exit status; the others "
     "still run.",
     r500_draw_opts, cli_r500_draw, NULL, 1, 1, 0,
     "lockstep r500 draw CAPTURE -o frame.png --stats stats.json"},
    {"vs", NULL, "the R500 vertex engine (PVS): asm, dis, run",
     "The programmable vertex shader of the R500 (4 dwords per instruction), in buhman/r500's "
     "vertex syntax (docs/r500-vs.md).",
     NULL, NULL, r500_vs_cmds, 0, 0, 0, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL},
};

/* ---- pp5 ---------------------------------------------------------------------- */

static const cli_opt pp5_asm_opts[] = {
    {"output", 'o', "FILE", "where the output goes", "- (stdout)", NULL, CLI_O_OUT | CLI_O_STREAM, NULL},
    END,
};

static const cli_opt pp5_run_opts[] = {
    {"microcode", 'm', "FILE", "IGC microcode: hex words (.hex) or assembly (.pp5m)", NULL, NULL,
     CLI_O_IN, NULL},
    {"cycles", 0, "N", "stop after N clocks (1..100000000)", "until the stream ends", NULL, 0, NULL},
    {"vcd", 0, "FILE.vcd", "every named signal, clock by clock ('-' = stdout)", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"trace", 0, "FILE", "one text line per clock with the signals that are set ('-' = stdout)", NULL,
     NULL, CLI_O_OUT | CLI_O_STREAM, NULL},
    {"wave", 0, "FROM:TO", "ASCII timing diagram of clocks FROM..TO (at most 200) on stdout", NULL,
     NULL, 0, NULL},
    {"lenient", 0, NULL, "a write while Busy: the last write wins (default: an error)", NULL, NULL, 0,
     NULL},
    {"msb-token", 0, NULL, "when the Serializer sends the MSB token (A-18)", "mbi", "mbi|always", 0, NULL},
    {"rmode-shift", 0, NULL, "which RMode shift source applies (docs/assumptions.md)", "table",
     "text|table", 0, NULL},
    {"engine", 0, NULL, "which IGC step clocks the machine: the readable model or the fast path (same results)", "fast", "model|fast", 0, NULL},
    {"quiet", 'q', NULL, "no summary on stderr", NULL, NULL, 0, NULL},
    END,
};

static const cli_opt pp5_ser_opts[] = {
    {"fbits", 0, "F", "fraction bits, 0..30", NULL, NULL, 0, NULL},
    {"mode", 0, NULL, "which coefficients are sent", NULL, "const|linear|quad", 0, NULL},
    {"fni", 0, "K", "FNI, -115..140 (the field FNI + 115 is 8 bits)", NULL, NULL, 0, NULL},
    {"mbi", 0, NULL, "MBI set", NULL, NULL, 0, NULL},
    {"trren", 0, NULL, "TRREN set", NULL, NULL, 0, NULL},
    {"json", 0, NULL, "JSON on stdout instead of the table", NULL, NULL, 0, NULL},
    END,
};

static const cli_opt pp5_render_opts[] = {
    {"output", 'o', "FILE.png", "the frame ('-' = stdout)", NULL, NULL, CLI_O_OUT | CLI_O_STREAM, NULL},
    {"raw", 0, "FILE", "the frame as raw RGB8, bottom row first ('-' = stdout)", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"vcd", 0, "FILE.vcd", "IGC signals and the EMC state at the probe pixel ('-' = stdout)", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"probe", 0, "X,Y", "the pixel --vcd shows (array pixel, 0-based)", "the centre", NULL, 0, NULL},
    {"stats", 0, "FILE.json", "clocks per primitive, totals ('-' = stdout)", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"chips", 0, "CXxCY", "EMC chips across and down (1..256 each)", "8x8", NULL, 0, NULL},
    {"tile", 0, "WxH", "pixels per EMC chip", "16x16", NULL, 0, NULL},
    {"origins", 0, NULL, "chip origin bits (A-14)", "full", "full|tile", 0, NULL},
    {"record", 0, "FILE.lsr", "a recording of every clock for `lockstep view` (docs/viewer.md)", NULL, NULL,
     CLI_O_OUT, NULL},
    {"engine", 0, NULL, "model: the IGC model and the reference EMC array; fast: the accelerators (same picture)", "fast", "model|fast", 0, NULL},
    {"quiet", 'q', NULL, "no summary on stderr", NULL, NULL, 0, NULL},
    END,
};

static const cli_cmd pp5_cmds[] = {
    {"asm", "FILE.pp5m", "assemble IGC microcode",
     "Assembles IGC microcode source (docs/pp5.md) into hex words. An empty program is an error.",
     pp5_asm_opts, cli_pp5_asm, NULL, 1, 1, CLI_C_IN, "lockstep pp5 asm examples/pp5/edge.pp5m"},
    {"dis", "FILE.hex", "disassemble IGC microcode",
     "Prints the microcode words of a hex file as source `lockstep pp5 asm` reads.", pp5_asm_opts,
     cli_pp5_dis, NULL, 1, 1, CLI_C_IN, NULL},
    {"run", "STREAM", "run the IGC cycle by cycle on a host stream",
     "Runs the Image Generation Controller on a host stream (docs/pp5.md) with the given "
     "microcode; a summary goes to stderr.",
     pp5_run_opts, cli_pp5_run, NULL, 1, 1, CLI_C_IN,
     "lockstep pp5 run examples/pp5/edge.stream --microcode examples/pp5/edge.pp5m --vcd edge.vcd"},
    {"serialize", "A B C D E F", "the bit streams the Serializer sends",
     "Prints, for the six coefficients, the serial bit streams and TRR tokens of the "
     "Serializer (docs/pp5.md). Coefficients must be finite floats; negative ones may follow '--'.",
     pp5_ser_opts, cli_pp5_serialize, NULL, 6, 6, 0,
     "lockstep pp5 serialize --fbits 4 --mode linear --fni 9 -- 1 -2.5 3 0 0 0"},
    {"render", "SCENE", "render a scene on the IGC and the EMC array",
     "Renders the triangles and discs of a scene (docs/pp5-render.md); a summary goes to stderr.",
     pp5_render_opts, cli_pp5_render, NULL, 1, 1, CLI_C_IN,
     "lockstep pp5 render examples/pp5/demo.scene -o demo.png"},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL},
};

/* ---- mesa ------------------------------------------------------------------- */

#define CHIP_HELP "the R500 the shim reports: rv515, r520, rv530, r580 or a PCI id 0x7100..0x72ff"

static const cli_opt mesa_decode_opts[] = {
    {"draw", 0, "N", "the draw to decode", "the last", NULL, 0, NULL},
    {"all", 0, NULL, "every draw, as a JSON list", NULL, NULL, 0, NULL},
    {"output", 'o', "JOB.json", "where the job goes", "- (stdout)", NULL, CLI_O_OUT | CLI_O_STREAM, NULL},
    END,
};

#define MESA_DRIVERS_OPT                                                                          \
    {"mesa-drivers", 0, "DIR",                                                                    \
     "the r300_dri.so to test: DIR/r300_dri.so (llvmpipe stays the system's)",                    \
     "$LIBGL_DRIVERS_PATH, else the system's", NULL, CLI_O_DIR, NULL}

#define MESA_COMMON_OPTS                                                                          \
    {"vert", 0, "VS", "vertex shader (default: a pass-through with a uv varying)", NULL, NULL,    \
     CLI_O_IN, NULL},                                                                              \
    {"uniform", 0, "NAME=V[,V...]", "a uniform's value", NULL, NULL, CLI_O_REPEAT, NULL},       \
    {"size", 0, "WxH", "image size", "16x16", NULL, 0, NULL},                                    \
    {"chip", 0, "CHIP", CHIP_HELP, "rv530", NULL, 0, NULL},                                       \
    {"workers", 'j', "N", "host threads (lockstep and llvmpipe)", "one per core", NULL, 0, NULL}, \
    MESA_DRIVERS_OPT,                                                                              \
    {"threads", 0, "N", "deprecated spelling of --workers", NULL, NULL, CLI_O_HIDDEN, "workers"}

#define MESA_LIMIT_OPTS                                                                           \
    {"max-instructions", 0, "N", "stop lockstep's run (a fault) beyond N instructions", "0 = no limit", \
     NULL, 0, NULL},                                                                                \
    {"timeout", 0, "SECONDS", "stop lockstep's run (a fault) after this time", "0 = none", NULL, 0, NULL}

/* the scene options of mesa run|check (docs/mesa.md "Scenes"): given to the
 * GL program's every run */
#define MESA_SCENE_OPTS                                                                           \
    {"texture", 0, "SAMPLER=SOURCE",                                                              \
     "a texture for the sampler uniform SAMPLER (units 0.. in order): a PNG file, checker or "    \
     "rgbw; ',nearest' and ',clamp' change the linear filter and the repeat wrap",                \
     NULL, NULL, CLI_O_REPEAT, NULL},                                                             \
    {"mesh", 0, "FILE", "draw FILE's triangles ([vertex data] rows: NAME/float/N columns bound "   \
     "to the attributes of those names) instead of the quad; one draw per --mesh, in order",      \
     NULL, NULL, CLI_O_REPEAT, NULL},                                                             \
    {"depth", 0, NULL, "a 24-bit depth buffer cleared to 1, depth test GL_LESS", NULL, NULL, 0,    \
     NULL},                                                                                        \
    {"blend", 0, "SRC,DST", "blend with these glBlendFunc factors (zero, one, src_color, "        \
     "src_alpha, dst_color, dst_alpha, their one_minus_ forms, src_alpha_saturate)",              \
     NULL, NULL, 0, NULL},                                                                        \
    {"clear", 0, "R,G,B,A", "the clear colour", "0,0,0,0", NULL, 0, NULL},                         \
    {"rgba8", 0, NULL, "an RGBA8 colour buffer in both runs, as applications use (default: "      \
     "RGBA32F, exact shader outputs)", NULL, NULL, 0, NULL},                                      \
    {"capture", 0, "DIR", "keep r300's capture (streams, buffer objects, log) in DIR, new or "     \
     "empty, for `lockstep r500 draw DIR`", NULL, NULL, CLI_O_DIR, NULL}

static const cli_opt mesa_run_opts[] = {
    MESA_COMMON_OPTS,
    MESA_SCENE_OPTS,
    MESA_LIMIT_OPTS,
    {"output", 'o', "FILE.png", "the image ('-' = stdout)", NULL, NULL, CLI_O_OUT | CLI_O_STREAM, NULL},
    {"stats", 0, "FILE.json", "lockstep's statistics (as r500 run --stats)", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"trace", 0, "FILE.json", "lockstep's trace (as r500 run --trace)", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"quiet", 'q', NULL, "no summary on stderr", NULL, NULL, 0, NULL},
    END,
};

static const cli_opt mesa_check_opts[] = {
    MESA_COMMON_OPTS,
    MESA_SCENE_OPTS,
    MESA_LIMIT_OPTS,
    {"tolerance", 0, "T", "largest |difference| per channel that agrees", "1e-3", NULL, 0, NULL},
    {"output", 'o', "FILE.png",
     "also write lockstep's image, and the difference as FILE.png.diff.png", NULL, NULL, CLI_O_OUT, NULL},
    {"reference", 0, "FILE.png", "also write llvmpipe's image", NULL, NULL, CLI_O_OUT, NULL},
    {"stats", 0, "FILE.json", "lockstep's statistics", NULL, NULL, CLI_O_OUT | CLI_O_STREAM, NULL},
    {"trace", 0, "FILE.json", "lockstep's trace", NULL, NULL, CLI_O_OUT | CLI_O_STREAM, NULL},
    {"quiet", 'q', NULL, "no summary on stderr", NULL, NULL, 0, NULL},
    END,
};

static const cli_opt mesa_bench_opts[] = {
    MESA_COMMON_OPTS,
    {"reps", 0, "N", "time the mean of N runs of each side (1..1000)", "5", NULL, 0, NULL},
    {"engine", 0, "auto|interp|jit",
     "lockstep's engine (auto: jit from 1024x1024 pixels when built with it; docs/r500-jit.md)",
     "auto", "auto|interp|jit", 0, NULL},
    END,
};

/* the live device's model options (mesa_device_model_set) */
#define MESA_DEVICE_MODEL_OPT(pre)                                                                 \
    {"model", 0, "NAME=VALUE",                                                                     \
     pre "a model option of the geometry blocks, texture units or render backend "                \
         "(raster-subpixel, poly-offset, tx-mip-round, rb-dst-missing, ...; docs/assumptions.md)", \
     NULL, NULL, CLI_O_REPEAT, NULL}
static const cli_opt mesa_piglit_opts[] = {
    {"cache", 0, "DIR", "where the piglit package and its tests are kept",
     "$LOCKSTEP_PIGLIT_CACHE, else ~/.cache/lockstep/piglit", NULL, CLI_O_DIR, NULL},
    {"chip", 0, "CHIP", CHIP_HELP, "rv530", NULL, 0, NULL},
    {"llvmpipe", 0, NULL,
     "also evaluate the probes on llvmpipe's image (triage column); with --profile: run the list on "
     "llvmpipe instead (the reference run, platform surfaceless_egl)",
     NULL, NULL, 0, NULL},
    {"keep", 0, "DIR",
     "move the captures of failing tests (logs, streams) to DIR; without it a failure whose "
     "reason cites its r300.log keeps that capture where it is",
     NULL, NULL, CLI_O_DIR, NULL},
    {"no-keep", 0, NULL, "delete even the captures a failure's reason cites", NULL, NULL, 0, NULL},
    {"json", 0, "FILE", "the results in piglit's results.json format ('-' = stdout)", NULL, NULL,
     CLI_O_OUT | CLI_O_STREAM, NULL},
    {"list", 0, NULL, "list the selected tests, run nothing", NULL, NULL, 0, NULL},
    {"workers", 'j', "N", "tests run at a time (forked workers; output stays in order; with --profile, piglit "
     "run -j), 1..64", "1; with --profile one per core", NULL, 0, NULL},
    MESA_DRIVERS_OPT,
    {"profile", 0, "PROFILE",
     "run piglit's own runner (piglit run PROFILE: quick_gl, gpu, sanity, ... or a profile file) on the "
     "virtual R500 under `mesa exec`; FILTERs are then piglit's -t regular expressions",
     NULL, NULL, 0, NULL},
    {"results", 0, "DIR",
     "with --profile: piglit's results directory (results.json for piglit summary; also statuses.csv, "
     "failures.csv); new, empty or a previous run's",
     NULL, NULL, CLI_O_DIR, NULL},
    {"fails", 0, "FILE",
     "with --profile: expected failures, TEST,STATUS lines (Fail, Crash, Timeout, ...; a failures.csv)",
     NULL, NULL, CLI_O_REPEAT | CLI_O_IN, NULL},
    {"flakes", 0, "FILE",
     "with --profile: regular expressions (one a line) of tests whose unexpected result is a Flake, not a "
     "failure",
     NULL, NULL, CLI_O_REPEAT | CLI_O_IN, NULL},
    {"skips", 0, "FILE", "with --profile: regular expressions (one a line) of tests not to run (Skip)", NULL,
     NULL, CLI_O_REPEAT | CLI_O_IN, NULL},
    {"baseline", 0, "FILE",
     "with --profile: a previous run's statuses.csv: its statuses are expected, and only the tests whose "
     "status changed are listed",
     NULL, NULL, CLI_O_IN, NULL},
    {"fraction", 0, "N", "with --profile: run every Nth test of the list (a shard)", "1", NULL, 0, NULL},
    {"fraction-start", 0, "K", "with --profile: the shard's first test, counting from 1", "1", NULL, 0, NULL},
    {"timeout", 0, "SECONDS", "with --profile: piglit's per-test timeout", "none", NULL, 0, NULL},
    {"platform", 0, "gbm|surfaceless_egl",
     "with --profile: piglit's window system (surfaceless_egl has no windows: tests without -fbo abort)",
     "gbm", "gbm|surfaceless_egl", 0, NULL},
    MESA_DEVICE_MODEL_OPT("with --profile: "),
    END,
};

static const cli_opt mesa_exec_opts[] = {
    {"chip", 0, "CHIP", CHIP_HELP, "rv530", NULL, 0, NULL},
    {"capture", 0, "DIR",
     "also record every submitted stream and the buffers it names in DIR (cs_NNNN.ib, .relocs, "
     ".flags, .bo_K: docs/mesa.md \"Capture directory\")",
     NULL, NULL, CLI_O_DIR, NULL},
    {"capture-only", 0, NULL,
     "record only (with --capture): no checking, no execution, every submission succeeds", NULL,
     NULL, 0, NULL},
    {"watchdog", 0, "N",
     "instructions a vertex or a fragment thread may issue before its draw is a GPU hang (the "
     "submission's buffers stay busy; the next wait fails with EAGAIN); default 16777216 for "
     "a vertex, 1048576 for a fragment thread",
     NULL, NULL, 0, NULL},
    {"engine", 0, "auto|interp|jit",
     "which engine runs the vertex and the fragment programs of every draw (same bits; jit: only "
     "when built with LLVM; auto: the interpreter for vertices, the JIT for fragment runs of "
     "1024x1024 pixels or more when built with it; docs/r500-jit.md; LOCKSTEP_SHIM_TRACE=1 adds "
     "the JIT's counts at exit)",
     "auto", "auto|interp|jit", 0, NULL},
    {"mode", 0, "WxH",
     "the display's one mode (its connector on /dev/dri/card0, for KMS clients such as kmscube)",
     "320x240", NULL, 0, NULL},
    {"scanout", 0, "DIR",
     "write every frame the display scans out (mode set, page flip) as DIR/frame_NNNN.png", NULL, NULL,
     CLI_O_DIR, NULL},
    MESA_DEVICE_MODEL_OPT(""),
    END,
};
#define MESA_OUTCOME_NAME(e, name, status, meaning) "|" name
static const cli_opt mesa_fuzz_opts[] = {
    {"seed", 0, "S", "campaign seed: shader i's generator seed depends on S and i only", "1", NULL, 0,
     NULL},
    {"count", 0, "N", "shaders to run (1..100000000)", "100", NULL, 0, NULL},
    {"time", 0, "SECONDS", "run shaders until this time has passed (instead of --count)", NULL, NULL,
     0, NULL},
    {"workers", 'j', "N", "shaders at a time (host threads; the log stays in order), 1..64", "1", NULL,
     0, NULL},
    {"out", 0, "DIR",
     "the campaign directory: log.txt, summary.json, findings/INDEX/ per shader that did not agree",
     "nothing written", NULL, CLI_O_DIR, NULL},
    {"size", 0, "WxH", "image size (at most 256x256)", "16x16", NULL, 0, NULL},
    {"chip", 0, "CHIP", CHIP_HELP, "rv530", NULL, 0, NULL},
    {"tolerance", 0, "T", "largest |lockstep - llvmpipe| / (1 + |llvmpipe|) that agrees", "1e-3", NULL,
     0, NULL},
    MESA_DRIVERS_OPT,
    {"triage", 0, "DIR",
     "sort the disagreements of campaign DIR: RADEON_DEBUG=noopt agrees, agrees without its\n"
     "discards, or neither (DIR/triage.json)",
     NULL, NULL, CLI_O_DIR, NULL},
    {"reduce", 0, "DIR",
     "reduce the findings of campaign DIR to minimal shaders with their reports\n"
     "(findings/INDEX/min.*, report.json; DIR/findings-summary.txt)",
     NULL, NULL, CLI_O_DIR, NULL},
    {"limit", 0, "N", "with --reduce: reduce at most N new findings", "all", NULL, 0, NULL},
    {"max-tries", 0, "N", "with --reduce: predicate calls per finding (1..1000000)", "3000", NULL, 0,
     NULL},
    {"all-classes", 0, NULL,
     "with --reduce: also r300 compile errors, r300 crashes and lockstep faults", NULL, NULL, 0, NULL},
    {"class", 0, "CLASS", "with --reduce: only the findings of this class", NULL,
     &(MESA_OUTCOME_LIST(MESA_OUTCOME_NAME))[1], 0, NULL},
    {"print", 0, "SEED", "print the shader a generator seed gives (and its uniforms) and stop", NULL,
     NULL, 0, NULL},
    {"quiet", 'q', NULL, "no summary on stderr", NULL, NULL, 0, NULL},
    END,
};
#undef MESA_OUTCOME_NAME

#define MESA_RUN_DESC                                                                              \
    "Compiles the shader with Mesa's r300 driver under the fake-device shim (docs/mesa.md), "     \
    "decodes the command stream it submits and runs the fragment program on lockstep. The "       \
    "uniforms the shader declares and --uniform does not set are named in a warning (they read 0)."

static const cli_cmd mesa_cmds[] = {
    {"decode", "CS.ib", "turn a captured command stream into R500 jobs",
     "Decodes a captured radeon command stream (little-endian dwords): every draw becomes an R500 "
     "job in the corpus's program.json format, which `lockstep r500 run JOB.json` runs.",
     mesa_decode_opts, cli_mesa_decode, NULL, 1, 1, CLI_C_IN, NULL},
    {"run", "SHADER.frag", "compile with Mesa's r300 and run on lockstep", MESA_RUN_DESC,
     mesa_run_opts, cli_mesa_run, NULL, 1, 1, 0,
     "lockstep mesa run shader.frag --size 64x64 -o out.png"},
    {"check", "SHADER.frag", "compare lockstep with llvmpipe per pixel",
     MESA_RUN_DESC " llvmpipe draws the same shader; the exit status is the outcome class "
     "(docs/mesa-fuzz.md): every pixel agrees within --tolerance (0), some pixel differs (1), "
     "r300 drew its dummy shader after a compiler error (10), the GL program crashed under "
     "r300 (11), Mesa's GLSL front end refused the shader (12), lockstep threads faulted (13). "
     "The images are optional outputs.",
     mesa_check_opts, cli_mesa_check, NULL, 1, 1, 0, "lockstep mesa check shader.frag --size 32x32"},
    {"bench", "SHADER.frag", "time lockstep against llvmpipe",
     "Times lockstep's run of the r300 program and llvmpipe's draw at the same size; the timings "
     "go to stdout.",
     mesa_bench_opts, cli_mesa_bench, NULL, 1, 1, 0, NULL},
    {"piglit", "[FILTER|FILE.shader_test]...", "run piglit's GLSL execution tests",
     "Runs piglit's GLSL 1.10/1.20 execution shader_tests (Debian's piglit package, downloaded "
     "once into the cache) through r300 and lockstep, checking each test's probes. A FILTER "
     "selects the tests whose name contains it; a FILE.shader_test runs that file. One result "
     "line per test goes to stdout, the summary and progress to stderr; the exit status is 1 if "
     "a test fails. With --profile it is a thin layer over piglit's own runner: `piglit run` on the "
     "virtual R500 (under `mesa exec`) writes piglit's results into --results DIR; each test's status "
     "is set against --fails/--flakes/--baseline as Mesa CI's deqp-runner does, the tests that are not "
     "a success are listed on stdout (with --baseline: those that changed), and the exit status is 1 "
     "if one is not.",
     mesa_piglit_opts, cli_mesa_piglit, NULL, 0, -1, 0,
     "lockstep mesa piglit --profile quick_gl --results out --fraction 50 glsl-1.10"},
    {"exec", "-- PROGRAM [ARG...]", "run a program on the virtual R500",
     "Runs PROGRAM with Mesa's r300 driver on lockstep's virtual R500 (docs/mesa.md, \"The live "
     "device\"): the fake-device shim is preloaded, every command stream the program submits is "
     "checked as the radeon kernel checks it (a refused one fails with the kernel's errno and a "
     "log line naming the packet and register) and then executed by lockstep; a draw past the "
     "watchdog is a GPU hang. EGL's default platform is surfaceless and piglit's is "
     "surfaceless_egl unless EGL_PLATFORM / PIGLIT_PLATFORM are set (PIGLIT_PLATFORM=gbm works "
     "too: WAFFLE_GBM_DEVICE names the fake render node). The shim's temporary files "
     "are removed when the program ends. Put -- before PROGRAM when its arguments start with '-'. "
     "The exit status is the program's (128 + N if signal N ended it); 126 or 127 if it could "
     "not be started; 2 and 6 (usage, no shim) before it starts.",
     mesa_exec_opts, cli_mesa_exec, NULL, 1, -1, 0,
     "lockstep mesa exec -- shader_runner test.shader_test -auto -fbo"},
    {"fuzz", NULL, "find r300 compiler bugs with random shaders",
     "Generates random GLSL 1.10 fragment shaders (seeded, deterministic), keeps those whose "
     "result no float rounding can flip (the float guard), compiles them with Mesa's r300 under "
     "the fake-device shim, runs the emitted R500 program on lockstep and compares with llvmpipe "
     "(docs/mesa-fuzz.md). Every shader that does not agree is a finding: a line on stdout and, "
     "with --out, a directory with its shader, r300's log, the job and its disassembly. "
     "--triage and --reduce work on such a directory afterwards; --print shows one generator "
     "seed's shader. The summary goes to stderr; the exit status is 0 when every shader agreed, "
     "else that of the first class that occurred (disagree 1, then 10..14).",
     mesa_fuzz_opts, cli_mesa_fuzz, NULL, 0, 0, 0,
     "lockstep mesa fuzz --seed 7 --count 30 --out campaign"},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL},
};

static const cli_opt view_opts[] = {
    {"output", 'o', "FILE.html", "write one self-contained page (the recording embedded) and stop",
     NULL, NULL, CLI_O_OUT, NULL},
    {"port", 0, "N", "serve on 127.0.0.1:N", "a free port", NULL, 0, NULL},
    {"requests", 0, "N", "stop after N requests", "until interrupted", NULL, 0, NULL},
    {"no-open", 0, NULL, "do not start a browser (xdg-open)", NULL, NULL, 0, NULL},
    END,
};

/* ---- the root ------------------------------------------------------------------- */

static const cli_cmd machines[] = {
    {"r500", NULL, "the ATI R500 fragment shader unit",
     "A bit-exact model of the R500 (Radeon X1000) fragment shader unit: assembler, "
     "disassembler and an executor with SIMD threads, flow control and textures.",
     NULL, NULL, r500_cmds, 0, 0, 0, NULL},
    {"pp5", NULL, "Pixel-Planes 5: IGC and EMC array",
     "A clock-exact model of the Pixel-Planes 5 renderer: the Image Generation Controller's "
     "microcode, its Serializer, and the EMC pixel-processor array.",
     NULL, NULL, pp5_cmds, 0, 0, 0, NULL},
    {"mesa", NULL, "the Mesa r300 harness",
     "Runs Debian's Mesa r300 driver on a fake R500 (an LD_PRELOAD shim) and checks what it "
     "submits on lockstep, against llvmpipe and piglit.",
     NULL, NULL, mesa_cmds, 0, 0, 0, NULL},
    {"view", "RUN.lsr", "watch a recording in a browser",
     "Shows a recording (`pp5 render --record`, `r500 run --record`) in the viewer page "
     "(docs/viewer.md): served on 127.0.0.1 (the URL is printed), or with -o written as one "
     "self-contained HTML file. Nothing is loaded from the network.",
     view_opts, cli_view, NULL, 1, 1, CLI_C_IN, "lockstep view run.lsr -o view.html"},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL},
};

const cli_cmd cli_root = {
    "lockstep", NULL, "bit-exact emulators of the R500 fragment shader and Pixel-Planes 5",
    "lockstep models two graphics machines exactly, bit for bit and clock for clock. Each command "
    "is `lockstep MACHINE COMMAND [options] operands`; `lockstep MACHINE COMMAND --help` lists "
    "its options. Data goes to stdout (or to -o FILE); diagnostics, warnings, summaries and "
    "progress go to stderr. '-' names stdin for an input and stdout for a stream output; '--' "
    "ends the options.",
    NULL, NULL, machines, 0, 0, 0, NULL,
};
