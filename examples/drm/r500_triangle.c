/* r500_triangle: a bare-metal R500 program, the way a hardware bring-up test
 * is written. It talks to the radeon kernel driver with plain ioctls (no
 * Mesa, no libdrm_radeon): creates a colour buffer, builds its own command
 * stream (state, a clear drawn as a full-window quad, one Gouraud
 * triangle), submits it with DRM_RADEON_CS, waits, and reads the colour
 * buffer back.
 *
 * On a machine without an R500 it runs on lockstep's virtual one:
 *
 *     lockstep mesa exec -- r500_triangle
 *
 * Options: a device path (default /dev/dri/renderD128; /dev/dri/card0 works
 * too); --plant forbidden-register | runaway-vertex-program |
 * runaway-fragment-program puts a mistake into the stream to show how the
 * device answers: a register the kernel's checker forbids makes
 * DRM_RADEON_CS fail with EINVAL; a vertex or fragment program that never
 * ends hangs the GPU, which the next wait reports with EAGAIN after a reset
 * (RADEON_INFO_GPU_RESET_COUNTER counts it).
 *
 * Exit status: 0 when the device behaved as described (the submission
 * accepted, or the planted mistake refused / reported as a hang), 1
 * otherwise. Build: cc r500_triangle.c $(pkg-config --cflags libdrm).
 *
 * Register values follow Mesa's r300_reg.h and the radeon kernel's CS
 * checker (drivers/gpu/drm/radeon/r300.c); the shader words were assembled
 * with lockstep (sources in the comments). docs/mesa.md, "The live device". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <radeon_drm.h>

#define W 16
#define H 16

static uint32_t ib[2048];
static unsigned n;

static void put(uint32_t v) { ib[n++] = v; }
static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
/* type-0 packet: one register */
static void reg(uint32_t addr, uint32_t v)
{
    put(addr >> 2);
    put(v);
}
/* type-0 packet, ONE_REG_WR: count dwords into one register */
static void reg_stream(uint32_t addr, const uint32_t *v, unsigned count)
{
    put(((count - 1) << 16) | (1u << 15) | (addr >> 2));
    for (unsigned i = 0; i < count; i++)
        put(v[i]);
}
/* type-3 packet header */
static void pkt3(unsigned op, unsigned ndata) { put(0xC0000000u | ((ndata - 1) << 16) | (op << 8)); }
/* the relocation that follows a register naming a buffer: a NOP whose data
 * is the relocation's dword offset in the relocation chunk */
static void reloc(unsigned k)
{
    pkt3(0x10, 1);
    put(4 * k);
}

/* Vertex program (lockstep r500 vs asm):
 *   out[0].xyzw = VE_ADD input[0].xyzw input[0].0000 ;   position
 *   out[1].xyzw = VE_ADD input[1].xyzw input[1].0000 ;   colour */
static const uint32_t vs_pass[] = {0x00f00203, 0x00d10001, 0x01248001, 0x01ffe001,
                                   0x00f02203, 0x00d10021, 0x01248021, 0x01ffe021};
/* Fragment programs (lockstep r500 asm):
 *   clear: out[0] = const[0] (the clear colour):
 *            OUT TEX_SEM_WAIT src0.a = const[0], src0.rgb = const[0] :
 *              out[0].a = MAX src0.a src0.a , out[0].rgb = MAX src0.rgb src0.rgb ;
 *   tri:   out[0] = temp[0] (the interpolated colour RS writes there): the
 *          same with temp[0]
 *   runaway: `top: JUMP top` (an unconditional flow-control jump to itself),
 *          then the clear's instruction, which it never reaches */
static const uint32_t fs_clear[6] = {0x00078005, 0x08020100, 0x08020100,
                                     0x00440220, 0x0060c003, 0x00000005};
static const uint32_t fs_tri[6] = {0x00078005, 0x08020000, 0x08020000,
                                   0x00440220, 0x0060c003, 0x00000005};
static const uint32_t fs_runaway[12] = {0x00000402, 0x00000000, 0x0000ff00, 0x00000000,
                                        0x00000000, 0x00000000, 0x00078005, 0x08020100,
                                        0x08020100, 0x00440220, 0x0060c003, 0x00000005};

/* Upload `count` instructions at slot `at` and make them the program. */
static void upload_fs(unsigned at, const uint32_t *w, unsigned count)
{
    reg(0x4250, at);                 /* GA_US_VECTOR_INDEX: instruction `at` */
    reg_stream(0x4254, w, 6 * count); /* GA_US_VECTOR_DATA */
    unsigned end = at + count - 1;
    reg(0x4630, at | (end << 16));          /* US_CODE_ADDR: START, END */
    reg(0x4634, at | ((count - 1) << 16));  /* US_CODE_RANGE: ADDR, SIZE - 1 */
    reg(0x4638, 0);                         /* US_CODE_OFFSET */
}

/* Everything a draw into the W x H colour buffer needs. */
static void setup(bool runaway)
{
    reg(0x4E28, 0); /* RB3D_COLOROFFSET0 */
    reloc(0);
    reg(0x4E38, W | (6u << 21)); /* RB3D_COLORPITCH0: W pixels, ARGB8888 */
    reloc(0);
    reg(0x4E00, 0);         /* RB3D_CCTL: one colour buffer */
    reg(0x4E0C, 0xF);       /* RB3D_COLOR_CHANNEL_MASK: RGBA */
    reg(0x4E04, 0);         /* RB3D_BLENDCNTL: no blending */
    reg(0x4F00, 0);         /* ZB_CNTL: no depth */
    reg(0x43E0, 0);         /* SC_SCISSOR0 */
    reg(0x43E4, ((H - 1) << 13) | (W - 1)); /* SC_SCISSOR1 */
    reg(0x43B0, 0);         /* SC_CLIP_0_A */
    reg(0x43B4, ((H - 1) << 13) | (W - 1)); /* SC_CLIP_0_B */
    reg(0x43D0, 0xFFFF);    /* SC_CLIP_RULE */
    reg(0x43E8, 0xFFFFFF);  /* SC_SCREENDOOR */
    reg(0x42B8, 0);         /* SU_CULL_MODE: no culling */
    /* viewport: clip space -> window */
    reg(0x1D98, f2u(W / 2.0f));
    reg(0x1D9C, f2u(W / 2.0f));
    reg(0x1DA0, f2u(H / 2.0f));
    reg(0x1DA4, f2u(H / 2.0f));
    reg(0x1DA8, f2u(0.5f));
    reg(0x1DAC, f2u(0.5f));
    reg(0x20B0, 0x043F);    /* VAP_VTE_CNTL: viewport scale/offset on, W0 format */
    reg(0x221C, 1u << 16);  /* VAP_CLIP_CNTL: CLIP_DISABLE */
    /* vertices: stream 0 float4 position -> input 0, stream 1 float4 colour
     * -> input 1 (last); xyzw */
    reg(0x2150, 3u | (0u << 8) | ((3u | (1u << 8) | (1u << 13)) << 16)); /* VAP_PROG_STREAM_CNTL_0 */
    uint32_t xyzw = 0 | (1u << 3) | (2u << 6) | (3u << 9) | (0xFu << 12);
    reg(0x21E0, xyzw | (xyzw << 16)); /* VAP_PROG_STREAM_CNTL_EXT_0 */
    reg(0x2090, 1u | 2u);  /* VAP_OUT_VTX_FMT_0: position, colour 0 */
    reg(0x2094, 0);        /* VAP_OUT_VTX_FMT_1: no texcoords */
    reg(0x4000, 1u | 2u);  /* GB_VAP_RASTER_VTX_FMT_0 */
    reg(0x4004, 0);        /* GB_VAP_RASTER_VTX_FMT_1 */
    reg(0x2140, 0);        /* VAP_CNTL_STATUS: the vertex program runs (no bypass) */
    /* the vertex program */
    reg(0x2200, 0);        /* VAP_PVS_VECTOR_INDX_REG: code from 0 */
    reg_stream(0x2208, vs_pass, 8);
    reg(0x22D0, (1u << 20) | 0); /* VAP_PVS_CODE_CNTL_0: instructions 0..1 */
    if (runaway) {
        /* flow-control op 0: JUMP to instruction 0 after instruction 0 runs:
         * the program never reaches its end */
        reg(0x22DC, 1);    /* VAP_PVS_FLOW_CNTL_OPC: op 0 = JUMP */
        reg(0x2500, 0);    /* VAP_PVS_FLOW_CNTL_ADDRS_LW_0: after 0, to 0 */
    } else {
        reg(0x22DC, 0);
    }
    /* RS: colour 0 into fragment temp 0 */
    reg(0x4300, (1u << 7) | (1u << 18)); /* RS_COUNT: one colour, HIRES */
    reg(0x4304, 0);                      /* RS_INST_COUNT: one instruction */
    reg(0x4074, 62u | (62u << 6) | (62u << 12) | (62u << 18)); /* RS_IP_0: colour 0, RGBA */
    reg(0x4320, 1u << 16);               /* RS_INST_0: COL_CN_WRITE, temp 0 */
    reg(0x4604, 1);                      /* US_PIXSIZE: one temp */
    /* US_OUT_FMT_0: C4_8; C0 blue, C1 green, C2 red, C3 alpha (bits 8..15:
     * C0_SEL..C3_SEL, 0 alpha, 1 red, 2 green, 3 blue): ARGB8888 stores C0 in
     * its low byte, so the dword reads 0xAARRGGBB (Mesa r300_state.c
     * r300_translate_out_fmt for B8G8R8A8) */
    reg(0x46A4, 0x1b00);
    reg(0x20B4, 8);                      /* VAP_VTX_SIZE: 8 dwords a vertex */
}

static void immd(unsigned prim, const float (*v)[8], unsigned nv)
{
    pkt3(0x35, 1 + 8 * nv); /* 3D_DRAW_IMMD_2 */
    put(prim | (3u << 4) | (nv << 16)); /* VAP_VF_CNTL: PRIM_WALK 3 (embedded) */
    for (unsigned i = 0; i < nv; i++)
        for (unsigned k = 0; k < 8; k++)
            put(f2u(v[i][k]));
}

/* The state, the clear (a full-window quad) and, with `triangle`, the
 * Gouraud triangle. runaway_vs / runaway_fs plant a vertex / fragment
 * program that never ends (the clear's). */
static void clear_and_triangle(bool runaway_vs, bool runaway_fs, bool triangle)
{
    setup(runaway_vs);
    if (runaway_fs)
        upload_fs(0, fs_runaway, 2);
    else
        upload_fs(0, fs_clear, 1);
    reg(0x4250, 1u << 16); /* GA_US_VECTOR_INDEX: constant 0 */
    const uint32_t clear[4] = {f2u(0.25f), f2u(0.25f), f2u(0.25f), f2u(1.0f)};
    reg_stream(0x4254, clear, 4);
    static const float quad[4][8] = {{-1, -1, 0, 1, 0, 0, 0, 1}, {1, -1, 0, 1, 0, 0, 0, 1},
                                     {1, 1, 0, 1, 0, 0, 0, 1},   {-1, 1, 0, 1, 0, 0, 0, 1}};
    immd(13, quad, 4); /* QUADS: the clear */
    if (!triangle)
        return;
    upload_fs(2, fs_tri, 1);
    static const float tri[3][8] = {{-0.75f, -0.75f, 0, 1, 1, 0, 0, 1},
                                    {0.75f, -0.75f, 0, 1, 0, 1, 0, 1},
                                    {0, 0.75f, 0, 1, 0, 0, 1, 1}};
    immd(4, tri, 3); /* TRIANGLES */
}

static int submit(int fd, uint32_t handle, bool ok_expected, const char *what)
{
    struct drm_radeon_cs_reloc rel = {handle, RADEON_GEM_DOMAIN_VRAM, RADEON_GEM_DOMAIN_VRAM, 0};
    uint32_t flags[2] = {0, RADEON_CS_RING_GFX};
    struct drm_radeon_cs_chunk ch[3] = {
        {RADEON_CHUNK_ID_IB, n, (uint64_t)(uintptr_t)ib},
        {RADEON_CHUNK_ID_RELOCS, 4, (uint64_t)(uintptr_t)&rel},
        {RADEON_CHUNK_ID_FLAGS, 2, (uint64_t)(uintptr_t)flags},
    };
    uint64_t chunks[3] = {(uintptr_t)&ch[0], (uintptr_t)&ch[1], (uintptr_t)&ch[2]};
    struct drm_radeon_cs cs = {3, 0, (uint64_t)(uintptr_t)chunks, 0, 0};
    int r = ioctl(fd, DRM_IOCTL_RADEON_CS, &cs);
    printf("%s: DRM_RADEON_CS (%u dwords) -> %s\n", what, n, r == 0 ? "0" : strerror(errno));
    (void)ok_expected;
    return r == 0 ? 0 : errno;
}

static unsigned reset_counter(int fd)
{
    uint32_t v = 0;
    struct drm_radeon_info info = {RADEON_INFO_GPU_RESET_COUNTER, 0, (uint64_t)(uintptr_t)&v};
    if (ioctl(fd, DRM_IOCTL_RADEON_INFO, &info) != 0)
        return ~0u;
    return v;
}

int main(int argc, char **argv)
{
    const char *dev = "/dev/dri/renderD128", *plant = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--plant") && i + 1 < argc)
            plant = argv[++i];
        else
            dev = argv[i];
    }
    bool forbidden = plant && !strcmp(plant, "forbidden-register");
    bool runaway_vs = plant && !strcmp(plant, "runaway-vertex-program");
    bool runaway_fs = plant && !strcmp(plant, "runaway-fragment-program");
    bool runaway = runaway_vs || runaway_fs;
    if (plant && !forbidden && !runaway) {
        fprintf(stderr, "r500_triangle: --plant forbidden-register | runaway-vertex-program | "
                        "runaway-fragment-program\n");
        return 1;
    }
    int fd = open(dev, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "r500_triangle: cannot open %s: %s\n", dev, strerror(errno));
        return 1;
    }
    char name[32] = "";
    struct drm_version ver = {0};
    ver.name = name;
    ver.name_len = sizeof name - 1;
    uint32_t id = 0;
    struct drm_radeon_info info = {RADEON_INFO_DEVICE_ID, 0, (uint64_t)(uintptr_t)&id};
    if (ioctl(fd, DRM_IOCTL_VERSION, &ver) != 0 || strcmp(name, "radeon") != 0 ||
        ioctl(fd, DRM_IOCTL_RADEON_INFO, &info) != 0) {
        fprintf(stderr, "r500_triangle: %s is not a radeon device\n", dev);
        return 1;
    }
    printf("%s: %s %d.%d, PCI id 0x%04x\n", dev, name, ver.version_major, ver.version_minor, id);

    /* the colour buffer: W x H ARGB8888 */
    struct drm_radeon_gem_create gc = {W * H * 4, 4096, RADEON_GEM_DOMAIN_VRAM, 0, 0};
    struct drm_radeon_gem_mmap gm = {0};
    if (ioctl(fd, DRM_IOCTL_RADEON_GEM_CREATE, &gc) != 0) {
        perror("r500_triangle: GEM_CREATE");
        return 1;
    }
    gm.handle = gc.handle;
    gm.size = gc.size;
    if (ioctl(fd, DRM_IOCTL_RADEON_GEM_MMAP, &gm) != 0) {
        perror("r500_triangle: GEM_MMAP");
        return 1;
    }
    uint32_t *px = mmap(NULL, gc.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)gm.addr_ptr);
    if (px == MAP_FAILED) {
        perror("r500_triangle: mmap");
        return 1;
    }
    memset(px, 0, gc.size);

    /* the stream */
    n = 0;
    if (forbidden)
        reg(0x4018, 0); /* GB_TILE_CONFIG: the kernel sets it; a CS may not */
    clear_and_triangle(runaway_vs, runaway_fs, true);

    int ok = 0;
    int err = submit(fd, gc.handle, !forbidden, "clear + triangle");
    if (forbidden) {
        ok = err == EINVAL;
        printf("planted forbidden register: %s\n", ok ? "refused with EINVAL, as the kernel does"
                                                       : "NOT refused");
        return ok ? 0 : 1;
    }
    if (err)
        return 1;
    struct drm_radeon_gem_busy busy = {gc.handle, 0};
    int b = ioctl(fd, DRM_IOCTL_RADEON_GEM_BUSY, &busy);
    printf("GEM_BUSY -> %s\n", b == 0 ? "idle" : strerror(errno));
    struct drm_radeon_gem_wait_idle wi = {gc.handle, 0};
    int w = ioctl(fd, DRM_IOCTL_RADEON_GEM_WAIT_IDLE, &wi);
    int werr = w ? errno : 0;
    printf("GEM_WAIT_IDLE -> %s\n", w == 0 ? "0" : strerror(werr));
    unsigned resets = reset_counter(fd);
    printf("GPU resets: %u\n", resets);
    if (runaway) {
        ok = b != 0 && werr == EAGAIN && resets == 1;
        /* after the reset the device takes work again: the clear alone */
        n = 0;
        clear_and_triangle(false, false, false);
        ok = ok && submit(fd, gc.handle, true, "after the reset") == 0;
        ok = ok && ioctl(fd, DRM_IOCTL_RADEON_GEM_WAIT_IDLE, &wi) == 0;
        printf("planted runaway %s program: %s\n", runaway_vs ? "vertex" : "fragment",
               ok ? "a GPU hang, reported at the wait (EAGAIN) and reset, as the kernel does"
                  : "NOT reported as a hang");
        if (!ok)
            return 1;
    }
    /* read the colour buffer back */
    unsigned written = 0;
    for (unsigned i = 0; i < W * H; i++)
        written += px[i] != 0;
    /* row y of the buffer is window y (the viewport maps clip y = -1 to 0);
     * the centre pixel (8, 8) samples at (8.5, 8.5): clip (1/16, 1/16) */
    printf("colour buffer: %u of %u pixels written; centre 0x%08x, corner 0x%08x\n", written,
           W * H, px[(H / 2) * W + W / 2], px[0]);
    return runaway || (w == 0 && b == 0) ? 0 : 1;
}
