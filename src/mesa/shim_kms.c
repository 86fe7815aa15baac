/* The fake device's display (docs/mesa.md, "A display: KMS on card0"): just
 * enough of the kernel's mode-setting interface (include/uapi/drm/drm_mode.h,
 * drivers/gpu/drm/drm_mode_config.c, drm_crtc.c, drm_plane.c) for a legacy
 * KMS client such as kmscube: one connected connector ("Virtual", one
 * preferred mode, LOCKSTEP_SHIM_KMS_SIZE=WxH, default 320x240), one encoder,
 * one CRTC; framebuffers over the shim's buffer objects (ADDFB, ADDFB2,
 * RMFB); SETCRTC and PAGE_FLIP scan a framebuffer out, and a page flip asked
 * with DRM_MODE_PAGE_FLIP_EVENT queues the DRM_EVENT_FLIP_COMPLETE the
 * client then read()s from the device (drm_crtc_send_vblank_event). Atomic
 * mode setting is refused (SET_CLIENT_CAP), so clients take the legacy path.
 *
 * With LOCKSTEP_SHIM_SCANOUT=DIR every frame scanned out is written as
 * DIR/frame_NNNN.png (RGB, the framebuffer's XRGB8888/ARGB8888 pixels read
 * through its pitch; a tiled buffer object is written as its bytes lie).
 *
 * Part of the shim (tool-side, inside a foreign process): it may print its
 * trace; it never exits the process. */
#define _GNU_SOURCE
#include <errno.h>
#include <png.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libdrm/drm.h>
#include <libdrm/drm_fourcc.h>
#include <libdrm/drm_mode.h>

#include "shim_kms.h"

enum { CONNECTOR_ID = 31, ENCODER_ID = 32, CRTC_ID = 33, FB_BASE = 40, MAX_FB = 64, MAX_EVENTS = 16 };

typedef struct fb {
    bool used;
    uint32_t handle, width, height, pitch, format;
} fb;

static pthread_mutex_t kms_lock = PTHREAD_MUTEX_INITIALIZER;
static fb fbs[MAX_FB];
static uint32_t scanout_fb;       /* the CRTC's framebuffer, 0 = none */
static struct drm_mode_modeinfo crtc_mode;
static bool crtc_mode_valid;
static uint64_t events[MAX_EVENTS]; /* pending flip events: user_data */
static unsigned nevents, flips, frames;

static void mode_size(uint32_t *w, uint32_t *h)
{
    const char *s = getenv("LOCKSTEP_SHIM_KMS_SIZE");
    unsigned a = 320, b = 240;
    if (s && sscanf(s, "%ux%u", &a, &b) == 2 && a >= 16 && b >= 16 && a <= 4096 && b <= 4096) {
        *w = a;
        *h = b;
        return;
    }
    *w = 320;
    *h = 240;
}

/* The one mode: 60 Hz with a CVT-like blanking (the numbers only need to be
 * consistent: nothing here counts scanlines). */
static struct drm_mode_modeinfo the_mode(void)
{
    struct drm_mode_modeinfo m;
    memset(&m, 0, sizeof m);
    uint32_t w, h;
    mode_size(&w, &h);
    m.hdisplay = (uint16_t)w;
    m.hsync_start = (uint16_t)(w + 16);
    m.hsync_end = (uint16_t)(w + 48);
    m.htotal = (uint16_t)(w + 160);
    m.vdisplay = (uint16_t)h;
    m.vsync_start = (uint16_t)(h + 3);
    m.vsync_end = (uint16_t)(h + 7);
    m.vtotal = (uint16_t)(h + 30);
    m.vrefresh = 60;
    m.clock = (uint32_t)((uint64_t)m.htotal * m.vtotal * 60 / 1000);
    m.type = DRM_MODE_TYPE_PREFERRED | DRM_MODE_TYPE_DRIVER;
    snprintf(m.name, sizeof m.name, "%ux%u", w, h);
    return m;
}

static int kfail(int e)
{
    errno = e;
    return -1;
}

/* Copy n ids to the user's array when it has room (the kernel fills an array
 * only if count_* allows; the count is always set). */
static void put_ids(uint64_t ptr, uint32_t room, const uint32_t *ids, uint32_t n)
{
    if (ptr && room >= n)
        memcpy((void *)(uintptr_t)ptr, ids, n * sizeof *ids);
}

static void write_png(const char *path, const uint8_t *px, uint32_t w, uint32_t h, uint32_t pitch)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = p ? png_create_info_struct(p) : NULL;
    uint8_t *row = malloc((size_t)w * 3);
    if (p && info && row && !setjmp(png_jmpbuf(p))) {
        png_init_io(p, f);
        png_set_IHDR(p, info, w, h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                     PNG_FILTER_TYPE_DEFAULT);
        png_write_info(p, info);
        for (uint32_t y = 0; y < h; y++) {
            const uint8_t *s = px + (size_t)y * pitch;
            for (uint32_t x = 0; x < w; x++) { /* XRGB8888 little-endian: B G R X */
                row[3 * x] = s[4 * x + 2];
                row[3 * x + 1] = s[4 * x + 1];
                row[3 * x + 2] = s[4 * x];
            }
            png_write_row(p, row);
        }
        png_write_end(p, NULL);
    }
    free(row);
    png_destroy_write_struct(p ? &p : NULL, info ? &info : NULL);
    fclose(f);
}

/* A frame went to the screen: write it if asked (kms_lock held). */
static void scan_out(uint32_t fb_id)
{
    frames++;
    const char *dir = getenv("LOCKSTEP_SHIM_SCANOUT");
    if (!dir || !*dir || fb_id < FB_BASE || fb_id >= FB_BASE + MAX_FB || !fbs[fb_id - FB_BASE].used)
        return;
    const fb *b = &fbs[fb_id - FB_BASE];
    if (b->format != DRM_FORMAT_XRGB8888 && b->format != DRM_FORMAT_ARGB8888)
        return;
    int memfd;
    uint64_t size;
    if (shim_bo_memfd(b->handle, &memfd, &size) != 0 || (uint64_t)b->pitch * b->height > size ||
        b->pitch < 4ull * b->width)
        return;
    size_t n = (size_t)b->pitch * b->height;
    uint8_t *px = malloc(n);
    if (px && pread(memfd, px, n, 0) == (ssize_t)n) {
        char path[4096];
        snprintf(path, sizeof path, "%s/frame_%04u.png", dir, frames - 1);
        write_png(path, px, b->width, b->height, b->pitch);
    }
    free(px);
}

static int add_fb(uint32_t handle, uint32_t w, uint32_t h, uint32_t pitch, uint32_t format, uint32_t *id)
{
    if (!w || !h || w > 8192 || h > 8192 || pitch < w)
        return kfail(EINVAL);
    int memfd;
    uint64_t size;
    if (shim_bo_memfd(handle, &memfd, &size) != 0)
        return kfail(ENOENT);
    if ((uint64_t)pitch * h > size)
        return kfail(EINVAL); /* drm_framebuffer_check_src_coords / the driver's size check */
    pthread_mutex_lock(&kms_lock);
    unsigned k = 0;
    while (k < MAX_FB && fbs[k].used)
        k++;
    if (k < MAX_FB) {
        fbs[k] = (fb){true, handle, w, h, pitch, format};
        *id = FB_BASE + k;
    }
    pthread_mutex_unlock(&kms_lock);
    return k < MAX_FB ? 0 : kfail(ENOSPC);
}

bool shim_kms_ioctl(unsigned nr, void *arg, int *ret)
{
    *ret = 0;
    switch (nr) {
    case 0x0d: /* SET_CLIENT_CAP: no atomic, no universal planes: the legacy path */
        *ret = kfail(EINVAL);
        return true;
    case 0x1e: /* SET_MASTER */
    case 0x1f: /* DROP_MASTER */
        return true;
    case 0xA0: { /* MODE_GETRESOURCES */
        struct drm_mode_card_res *r = arg;
        static const uint32_t crtc = CRTC_ID, conn = CONNECTOR_ID, enc = ENCODER_ID;
        uint32_t ids[MAX_FB], n = 0;
        pthread_mutex_lock(&kms_lock);
        for (unsigned k = 0; k < MAX_FB; k++)
            if (fbs[k].used)
                ids[n++] = FB_BASE + k;
        pthread_mutex_unlock(&kms_lock);
        put_ids(r->fb_id_ptr, r->count_fbs, ids, n);
        put_ids(r->crtc_id_ptr, r->count_crtcs, &crtc, 1);
        put_ids(r->connector_id_ptr, r->count_connectors, &conn, 1);
        put_ids(r->encoder_id_ptr, r->count_encoders, &enc, 1);
        r->count_fbs = n;
        r->count_crtcs = r->count_connectors = r->count_encoders = 1;
        r->min_width = r->min_height = 1;
        r->max_width = r->max_height = 8192;
        return true;
    }
    case 0xA1: { /* MODE_GETCRTC */
        struct drm_mode_crtc *c = arg;
        if (c->crtc_id != CRTC_ID) {
            *ret = kfail(ENOENT);
            return true;
        }
        pthread_mutex_lock(&kms_lock);
        c->fb_id = scanout_fb;
        c->x = c->y = 0;
        c->gamma_size = 256;
        c->mode_valid = crtc_mode_valid;
        c->mode = crtc_mode;
        pthread_mutex_unlock(&kms_lock);
        return true;
    }
    case 0xA2: { /* MODE_SETCRTC */
        struct drm_mode_crtc *c = arg;
        if (c->crtc_id != CRTC_ID) {
            *ret = kfail(ENOENT);
            return true;
        }
        pthread_mutex_lock(&kms_lock);
        if (c->fb_id && (c->fb_id < FB_BASE || c->fb_id >= FB_BASE + MAX_FB || !fbs[c->fb_id - FB_BASE].used)) {
            pthread_mutex_unlock(&kms_lock);
            *ret = kfail(ENOENT);
            return true;
        }
        scanout_fb = c->fb_id;
        crtc_mode_valid = c->mode_valid;
        crtc_mode = c->mode;
        if (c->fb_id)
            scan_out(c->fb_id);
        pthread_mutex_unlock(&kms_lock);
        return true;
    }
    case 0xA6: { /* MODE_GETENCODER */
        struct drm_mode_get_encoder *e = arg;
        if (e->encoder_id != ENCODER_ID) {
            *ret = kfail(ENOENT);
            return true;
        }
        e->encoder_type = DRM_MODE_ENCODER_VIRTUAL;
        e->crtc_id = CRTC_ID;
        e->possible_crtcs = 1;
        e->possible_clones = 0;
        return true;
    }
    case 0xA7: { /* MODE_GETCONNECTOR */
        struct drm_mode_get_connector *c = arg;
        if (c->connector_id != CONNECTOR_ID) {
            *ret = kfail(ENOENT);
            return true;
        }
        struct drm_mode_modeinfo m = the_mode();
        static const uint32_t enc = ENCODER_ID;
        if (c->modes_ptr && c->count_modes >= 1)
            memcpy((void *)(uintptr_t)c->modes_ptr, &m, sizeof m);
        put_ids(c->encoders_ptr, c->count_encoders, &enc, 1);
        c->count_modes = 1;
        c->count_encoders = 1;
        c->count_props = 0;
        c->encoder_id = ENCODER_ID;
        c->connector_type = DRM_MODE_CONNECTOR_VIRTUAL;
        c->connector_type_id = 1;
        c->connection = 1; /* DRM_MODE_CONNECTED */
        c->mm_width = m.hdisplay / 4;
        c->mm_height = m.vdisplay / 4;
        c->subpixel = 1; /* SubPixelUnknown */
        return true;
    }
    case 0xAE: { /* MODE_ADDFB */
        struct drm_mode_fb_cmd *f = arg;
        if (f->bpp != 32 || (f->depth != 24 && f->depth != 32)) {
            *ret = kfail(EINVAL);
            return true;
        }
        *ret = add_fb(f->handle, f->width, f->height, f->pitch,
                      f->depth == 24 ? DRM_FORMAT_XRGB8888 : DRM_FORMAT_ARGB8888, &f->fb_id);
        return true;
    }
    case 0xB8: { /* MODE_ADDFB2 */
        struct drm_mode_fb_cmd2 *f = arg;
        if ((f->pixel_format != DRM_FORMAT_XRGB8888 && f->pixel_format != DRM_FORMAT_ARGB8888) ||
            (f->flags & DRM_MODE_FB_MODIFIERS) || f->offsets[0]) {
            *ret = kfail(EINVAL);
            return true;
        }
        *ret = add_fb(f->handles[0], f->width, f->height, f->pitches[0], f->pixel_format, &f->fb_id);
        return true;
    }
    case 0xAF: { /* MODE_RMFB */
        uint32_t id = *(uint32_t *)arg;
        pthread_mutex_lock(&kms_lock);
        bool ok = id >= FB_BASE && id < FB_BASE + MAX_FB && fbs[id - FB_BASE].used;
        if (ok) {
            fbs[id - FB_BASE].used = false;
            if (scanout_fb == id) /* drm_framebuffer_remove: the CRTC is turned off */
                scanout_fb = 0;
        }
        pthread_mutex_unlock(&kms_lock);
        *ret = ok ? 0 : kfail(ENOENT);
        return true;
    }
    case 0xB0: { /* MODE_PAGE_FLIP */
        struct drm_mode_crtc_page_flip *p = arg;
        pthread_mutex_lock(&kms_lock);
        int r = 0;
        if (p->crtc_id != CRTC_ID)
            r = kfail(ENOENT);
        else if (!scanout_fb) /* drm_mode_page_flip_ioctl: no mode set */
            r = kfail(EINVAL);
        else if (p->fb_id < FB_BASE || p->fb_id >= FB_BASE + MAX_FB || !fbs[p->fb_id - FB_BASE].used)
            r = kfail(ENOENT);
        else if ((p->flags & DRM_MODE_PAGE_FLIP_EVENT) && nevents == MAX_EVENTS)
            r = kfail(EBUSY);
        else {
            scanout_fb = p->fb_id;
            scan_out(p->fb_id);
            flips++;
            if (p->flags & DRM_MODE_PAGE_FLIP_EVENT)
                events[nevents++] = p->user_data;
        }
        pthread_mutex_unlock(&kms_lock);
        *ret = r;
        return true;
    }
    default:
        return false;
    }
}

ssize_t shim_kms_read(void *buf, size_t n, bool *handled)
{
    pthread_mutex_lock(&kms_lock);
    *handled = nevents > 0;
    ssize_t r = 0;
    if (nevents && n < sizeof(struct drm_event_vblank)) {
        r = kfail(EINVAL);
    } else if (nevents) {
        struct drm_event_vblank e;
        memset(&e, 0, sizeof e);
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        e.base.type = DRM_EVENT_FLIP_COMPLETE;
        e.base.length = sizeof e;
        e.user_data = events[0];
        e.tv_sec = (uint32_t)ts.tv_sec;
        e.tv_usec = (uint32_t)(ts.tv_nsec / 1000);
        e.sequence = flips;
        e.crtc_id = CRTC_ID;
        memcpy(buf, &e, sizeof e);
        memmove(events, events + 1, (nevents - 1) * sizeof *events);
        nevents--;
        r = (ssize_t)sizeof e;
    }
    pthread_mutex_unlock(&kms_lock);
    return r;
}
