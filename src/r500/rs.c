/* RS: interpolation of the rasterizer input packet and the routing of its
 * values into the fragment program's temps. Sources: buhman/r500
 * regs/bits/rs_count.txt, rs_inst_count.txt ("INST_COUNT: Number of
 * rasterizer instructions (1:16)", stored minus one as Mesa writes it),
 * rs_ip.txt ("TEX_PTR_S ... The values 62 and 63 select constant inputs for
 * the component: 62 selects K0 (0.0), and 63 selects K1 (1.0)"; COL_FMT),
 * rs_inst.txt (TEX_CN/TEX_ADDR, COL_CN "02 - write fbuffer - XY00->RGBA",
 * "03 - write backface - B000->RGBA", COL_ADDR), ga_color_control.txt
 * (RGBn_SHADING / ALPHAn_SHADING: solid, flat, Gouraud);
 * spec/mesa-capture.md §4 (how Mesa's r300 routes its inputs). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "raster_internal.h"

void ra_rs_written(const r500_raster_state *s, bool out[R500_NUM_TEMPS])
{
    memset(out, 0, R500_NUM_TEMPS * sizeof *out);
    unsigned n = r500_raster_field(s, R500_RF_RS_INST_COUNT_INST_COUNT) + 1;
    for (unsigned i = 0; i < n; i++) {
        uint32_t in = s->reg[R500_R_RS_INST_0 + i];
        if (r500_raster_field_of(in, R500_RF_RS_INST_0_TEX_CN))
            out[r500_raster_field_of(in, R500_RF_RS_INST_0_TEX_ADDR)] = true;
        if (r500_raster_field_of(in, R500_RF_RS_INST_0_COL_CN))
            out[r500_raster_field_of(in, R500_RF_RS_INST_0_COL_ADDR)] = true;
    }
}

/* COL_FMT: which components come from the colour, the others 0 or 1:
 * src[c] = 0..3 colour component, 4 = 0.0, 5 = 1.0. Reserved values
 * (3, 7, 11..15) read all four components (documented choice). */
static void col_fmt(unsigned f, int src[4])
{
    static const int t[11][4] = {
        {0, 1, 2, 3}, {0, 1, 2, 4}, {0, 1, 2, 5}, {0, 1, 2, 3}, {4, 4, 4, 3}, {4, 4, 4, 4},
        {4, 4, 4, 5}, {0, 1, 2, 3}, {5, 5, 5, 3}, {5, 5, 5, 4}, {5, 5, 5, 5}};
    memcpy(src, f < 11 ? t[f] : t[0], sizeof t[0]);
}

ls_status ra_rs_fill(const r500_draw *dr, const ra_tri *t, int rx0, int ry0, int rw, int rh,
                     float *img[R500_NUM_TEMPS], ls_diag *d)
{
    const r500_raster_state *s = dr->state;
    bool wr[R500_NUM_TEMPS];
    ra_rs_written(s, wr);
    size_t npx = (size_t)rw * (size_t)rh;
    for (unsigned r = 0; r < R500_NUM_TEMPS; r++) {
        img[r] = NULL;
        if (!wr[r])
            continue;
        img[r] = calloc(npx * 4, sizeof(float));
        if (!img[r]) {
            for (unsigned q = 0; q < r; q++)
                free(img[q]), img[q] = NULL;
            return ls_diag_set(d, LS_ERR_NOMEM, NULL, 0, 0, "out of memory");
        }
    }
    /* Barycentric set-up in double from the window positions: exact
     * (unsnapped, the default) or snapped to the SC's grid. */
    double X[3], Y[3];
    int S = ra_sc_subpixel(dr);
    bool nearest = r500_raster_field(s, R500_RF_GA_ROUND_MODE_GEOMETRY_ROUND) == 1;
    for (int i = 0; i < 3; i++) {
        X[i] = t->v[i].x, Y[i] = t->v[i].y;
        if (dr->opts.interp_pos == R500_INTERP_SNAPPED) {
            X[i] = (nearest ? floor(X[i] * S + 0.5) : floor(X[i] * S)) / S;
            Y[i] = (nearest ? floor(Y[i] * S + 0.5) : floor(Y[i] * S)) / S;
        }
    }
    double area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (area == 0)
        area = 1; /* a triangle the SC covered has area; guard the division */
    unsigned shading = r500_raster_field(s, R500_RF_GA_COLOR_CONTROL_SHADING);
    bool persp_col = dr->opts.color_interp == R500_COLOR_PERSPECTIVE;
    unsigned ninst = r500_raster_field(s, R500_RF_RS_INST_COUNT_INST_COUNT) + 1;
    for (int py = 0; py < rh; py++)
        for (int px = 0; px < rw; px++) {
            double cx = rx0 + px + 0.5, cy = ry0 + py + 0.5;
            double l[3];
            l[0] = ((X[1] - cx) * (Y[2] - cy) - (X[2] - cx) * (Y[1] - cy)) / area;
            l[1] = ((X[2] - cx) * (Y[0] - cy) - (X[0] - cx) * (Y[2] - cy)) / area;
            l[2] = 1.0 - l[0] - l[1];
            double pw[3], sum = 0;
            for (int i = 0; i < 3; i++)
                sum += (pw[i] = l[i] * t->v[i].oow);
            for (int i = 0; i < 3; i++)
                pw[i] = sum != 0 ? pw[i] / sum : l[i];
            size_t o = 4 * ((size_t)py * (size_t)rw + (size_t)px);
            for (unsigned k = 0; k < ninst; k++) {
                uint32_t in = s->reg[R500_R_RS_INST_0 + k];
                if (r500_raster_field_of(in, R500_RF_RS_INST_0_TEX_CN)) {
                    uint32_t ip = s->reg[R500_R_RS_IP_0 +
                                         r500_raster_field_of(in, R500_RF_RS_INST_0_TEX_ID)];
                    float *dst = img[r500_raster_field_of(in, R500_RF_RS_INST_0_TEX_ADDR)] + o;
                    for (int c = 0; c < 4; c++) {
                        unsigned p = (ip >> (6 * c)) & 63u;
                        if (p == 62)
                            dst[c] = 0.0f;
                        else if (p == 63)
                            dst[c] = 1.0f;
                        else if (p >= R500_RS_TEX_COMPONENTS)
                            dst[c] = 0.0f; /* outside the packet (documented) */
                        else
                            dst[c] = (float)(pw[0] * t->v[0].a[RA_TEX0 + p] +
                                             pw[1] * t->v[1].a[RA_TEX0 + p] +
                                             pw[2] * t->v[2].a[RA_TEX0 + p]);
                    }
                }
                unsigned cn = r500_raster_field_of(in, R500_RF_RS_INST_0_COL_CN);
                if (!cn)
                    continue;
                float *dst = img[r500_raster_field_of(in, R500_RF_RS_INST_0_COL_ADDR)] + o;
                if (cn == 2) { /* "write fbuffer - XY00->RGBA": the sample position */
                    dst[0] = (float)cx, dst[1] = (float)cy, dst[2] = dst[3] = 0.0f;
                    continue;
                }
                if (cn == 3) { /* "write backface - B000->RGBA" */
                    dst[0] = t->back ? 1.0f : 0.0f, dst[1] = dst[2] = dst[3] = 0.0f;
                    continue;
                }
                uint32_t ip =
                    s->reg[R500_R_RS_IP_0 + r500_raster_field_of(in, R500_RF_RS_INST_0_COL_ID)];
                unsigned cp = r500_raster_field_of(ip, R500_RF_RS_IP_0_COL_PTR);
                /* two-sided colour: Mesa's r300_state_derived.c sends back colours as
                 * colours 2 and 3 ("The rasterizer will do the color selection
                 * automatically"; without two-sided colour it rasterizes two fake
                 * texcoords instead "to prevent the two-sided color selection") */
                if (t->back && cp < 2 && ((dr->back_colors >> cp) & 1u))
                    cp += 2;
                int src[4];
                col_fmt(r500_raster_field_of(ip, R500_RF_RS_IP_0_COL_FMT), src);
                for (int c = 0; c < 4; c++) {
                    if (src[c] >= 4) {
                        dst[c] = src[c] == 5 ? 1.0f : 0.0f;
                        continue;
                    }
                    int a = RA_COL0 + 4 * (int)(cp & 3u) + src[c];
                    /* RGBn_SHADING at bits 4n+1:4n, ALPHAn_SHADING at 4n+3:4n+2 */
                    unsigned sh = (shading >> (4 * (cp & 3u) + (src[c] == 3 ? 2 : 0))) & 3u;
                    if (sh == 1 || sh == 0) /* flat; solid fill read as flat (documented) */
                        dst[c] = t->flat[a];
                    else if (persp_col)
                        dst[c] = (float)(pw[0] * t->v[0].a[a] + pw[1] * t->v[1].a[a] +
                                         pw[2] * t->v[2].a[a]);
                    else
                        dst[c] = (float)(l[0] * t->v[0].a[a] + l[1] * t->v[1].a[a] +
                                         l[2] * t->v[2].a[a]);
                }
            }
        }
    return LS_OK;
}
