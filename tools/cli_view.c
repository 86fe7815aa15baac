/* `lockstep view run.lsr [-o view.html] [--port N] [--requests N] [--no-open]`:
 * the recording checked (ls_rec_check), embedded base64 in the viewer page
 * (web/, compiled in), written to a file or served on 127.0.0.1. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "cli.h"
#include "cli_view.h"
#include "lockstep/record.h"

extern const char cli_web_html[], cli_web_css[], cli_web_js[];

static void base64(ls_buf *b, const uint8_t *p, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char q[4];
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        q[0] = t[v >> 18];
        q[1] = t[(v >> 12) & 63];
        q[2] = i + 1 < n ? t[(v >> 6) & 63] : '=';
        q[3] = i + 2 < n ? t[v & 63] : '=';
        ls_buf_append(b, q, 4);
    }
}

/* rec gzip-compressed (RFC 1952, what DecompressionStream("gzip") reads)
 * into a new buffer *out of *n bytes; false when zlib fails. */
static bool gzip_buf(const ls_buf *rec, uint8_t **out, size_t *n)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    *out = NULL;
    if (rec->len >= UINT32_MAX || deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return false;
    uLong bound = deflateBound(&s, (uLong)rec->len);
    uint8_t *z = malloc(bound);
    if (!z) {
        deflateEnd(&s);
        return false;
    }
    s.next_in = (Bytef *)rec->data;
    s.avail_in = (uInt)rec->len;
    s.next_out = z;
    s.avail_out = (uInt)bound;
    int rc = deflate(&s, Z_FINISH);
    *n = (size_t)s.total_out;
    deflateEnd(&s);
    if (rc != Z_STREAM_END) {
        free(z);
        return false;
    }
    *out = z;
    return true;
}

/* The page: index.html with its two markers replaced by the style sheet and
 * the script, the recording gzip-compressed in a <script
 * type="application/octet-stream" data-encoding="gzip"> (as it is where zlib
 * fails). */
static void build_page(ls_buf *out, const ls_buf *rec, const char *name)
{
    const char *h = cli_web_html;
    const char *css = strstr(h, "<!--CSS-->"), *js = strstr(h, "<!--JS-->");
    if (!css || !js || js < css) {
        ls_buf_puts(out, h);
        return;
    }
    ls_buf_append(out, h, (size_t)(css - h));
    ls_buf_puts(out, "<style>\n");
    ls_buf_puts(out, cli_web_css);
    ls_buf_puts(out, "</style>");
    const char *after = css + strlen("<!--CSS-->");
    ls_buf_append(out, after, (size_t)(js - after));
    ls_buf_puts(out, "<script id=\"lsr\" type=\"application/octet-stream\" data-name=\"");
    for (const char *p = name; *p; p++)
        if (*p != '"' && *p != '<' && *p != '&') ls_buf_putc(out, *p);
    uint8_t *z;
    size_t zn;
    bool gz = gzip_buf(rec, &z, &zn);
    ls_buf_puts(out, gz ? "\" data-encoding=\"gzip\">" : "\">");
    if (gz)
        base64(out, z, zn);
    else
        base64(out, (const uint8_t *)rec->data, rec->len);
    free(z);
    ls_buf_puts(out, "</script>\n<script>\n");
    ls_buf_puts(out, cli_web_js);
    ls_buf_puts(out, "</script>");
    ls_buf_puts(out, js + strlen("<!--JS-->"));
}

static bool send_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t k = send(fd, c, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        c += k;
        n -= (size_t)k;
    }
    return true;
}

static void respond(int fd, const char *status, const char *type, const void *body, size_t n)
{
    char hdr[256];
    int k = snprintf(hdr, sizeof hdr,
                     "HTTP/1.0 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
                     status, type, n);
    if (send_all(fd, hdr, (size_t)k)) send_all(fd, body, n);
}

static int serve(const cli_args *ca, const ls_buf *page, const ls_buf *rec, int port, long requests, bool open_browser)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) return cli_err(ca, CLI_INTERNAL, "socket: %s", strerror(errno));
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((uint16_t)port);
    socklen_t al = sizeof a;
    if (bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 8) ||
        getsockname(s, (struct sockaddr *)&a, &al)) {
        int e = errno;
        close(s);
        return cli_err(ca, CLI_UNAVAILABLE, "cannot listen on 127.0.0.1:%d: %s", port, strerror(e));
    }
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u/", (unsigned)ntohs(a.sin_port));
    printf("lockstep view: serving %s (Ctrl-C stops)\n", url);
    fflush(stdout);
    if (open_browser && (getenv("DISPLAY") || getenv("WAYLAND_DISPLAY")) &&
        !access("/usr/bin/xdg-open", X_OK)) {
        pid_t pid = fork();
        if (pid == 0) {
            execl("/usr/bin/xdg-open", "xdg-open", url, (char *)NULL);
            _exit(127);
        }
    }
    for (long served = 0; requests <= 0 || served < requests;) {
        int c = accept(s, NULL, NULL);
        if (c < 0) {
            if (errno == EINTR) continue;
            break;
        }
        while (waitpid(-1, NULL, WNOHANG) > 0) {}
        char req[2048];
        size_t n = 0;
        while (n < sizeof req - 1) {
            ssize_t k = recv(c, req + n, sizeof req - 1 - n, 0);
            if (k <= 0) break;
            n += (size_t)k;
            req[n] = 0;
            if (strstr(req, "\r\n\r\n")) break;
        }
        req[n] = 0;
        char path[256] = "";
        if (sscanf(req, "GET %255s", path) == 1) {
            if (!strcmp(path, "/") || !strcmp(path, "/index.html"))
                respond(c, "200 OK", "text/html; charset=utf-8", page->data, page->len);
            else if (!strcmp(path, "/run.lsr"))
                respond(c, "200 OK", "application/octet-stream", rec->data, rec->len);
            else
                respond(c, "404 Not Found", "text/plain", "not found\n", 10);
            served++;
        } else {
            respond(c, "400 Bad Request", "text/plain", "bad request\n", 12);
        }
        close(c);
    }
    close(s);
    return CLI_OK;
}

int cli_view(cli_args *a)
{
    const char *in = a->ops[0], *out = cli_get(a, "output");
    long port = 0, requests = 0;
    bool open_browser = !cli_flag(a, "no-open");
    int rc0 = cli_opt_long(a, "port", 0, 65535, &port);
    if (!rc0)
        rc0 = cli_opt_long(a, "requests", 1, 1000000, &requests);
    if (rc0)
        return rc0;
    ls_buf rec;
    ls_buf_init(&rec);
    ls_diag d;
    ls_diag_clear(&d);
    int rrc = cli_read(a, in, &rec);
    if (rrc)
        return rrc;
    ls_rec_summary sum;
    if (ls_rec_check(rec.data, rec.len, &sum, &d)) {
        snprintf(d.file, sizeof d.file, "%s", in);
        ls_buf_free(&rec);
        return cli_report(a, &d);
    }
    const char *base = strrchr(in, '/');
    ls_buf page;
    ls_buf_init(&page);
    build_page(&page, &rec, base ? base + 1 : in);
    int rc;
    if (page.oom) rc = cli_err(a, CLI_INTERNAL, "out of memory");
    else if (out) {
        rc = cli_write(a, out, &page);
        if (!rc)
            printf("lockstep view: %s: %s recording, %zu records -> %s (open it in a browser)\n", in,
                   sum.machine == LS_REC_PP5 ? "PP5" : "R500", sum.records, out);
    } else rc = serve(a, &page, &rec, (int)port, requests, open_browser);
    ls_buf_free(&page);
    ls_buf_free(&rec);
    return rc;
}
