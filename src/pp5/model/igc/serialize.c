/* Drive the Serializer module alone, for `lockstep pp5 serialize` and tests.
 * No formula here: every bit comes from pp5_serializer_clock(). */
#include "pp5/model/igc/igc_internal.h"

#include <string.h>

ls_status pp5_serialize(const pp5_serialize_req *req, const pp5_options *opt,
                        pp5_serialize_result *res, ls_diag *d)
{
    pp5_options def;
    if (!opt) {
        pp5_options_default(&def);
        opt = &def;
    }
    if (req->fbits < 0 || req->fbits > 30)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "FBITS %d outside 0..30", req->fbits);
    if (req->fni < -115 || req->fni > 140)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0,
                           "FNI %d: the exponent field FNI + 115 must fit in 8 bits", req->fni);
    if ((unsigned)req->mode > 3)
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "bad QEE mode");
    memset(res, 0, sizeof *res);
    pp5_serializer s;
    pp5_serializer_init(&s);
    /* FBITS through the P word: exponent field 129 + FBITS (D30 = 1). */
    if (!pp5_serializer_load_fbits(&s, (uint32_t)(129 + req->fbits) << 23))
        return ls_diag_set(d, LS_ERR_RANGE, NULL, 0, 0, "FBITS %d not loadable", req->fbits);
    uint32_t iw = ((uint32_t)req->mode << 18) | ((uint32_t)req->trren << 17) |
                  ((uint32_t)req->mbi << 22) | ((uint32_t)((req->fni + 115) & 0xff) << 23);
    pp5_serializer_write_i(&s, iw);
    for (int k = 0; k < 6; k++)
        pp5_serializer_write_coef(&s, k, req->coef[k]);
    pp5_serializer_clock(&s, opt, true, true); /* s = 0: PostC with Shift */
    res->lsb_shift = -1;
    res->dat_first_shift = -1;
    int n = 0;
    bool seen_csb = false;
    int csb_fall = -1;
    for (int sc = 1; sc < 400; sc++) {
        bool trr = pp5_serializer_trr(&s, opt);
        pp5_serializer_clock(&s, opt, true, false);
        if (trr && res->ntrr < 8)
            res->trr[res->ntrr++] = sc;
        if (s.cl.lsb)
            res->lsb_shift = sc;
        if (s.cl.csb) {
            if (!seen_csb)
                res->dat_first_shift = sc + 2; /* two CoefGate stages */
            seen_csb = true;
            n++;
        } else if (seen_csb && csb_fall < 0) {
            csb_fall = sc;
        }
        if (res->dat_first_shift > 0 && sc >= res->dat_first_shift) {
            int j = sc - res->dat_first_shift;
            if (j <= PP5_SER_MAX_BITS)
                for (int k = 0; k < 6; k++)
                    res->stream[k][j] = s.cg[k].dat;
        }
        if (csb_fall >= 0 && sc > csb_fall + opt->trr_fixed_stages + 8 &&
            sc > pp5_trr_top(opt) + 8)
            break;
    }
    res->n_bits = n;
    return LS_OK;
}
