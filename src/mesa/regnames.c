/* Names of the R5xx 3D registers no lockstep stage models yet, so a command
 * stream's unknown registers are reported by name. Names and byte addresses
 * from AMD's R5xx register reference as transcribed by buhman/r500
 * (regs/3d_registers.txt, "MMReg:" column); WAIT_UNTIL from Mesa's
 * r300_reg.h (the kernel CS checker's RADEON_WAIT_UNTIL). One row per
 * register or register array: R(NAME, first byte address, count). */
#include <stdio.h>

#include "lockstep/mesa_cs.h"
#include "lockstep/mesa_draw.h"

#define MESA_OTHER_REGS(R)                                                                        \
    R(WAIT_UNTIL, 0x1720, 1)                                                                      \
    R(GB_MSPOS0, 0x4010, 1) R(GB_MSPOS1, 0x4014, 1) R(GB_SELECT, 0x401c, 1)                      \
    R(GB_AA_CONFIG, 0x4020, 1) R(GB_FIFO_SIZE, 0x4024, 1) R(GB_Z_PEQ_CONFIG, 0x4028, 1)          \
    R(GB_PIPE_SELECT, 0x402c, 1) R(GB_FIFO_SIZE1, 0x4070, 1)                                      \
    R(TX_INVALTAGS, 0x4100, 1) R(TX_ENABLE, 0x4104, 1) R(TX_FILTER4, 0x4110, 1)                  \
    R(SU_TEX_WRAP_PS3, 0x4114, 1) R(PS3_ENABLE, 0x4118, 1) R(PS3_VTX_FMT, 0x411c, 1)             \
    R(PS3_TEX_SOURCE, 0x4120, 1) R(GA_TRIANGLE_STIPPLE, 0x4214, 1) R(GA_FILL_R, 0x4220, 1)       \
    R(GA_FILL_B, 0x4228, 1) R(GA_FILL_A, 0x422c, 1) R(GA_LINE_STIPPLE_CONFIG, 0x4238, 1)         \
    R(GA_COLOR_CONTROL_PS3, 0x4258, 1) R(GA_IDLE, 0x425c, 1) R(GA_LINE_STIPPLE_VALUE, 0x4260, 1) \
    R(GA_LINE_S0, 0x4264, 1) R(GA_LINE_S1, 0x4268, 1) R(GA_FIFO_CNTL, 0x4270, 1)                 \
    R(GA_ENHANCE, 0x4274, 1) R(GA_SOLID_RG, 0x427c, 1) R(GA_SOLID_BA, 0x4280, 1)                 \
    R(GA_OFFSET, 0x4290, 1) R(GA_FOG_SCALE, 0x4294, 1) R(GA_FOG_OFFSET, 0x4298, 1)               \
    R(SU_TEX_WRAP, 0x42a0, 1) R(SU_DEPTH_SCALE, 0x42c0, 1) R(SU_DEPTH_OFFSET, 0x42c4, 1)         \
    R(SU_REG_DEST, 0x42c8, 1) R(SC_HYPERZ_EN, 0x43a4, 1) R(SC_SCREENDOOR, 0x43e8, 1)             \
    R(TX_FILTER0_, 0x4400, 16) R(TX_FILTER1_, 0x4440, 16) R(TX_FORMAT0_, 0x4480, 16)             \
    R(TX_FORMAT1_, 0x44c0, 16) R(TX_FORMAT2_, 0x4500, 16) R(TX_OFFSET_, 0x4540, 16)              \
    R(TX_CHROMA_KEY_, 0x4580, 16) R(TX_BORDER_COLOR_, 0x45c0, 16)                                 \
    R(RB3D_COLOR_CLEAR_VALUE_AR, 0x46c0, 1) R(RB3D_COLOR_CLEAR_VALUE_GB, 0x46c4, 1)              \
    R(FG_FOG_BLEND, 0x4bc0, 1) R(FG_FOG_FACTOR, 0x4bc4, 1) R(FG_FOG_COLOR_R, 0x4bc8, 1)          \
    R(FG_FOG_COLOR_G, 0x4bcc, 1) R(FG_FOG_COLOR_B, 0x4bd0, 1) R(FG_ALPHA_FUNC, 0x4bd4, 1)        \
    R(FG_DEPTH_SRC, 0x4bd8, 1) R(FG_ALPHA_VALUE, 0x4be0, 1)                                       \
    R(RB3D_CCTL, 0x4e00, 1) R(RB3D_BLENDCNTL, 0x4e04, 1) R(RB3D_ABLENDCNTL, 0x4e08, 1)           \
    R(RB3D_COLOR_CHANNEL_MASK, 0x4e0c, 1) R(RB3D_CONSTANT_COLOR, 0x4e10, 1)                       \
    R(RB3D_COLOR_CLEAR_VALUE, 0x4e14, 1) R(RB3D_ROPCNTL, 0x4e18, 1) R(RB3D_CLRCMP_FLIPE, 0x4e1c, 1) \
    R(RB3D_CLRCMP_CLR, 0x4e20, 1) R(RB3D_CLRCMP_MSK, 0x4e24, 1) R(RB3D_COLOROFFSET, 0x4e28, 4)   \
    R(RB3D_COLORPITCH, 0x4e38, 4) R(RB3D_DSTCACHE_CTLSTAT, 0x4e4c, 1) R(RB3D_DITHER_CTL, 0x4e50, 1) \
    R(RB3D_AARESOLVE_OFFSET, 0x4e80, 1) R(RB3D_AARESOLVE_PITCH, 0x4e84, 1)                        \
    R(RB3D_AARESOLVE_CTL, 0x4e88, 1) R(RB3D_DISCARD_SRC_PIXEL_LTE_THRESHOLD, 0x4ea0, 1)           \
    R(RB3D_DISCARD_SRC_PIXEL_GTE_THRESHOLD, 0x4ea4, 1) R(RB3D_FIFO_SIZE, 0x4ef4, 1)               \
    R(RB3D_CONSTANT_COLOR_AR, 0x4ef8, 1) R(RB3D_CONSTANT_COLOR_GB, 0x4efc, 1)                     \
    R(ZB_CNTL, 0x4f00, 1) R(ZB_ZSTENCILCNTL, 0x4f04, 1) R(ZB_STENCILREFMASK, 0x4f08, 1)          \
    R(ZB_FORMAT, 0x4f10, 1) R(ZB_ZTOP, 0x4f14, 1) R(ZB_ZCACHE_CTLSTAT, 0x4f18, 1)                \
    R(ZB_BW_CNTL, 0x4f1c, 1) R(ZB_DEPTHOFFSET, 0x4f20, 1) R(ZB_DEPTHPITCH, 0x4f24, 1)            \
    R(ZB_DEPTHCLEARVALUE, 0x4f28, 1) R(ZB_HIZ_OFFSET, 0x4f44, 1) R(ZB_HIZ_WRINDEX, 0x4f48, 1)    \
    R(ZB_HIZ_DWORD, 0x4f4c, 1) R(ZB_HIZ_RDINDEX, 0x4f50, 1) R(ZB_HIZ_PITCH, 0x4f54, 1)           \
    R(ZB_ZPASS_DATA, 0x4f58, 1) R(ZB_ZPASS_ADDR, 0x4f5c, 1) R(ZB_DEPTHXY_OFFSET, 0x4f60, 1)      \
    R(ZB_FIFO_SIZE, 0x4fd0, 1) R(ZB_STENCILREFMASK_BF, 0x4fd4, 1)                                 \
    R(VAP_PVS_STATE_FLUSH_REG, 0x2284, 1) R(VAP_PVS_VTX_TIMEOUT_REG, 0x2288, 1)                   \
    R(VAP_TEX_TO_COLOR_CNTL, 0x2218, 1) R(VAP_VF_MAX_VTX_INDX, 0x2134, 1)                         \
    R(VAP_VF_MIN_VTX_INDX, 0x2138, 1) R(VAP_VTX_STATE_CNTL, 0x2180, 1)

typedef struct other_reg {
    const char *name;
    uint32_t addr, count;
} other_reg;

static const other_reg other_regs[] = {
#define R_(n, a, c) {#n, a, c},
    MESA_OTHER_REGS(R_)
#undef R_
};

bool mesa_reg_name(uint32_t addr, char *buf, size_t n)
{
    const char *s = mesa_vf_reg_name(addr);
    if (!s)
        s = mesa_cs_reg_name(addr);
    for (int r = 0; !s && r < R500_RREG_COUNT; r++)
        if (r500_raster_reg_addr((r500_rreg)r) == addr)
            s = r500_raster_reg_name((r500_rreg)r);
    if (s) {
        snprintf(buf, n, "%s", s);
        return true;
    }
    for (size_t k = 0; k < sizeof other_regs / sizeof other_regs[0]; k++) {
        const other_reg *o = &other_regs[k];
        if (addr < o->addr || addr >= o->addr + 4 * o->count || (addr & 3))
            continue;
        if (o->count == 1)
            snprintf(buf, n, "%s", o->name);
        else
            snprintf(buf, n, "%s%u", o->name, (addr - o->addr) / 4);
        return true;
    }
    if (n)
        buf[0] = 0;
    return false;
}
