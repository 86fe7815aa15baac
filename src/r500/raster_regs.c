/* Register table of the geometry/raster blocks (VAP clip/VTE, GA, SU, SC,
 * RS) and the model options of include/lockstep/r500_raster.h.
 * Addresses: buhman/r500 regs/3d_registers.txt; fields: regs/bits/<reg>.txt. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lockstep/r500_raster.h"

static const struct {
    const char *name;
    uint32_t addr;
} regs[R500_RREG_COUNT] = {
#define R(name, addr) {#name, addr},
    R500_RASTER_REGS(R)
#undef R
};

static const struct {
    const char *name;
    r500_rreg reg;
    unsigned hi, lo;
} fields[R500_RFIELD_COUNT] = {
#define F(reg, field, hi, lo) {#reg "." #field, R500_R_##reg, hi, lo},
    R500_RASTER_FIELDS(F)
#undef F
};

const char *r500_raster_reg_name(r500_rreg r)
{
    return (unsigned)r < R500_RREG_COUNT ? regs[r].name : "?";
}

uint32_t r500_raster_reg_addr(r500_rreg r)
{
    return (unsigned)r < R500_RREG_COUNT ? regs[r].addr : 0;
}

int r500_raster_reg_find(const char *name)
{
    for (int i = 0; i < R500_RREG_COUNT; i++)
        if (!strcmp(regs[i].name, name))
            return i;
    return -1;
}

bool r500_raster_state_write(r500_raster_state *s, uint32_t addr, uint32_t value)
{
    /* The viewport registers have a second address: regs/3d_registers.txt
     * "VAP_VPORT_XSCALE ... MMReg:0x1d98, MMReg:0x2098" (and so on to ZOFFSET
     * at 0x1dac / 0x20ac); Mesa's r300 writes the first (r300_reg.h
     * R300_SE_VPORT_XSCALE 0x1D98, r300_emit_viewport_state). */
    if (addr >= 0x1d98 && addr <= 0x1dac && !(addr & 3))
        addr += 0x2098 - 0x1d98;
    for (int i = 0; i < R500_RREG_COUNT; i++)
        if (regs[i].addr == addr) {
            s->reg[i] = value;
            return true;
        }
    return false;
}

uint32_t r500_raster_field_of(uint32_t value, r500_rfield f)
{
    unsigned w = fields[f].hi - fields[f].lo + 1;
    uint32_t m = w >= 32 ? 0xffffffffu : ((1u << w) - 1u);
    return (value >> fields[f].lo) & m;
}

uint32_t r500_raster_field(const r500_raster_state *s, r500_rfield f)
{
    return r500_raster_field_of(s->reg[fields[f].reg], f);
}

const char *r500_raster_field_name(r500_rfield f)
{
    return (unsigned)f < R500_RFIELD_COUNT ? fields[f].name : "?";
}

float r500_raster_float(const r500_raster_state *s, r500_rreg r)
{
    float f;
    memcpy(&f, &s->reg[r], sizeof f);
    return f;
}

void r500_raster_set_float(r500_raster_state *s, r500_rreg r, float v)
{
    memcpy(&s->reg[r], &v, sizeof v);
}

void r500_raster_state_init(r500_raster_state *s, int width, int height)
{
    memset(s, 0, sizeof *s);
    /* Mesa r300: r300_emit_draw_init / r300_provoking_vertex_fixes (smooth,
     * PROVOKING_VERTEX_LAST = 3 for GL's default convention); every colour
     * Gouraud (R300_SHADE_MODEL_SMOOTH: 2 in each 2-bit field). */
    s->reg[R500_R_GA_COLOR_CONTROL] = 0xaaaau | (3u << 16);
    /* r300 invariant state: SC_EDGERULE 0x2DA49525 (ER_TRI = 5: L-in, R-out,
     * HT-in, HB-out, i.e. top-left), GA_ROUND_MODE 1 (round to nearest). */
    s->reg[R500_R_SC_EDGERULE] = 0x2da49525u;
    s->reg[R500_R_GA_ROUND_MODE] = 1u;
    /* radeon kernel r300_ring_start: GB_TILE_CONFIG without SUBPIXEL_1_16
     * ("Sub pixel 1/12 so we can have 4K rendering according to doc"). */
    s->reg[R500_R_GB_TILE_CONFIG] = 0x11u;
    /* Guard band 1.0: "Should be set to 1.0 for no guard band"
     * (regs/bits/vap_gb_vert_clip_adj.txt). */
    r500_raster_set_float(s, R500_R_VAP_GB_VERT_CLIP_ADJ, 1.0f);
    r500_raster_set_float(s, R500_R_VAP_GB_VERT_DISC_ADJ, 1.0f);
    r500_raster_set_float(s, R500_R_VAP_GB_HORZ_CLIP_ADJ, 1.0f);
    r500_raster_set_float(s, R500_R_VAP_GB_HORZ_DISC_ADJ, 1.0f);
    /* VAP_VTE_CNTL 0x43f as in the corpus captures: all six viewport
     * enables, VTX_W0_FMT (the SU computes 1/W0). Viewport covering the
     * target, GL's depth range [0,1]. */
    s->reg[R500_R_VAP_VTE_CNTL] = 0x43fu;
    r500_raster_set_float(s, R500_R_VAP_VPORT_XSCALE, (float)width * 0.5f);
    r500_raster_set_float(s, R500_R_VAP_VPORT_XOFFSET, (float)width * 0.5f);
    r500_raster_set_float(s, R500_R_VAP_VPORT_YSCALE, (float)height * 0.5f);
    r500_raster_set_float(s, R500_R_VAP_VPORT_YOFFSET, (float)height * 0.5f);
    r500_raster_set_float(s, R500_R_VAP_VPORT_ZSCALE, 0.5f);
    r500_raster_set_float(s, R500_R_VAP_VPORT_ZOFFSET, 0.5f);
    /* Scissor and clip rectangle 0 over the target (inclusive corners, no
     * offset on R500); SC_CLIP_RULE 0xAAAA: visible where rectangle 0 is. */
    uint32_t x1 = (uint32_t)(width > 0 ? width - 1 : 0) & 0x1fffu;
    uint32_t y1 = (uint32_t)(height > 0 ? height - 1 : 0) & 0x1fffu;
    s->reg[R500_R_SC_SCISSOR0] = 0;
    s->reg[R500_R_SC_SCISSOR1] = x1 | (y1 << 13);
    s->reg[R500_R_SC_CLIP_0_A] = 0;
    s->reg[R500_R_SC_CLIP_0_B] = x1 | (y1 << 13);
    s->reg[R500_R_SC_CLIP_RULE] = 0xaaaau;
    /* GL's default point size and line width, 1 pixel: half sizes in 1/12
     * subpixels (Mesa: point_size * 6, line_width * 6), lines with computed
     * (perpendicular) ends; no point size clamp. */
    s->reg[R500_R_GA_POINT_SIZE] = 6u | (6u << 16);
    s->reg[R500_R_GA_POINT_MINMAX] = 0xffffu << 16;
    s->reg[R500_R_GA_LINE_CNTL] = 6u | (3u << 16);
}

/* ---- model options ---- */

const char *const r500_raster_option_names[] = {"raster-subpixel", "clip-z", "interp-position",
                                                "color-interp", "point-minmax", "face-sign",
                                                "point-stuff", "poly-offset", NULL};

void r500_raster_options_default(r500_raster_options *o)
{
    o->subpixel = R500_SUBPIXEL_REGISTER;
    o->clip_z = R500_CLIP_Z_GL;
    o->interp_pos = R500_INTERP_EXACT;
    o->color_interp = R500_COLOR_PERSPECTIVE;
    o->point_minmax = R500_MINMAX_VERTEX;
    o->face_sign = R500_FACE_MESA;
    o->point_stuff = R500_STUFF_VAP;
    o->poly_offset = R500_POFS_MAX;
}

static int pick(const char *v, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(v, names[i]))
            return i;
    return -1;
}

ls_status r500_raster_options_set(r500_raster_options *o, const char *name, const char *value,
                                  ls_diag *d)
{
    static const char *const sub[] = {"register", "12", "16", "256", NULL};
    static const char *const cz[] = {"gl", "dx", NULL};
    static const char *const ip[] = {"exact", "snapped", NULL};
    static const char *const ci[] = {"perspective", "linear", NULL};
    static const char *const pm[] = {"vertex", "all", NULL};
    static const char *const fs[] = {"mesa", "doc", NULL};
    static const char *const ps[] = {"vap", "pool4", "off", NULL};
    static const char *const po[] = {"max", "sqrt", "off", NULL};
    const char *const *names;
    if (!strcmp(name, "raster-subpixel"))
        names = sub;
    else if (!strcmp(name, "clip-z"))
        names = cz;
    else if (!strcmp(name, "interp-position"))
        names = ip;
    else if (!strcmp(name, "color-interp"))
        names = ci;
    else if (!strcmp(name, "point-minmax"))
        names = pm;
    else if (!strcmp(name, "face-sign"))
        names = fs;
    else if (!strcmp(name, "point-stuff"))
        names = ps;
    else if (!strcmp(name, "poly-offset"))
        names = po;
    else
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "unknown raster option '%s'", name);
    int k = pick(value, names);
    if (k < 0)
        return ls_diag_set(d, LS_ERR_ARG, NULL, 0, 0, "raster option %s: bad value '%s'", name,
                           value);
    if (names == sub)
        o->subpixel = (r500_subpixel)k;
    else if (names == cz)
        o->clip_z = (r500_clip_z)k;
    else if (names == ip)
        o->interp_pos = (r500_interp_pos)k;
    else if (names == pm)
        o->point_minmax = (r500_point_minmax)k;
    else if (names == fs)
        o->face_sign = (r500_face_sign)k;
    else if (names == ps)
        o->point_stuff = (r500_point_stuff)k;
    else if (names == po)
        o->poly_offset = (r500_poly_offset)k;
    else
        o->color_interp = (r500_color_interp)k;
    return LS_OK;
}
