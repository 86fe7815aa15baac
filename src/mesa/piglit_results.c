/* piglit's JSON results format (include/lockstep/mesa_piglit.h): what
 * piglit's own runner writes as results.json, so `piglit summary` and other
 * tools read lockstep's runs. The shape (a TestrunResult with
 * results_version 10, TestResult objects keyed by group@test names,
 * TimeAttribute start/end) follows piglit's framework/results.py; fields
 * lockstep has no value for (dmesg, pid, subtests) are empty. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/json.h"
#include "lockstep/mesa_piglit.h"

void piglit_result_name(const char *name, char *out, size_t n)
{
    if (!n)
        return;
    while (*name == '/' || (name[0] == '.' && name[1] == '/'))
        name += *name == '/' ? 1 : 2;
    size_t len = strlen(name);
    static const char ext[] = ".shader_test";
    bool file = len >= sizeof ext - 1 && !strcmp(name + len - (sizeof ext - 1), ext);
    if (file)
        len -= sizeof ext - 1;
    size_t k = 0;
    if (!file)
        k = (size_t)snprintf(out, n, "spec@");
    for (size_t i = 0; i < len && name[i] && k + 1 < n; i++) {
        char c = name[i];
        out[k++] = c == '/' ? '@' : (char)tolower((unsigned char)c);
    }
    out[k < n ? k : n - 1] = 0;
}

static void time_attr(ls_buf *b, double start, double end)
{
    ls_buf_puts(b, "{\"__type__\": \"TimeAttribute\", \"start\": ");
    ls_json_write_double(b, start);
    ls_buf_puts(b, ", \"end\": ");
    ls_json_write_double(b, end);
    ls_buf_putc(b, '}');
}

void piglit_results_write_json(const piglit_result *r, size_t n, const char *run_name,
                               double start, double end, ls_buf *b)
{
    ls_buf_puts(b, "{\n  \"__type__\": \"TestrunResult\",\n  \"results_version\": 10,\n"
                   "  \"name\": ");
    ls_json_write_string(b, run_name ? run_name : "lockstep");
    ls_buf_puts(b, ",\n  \"info\": {},\n  \"options\": {},\n  \"time_elapsed\": ");
    time_attr(b, start, end);
    ls_buf_puts(b, ",\n  \"tests\": {");
    for (size_t i = 0; i < n; i++) {
        char name[1024];
        piglit_result_name(r[i].name, name, sizeof name);
        ls_buf_puts(b, i ? ",\n    " : "\n    ");
        ls_json_write_string(b, name);
        ls_buf_puts(b, ": {\"__type__\": \"TestResult\", \"result\": ");
        ls_json_write_string(b, r[i].result);
        ls_buf_puts(b, ", \"out\": ");
        ls_json_write_string(b, r[i].out ? r[i].out : "");
        ls_buf_puts(b, ", \"err\": \"\", \"returncode\": 0, \"command\": ");
        ls_json_write_string(b, r[i].command ? r[i].command : "");
        ls_buf_puts(b, ", \"environment\": \"\", \"dmesg\": \"\", \"pid\": [], "
                       "\"exception\": null, \"traceback\": null, "
                       "\"subtests\": {\"__type__\": \"Subtests\"}, \"time\": ");
        time_attr(b, r[i].start, r[i].end);
        ls_buf_printf(b, ", \"lockstep\": {\"name\": ");
        ls_json_write_string(b, r[i].name);
        ls_buf_puts(b, ", \"skip_key\": ");
        ls_json_write_string(b, r[i].skip_key ? r[i].skip_key : "");
        ls_buf_printf(b, ", \"fc_instructions_issued\": %" PRIu64 ", \"llvmpipe\": %s}}",
                      r[i].fc_issued,
                      r[i].llvmpipe < 0    ? "null"
                      : r[i].llvmpipe == 2 ? "\"does not run\""
                      : r[i].llvmpipe      ? "\"pass\""
                                           : "\"fail\"");
    }
    ls_buf_puts(b, n ? "\n  }\n}\n" : "}\n}\n");
}
