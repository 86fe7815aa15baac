/* The radeon kernel's R5xx command-stream checker (include/lockstep/mesa_cs_check.h).
 *
 * Sources, read (not copied): Linux drivers/gpu/drm/radeon/radeon_cs.c,
 * r300.c, r100.c, reg_srcs/rv515; the register and field values named below
 * from Mesa's r300_reg.h and libdrm's radeon_drm.h. Each rule cites the
 * kernel function it follows. Where the kernel does something only its own
 * memory layout explains (a size in dwords compared with bytes), the rule is
 * reproduced as the kernel has it and the comment says so. */
#include "lockstep/mesa_cs_check.h"
#include "lockstep/mesa_cs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* radeon_drm.h */
#define TILING_MACRO 0x1u
#define TILING_MICRO 0x2u
#define TILING_MICRO_SQUARE 0x20u
#define CS_KEEP_TILING_FLAGS 0x1u
#define CS_USE_VM 0x2u
#define GEM_DOMAIN_CPU 0x1u

/* ---- families ------------------------------------------------------------ */

static const char *const family_names[] = {"RV515", "R520", "RV530", "RV560", "RV570", "R580"};

const char *mesa_chip_family_name(mesa_chip_family f)
{
    return (unsigned)f < sizeof family_names / sizeof family_names[0] ? family_names[f] : "?";
}

/* PCI id ranges of the R5xx families (the kernel's drm_pciids.h lists single
 * ids; these ranges cover them). Only RV530 changes a checker rule. */
static const struct {
    unsigned lo, hi;
    mesa_chip_family f;
} family_ranges[] = {
    {0x7100, 0x713F, MESA_CHIP_R520},  {0x7140, 0x71BF, MESA_CHIP_RV515},
    {0x71C0, 0x71FF, MESA_CHIP_RV530}, {0x7200, 0x723F, MESA_CHIP_RV515},
    {0x7240, 0x727F, MESA_CHIP_R580},  {0x7281, 0x7281, MESA_CHIP_RV560},
    {0x7283, 0x7283, MESA_CHIP_RV560}, {0x7284, 0x7284, MESA_CHIP_R580},
    {0x7287, 0x7287, MESA_CHIP_RV560}, {0x7280, 0x728F, MESA_CHIP_RV570},
    {0x7290, 0x72FF, MESA_CHIP_RV560},
};

bool mesa_chip_family_of(unsigned pci_id, mesa_chip_family *f)
{
    for (size_t i = 0; i < sizeof family_ranges / sizeof family_ranges[0]; i++)
        if (pci_id >= family_ranges[i].lo && pci_id <= family_ranges[i].hi) {
            *f = family_ranges[i].f;
            return true;
        }
    return false;
}

void mesa_cs_check_options_default(mesa_cs_check_options *o)
{
    memset(o, 0, sizeof *o);
    o->family = MESA_CHIP_RV530;
    o->sizes_known = true;
}

/* ---- registers ----------------------------------------------------------- */

/* The R5xx safe list (reg_srcs/rv515): registers a type-0 packet may write
 * without a check. R(first, last, name): last = first for one register, else
 * a run of consecutive dwords whose name is the run's (suffix _0.. implied). */
#define MESA_CHK_SAFE(R)                                                                          \
    R(0x1434, 0x1434, "SRC_Y_X") R(0x1438, 0x1438, "DST_Y_X")                                    \
    R(0x143C, 0x143C, "DST_HEIGHT_WIDTH") R(0x146C, 0x146C, "DP_GUI_MASTER_CNTL")                 \
    R(0x1474, 0x1474, "BRUSH_Y_X") R(0x1478, 0x1478, "DP_BRUSH_BKGD_CLR")                        \
    R(0x147C, 0x147C, "DP_BRUSH_FRGD_CLR") R(0x1480, 0x1484, "BRUSH_DATA")                       \
    R(0x1598, 0x1598, "DST_WIDTH_HEIGHT") R(0x15C0, 0x15C0, "CLR_CMP_CNTL")                      \
    R(0x15C4, 0x15C4, "CLR_CMP_CLR_SRC") R(0x15C8, 0x15C8, "CLR_CMP_CLR_DST")                    \
    R(0x15CC, 0x15CC, "CLR_CMP_MSK") R(0x15D8, 0x15D8, "DP_SRC_FRGD_CLR")                        \
    R(0x15DC, 0x15DC, "DP_SRC_BKGD_CLR") R(0x1600, 0x1600, "DST_LINE_START")                     \
    R(0x1604, 0x1604, "DST_LINE_END") R(0x1608, 0x1608, "DST_LINE_PATCOUNT")                     \
    R(0x16C0, 0x16C0, "DP_CNTL") R(0x16CC, 0x16CC, "DP_WRITE_MSK")                               \
    R(0x16D0, 0x16D0, "DP_CNTL_XDIR_YDIR_YMAJOR") R(0x16E8, 0x16E8, "DEFAULT_SC_BOTTOM_RIGHT")   \
    R(0x16EC, 0x16EC, "SC_TOP_LEFT") R(0x16F0, 0x16F0, "SC_BOTTOM_RIGHT")                        \
    R(0x16F4, 0x16F4, "SRC_SC_BOTTOM_RIGHT") R(0x1714, 0x1714, "DSTCACHE_CTLSTAT")               \
    R(0x1720, 0x1720, "WAIT_UNTIL") R(0x172C, 0x172C, "RBBM_GUICNTL")                            \
    R(0x1D98, 0x1D98, "VAP_VPORT_XSCALE") R(0x1D9C, 0x1D9C, "VAP_VPORT_XOFFSET")                 \
    R(0x1DA0, 0x1DA0, "VAP_VPORT_YSCALE") R(0x1DA4, 0x1DA4, "VAP_VPORT_YOFFSET")                 \
    R(0x1DA8, 0x1DA8, "VAP_VPORT_ZSCALE") R(0x1DAC, 0x1DAC, "VAP_VPORT_ZOFFSET")                 \
    R(0x2080, 0x2080, "VAP_CNTL") R(0x208C, 0x208C, "VAP_INDEX_OFFSET")                          \
    R(0x2090, 0x2094, "VAP_OUT_VTX_FMT") R(0x20B0, 0x20B0, "VAP_VTE_CNTL")                       \
    R(0x2138, 0x2138, "VAP_VF_MIN_VTX_INDX") R(0x2140, 0x2140, "VAP_CNTL_STATUS")                \
    R(0x2150, 0x216C, "VAP_PROG_STREAM_CNTL") R(0x2180, 0x2180, "VAP_VTX_STATE_CNTL")            \
    R(0x2184, 0x2184, "VAP_VSM_VTX_ASSM") R(0x2188, 0x21C4, "VAP_VTX_STATE_IND_REG")             \
    R(0x21DC, 0x21DC, "VAP_PSC_SGN_NORM_CNTL") R(0x21E0, 0x21FC, "VAP_PROG_STREAM_CNTL_EXT")     \
    R(0x2200, 0x2200, "VAP_PVS_VECTOR_INDX_REG") R(0x2204, 0x2204, "VAP_PVS_VECTOR_DATA_REG")    \
    R(0x2208, 0x2208, "VAP_PVS_VECTOR_DATA_REG_128") R(0x2218, 0x2218, "VAP_TEX_TO_COLOR_CNTL")  \
    R(0x221C, 0x221C, "VAP_CLIP_CNTL") R(0x2220, 0x2220, "VAP_GB_VERT_CLIP_ADJ")                 \
    R(0x2224, 0x2224, "VAP_GB_VERT_DISC_ADJ") R(0x2228, 0x2228, "VAP_GB_HORZ_CLIP_ADJ")          \
    R(0x222C, 0x222C, "VAP_GB_HORZ_DISC_ADJ") R(0x2230, 0x226C, "VAP_PVS_FLOW_CNTL_ADDRS")       \
    R(0x2284, 0x2284, "VAP_PVS_STATE_FLUSH_REG") R(0x2288, 0x2288, "VAP_PVS_VTX_TIMEOUT_REG")    \
    R(0x2290, 0x22CC, "VAP_PVS_FLOW_CNTL_LOOP_INDEX") R(0x22D0, 0x22D0, "VAP_PVS_CODE_CNTL_0")   \
    R(0x22D4, 0x22D4, "VAP_PVS_CONST_CNTL") R(0x22D8, 0x22D8, "VAP_PVS_CODE_CNTL_1")             \
    R(0x22DC, 0x22DC, "VAP_PVS_FLOW_CNTL_OPC")                                                   \
    R(0x2500, 0x257C, "VAP_PVS_FLOW_CNTL_ADDRS_LW/UW")                                           \
    R(0x342C, 0x342C, "RB2D_DSTCACHE_CTLSTAT") R(0x4000, 0x4004, "GB_VAP_RASTER_VTX_FMT")        \
    R(0x4008, 0x4008, "GB_ENABLE") R(0x4010, 0x4010, "GB_MSPOS0") R(0x4014, 0x4014, "GB_MSPOS1") \
    R(0x401C, 0x401C, "GB_SELECT") R(0x4020, 0x4020, "GB_AA_CONFIG")                             \
    R(0x4024, 0x4024, "GB_FIFO_SIZE") R(0x4074, 0x40B0, "RS_IP")                                 \
    R(0x4100, 0x4100, "TX_INVALTAGS") R(0x4114, 0x4114, "SU_TEX_WRAP_PS3")                       \
    R(0x4118, 0x4118, "PS3_ENABLE") R(0x411C, 0x411C, "PS3_VTX_FMT")                             \
    R(0x4120, 0x4120, "PS3_TEX_SOURCE") R(0x4200, 0x4200, "GA_POINT_S0")                         \
    R(0x4204, 0x4204, "GA_POINT_T0") R(0x4208, 0x4208, "GA_POINT_S1")                            \
    R(0x420C, 0x420C, "GA_POINT_T1") R(0x4214, 0x4214, "GA_TRIANGLE_STIPPLE")                    \
    R(0x421C, 0x421C, "GA_POINT_SIZE") R(0x4230, 0x4230, "GA_POINT_MINMAX")                      \
    R(0x4234, 0x4234, "GA_LINE_CNTL") R(0x4238, 0x4238, "GA_LINE_STIPPLE_CONFIG")                \
    R(0x4250, 0x4250, "GA_US_VECTOR_INDEX") R(0x4254, 0x4254, "GA_US_VECTOR_DATA")               \
    R(0x4258, 0x4258, "GA_COLOR_CONTROL_PS3") R(0x4260, 0x4260, "GA_LINE_STIPPLE_VALUE")         \
    R(0x4264, 0x4264, "GA_LINE_S0") R(0x4268, 0x4268, "GA_LINE_S1")                              \
    R(0x4278, 0x4278, "GA_COLOR_CONTROL") R(0x427C, 0x427C, "GA_SOLID_RG")                       \
    R(0x4280, 0x4280, "GA_SOLID_BA") R(0x4288, 0x4288, "GA_POLY_MODE")                           \
    R(0x428C, 0x428C, "GA_ROUND_MODE") R(0x4290, 0x4290, "GA_OFFSET")                            \
    R(0x4294, 0x4294, "GA_FOG_SCALE") R(0x4298, 0x4298, "GA_FOG_OFFSET")                         \
    R(0x42A0, 0x42A0, "SU_TEX_WRAP") R(0x42A4, 0x42A4, "SU_POLY_OFFSET_FRONT_SCALE")             \
    R(0x42A8, 0x42A8, "SU_POLY_OFFSET_FRONT_OFFSET") R(0x42AC, 0x42AC, "SU_POLY_OFFSET_BACK_SCALE") \
    R(0x42B0, 0x42B0, "SU_POLY_OFFSET_BACK_OFFSET") R(0x42B4, 0x42B4, "SU_POLY_OFFSET_ENABLE")   \
    R(0x42B8, 0x42B8, "SU_CULL_MODE") R(0x42C0, 0x42C0, "SU_DEPTH_SCALE")                        \
    R(0x42C4, 0x42C4, "SU_DEPTH_OFFSET") R(0x42C8, 0x42C8, "SU_REG_DEST")                        \
    R(0x4300, 0x4300, "RS_COUNT") R(0x4304, 0x4304, "RS_INST_COUNT")                             \
    R(0x4320, 0x435C, "RS_INST") R(0x43A8, 0x43A8, "SC_EDGERULE")                                \
    R(0x43B0, 0x43CC, "SC_CLIP_n_A/B") R(0x43D0, 0x43D0, "SC_CLIP_RULE")                         \
    R(0x43E0, 0x43E0, "SC_SCISSOR0") R(0x43E8, 0x43E8, "SC_SCREENDOOR")                          \
    R(0x4440, 0x447C, "TX_FILTER1") R(0x4580, 0x45BC, "TX_CHROMA_KEY")                           \
    R(0x45C0, 0x45FC, "TX_BORDER_COLOR") R(0x4600, 0x4600, "US_CONFIG")                          \
    R(0x4604, 0x4604, "US_PIXSIZE") R(0x4620, 0x4620, "US_FC_BOOL_CONST")                        \
    R(0x4624, 0x4624, "US_FC_CTRL") R(0x4630, 0x4630, "US_CODE_ADDR")                            \
    R(0x4634, 0x4634, "US_CODE_RANGE") R(0x4638, 0x4638, "US_CODE_OFFSET")                       \
    R(0x4640, 0x467C, "US_FORMAT0") R(0x46A4, 0x46B0, "US_OUT_FMT")                              \
    R(0x46B4, 0x46B4, "US_W_FMT") R(0x4BC0, 0x4BC0, "FG_FOG_BLEND")                              \
    R(0x4BC4, 0x4BC4, "FG_FOG_FACTOR") R(0x4BC8, 0x4BD0, "FG_FOG_COLOR_R/G/B")                   \
    R(0x4BD4, 0x4BD4, "FG_ALPHA_FUNC") R(0x4BD8, 0x4BD8, "FG_DEPTH_SRC")                         \
    R(0x4BE0, 0x4BE0, "FG_ALPHA_VALUE") R(0x4C00, 0x4DFC, "US_ALU_CONST (R500: US_FC_INT_CONST)") \
    R(0x4E08, 0x4E08, "RB3D_ABLENDCNTL") R(0x4E10, 0x4E10, "RB3D_CONSTANT_COLOR")                \
    R(0x4E14, 0x4E14, "RB3D_COLOR_CLEAR_VALUE") R(0x4E18, 0x4E18, "RB3D_ROPCNTL")                \
    R(0x4E1C, 0x4E1C, "RB3D_CLRCMP_FLIPE") R(0x4E20, 0x4E20, "RB3D_CLRCMP_CLR")                  \
    R(0x4E24, 0x4E24, "RB3D_CLRCMP_MSK") R(0x4E48, 0x4E48, "RB3D_DEBUG_CTL")                     \
    R(0x4E4C, 0x4E4C, "RB3D_DSTCACHE_CTLSTAT") R(0x4E50, 0x4E50, "RB3D_DITHER_CTL")              \
    R(0x4E54, 0x4E60, "RB3D_CMASK_OFFSET") R(0x4E64, 0x4E70, "RB3D_CMASK_PITCH")                 \
    R(0x4E74, 0x4E74, "RB3D_CMASK_WRINDEX") R(0x4E78, 0x4E78, "RB3D_CMASK_DWORD")                \
    R(0x4E7C, 0x4E7C, "RB3D_CMASK_RDINDEX")                                                      \
    R(0x4EA0, 0x4EA0, "RB3D_DISCARD_SRC_PIXEL_LTE_THRESHOLD")                                    \
    R(0x4EA4, 0x4EA4, "RB3D_DISCARD_SRC_PIXEL_GTE_THRESHOLD")                                    \
    R(0x4EF8, 0x4EF8, "RB3D_CONSTANT_COLOR_AR") R(0x4EFC, 0x4EFC, "RB3D_CONSTANT_COLOR_GB")      \
    R(0x4F04, 0x4F04, "ZB_ZSTENCILCNTL") R(0x4F08, 0x4F08, "ZB_STENCILREFMASK")                  \
    R(0x4F14, 0x4F14, "ZB_ZTOP") R(0x4F18, 0x4F18, "ZB_ZCACHE_CTLSTAT")                          \
    R(0x4F28, 0x4F28, "ZB_DEPTHCLEARVALUE") R(0x4F58, 0x4F58, "ZB_ZPASS_DATA")                   \
    R(0x4FD4, 0x4FD4, "ZB_STENCILREFMASK_BF")

static const struct {
    uint32_t lo, hi;
    const char *name;
} safe_regs[] = {
#define MESA_CHK_SAFE_ROW_(lo, hi, name) {lo, hi, name},
    MESA_CHK_SAFE(MESA_CHK_SAFE_ROW_)
#undef MESA_CHK_SAFE_ROW_
};

/* The size of the kernel's safe bitmap: "rv515 0x6d40" (reg_srcs/rv515,
 * mkregtable): registers at or past it are outside the table. */
#define SAFE_TABLE_END 0x6D40u

/* Registers r300_packet0_check handles (checked or tracked), by byte
 * address (T(first, last, name, kind)). */
enum {
    K_VLINE, K_PITCH_OFFSET, K_CB_OFFSET, K_ZB_OFFSET, K_TX_OFFSET, K_VF_CNTL, K_VTX_SIZE,
    K_MAX_INDX, K_ALT_NVERTS, K_SCISSOR1, K_CCTL, K_CB_PITCH, K_ZB_CNTL, K_ZB_FORMAT,
    K_ZB_PITCH, K_TX_ENABLE, K_TX_FORMAT1, K_TX_FILTER0, K_TX_FORMAT2, K_TX_FORMAT0,
    K_ZPASS_ADDR, K_CHANNEL_MASK, K_HYPERZ_EN, K_ZB_BW_CNTL, K_BLENDCNTL, K_AA_OFFSET,
    K_AA_PITCH, K_AA_CTL, K_HIZ_REG, K_Z_PEQ, K_RV530_ONLY,
};
#define MESA_CHK_TRACKED(T)                                                                       \
    T(0x0218, 0x0218, "CRTC_GUI_TRIG_VLINE", K_VLINE)                                           \
    T(0x6538, 0x6538, "D1MODE_VLINE_START_END", K_VLINE)                                        \
    T(0x1428, 0x1428, "SRC_PITCH_OFFSET", K_PITCH_OFFSET)                                       \
    T(0x142C, 0x142C, "DST_PITCH_OFFSET", K_PITCH_OFFSET)                                       \
    T(0x2084, 0x2084, "VAP_VF_CNTL", K_VF_CNTL) T(0x2088, 0x2088, "VAP_ALT_NUM_VERTICES", K_ALT_NVERTS) \
    T(0x20B4, 0x20B4, "VAP_VTX_SIZE", K_VTX_SIZE)                                               \
    T(0x2134, 0x2134, "VAP_VF_MAX_VTX_INDX", K_MAX_INDX)                                        \
    T(0x4028, 0x4028, "GB_Z_PEQ_CONFIG", K_Z_PEQ) T(0x4104, 0x4104, "TX_ENABLE", K_TX_ENABLE)    \
    T(0x43A4, 0x43A4, "SC_HYPERZ_EN", K_HYPERZ_EN) T(0x43E4, 0x43E4, "SC_SCISSOR1", K_SCISSOR1)  \
    T(0x4400, 0x443C, "TX_FILTER0", K_TX_FILTER0) T(0x4480, 0x44BC, "TX_FORMAT0", K_TX_FORMAT0)  \
    T(0x44C0, 0x44FC, "TX_FORMAT1", K_TX_FORMAT1) T(0x4500, 0x453C, "TX_FORMAT2", K_TX_FORMAT2)  \
    T(0x4540, 0x457C, "TX_OFFSET", K_TX_OFFSET) T(0x4BE8, 0x4BE8, "(RV530 only)", K_RV530_ONLY)   \
    T(0x4E00, 0x4E00, "RB3D_CCTL", K_CCTL) T(0x4E04, 0x4E04, "RB3D_BLENDCNTL", K_BLENDCNTL)      \
    T(0x4E0C, 0x4E0C, "RB3D_COLOR_CHANNEL_MASK", K_CHANNEL_MASK)                                \
    T(0x4E28, 0x4E34, "RB3D_COLOROFFSET", K_CB_OFFSET)                                          \
    T(0x4E38, 0x4E44, "RB3D_COLORPITCH", K_CB_PITCH)                                            \
    T(0x4E80, 0x4E80, "RB3D_AARESOLVE_OFFSET", K_AA_OFFSET)                                     \
    T(0x4E84, 0x4E84, "RB3D_AARESOLVE_PITCH", K_AA_PITCH)                                       \
    T(0x4E88, 0x4E88, "RB3D_AARESOLVE_CTL", K_AA_CTL) T(0x4F00, 0x4F00, "ZB_CNTL", K_ZB_CNTL)    \
    T(0x4F10, 0x4F10, "ZB_FORMAT", K_ZB_FORMAT) T(0x4F1C, 0x4F1C, "ZB_BW_CNTL", K_ZB_BW_CNTL)    \
    T(0x4F20, 0x4F20, "ZB_DEPTHOFFSET", K_ZB_OFFSET) T(0x4F24, 0x4F24, "ZB_DEPTHPITCH", K_ZB_PITCH) \
    T(0x4F30, 0x4F30, "ZB_ZMASK_OFFSET", K_HIZ_REG) T(0x4F34, 0x4F34, "ZB_ZMASK_PITCH", K_HIZ_REG) \
    T(0x4F44, 0x4F44, "ZB_HIZ_OFFSET", K_HIZ_REG) T(0x4F54, 0x4F54, "ZB_HIZ_PITCH", K_HIZ_REG)    \
    T(0x4F5C, 0x4F5C, "ZB_ZPASS_ADDR", K_ZPASS_ADDR)

static const struct {
    uint32_t lo, hi;
    const char *name;
    int kind;
} tracked_regs[] = {
#define MESA_CHK_TRACKED_ROW_(lo, hi, name, kind) {lo, hi, name, kind},
    MESA_CHK_TRACKED(MESA_CHK_TRACKED_ROW_)
#undef MESA_CHK_TRACKED_ROW_
};

static bool is_safe(uint32_t reg)
{
    for (size_t i = 0; i < sizeof safe_regs / sizeof safe_regs[0]; i++)
        if (reg >= safe_regs[i].lo && reg <= safe_regs[i].hi)
            return true;
    return false;
}

static int tracked_kind(uint32_t reg, const char **name)
{
    for (size_t i = 0; i < sizeof tracked_regs / sizeof tracked_regs[0]; i++)
        if (reg >= tracked_regs[i].lo && reg <= tracked_regs[i].hi) {
            *name = tracked_regs[i].name;
            return tracked_regs[i].kind;
        }
    return -1;
}

const char *mesa_cs_check_reg_name(uint32_t addr)
{
    const char *n = NULL;
    if (tracked_kind(addr, &n) >= 0)
        return n;
    for (size_t i = 0; i < sizeof safe_regs / sizeof safe_regs[0]; i++)
        if (addr >= safe_regs[i].lo && addr <= safe_regs[i].hi)
            return safe_regs[i].name;
    return NULL;
}

/* ---- the tracker (r100_cs_track, r100_cs_track_clear for R300+) ----------- */

typedef struct tex_track {
    bool enabled, have_bo, roundup_w, roundup_h, use_pitch;
    uint64_t bo_size;
    unsigned width, height, width_11, height_11, pitch, num_levels, txdepth, cpp,
        coord_type, compress; /* 0 none, 1 DXT1, 2 DXT3/5 */
} tex_track;

typedef struct buf_track {
    bool have_bo;
    uint64_t bo_size;
    uint32_t offset, pitch, cpp;
} buf_track;

typedef struct checker {
    const mesa_cs_submit *s;
    const mesa_cs_check_options *o;
    uint32_t *patched;
    mesa_cs_check_result *r;
    ls_diag *d;
    size_t idx; /* p->idx: the next packet */
    /* r100_cs_track */
    unsigned num_cb, num_arrays;
    buf_track cb[4], zb, aa;
    bool cb_dirty, zb_dirty, tex_dirty, aa_dirty, z_enabled, aaresolve;
    uint32_t maxy, vap_vf_cntl, vap_alt_nverts, vtx_size, immd_dwords, max_indx,
        color_channel_mask;
    bool zb_cb_clear, blend_read_enable;
    struct {
        bool have_bo;
        uint64_t bo_size;
        uint32_t esize;
    } arrays[16];
    tex_track tex[16];
} checker;

static void track_clear(checker *c)
{
    /* r100_cs_track_clear, family >= R300 */
    c->cb_dirty = c->zb_dirty = c->tex_dirty = c->aa_dirty = true;
    c->num_cb = 4;
    c->maxy = 4096;
    c->aaresolve = false;
    for (int i = 0; i < 4; i++)
        c->cb[i] = (buf_track){false, 0, 0, 8192, 16};
    c->z_enabled = true;
    c->zb = (buf_track){false, 0, 0, 8192, 4};
    c->vtx_size = 0x7F;
    c->immd_dwords = 0xFFFFFFFFu;
    c->num_arrays = 11;
    c->max_indx = 0x00FFFFFFu;
    for (int i = 0; i < 16; i++) {
        c->arrays[i].have_bo = false;
        c->arrays[i].esize = 0x7F;
    }
    for (int i = 0; i < 16; i++) {
        tex_track *t = &c->tex[i];
        memset(t, 0, sizeof *t);
        t->pitch = t->width = t->height = 16536;
        t->width_11 = t->height_11 = 1u << 11;
        t->num_levels = 12;
        t->txdepth = 16;
        t->coord_type = 1;
        t->cpp = 64;
        t->roundup_w = t->roundup_h = true;
    }
}

/* A refusal: err, the packet, the register/opcode, the kernel's message,
 * and a diagnostic naming all of them. */
static ls_status refuse(checker *c, int err, long packet, uint32_t reg, int opcode,
                        const char *kernel, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
static ls_status refuse(checker *c, int err, long packet, uint32_t reg, int opcode,
                        const char *kernel, const char *fmt, ...)
{
    c->r->err = err;
    c->r->packet = packet;
    c->r->reg = reg;
    c->r->opcode = opcode;
    snprintf(c->r->kernel_log, sizeof c->r->kernel_log, "%s", kernel);
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ls_status st = err == ENOENT ? LS_ERR_RANGE : LS_ERR_PARSE;
    ls_diag_set(c->d, st, "cs", 0, 0, "%s (kernel: \"%s\", %s)", msg, kernel,
                err == ENOENT ? "ENOENT" : "EINVAL");
    if (packet >= 0)
        ls_diag_at_offset(c->d, packet * 4);
    return st;
}

/* ---- packets (radeon_cs_packet_parse) ------------------------------------ */

typedef struct pkt {
    size_t idx;
    unsigned type, count; /* count: data dwords - 1 (type 2: none) */
    uint32_t reg;
    bool one_reg_wr;
    unsigned opcode;
} pkt;

static const char *p3_name(unsigned op)
{
    const char *n = mesa_cs_packet3_name((uint8_t)op);
    return n ? n : "unknown";
}

static ls_status packet_parse(checker *c, size_t idx, pkt *p)
{
    size_t n = c->s->ib_dw;
    if (idx >= n)
        return refuse(c, EINVAL, (long)idx, 0, -1, "Can not parse packet after CS end",
                      "packet at dword %zu: past the end of the %zu-dword IB", idx, n);
    uint32_t h = c->s->ib[idx];
    p->idx = idx;
    p->type = h >> 30;
    p->count = (h >> 16) & 0x3FFF;
    p->one_reg_wr = false;
    p->reg = 0;
    p->opcode = 0;
    switch (p->type) {
    case 0:
        p->reg = (h & 0x1FFF) << 2;     /* R100_CP_PACKET0_GET_REG */
        p->one_reg_wr = (h >> 15) & 1;  /* RADEON_CP_PACKET0_GET_ONE_REG_WR */
        break;
    case 3: p->opcode = (h >> 8) & 0xFF; break;
    case 2: break;
    default:
        return refuse(c, EINVAL, (long)idx, 0, -1, "Unknown packet type 1",
                      "packet at dword %zu: type-1 packet (header 0x%08x); the R5xx checker "
                      "accepts types 0, 2 and 3",
                      idx, h);
    }
    /* "(pkt->count + 1 + pkt->idx) >= ib_chunk->length_dw": the last data
     * dword must lie inside the IB (type 2 has none) */
    size_t last = p->type == 2 ? idx : idx + p->count + 1;
    if (last >= n)
        return refuse(c, EINVAL, (long)idx, p->reg, p->type == 3 ? (int)p->opcode : -1,
                      "Packet end after CS buffer",
                      "packet at dword %zu (type %u, %u data dwords) ends after the %zu-dword IB",
                      idx, p->type, p->count + 1, n);
    return LS_OK;
}

/* radeon_cs_packet_next_reloc: the packet at c->idx must be a type-3 NOP
 * whose first data dword indexes the relocation chunk (dwords, 4 a
 * relocation); consumes it. what/owner name the packet that needed it. */
static ls_status next_reloc(checker *c, const pkt *owner, uint32_t reg, const char *what,
                            const mesa_cs_bo_info **bo)
{
    *bo = NULL;
    int op = owner->type == 3 ? (int)owner->opcode : -1;
    if (!c->s->relocs)
        return refuse(c, EINVAL, (long)owner->idx, reg, op, "No relocation chunk !",
                      "%s at dword %zu needs a relocation but the CS has no relocation chunk",
                      what, owner->idx);
    pkt p3 = {0};
    ls_status st = packet_parse(c, c->idx, &p3);
    if (st)
        return st;
    c->idx += p3.type == 2 ? 1 : p3.count + 2;
    if (p3.type != 3 || p3.opcode != 0x10)
        return refuse(c, EINVAL, (long)owner->idx, reg, op, "No packet3 for relocation for packet",
                      "%s at dword %zu needs a relocation: the packet after it (dword %zu) is "
                      "not a type-3 NOP",
                      what, owner->idx, p3.idx);
    uint32_t ridx = c->s->ib[p3.idx + 1];
    if (ridx >= c->s->relocs_dw)
        return refuse(c, EINVAL, (long)owner->idx, reg, op, "Relocs at after relocations chunk end",
                      "%s at dword %zu: its relocation NOP (dword %zu) points at relocation "
                      "dword %u, past the %zu-dword relocation chunk",
                      what, owner->idx, p3.idx, ridx, c->s->relocs_dw);
    size_t k = ridx / 4; /* "FIXME: we assume reloc size is 4 dwords" */
    static const mesa_cs_bo_info unknown = {true, UINT64_MAX, 0};
    *bo = k < c->s->nbos && c->o->sizes_known ? &c->s->bos[k] : &unknown;
    return LS_OK;
}

static uint32_t ibv(const checker *c, size_t i) { return c->s->ib[i]; }
static void patch(checker *c, size_t i, uint32_t v)
{
    if (c->patched)
        c->patched[i] = v;
}

/* ---- type 0 (r300_packet0_check) ---------------------------------------- */

static ls_status forbidden(checker *c, const pkt *p, size_t idx, uint32_t reg, const char *why)
{
    const char *name = mesa_cs_check_reg_name(reg);
    return refuse(c, EINVAL, (long)p->idx, reg, -1, "Forbidden register in cs",
                  "type-0 packet at dword %zu writes register 0x%04X%s%s%s (dword %zu, value "
                  "0x%08x): %s",
                  p->idx, reg, name ? " (" : "", name ? name : "", name ? ")" : "", idx,
                  ibv(c, idx), why);
}

static ls_status reloc_reg(checker *c, const pkt *p, size_t idx, uint32_t reg, const char *name,
                           const mesa_cs_bo_info **bo)
{
    char what[96];
    snprintf(what, sizeof what, "register 0x%04X %s (type-0 packet", reg, name);
    ls_status st = next_reloc(c, p, reg, what, bo);
    if (st && c->r->kernel_log[0] == 'N' && !strncmp(c->r->kernel_log, "No packet3", 10)) {
        /* the kernel's message for a tracked register: "No reloc for ib[%d]=0x%04X" */
        snprintf(c->r->kernel_log, sizeof c->r->kernel_log, "No reloc for ib[%zu]=0x%04X", idx, reg);
    }
    return st;
}

static unsigned tex_cpp(unsigned fmt, unsigned *compress, bool *ok)
{
    *ok = true;
    *compress = 0;
    switch (fmt) { /* r300_packet0_check, TX_FORMAT1; values: Mesa r300_reg.h R300_TX_FORMAT_* */
    case 0: case 2: case 5: return 1;                         /* X8, Y4X4, Z3Y3X2 */
    case 1: case 24: case 3: case 6: case 7: case 10: case 11: /* X16, FL_I16, Y8X8, Z5Y6X5, Z6Y5X5, W4Z4Y4X4, W1Z5Y5X5 */
    case 18: case 19: case 20: return 2;                      /* CxV8U8, B8G8_B8G8, G8R8_G8B8 */
    case 4: case 25: case 8: case 9: case 12: case 13: case 0x17: case 27: case 0x1e:
        return 4; /* Y16X16, FL_I16A16, Z11Y11X10, Z10Y11X11, W8Z8Y8X8, W2Z10Y10X10, 0x17, FL_I32, 0x1e */
    case 14: case 26: case 28: return 8; /* W16Z16Y16X16, FL_R16G16B16A16, FL_I32A32 */
    case 29: return 16;                  /* FL_R32G32B32A32 */
    case 15: *compress = 1; return 1;    /* DXT1 */
    case 31:                             /* ATI2N: R420 and later, so R5xx */
    case 16: case 17: *compress = 2; return 1; /* DXT3, DXT5 */
    default: *ok = false; return 0;
    }
}

static ls_status packet0_check(checker *c, const pkt *p, size_t idx, uint32_t reg)
{
    const char *name = "";
    int kind = tracked_kind(reg, &name);
    uint32_t v = ibv(c, idx);
    const mesa_cs_bo_info *bo;
    ls_status st;
    bool keep_tiling = c->s->flags && c->s->flags_dw && (c->s->flags[0] & CS_KEEP_TILING_FLAGS);
    unsigned i;
    switch (kind) {
    case K_VLINE:
        /* r100_cs_packet_parse_vline: the CRTC named by the following NOP must
         * exist (drm_crtc_find); the fake device has no display. The WAIT_UNTIL
         * structure checks that come first in the kernel are not modelled. */
        return refuse(c, ENOENT, (long)p->idx, reg, -1, "cannot find crtc",
                      "type-0 packet at dword %zu writes %s (0x%04X): a VLINE wait needs a CRTC "
                      "and the device has none",
                      p->idx, name, reg);
    case K_PITCH_OFFSET:
        if ((st = reloc_reg(c, p, idx, reg, name, &bo)))
            return st;
        /* r100_reloc_pitch_offset: no blit source from a micro-tiled surface */
        if (!keep_tiling && (bo->tiling_flags & TILING_MICRO) && reg == 0x1428)
            return refuse(c, EINVAL, (long)p->idx, reg, -1, "Cannot src blit from microtiled surface",
                          "type-0 packet at dword %zu: SRC_PITCH_OFFSET names a micro-tiled buffer",
                          p->idx);
        if (!keep_tiling) {
            uint32_t t = v & 0x003FFFFFu;
            if (bo->tiling_flags & TILING_MACRO)
                t |= 1u << 30; /* RADEON_DST_TILE_MACRO */
            if (bo->tiling_flags & TILING_MICRO)
                t |= 2u << 30; /* RADEON_DST_TILE_MICRO */
            patch(c, idx, (v & 0x3FC00000u) | t);
        }
        return LS_OK;
    case K_CB_OFFSET:
        if ((st = reloc_reg(c, p, idx, reg, name, &bo)))
            return st;
        i = (reg - 0x4E28) >> 2;
        c->cb[i].have_bo = bo->exists;
        c->cb[i].bo_size = bo->size;
        c->cb[i].offset = v;
        c->cb_dirty = true;
        return LS_OK;
    case K_ZB_OFFSET:
        if ((st = reloc_reg(c, p, idx, reg, name, &bo)))
            return st;
        c->zb.have_bo = true;
        c->zb.bo_size = bo->size;
        c->zb.offset = v;
        c->zb_dirty = true;
        return LS_OK;
    case K_TX_OFFSET:
        i = (reg - 0x4540) >> 2;
        if ((st = reloc_reg(c, p, idx, reg, name, &bo)))
            return st;
        if (!keep_tiling) {
            uint32_t t = 0;
            if (bo->tiling_flags & TILING_MACRO)
                t |= 1u << 2; /* R300_TXO_MACRO_TILE */
            if (bo->tiling_flags & TILING_MICRO)
                t |= 1u << 3; /* R300_TXO_MICRO_TILE */
            else if (bo->tiling_flags & TILING_MICRO_SQUARE)
                t |= 2u << 3; /* R300_TXO_MICRO_TILE_SQUARE */
            patch(c, idx, v | t);
        }
        c->tex[i].have_bo = true;
        c->tex[i].bo_size = bo->size;
        c->tex_dirty = true;
        return LS_OK;
    case K_VF_CNTL: c->vap_vf_cntl = v; return LS_OK;
    case K_VTX_SIZE: c->vtx_size = v & 0x7F; return LS_OK;
    case K_MAX_INDX: c->max_indx = v & 0x00FFFFFFu; return LS_OK;
    case K_ALT_NVERTS: c->vap_alt_nverts = v & 0xFFFFFF; return LS_OK; /* valid on R5xx */
    case K_SCISSOR1:
        c->maxy = ((v >> 13) & 0x1FFF) + 1; /* R5xx: no 1440 offset */
        c->cb_dirty = c->zb_dirty = true;
        return LS_OK;
    case K_CCTL:
        if ((v & (1u << 10)) && !c->o->cmask)
            return refuse(c, EINVAL, (long)p->idx, reg, -1, "Invalid RB3D_CCTL: Cannot enable CMASK.",
                          "type-0 packet at dword %zu: RB3D_CCTL enables CMASK (bit 10) but this "
                          "client does not own the CMASK (RADEON_INFO_WANT_CMASK)",
                          p->idx);
        c->num_cb = ((v >> 5) & 3) + 1;
        c->cb_dirty = true;
        return LS_OK;
    case K_CB_PITCH: {
        i = (reg - 0x4E38) >> 2;
        if (!keep_tiling) {
            if ((st = reloc_reg(c, p, idx, reg, name, &bo)))
                return st;
            uint32_t t = 0;
            if (bo->tiling_flags & TILING_MACRO)
                t |= 1u << 16; /* R300_COLOR_TILE_ENABLE */
            if (bo->tiling_flags & TILING_MICRO)
                t |= 1u << 17; /* R300_COLOR_MICROTILE_ENABLE */
            else if (bo->tiling_flags & TILING_MICRO_SQUARE)
                t |= 2u << 17; /* R300_COLOR_MICROTILE_SQUARE_ENABLE */
            patch(c, idx, (v & ~(7u << 16)) | t);
        }
        c->cb[i].pitch = v & 0x3FFE;
        unsigned f = (v >> 21) & 0xF;
        switch (f) {
        case 9: case 11: case 12: c->cb[i].cpp = 1; break;
        case 3: case 4: case 13: case 15: c->cb[i].cpp = 2; break;
        case 5: case 6: c->cb[i].cpp = 4; break; /* 5 is valid from RV515 on */
        case 10: c->cb[i].cpp = 8; break;
        case 7: c->cb[i].cpp = 16; break;
        default:
            return refuse(c, EINVAL, (long)p->idx, reg, -1, "Invalid color buffer format",
                          "type-0 packet at dword %zu: RB3D_COLORPITCH%u format %u is not a colour "
                          "buffer format",
                          p->idx, i, f);
        }
        c->cb_dirty = true;
        return LS_OK;
    }
    case K_ZB_CNTL: c->z_enabled = (v & 2) != 0; c->zb_dirty = true; return LS_OK;
    case K_ZB_FORMAT:
        switch (v & 0xF) {
        case 0: case 1: c->zb.cpp = 2; break;
        case 2: c->zb.cpp = 4; break;
        default:
            return refuse(c, EINVAL, (long)p->idx, reg, -1, "Invalid z buffer format",
                          "type-0 packet at dword %zu: ZB_FORMAT depth format %u is not 0, 1 or 2",
                          p->idx, v & 0xF);
        }
        c->zb_dirty = true;
        return LS_OK;
    case K_ZB_PITCH:
        if (!keep_tiling) {
            if ((st = reloc_reg(c, p, idx, reg, name, &bo)))
                return st;
            uint32_t t = 0;
            if (bo->tiling_flags & TILING_MACRO)
                t |= 1u << 16; /* R300_DEPTHMACROTILE_ENABLE */
            if (bo->tiling_flags & TILING_MICRO)
                t |= 1u << 17; /* R300_DEPTHMICROTILE_TILED */
            else if (bo->tiling_flags & TILING_MICRO_SQUARE)
                t |= 2u << 17; /* R300_DEPTHMICROTILE_TILED_SQUARE */
            patch(c, idx, (v & ~(7u << 16)) | t);
        }
        c->zb.pitch = v & 0x3FFC;
        c->zb_dirty = true;
        return LS_OK;
    case K_TX_ENABLE:
        for (i = 0; i < 16; i++)
            c->tex[i].enabled = (v >> i) & 1;
        c->tex_dirty = true;
        return LS_OK;
    case K_TX_FORMAT1: {
        i = (reg - 0x44C0) >> 2;
        c->tex[i].coord_type = (v >> 25) & 3;
        bool ok;
        unsigned cmp;
        unsigned cpp = tex_cpp(v & 0x1F, &cmp, &ok);
        if (!ok)
            return refuse(c, EINVAL, (long)p->idx, reg, -1, "Invalid texture format",
                          "type-0 packet at dword %zu: TX_FORMAT1_%u texture format %u is not valid",
                          p->idx, i, v & 0x1F);
        c->tex[i].cpp = cpp;
        c->tex[i].compress = cmp;
        c->tex_dirty = true;
        return LS_OK;
    }
    case K_TX_FILTER0: {
        i = (reg - 0x4400) >> 2;
        unsigned t = v & 7;
        if (t == 2 || t == 4 || t == 6)
            c->tex[i].roundup_w = false;
        t = (v >> 3) & 7;
        if (t == 2 || t == 4 || t == 6)
            c->tex[i].roundup_h = false;
        c->tex_dirty = true;
        return LS_OK;
    }
    case K_TX_FORMAT2:
        i = (reg - 0x4500) >> 2;
        c->tex[i].pitch = (v & 0x3FFF) + 1;
        c->tex[i].width_11 = ((v >> 15) & 1) << 11;
        c->tex[i].height_11 = ((v >> 16) & 1) << 11;
        if (v & (1u << 14))
            c->tex[i].compress = 1; /* ATI1N: DXT1's rules */
        c->tex_dirty = true;
        return LS_OK;
    case K_TX_FORMAT0:
        i = (reg - 0x4480) >> 2;
        c->tex[i].width = (v & 0x7FF) + 1;
        c->tex[i].height = ((v >> 11) & 0x7FF) + 1;
        c->tex[i].num_levels = (v >> 26) & 0xF;
        c->tex[i].use_pitch = (v >> 31) & 1;
        c->tex[i].txdepth = (v >> 22) & 0xF;
        c->tex_dirty = true;
        return LS_OK;
    case K_ZPASS_ADDR: return reloc_reg(c, p, idx, reg, name, &bo);
    case K_CHANNEL_MASK: c->color_channel_mask = v; c->cb_dirty = true; return LS_OK;
    case K_HYPERZ_EN:
        /* "r300c emits this register - we need to disable hyperz for it
         * without complaining": the enable bit is cleared */
        if (!c->o->hyperz && (v & 1))
            patch(c, idx, v & ~1u);
        return LS_OK;
    case K_ZB_BW_CNTL:
        c->zb_cb_clear = (v >> 5) & 1;
        c->cb_dirty = c->zb_dirty = true;
        /* HIZ_ENABLE 0, FAST_FILL_ENABLE 2, RD_COMP_ENABLE 3, WR_COMP_ENABLE 4 */
        if (!c->o->hyperz && (v & ((1u << 0) | (1u << 2) | (1u << 3) | (1u << 4))))
            return forbidden(c, p, idx, reg, "HyperZ bits set without HyperZ ownership");
        return LS_OK;
    case K_BLENDCNTL: c->blend_read_enable = (v >> 2) & 1; c->cb_dirty = true; return LS_OK;
    case K_AA_OFFSET:
        if ((st = reloc_reg(c, p, idx, reg, name, &bo)))
            return st;
        c->aa.have_bo = true;
        c->aa.bo_size = bo->size;
        c->aa.offset = v;
        c->aa_dirty = true;
        return LS_OK;
    case K_AA_PITCH: c->aa.pitch = v & 0x3FFE; c->aa_dirty = true; return LS_OK;
    case K_AA_CTL: c->aaresolve = v & 1; c->aa_dirty = true; return LS_OK;
    case K_HIZ_REG:
        if (v && !c->o->hyperz)
            return forbidden(c, p, idx, reg, "a HyperZ register set without HyperZ ownership");
        return LS_OK;
    case K_Z_PEQ: /* GB_Z_PEQ_CONFIG: valid from RV350 on, non-zero only with HyperZ */
        if (v && !c->o->hyperz)
            return forbidden(c, p, idx, reg, "non-zero without HyperZ ownership");
        return LS_OK;
    case K_RV530_ONLY:
        if (c->o->family == MESA_CHIP_RV530)
            return LS_OK;
        return forbidden(c, p, idx, reg, "valid on RV530 only");
    default: return forbidden(c, p, idx, reg, "neither on the R5xx safe list nor checked");
    }
}

/* r100_cs_parse_packet0 */
static ls_status parse_packet0(checker *c, const pkt *p)
{
    uint32_t reg = p->reg;
    uint32_t top = p->one_reg_wr ? reg : reg + (p->count << 2);
    if ((top >> 7) > (SAFE_TABLE_END >> 7))
        return refuse(c, EINVAL, (long)p->idx, top, -1, "(register range check, no message)",
                      "type-0 packet at dword %zu writes register 0x%04X, outside the checker's "
                      "register table (ends at 0x%04X)",
                      p->idx, top, SAFE_TABLE_END);
    size_t idx = p->idx + 1;
    for (unsigned i = 0; i <= p->count; i++, idx++) {
        bool safe = reg < SAFE_TABLE_END && is_safe(reg);
        if (!safe) {
            ls_status st = packet0_check(c, p, idx, reg);
            if (st)
                return st;
        }
        if (p->one_reg_wr) {
            if (safe)
                break; /* the kernel checks the rest of a ONE_REG_WR packet no further */
        } else {
            reg += 4;
        }
    }
    return LS_OK;
}

/* ---- draws (r100_cs_track_check) ----------------------------------------- */

static uint64_t roundup_pow2(uint64_t v)
{
    uint64_t r = 1;
    while (r < v)
        r <<= 1;
    return r; /* roundup_pow_of_two(0): 1 (x86's shift count wraps) */
}

static uint64_t compress_size(unsigned cf, uint64_t w, uint64_t h)
{
    /* r100_track_compress_size: 4x4 blocks, DXT1 8 bytes (min 4 wide),
     * DXT3/5 16 bytes (min 2 wide) */
    uint64_t bytes = cf == 1 ? 8 : 16, minw = cf == 1 ? 4 : 2;
    uint64_t wb = (w + 3) / 4, hb = (h + 3) / 4;
    if (wb < minw)
        wb = minw;
    return wb * hb * bytes;
}

static ls_status texture_check(checker *c, const pkt *p)
{
    for (unsigned u = 0; u < 16; u++) {
        const tex_track *t = &c->tex[u];
        if (!t->enabled)
            continue;
        if (!t->have_bo)
            return refuse(c, EINVAL, (long)p->idx, 0x4540 + 4 * u, (int)p->opcode,
                          "No texture bound to unit",
                          "%s at dword %zu: texture unit %u is enabled (TX_ENABLE) but no "
                          "TX_OFFSET_%u relocation names its buffer",
                          p3_name(p->opcode), p->idx, u, u);
        uint64_t size = 0;
        for (unsigned i = 0; i <= t->num_levels; i++) {
            uint64_t w, h, dd;
            if (t->use_pitch) {
                w = (uint64_t)t->pitch >> i;
            } else {
                w = (uint64_t)(t->width | t->width_11) >> i;
                if (t->roundup_w)
                    w = roundup_pow2(w);
            }
            h = (uint64_t)(t->height | t->height_11) >> i;
            if (t->roundup_h)
                h = roundup_pow2(h);
            if (t->coord_type == 1) {
                dd = (t->txdepth < 64 ? (1ull << t->txdepth) : 0) >> i;
                if (!dd)
                    dd = 1;
            } else {
                dd = 1;
            }
            size += t->compress ? compress_size(t->compress, w, h) * dd : w * h * dd;
        }
        size *= t->cpp;
        if (t->coord_type == 2)
            size *= 6; /* cube: six faces in one buffer on R300+ */
        else if (t->coord_type == 3)
            return refuse(c, EINVAL, (long)p->idx, 0x44C0 + 4 * u, (int)p->opcode,
                          "Invalid texture coordinate type",
                          "%s at dword %zu: texture unit %u has coordinate type 3",
                          p3_name(p->opcode), p->idx, u);
        if (size > t->bo_size)
            return refuse(c, EINVAL, (long)p->idx, 0x4540 + 4 * u, (int)p->opcode,
                          "Texture of unit needs more bytes than its buffer",
                          "%s at dword %zu: texture unit %u needs %llu bytes, its buffer has %llu",
                          p3_name(p->opcode), p->idx, u, (unsigned long long)size,
                          (unsigned long long)t->bo_size);
    }
    return LS_OK;
}

static ls_status track_check(checker *c, const pkt *p)
{
    c->r->draws++;
    const char *pn = p3_name(p->opcode);
    int op = (int)p->opcode;
    unsigned num_cb = c->cb_dirty ? c->num_cb : 0;
    if (num_cb && !c->zb_cb_clear && !c->color_channel_mask && !c->blend_read_enable)
        num_cb = 0;
    for (unsigned i = 0; i < num_cb; i++) {
        if (!c->cb[i].have_bo)
            return refuse(c, EINVAL, (long)p->idx, 0x4E28 + 4 * i, op, "No buffer for color buffer",
                          "%s at dword %zu: colour buffer %u has no buffer (no RB3D_COLOROFFSET%u "
                          "relocation)",
                          pn, p->idx, i, i);
        uint64_t size = (uint64_t)c->cb[i].pitch * c->cb[i].cpp * c->maxy + c->cb[i].offset;
        if (size > c->cb[i].bo_size)
            return refuse(c, EINVAL, (long)p->idx, 0x4E38 + 4 * i, op,
                          "Buffer too small for color buffer",
                          "%s at dword %zu: colour buffer %u needs %llu bytes (pitch %u x %u "
                          "bytes x %u rows + offset %u), its buffer has %llu",
                          pn, p->idx, i, (unsigned long long)size, c->cb[i].pitch, c->cb[i].cpp,
                          c->maxy, c->cb[i].offset, (unsigned long long)c->cb[i].bo_size);
    }
    c->cb_dirty = false;
    if (c->zb_dirty && c->z_enabled) {
        if (!c->zb.have_bo)
            return refuse(c, EINVAL, (long)p->idx, 0x4F20, op, "No buffer for z buffer !",
                          "%s at dword %zu: depth is enabled (ZB_CNTL) but no ZB_DEPTHOFFSET "
                          "relocation names its buffer",
                          pn, p->idx);
        uint64_t size = (uint64_t)c->zb.pitch * c->zb.cpp * c->maxy + c->zb.offset;
        if (size > c->zb.bo_size)
            return refuse(c, EINVAL, (long)p->idx, 0x4F24, op, "Buffer too small for z buffer",
                          "%s at dword %zu: the depth buffer needs %llu bytes, its buffer has %llu",
                          pn, p->idx, (unsigned long long)size, (unsigned long long)c->zb.bo_size);
    }
    c->zb_dirty = false;
    if (c->aa_dirty && c->aaresolve) {
        if (!c->aa.have_bo)
            return refuse(c, EINVAL, (long)p->idx, 0x4E80, op, "No buffer for AA resolve buffer",
                          "%s at dword %zu: AA resolve is enabled but no RB3D_AARESOLVE_OFFSET "
                          "relocation names its buffer",
                          pn, p->idx);
        uint64_t size = (uint64_t)c->aa.pitch * c->cb[0].cpp * c->maxy + c->aa.offset;
        if (size > c->aa.bo_size)
            return refuse(c, EINVAL, (long)p->idx, 0x4E84, op,
                          "Buffer too small for AA resolve buffer",
                          "%s at dword %zu: the AA resolve buffer needs %llu bytes, its buffer "
                          "has %llu",
                          pn, p->idx, (unsigned long long)size, (unsigned long long)c->aa.bo_size);
    }
    c->aa_dirty = false;
    unsigned walk = (c->vap_vf_cntl >> 4) & 3;
    uint64_t nverts = (c->vap_vf_cntl & (1u << 14)) ? c->vap_alt_nverts : (c->vap_vf_cntl >> 16);
    switch (walk) {
    case 1:
    case 2:
        for (unsigned i = 0; i < c->num_arrays && i < 16; i++) {
            /* PRIM_WALK 1 (indices): stride x VAP_VF_MAX_VTX_INDX; 2 (vertex
             * list): stride x (nverts - 1); the kernel compares bytes with
             * the buffer's size and ignores the array's offset */
            uint64_t n = walk == 1 ? c->max_indx : (uint64_t)(uint32_t)(nverts - 1);
            uint64_t size = (uint64_t)c->arrays[i].esize * n * 4;
            if (!c->arrays[i].have_bo)
                return refuse(c, EINVAL, (long)p->idx, 0, op, "Vertex array no buffer bound",
                              "%s at dword %zu: vertex array %u has no buffer (PRIM_WALK %u; "
                              "3D_LOAD_VBPNTR set %u arrays)",
                              pn, p->idx, i, walk, c->num_arrays);
            if (size > c->arrays[i].bo_size)
                return refuse(c, EINVAL, (long)p->idx, 0, op, "Vertex array need dwords have dwords",
                              "%s at dword %zu: vertex array %u needs %llu bytes, its buffer has %llu",
                              pn, p->idx, i, (unsigned long long)size,
                              (unsigned long long)c->arrays[i].bo_size);
        }
        break;
    case 3: {
        uint64_t size = (uint64_t)c->vtx_size * nverts;
        if (size != c->immd_dwords)
            return refuse(c, EINVAL, (long)p->idx, 0x20B4, op, "IMMD draw dwords but needs dwords",
                          "%s at dword %zu: %u vertex dwords in the packet, VAP_VTX_SIZE %u x "
                          "%llu vertices needs %llu",
                          pn, p->idx, c->immd_dwords, c->vtx_size, (unsigned long long)nverts,
                          (unsigned long long)size);
        break;
    }
    default:
        return refuse(c, EINVAL, (long)p->idx, 0x2084, op, "Invalid primitive walk for VAP_VF_CNTL",
                      "%s at dword %zu: VAP_VF_CNTL 0x%08x has PRIM_WALK 0", pn, p->idx,
                      c->vap_vf_cntl);
    }
    if (c->tex_dirty) {
        c->tex_dirty = false;
        return texture_check(c, p);
    }
    return LS_OK;
}

/* ---- type 3 (r300_packet3_check) ----------------------------------------- */

static ls_status packet3_check(checker *c, const pkt *p)
{
    size_t idx = p->idx + 1;
    const mesa_cs_bo_info *bo;
    ls_status st;
    int op = (int)p->opcode;
    const char *pn = p3_name(p->opcode);
    switch (p->opcode) {
    case 0x2F: { /* 3D_LOAD_VBPNTR: r100_packet3_load_vbpntr */
        unsigned n = ibv(c, idx++) & 0x1F;
        if (n > 16)
            return refuse(c, EINVAL, (long)p->idx, 0, op, "Only 16 vertex buffers are allowed",
                          "3D_LOAD_VBPNTR at dword %zu: %u arrays (at most 16)", p->idx, n);
        c->num_arrays = n;
        unsigned i = 0;
        for (; n >= 2 && i < n - 1; i += 2, idx += 3) {
            /* the kernel reads these dwords without a bound of its own: past
             * the packet they are later packets (still inside the IB) */
            if (idx + 2 >= c->s->ib_dw)
                return refuse(c, EINVAL, (long)p->idx, 0, op, "(read past the IB)",
                              "3D_LOAD_VBPNTR at dword %zu: its arrays run past the IB", p->idx);
            uint32_t v = ibv(c, idx);
            for (int half = 0; half < 2; half++) {
                if ((st = next_reloc(c, p, 0, "3D_LOAD_VBPNTR", &bo)))
                    return st;
                c->arrays[i + half].have_bo = true;
                c->arrays[i + half].bo_size = bo->size;
                c->arrays[i + half].esize = (v >> (half ? 24 : 8)) & 0x7F;
            }
        }
        if (n & 1) {
            if (idx + 1 >= c->s->ib_dw)
                return refuse(c, EINVAL, (long)p->idx, 0, op, "(read past the IB)",
                              "3D_LOAD_VBPNTR at dword %zu: its arrays run past the IB", p->idx);
            uint32_t v = ibv(c, idx);
            if ((st = next_reloc(c, p, 0, "3D_LOAD_VBPNTR", &bo)))
                return st;
            c->arrays[i].have_bo = true;
            c->arrays[i].bo_size = bo->size;
            c->arrays[i].esize = (v >> 8) & 0x7F;
        }
        return LS_OK;
    }
    case 0x33: /* INDX_BUFFER */
        if ((st = next_reloc(c, p, 0, "INDX_BUFFER", &bo)))
            return st;
        /* r100_cs_track_check_pkt3_indx_buffer: the size dword (idx + 2; in
         * dwords) + 1 against the buffer's size in bytes, as the kernel has it */
        if (idx + 2 < c->s->ib_dw && (uint64_t)ibv(c, idx + 2) + 1 > bo->size)
            return refuse(c, EINVAL, (long)p->idx, 0, op, "Buffer too small for PACKET3 INDX_BUFFER",
                          "INDX_BUFFER at dword %zu: needs %llu, its buffer has %llu bytes",
                          p->idx, (unsigned long long)ibv(c, idx + 2) + 1,
                          (unsigned long long)bo->size);
        return LS_OK;
    case 0x29: /* 3D_DRAW_IMMD: VAP_VF_CNTL in the second data dword */
    case 0x35: { /* 3D_DRAW_IMMD_2 */
        size_t at = p->opcode == 0x29 ? idx + 1 : idx;
        if (at >= c->s->ib_dw || ((ibv(c, at) >> 4) & 3) != 3)
            return refuse(c, EINVAL, (long)p->idx, 0x2084, op, "PRIM_WALK must be 3 for IMMD draw",
                          "%s at dword %zu: VAP_VF_CNTL 0x%08x has PRIM_WALK %u, not 3 (embedded)",
                          pn, p->idx, at < c->s->ib_dw ? ibv(c, at) : 0,
                          at < c->s->ib_dw ? (ibv(c, at) >> 4) & 3 : 0);
        c->vap_vf_cntl = ibv(c, at);
        c->immd_dwords = p->opcode == 0x29 ? p->count - 1 : p->count;
        return track_check(c, p);
    }
    case 0x28: case 0x2A: /* 3D_DRAW_VBUF, 3D_DRAW_INDX: VAP_VF_CNTL second */
        if (idx + 1 >= c->s->ib_dw)
            return refuse(c, EINVAL, (long)p->idx, 0, op, "(read past the IB)",
                          "%s at dword %zu: no VAP_VF_CNTL dword", pn, p->idx);
        c->vap_vf_cntl = ibv(c, idx + 1);
        return track_check(c, p);
    case 0x34: case 0x36: /* 3D_DRAW_VBUF_2, 3D_DRAW_INDX_2 */
        c->vap_vf_cntl = ibv(c, idx);
        return track_check(c, p);
    case 0x37: case 0x32: /* 3D_CLEAR_HIZ, 3D_CLEAR_ZMASK */
        if (!c->o->hyperz)
            return refuse(c, EINVAL, (long)p->idx, 0, op, "(HyperZ packet without ownership)",
                          "%s at dword %zu: needs HyperZ ownership (RADEON_INFO_WANT_HYPERZ)", pn,
                          p->idx);
        return LS_OK;
    case 0x38: /* 3D_CLEAR_CMASK */
        if (!c->o->cmask)
            return refuse(c, EINVAL, (long)p->idx, 0, op, "(CMASK packet without ownership)",
                          "3D_CLEAR_CMASK at dword %zu: needs CMASK ownership "
                          "(RADEON_INFO_WANT_CMASK)",
                          p->idx);
        return LS_OK;
    case 0x10: return LS_OK; /* NOP */
    default:
        return refuse(c, EINVAL, (long)p->idx, 0, op, "Packet3 opcode not supported",
                      "type-3 packet at dword %zu: opcode 0x%02X (%s) is not allowed", p->idx,
                      p->opcode, pn);
    }
}

/* ---- the submission ------------------------------------------------------ */

ls_status mesa_cs_check(const mesa_cs_submit *s, const mesa_cs_check_options *o,
                        uint32_t *patched, mesa_cs_check_result *r, ls_diag *d)
{
    mesa_cs_check_options defo;
    if (!o) {
        mesa_cs_check_options_default(&defo);
        o = &defo;
    }
    memset(r, 0, sizeof *r);
    r->packet = -1;
    r->opcode = -1;
    ls_diag_clear(d);
    checker c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.o = o;
    c.patched = patched;
    c.r = r;
    c.d = d;
    if (patched && s->ib && s->ib_dw)
        memcpy(patched, s->ib, s->ib_dw * 4);
    /* radeon_cs_parser_init */
    if (s->ib && s->ib_dw == 0)
        return refuse(&c, EINVAL, -1, 0, -1, "Failed to initialize parser !",
                      "the IB chunk is empty (\"zero length IB isn't useful\")");
    if (s->flags && s->flags_dw == 0)
        return refuse(&c, EINVAL, -1, 0, -1, "Failed to initialize parser !",
                      "the flags chunk is empty");
    if (s->flags && s->flags_dw) {
        if (s->flags[0] & CS_USE_VM)
            return refuse(&c, EINVAL, -1, 0, -1, "VM not active on asic!",
                          "the CS flags ask for a VM (RADEON_CS_USE_VM); R5xx has none");
        /* radeon_cs_get_ring: GFX and COMPUTE run on the GFX ring before
         * Tahiti; DMA needs RV770+; UVD and VCE rings do not exist on R5xx
         * (the kernel's R5xx ring table has only GFX) */
        uint32_t ring = s->flags_dw > 1 ? s->flags[1] : 0;
        if (ring > 1)
            return refuse(&c, EINVAL, -1, 0, -1, "unknown ring id / ring requires VM",
                          "the CS flags name ring %u; R5xx has only the GFX ring (0, or 1 = compute)",
                          ring);
    }
    /* radeon_cs_parser_relocs: every handle must name an object, no CPU domain */
    if (s->relocs) {
        for (size_t k = 0; k < s->relocs_dw / 4; k++) {
            const uint32_t *rl = &s->relocs[4 * k];
            if (o->sizes_known && (k >= s->nbos || !s->bos[k].exists))
                return refuse(&c, ENOENT, -1, 0, -1, "gem object lookup failed",
                              "relocation %zu names GEM handle %u, which is no buffer object", k,
                              rl[0]);
            uint32_t dom = rl[2] ? rl[2] : rl[1];
            if (dom & GEM_DOMAIN_CPU)
                return refuse(&c, EINVAL, -1, 0, -1,
                              "RADEON_GEM_DOMAIN_CPU is not valid for command submission",
                              "relocation %zu (handle %u) asks for the CPU domain", k, rl[0]);
        }
    }
    if (!s->ib)
        return LS_OK; /* radeon_cs_ib_chunk: no IB, nothing to check or run */
    /* r300_cs_parse */
    track_clear(&c);
    do {
        pkt p = {0};
        ls_status st = packet_parse(&c, c.idx, &p);
        if (st)
            return st;
        c.idx += p.type == 2 ? 1 : p.count + 2;
        switch (p.type) {
        case 0: st = parse_packet0(&c, &p); break;
        case 2: break;
        case 3: st = packet3_check(&c, &p); break;
        }
        if (st)
            return st;
    } while (c.idx < s->ib_dw);
    return LS_OK;
}
