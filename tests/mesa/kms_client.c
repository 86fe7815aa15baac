/* A KMS client in plain ioctls, run under `lockstep mesa exec --scanout DIR`
 * against the fake display (src/mesa/shim_kms.c; docs/mesa.md, "A display"):
 * the one connector, mode, encoder and CRTC; a framebuffer over a buffer
 * object filled with a known pattern; SETCRTC and a page flip with its event
 * read from the device; the kernel's refusals (a flip before a mode set, a
 * buffer too small for its framebuffer, unknown ids, atomic asked for).
 * Prints one line per check and "kms: N failures"; the caller compares the
 * scanned-out PNGs with the pattern. Exit 0 iff every check held.
 * usage: kms_client MODE_W MODE_H */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <drm_fourcc.h>
#include <drm_mode.h>
#include <radeon_drm.h>

static int failures;
static void check(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok" : "FAIL", what);
    failures += !ok;
}

static uint32_t make_bo(int fd, uint32_t size, uint32_t *handle, uint32_t **map)
{
    struct drm_radeon_gem_create c = {.size = size, .alignment = 4096,
                                      .initial_domain = RADEON_GEM_DOMAIN_VRAM};
    if (ioctl(fd, DRM_IOCTL_RADEON_GEM_CREATE, &c))
        return 0;
    struct drm_radeon_gem_mmap m = {.handle = c.handle, .size = size};
    if (ioctl(fd, DRM_IOCTL_RADEON_GEM_MMAP, &m))
        return 0;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.addr_ptr);
    if (p == MAP_FAILED)
        return 0;
    *handle = c.handle;
    *map = p;
    return size;
}

int main(int argc, char **argv)
{
    unsigned W = argc > 2 ? (unsigned)atoi(argv[1]) : 320, H = argc > 2 ? (unsigned)atoi(argv[2]) : 240;
    int fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        perror("/dev/dri/card0");
        return 2;
    }
    struct drm_set_client_cap cap = {.capability = DRM_CLIENT_CAP_ATOMIC, .value = 1};
    check(ioctl(fd, DRM_IOCTL_SET_CLIENT_CAP, &cap) == -1 && errno == EINVAL, "atomic refused (EINVAL)");

    uint32_t crtc = 0, conn = 0, enc = 0;
    struct drm_mode_card_res res = {0};
    check(ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) == 0 && res.count_crtcs == 1 &&
              res.count_connectors == 1 && res.count_encoders == 1 && res.count_fbs == 0,
          "GETRESOURCES: 1 CRTC, 1 connector, 1 encoder, no framebuffer");
    res.crtc_id_ptr = (uintptr_t)&crtc;
    res.connector_id_ptr = (uintptr_t)&conn;
    res.encoder_id_ptr = (uintptr_t)&enc;
    check(ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) == 0 && crtc && conn && enc, "GETRESOURCES: the ids");

    struct drm_mode_modeinfo mode;
    uint32_t enc2 = 0;
    struct drm_mode_get_connector gc = {.connector_id = conn};
    check(ioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &gc) == 0 && gc.count_modes == 1 && gc.connection == 1,
          "GETCONNECTOR: connected, one mode");
    gc.modes_ptr = (uintptr_t)&mode;
    gc.encoders_ptr = (uintptr_t)&enc2;
    gc.count_encoders = 1;
    check(ioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &gc) == 0 && mode.hdisplay == W && mode.vdisplay == H &&
              (mode.type & DRM_MODE_TYPE_PREFERRED) && mode.vrefresh == 60 && enc2 == enc,
          "GETCONNECTOR: the preferred WxH@60 mode, its encoder");
    struct drm_mode_get_encoder ge = {.encoder_id = enc};
    check(ioctl(fd, DRM_IOCTL_MODE_GETENCODER, &ge) == 0 && ge.crtc_id == crtc && ge.possible_crtcs == 1,
          "GETENCODER: drives the CRTC");

    /* two framebuffers: a vertical gradient, and its colours swapped */
    uint32_t pitch = W * 4, size = (pitch * H + 4095) & ~4095u, h1, h2, *p1, *p2;
    if (!make_bo(fd, size, &h1, &p1) || !make_bo(fd, size, &h2, &p2)) {
        printf("FAIL: buffer objects\n");
        return 1;
    }
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint32_t r = x * 255 / (W - 1), g = y * 255 / (H - 1);
            p1[y * W + x] = 0xff000000u | r << 16 | g << 8 | 0x40;  /* XRGB8888 */
            p2[y * W + x] = 0xff000000u | g << 16 | r << 8 | 0xc0;
        }
    struct drm_mode_crtc_page_flip flip = {.crtc_id = crtc, .flags = DRM_MODE_PAGE_FLIP_EVENT};
    check(ioctl(fd, DRM_IOCTL_MODE_PAGE_FLIP, &flip) == -1 && errno == EINVAL, "a flip before a mode set: EINVAL");
    struct drm_mode_fb_cmd2 f = {.width = W, .height = H, .pixel_format = DRM_FORMAT_XRGB8888,
                                 .handles = {h1}, .pitches = {pitch}};
    check(ioctl(fd, DRM_IOCTL_MODE_ADDFB2, &f) == 0 && f.fb_id, "ADDFB2 XRGB8888");
    uint32_t fb1 = f.fb_id;
    struct drm_mode_fb_cmd old = {.width = W, .height = H, .pitch = pitch, .bpp = 32, .depth = 24, .handle = h2};
    check(ioctl(fd, DRM_IOCTL_MODE_ADDFB, &old) == 0 && old.fb_id && old.fb_id != fb1, "ADDFB depth 24");
    uint32_t fb2 = old.fb_id;
    struct drm_mode_fb_cmd2 big = f;
    big.height = H * 4;
    check(ioctl(fd, DRM_IOCTL_MODE_ADDFB2, &big) == -1 && errno == EINVAL, "ADDFB2 larger than its buffer: EINVAL");
    big = f;
    big.handles[0] = 999;
    check(ioctl(fd, DRM_IOCTL_MODE_ADDFB2, &big) == -1 && errno == ENOENT, "ADDFB2 of no buffer: ENOENT");

    struct drm_mode_crtc sc = {.crtc_id = crtc, .fb_id = fb1, .set_connectors_ptr = (uintptr_t)&conn,
                               .count_connectors = 1, .mode_valid = 1, .mode = mode};
    check(ioctl(fd, DRM_IOCTL_MODE_SETCRTC, &sc) == 0, "SETCRTC: frame 0 is the gradient");
    struct drm_mode_crtc gcr = {.crtc_id = crtc};
    check(ioctl(fd, DRM_IOCTL_MODE_GETCRTC, &gcr) == 0 && gcr.fb_id == fb1 && gcr.mode_valid &&
              gcr.mode.hdisplay == W, "GETCRTC: the framebuffer and mode set");

    char ev[256];
    check(read(fd, ev, sizeof ev) == 0, "no event before a flip");
    flip.fb_id = fb2;
    flip.user_data = 0x1234567890abcdefull;
    check(ioctl(fd, DRM_IOCTL_MODE_PAGE_FLIP, &flip) == 0, "PAGE_FLIP with an event: frame 1 is the other");
    ssize_t n = read(fd, ev, sizeof ev);
    struct drm_event_vblank v;
    memcpy(&v, ev, sizeof v);
    check(n == (ssize_t)sizeof v && v.base.type == DRM_EVENT_FLIP_COMPLETE && v.base.length == sizeof v &&
              v.user_data == flip.user_data && v.crtc_id == crtc,
          "read: DRM_EVENT_FLIP_COMPLETE with the flip's user data");
    check(read(fd, ev, sizeof ev) == 0, "one event per flip");
    flip.fb_id = 777;
    check(ioctl(fd, DRM_IOCTL_MODE_PAGE_FLIP, &flip) == -1 && errno == ENOENT, "a flip to no framebuffer: ENOENT");

    uint32_t id = fb2;
    check(ioctl(fd, DRM_IOCTL_MODE_RMFB, &id) == 0, "RMFB of the one on screen");
    check(ioctl(fd, DRM_IOCTL_MODE_GETCRTC, &gcr) == 0 && gcr.fb_id == 0, "the CRTC is off after it");
    check(ioctl(fd, DRM_IOCTL_MODE_RMFB, &id) == -1 && errno == ENOENT, "RMFB twice: ENOENT");
    printf("kms: %d failures\n", failures);
    return failures != 0;
}
