/* Pixel-Planes 5 IGC: the state of each seed module and the functions that
 * clock it. One struct per module of seed 003 §IV.3.3; igc.c wires them and
 * advances one clock per pp5_igc_step(). Not a public header. */
#ifndef LOCKSTEP_PP5_IGC_INTERNAL_H
#define LOCKSTEP_PP5_IGC_INTERNAL_H
#include <stdbool.h>
#include <stdint.h>
#include "lockstep/pp5.h"
#include "pp5/model/igc/igc_state.h"
#include "pp5/model/uword.h"

/* ---- microword fields: the table of pp5/uword.h ---- */
#define PP5_UW_DIREN   PP5_UF_BIT(DIREN, 0)
#define PP5_UW_ACMP    PP5_UF_BIT(ACMP, 0)
#define PP5_UW_AGTSS   PP5_UF_BIT(AGTSS, 0)
#define PP5_UW_AGTST   PP5_UF_BIT(AGTST, 0)
#define PP5_UW_CCMP    PP5_UF_BIT(CCMP, 0)
#define PP5_UW_CGTSC   PP5_UF_BIT(CGTSC, 0)
#define PP5_UW_BCMP    PP5_UF_BIT(BCMP, 0)
#define PP5_UW_BGTSE   PP5_UF_BIT(BGTSE, 0)
#define PP5_UW_BGTSM   PP5_UF_BIT(BGTSM, 0)
#define PP5_UW_LDC     PP5_UF_BIT(LDC, 0)
#define PP5_UW_LDE     PP5_UF_BIT(LDE, 0)
#define PP5_UW_MWRT    PP5_UF_BIT(MWRT, 0)
#define PP5_UW_PMA(w)  PP5_UF_GET(w, PMA)
#define PP5_UW_TREE0   PP5_UF_BIT(TREE, 0)
#define PP5_UW_TREE1   PP5_UF_BIT(TREE, 1)
#define PP5_UW_CNT2    PP5_UF_BIT(CNT2, 0)
#define PP5_UW_CNT1    PP5_UF_BIT(CNT1, 0)
#define PP5_UW_BRADDR(w) PP5_UF_GET(w, BRADDR)
#define PP5_UW_SEQ(w)  PP5_UF_GET(w, SEQ)
#define PP5_UW_DONE    PP5_UF_BIT(DONE, 0)

/* ---- (1) InputLatch ---- */
#define PP5_INPUTLATCH_STATE(X)                                                           \
    X(S, pp5_host_in, in, 1, NOSIG) /* inputs latched on Ph2 of the current clock */      \
    X(V, bool, st1, 1, SIG(56, "ST1", 1))                                                 \
    X(V, bool, st2, 1, SIG(57, "ST2", 1)) /* ST1HSP1, ST2HSP1 seen this clock */          \
    X(V, uint32_t, d_bus, 1, NOSIG) /* D<0:31>HSP2 (input data or RdData in test mode) */
typedef struct pp5_inputlatch { PP5_INPUTLATCH_STATE(PP5_STATE_DECL) } pp5_inputlatch;
#define PP5_LIST_pp5_inputlatch PP5_INPUTLATCH_STATE
void pp5_inputlatch_clock(pp5_inputlatch *il, const pp5_host_in *in, bool st1, bool st2);

/* ---- (2) Controller ---- */
#ifdef PP5_PLANTED_FIELD /* tests/pp5: a field only the full step writes */
#define PP5_CONTROLLER_PLANTED(X) X(V, uint8_t, planted, 1, NOSIG)
#else
#define PP5_CONTROLLER_PLANTED(X)
#endif
#define PP5_CONTROLLER_STATE(X)                                                    \
    X(V, bool, ibsy, 1, SIG(34, "IBsy", 1))                                        \
    X(V, bool, cbsy, 1, SIG(35, "CBsy", 1)) /* IBsyHSP1, CBsyHSP1 (Controller) */  \
    X(V, bool, ip, 1, SIG(36, "IP", 1)) /* IPHSP1: instruction pending */          \
    X(V, bool, post_i, 1, SIG(37, "PostI", 1))                                     \
    X(V, bool, post_c, 1, SIG(38, "PostC", 1)) /* this clock */                    \
    X(V, bool, post_i_prev, 1, NOSIG)                                              \
    X(V, bool, post_c_prev, 1, NOSIG)                                              \
    X(V, bool, rmode, 1, SIG(39, "RMode", 1)) /* RModeHSP1 */                      \
    X(V, bool, shift, 1, SIG(40, "Shift", 1)) /* ShiftHSP1 */                      \
    PP5_CONTROLLER_PLANTED(X)
typedef struct pp5_controller { PP5_CONTROLLER_STATE(PP5_STATE_DECL) } pp5_controller;
#define PP5_LIST_pp5_controller PP5_CONTROLLER_STATE
bool pp5_controller_shift(const pp5_controller *c, const pp5_options *o, uint32_t uw, bool trr);
bool pp5_controller_post_c(const pp5_controller *c, bool csb, bool shift);
bool pp5_controller_post_i(const pp5_controller *c);
void pp5_controller_reset(pp5_controller *c);

/* ---- (3) Sequencer (Memory + AddrGen) ---- */
#define PP5_SEQUENCER_STATE(X)                                                             \
    X(A, uint32_t, ucode, PP5_UCODE_WORDS, NOSIG)                                          \
    X(V, uint16_t, nonzero, 1, NOSIG) /* words of ucode[] not 0 (0: the store is empty) */ \
    X(V, uint16_t, pc, 1, NOSIG) /* current microcode address (9 bits) */                  \
    X(V, uint16_t, uaddr_word, 1, NOSIG) /* WordLatch: NewAddr from I<0:8> (A-4) */        \
    X(V, uint16_t, uaddr_post, 1, NOSIG) /* PostILatch */                                  \
    X(V, bool, new_l, 1, SIG(32, "NewL", 1))                                               \
    X(V, bool, branch, 1, SIG(33, "Branch", 1)) /* NewLSP1, BranchHSP1 this clock */
typedef struct pp5_sequencer { PP5_SEQUENCER_STATE(PP5_STATE_DECL) } pp5_sequencer;
#define PP5_LIST_pp5_sequencer PP5_SEQUENCER_STATE
uint32_t pp5_sequencer_read(const pp5_sequencer *s, uint16_t addr, bool *exists);
uint16_t pp5_sequencer_next(pp5_sequencer *s, const pp5_options *o, uint32_t uw, bool new_l,
                            bool tc1, bool tc2, bool st1, bool st2, bool trr);

/* ---- (4) LoopCount ---- */
#define PP5_LOOPCOUNT_STATE(X)                                                     \
    X(V, uint8_t, lc1, 1, SIG(47, "LC1", 7))                                       \
    X(V, uint8_t, lc2, 1, SIG(48, "LC2", 7)) /* 7-bit counters */                  \
    X(V, uint8_t, lc1_word, 1, NOSIG)                                              \
    X(V, uint8_t, lc1_post, 1, NOSIG) /* I<23:29>, excess-116 */                   \
    X(V, uint8_t, lc2_word, 1, NOSIG)                                              \
    X(V, uint8_t, lc2_post, 1, NOSIG) /* P<16:22> */                               \
    X(V, bool, tc1, 1, SIG(45, "TC1", 1))                                          \
    X(V, bool, tc2, 1, SIG(46, "TC2", 1))
typedef struct pp5_loopcount { PP5_LOOPCOUNT_STATE(PP5_STATE_DECL) } pp5_loopcount;
#define PP5_LIST_pp5_loopcount PP5_LOOPCOUNT_STATE
/* The terminal counts (seed, LoopCount: "TC1HSP1 when the count value is 116"
 * — excess-116, erratum §9.5 overridden; "TC2HSP1 … when the count value is
 * zero"): the rule, written once, that the model's clock and the fast path's
 * closed forms both use. */
enum { PP5_LC1_TERMINAL = 116, PP5_LC2_TERMINAL = 0 };
static inline bool pp5_loopcount_tc1(unsigned count) { return count == PP5_LC1_TERMINAL; }
static inline bool pp5_loopcount_tc2(unsigned count) { return count == PP5_LC2_TERMINAL; }
void pp5_loopcount_clock(pp5_loopcount *lc, bool done, bool cnt1, bool cnt2);

/* ---- (5) PixMemAddr ---- */
enum { PP5_CTR_DST = 0, PP5_CTR_SRC, PP5_CTR_AUX };
#define PP5_PIXMEMADDR_CTR_SIGNALS(Y)                                            \
    Y(50, "Dst", 8, PP5_SIG_INTERNAL, 1, a->ctr[PP5_CTR_DST])                      \
    Y(51, "Src", 8, PP5_SIG_INTERNAL, 1, a->ctr[PP5_CTR_SRC])                      \
    Y(52, "Aux", 8, PP5_SIG_INTERNAL, 1, a->ctr[PP5_CTR_AUX])
#define PP5_PIXMEMADDR_STATE(X)                                                    \
    X(A, uint8_t, ctr, 3, SIGLIST(PP5_PIXMEMADDR_CTR_SIGNALS))                     \
    X(A, uint8_t, word, 3, NOSIG)                                                  \
    X(A, uint8_t, post, 3, NOSIG)                                                  \
    X(V, uint8_t, addr, 1, SIG(49, "Addr", 8)) /* Addr<0:7>HSP1 of this clock */
typedef struct pp5_pixmemaddr { PP5_PIXMEMADDR_STATE(PP5_STATE_DECL) } pp5_pixmemaddr;
#define PP5_LIST_pp5_pixmemaddr PP5_PIXMEMADDR_STATE
uint8_t pp5_pixmemaddr_clock(pp5_pixmemaddr *p, unsigned pma, bool done);

/* ---- (6) DirectReg ---- */
#define PP5_DIRECTREG_STATE(X)                                                     \
    X(V, uint32_t, word, 1, NOSIG)                                                 \
    X(V, uint32_t, post, 1, NOSIG) /* WordLatch (C write), PostILatch */           \
    X(V, uint32_t, shreg, 1, SIG(54, "DirShReg", 32)) /* 32-bit shift register */  \
    X(V, bool, aludat, 1, SIG(53, "ALUDatInt", 1)) /* ALUDatHSP1 this clock */
typedef struct pp5_directreg { PP5_DIRECTREG_STATE(PP5_STATE_DECL) } pp5_directreg;
#define PP5_LIST_pp5_directreg PP5_DIRECTREG_STATE
bool pp5_directreg_clock(pp5_directreg *r, bool dir_en, bool new_l);

/* ---- (7) Serializer ---- */
enum { PP5_COEF_A = 0, PP5_COEF_B, PP5_COEF_C, PP5_COEF_D, PP5_COEF_E, PP5_COEF_F };
/* Token Shifter lengths (seed, CoefSer: "3 for the C coefficient, 13 for A and B,
 * and 25 for D, E, and F" left of stage 63; ITok: "74 bits in length"). */
#define PP5_TS_LEN_A 77
#define PP5_TS_LEN_B 77
#define PP5_TS_LEN_C 67
#define PP5_TS_LEN_DEF 89
#define PP5_TS_LEN_I 74

#define PP5_EXPDEC_OUT_STATE(X) X(V, int, index, 1, NOSIG) X(V, bool, dec64, 1, NOSIG)
typedef struct pp5_expdec_out { PP5_EXPDEC_OUT_STATE(PP5_STATE_DECL) } pp5_expdec_out;
#define PP5_LIST_pp5_expdec_out PP5_EXPDEC_OUT_STATE
/* ExpDec (inline: every coefficient write decodes): "An 8-bit adder generates the value to be decoded … For adder outputs in the
 * range i = 128 through 191, Dec(191-i)LSP1 is asserted. For adder outputs
 * outside this range, Dec64LSP1 is asserted." (Table 1) */
static inline pp5_expdec_out pp5_expdec(unsigned exp_field, unsigned b)
{
    unsigned sum = (exp_field + b) & 0xffu; /* 8-bit adder */
    pp5_expdec_out o;
    if (sum >= 128 && sum <= 191) {
        o.index = (int)(191 - sum);
        o.dec64 = false;
    } else {
        o.index = 64;
        o.dec64 = true;
    }
    return o;
}

/* (the seed names the A and C coefficients' *Bit and *Dat) */
#define PP5_COEFSER_BIT_SIGNALS(Y)                                               \
    Y(65, "ABit", 1, PP5_SIG_INTERNAL, pidx == PP5_COEF_A, a->bit)                 \
    Y(66, "CBit", 1, PP5_SIG_INTERNAL, pidx == PP5_COEF_C, a->bit)
#define PP5_COEFSER_STATE(X)                                                       \
    X(V, int, len, 1, NOSIG) /* Token Shifter length */                            \
    X(V, uint32_t, man_latch, 1, NOSIG) /* ManLatch (23 bits) */                   \
    X(S, pp5_expdec_out, dec_latch, 1, NOSIG) /* TokLatch */                       \
    X(V, uint32_t, man_reg, 1, NOSIG) /* ManReg */                                 \
    X(V, int, tok, 1, NOSIG) /* token stage, -1 if none */                         \
    X(V, bool, tok64, 1, NOSIG) /* Tok64LSP2 (posted out-of-range) */              \
    X(V, bool, bit, 1, SIGLIST(PP5_COEFSER_BIT_SIGNALS)) /* BitHSP2 this clock */
typedef struct pp5_coefser { PP5_COEFSER_STATE(PP5_STATE_DECL) } pp5_coefser;
#define PP5_LIST_pp5_coefser PP5_COEFSER_STATE
#define PP5_COEFGATE_DAT_SIGNALS(Y)                                              \
    Y(67, "ADatInt", 1, PP5_SIG_INTERNAL, pidx == PP5_COEF_A, a->dat)              \
    Y(68, "CDatInt", 1, PP5_SIG_INTERNAL, pidx == PP5_COEF_C, a->dat)
#define PP5_COEFGATE_STATE(X)                                                                \
    X(V, bool, sign_latch, 1, NOSIG) /* WordLatch (sign) */                                  \
    X(V, bool, sign, 1, NOSIG) /* PostCLatch (sign) */                                       \
    X(V, bool, enable, 1, NOSIG) /* PostCLatch (nullify): in range AND enabled by QEEMode */ \
    X(V, bool, sone, 1, NOSIG) /* SOneHSP2: a 1 has been seen */                             \
    X(V, bool, sep_stage, 1, NOSIG) /* TokStage: separator-bit injector */                   \
    X(V, bool, out_stage, 1, NOSIG) /* ShiftStage: one more clock */                         \
    X(V, bool, dat, 1, SIGLIST(PP5_COEFGATE_DAT_SIGNALS)) /* *DatLSP2 this clock */
typedef struct pp5_coefgate { PP5_COEFGATE_STATE(PP5_STATE_DECL) } pp5_coefgate;
#define PP5_LIST_pp5_coefgate PP5_COEFGATE_STATE
#define PP5_ILATCH_STATE(X)                                                        \
    X(V, unsigned, qee_mode, 1, NOSIG) /* D<19:18> */                              \
    X(V, bool, trren_raw, 1, NOSIG)                                                \
    X(V, bool, mbi_raw, 1, NOSIG)                                                  \
    /* posted copies (captured at PostC) */                                        \
    X(V, bool, iwc, 1, NOSIG)                                                      \
    X(V, bool, ab_en, 1, NOSIG)                                                    \
    X(V, bool, def_en, 1, NOSIG)                                                   \
    X(V, bool, trren, 1, NOSIG)                                                    \
    X(V, bool, mbi, 1, NOSIG)
typedef struct pp5_ilatch { PP5_ILATCH_STATE(PP5_STATE_DECL) } pp5_ilatch;
#define PP5_LIST_pp5_ilatch PP5_ILATCH_STATE
#define PP5_ITOK_STATE(X) X(S, pp5_expdec_out, dec_latch, 1, NOSIG) X(V, int, tok, 1, NOSIG)
typedef struct pp5_itok { PP5_ITOK_STATE(PP5_STATE_DECL) } pp5_itok;
#define PP5_LIST_pp5_itok PP5_ITOK_STATE
/* (prefixed "Ser.": the seed reuses the names CBsy/IBsy, erratum §9.6) */
#define PP5_CSBLATCH_BSY_SIGNALS(Y)                                              \
    Y(58, "Ser.ABsy", 1, PP5_SIG_INTERNAL, 1, a->bsy[0])                           \
    Y(59, "Ser.BBsy", 1, PP5_SIG_INTERNAL, 1, a->bsy[1])                           \
    Y(60, "Ser.CBsy", 1, PP5_SIG_INTERNAL, 1, a->bsy[2])                           \
    Y(61, "Ser.DBsy", 1, PP5_SIG_INTERNAL, 1, a->bsy[3])                           \
    Y(62, "Ser.EBsy", 1, PP5_SIG_INTERNAL, 1, a->bsy[4])                           \
    Y(63, "Ser.FBsy", 1, PP5_SIG_INTERNAL, 1, a->bsy[5])                           \
    Y(64, "Ser.IBsy", 1, PP5_SIG_INTERNAL, 1, a->bsy[6])
#define PP5_CSBLATCH_STATE(X)                                                                       \
    X(A, bool, bsy, 7, SIGLIST(PP5_CSBLATCH_BSY_SIGNALS)) /* ABsy..FBsy, IBsy (CSBLatch meaning) */ \
    X(V, bool, csb, 1, SIG(42, "CSB", 1))                                                           \
    X(V, bool, csb_prev, 1, NOSIG)                                                                  \
    X(V, bool, lsb, 1, SIG(43, "LSBInt", 1)) /* LSBLSP2 */                                          \
    X(V, bool, first_pending, 1, NOSIG) /* the LSB of the posted set is still to come */            \
    X(V, bool, msin, 1, SIG(44, "MsIn", 1)) /* MsInLSP2 this clock */                               \
    X(V, bool, msin_pending, 1, NOSIG) /* CSB fell; inject on the next shift clock */               \
    X(V, bool, set_mbi, 1, NOSIG) /* MBI of the set being serialized (A-18) */
typedef struct pp5_csblatch { PP5_CSBLATCH_STATE(PP5_STATE_DECL) } pp5_csblatch;
#define PP5_LIST_pp5_csblatch PP5_CSBLATCH_STATE
#define PP5_TRRSHIFTER_STATE(X)                                                    \
    X(V, int, fbits_pos, 1, NOSIG) /* TokLatch: loadable stage chosen by FBITS */  \
    X(V, uint64_t, stages, 1, NOSIG) /* bit k = token in stage k */                \
    X(V, bool, trr, 1, SIG(41, "TRR", 1)) /* TRRHSP1 */
typedef struct pp5_trrshifter { PP5_TRRSHIFTER_STATE(PP5_STATE_DECL) } pp5_trrshifter;
#define PP5_LIST_pp5_trrshifter PP5_TRRSHIFTER_STATE
#define PP5_SERIALIZER_STATE(X)                                                             \
    X(V, unsigned, fbits_reg, 1, SIG(55, "FBits", 5)) /* FBits<0:4>: FBITS + 1 */           \
    X(SA, pp5_coefser, cs, 6, NOSIG)                                                        \
    X(SA, pp5_coefgate, cg, 6, NOSIG)                                                       \
    X(S, pp5_ilatch, il, 1, NOSIG)                                                          \
    X(S, pp5_itok, it, 1, NOSIG)                                                            \
    X(S, pp5_csblatch, cl, 1, NOSIG)                                                        \
    X(S, pp5_trrshifter, trr, 1, NOSIG)                                                     \
    X(V, unsigned, bits_sent, 1, NOSIG) /* shift cycles with CSB high in the current set */
typedef struct pp5_serializer { PP5_SERIALIZER_STATE(PP5_STATE_DECL) } pp5_serializer;
#define PP5_LIST_pp5_serializer PP5_SERIALIZER_STATE
void pp5_serializer_init(pp5_serializer *s);
/* Register writes (seed, Serializer: "When a coefficient is loaded …"), inline:
 * the host side of every write. CoefSer: "the 23-bit mantissa field is latched into ManLatch, and the decoded exponent
 * … is latched into TokLatch"; CoefGate: "the signbit of the coefficient is
 * latched into leafcell WordLatch". */
static inline void pp5_serializer_write_coef(pp5_serializer *s, int k, uint32_t d)
{
    s->cs[k].man_latch = d & 0x7fffffu;
    s->cs[k].dec_latch = pp5_expdec((d >> 23) & 0xffu, s->fbits_reg);
    s->cg[k].sign_latch = (d >> 31) & 1u;
}

/* ILatch + ITok: "When IWord is asserted, D<17-19,22> are latched"; the exponent field of the
 * opcode "is also decoded in ExpDec and the decoded exponent latched into ITok". */
static inline void pp5_serializer_write_i(pp5_serializer *s, uint32_t d)
{
    s->il.qee_mode = (d >> 18) & 3u;
    s->il.trren_raw = (d >> 17) & 1u;
    s->il.mbi_raw = (d >> 22) & 1u;
    s->it.dec_latch = pp5_expdec((d >> 23) & 0xffu, s->fbits_reg);
}
/* P write with D30 = 1: load FBITS; returns false for an out-of-range value. */
bool pp5_serializer_load_fbits(pp5_serializer *s, uint32_t d);
int pp5_serializer_fbits(const pp5_serializer *s);
/* CSBHSP1 seen by the Controller at the start of the clock. */
bool pp5_serializer_csb(const pp5_serializer *s);
/* PostC, latch side: ILatch outputs, ManReg, Tok64, sign, nullify, LSB token
 * pending, the set's MBI and the TRR token (shared with the fast path). */
void pp5_serializer_post_latches(pp5_serializer *s);
/* Its three parts, in this order (the fast path's posting, ser_fast_post(),
 * does its own per-coefficient work in the same loop as the middle one). */
/* ILatch outputs: "TRREnLSP2 and MBIHSP2 are qualified by IWCHSP2". */
static inline void pp5_serializer_post_il(pp5_serializer *s)
{
    pp5_ilatch *il = &s->il;
    il->iwc = il->qee_mode != 0;
    il->ab_en = il->qee_mode >= 2;
    il->def_en = il->qee_mode == 3;
    il->trren = il->trren_raw && il->iwc;
    il->mbi = il->mbi_raw && il->iwc;
}
/* Coefficient k: ManReg, Tok64, sign, nullify (QEEMode enables C with IWC, A
 * and B with ab_en, D, E, F with def_en). */
static inline void pp5_serializer_post_coef(pp5_serializer *s, int k)
{
    const pp5_ilatch *il = &s->il;
    pp5_coefser *c = &s->cs[k];
    pp5_coefgate *g = &s->cg[k];
    const bool mode_en = k == PP5_COEF_C ? il->iwc : (k <= PP5_COEF_B ? il->ab_en : il->def_en);
    c->man_reg = c->man_latch;
    c->tok64 = c->dec_latch.dec64;
    g->sign = g->sign_latch;
    g->enable = !c->tok64 && mode_en;
}
/* The set: LSB token pending, its MBI; TRRShifter: "a token is loaded into one
 * of the 31 loadable stages (the position of the token corresponds to FBITS)"
 * when TRREn. */
static inline void pp5_serializer_post_set(pp5_serializer *s)
{
    s->cl.first_pending = s->il.iwc;
    s->cl.set_mbi = s->il.mbi;
    if (s->il.trren)
        s->trr.stages |= 1ull << s->trr.fbits_pos;
}
/* One clock: outputs for this clock, then state update on Shift/PostC. */
void pp5_serializer_clock(pp5_serializer *s, const pp5_options *o, bool shift, bool post_c);
/* Shift-only stages and the output stage index of the TRR shifter. */
int pp5_trr_top(const pp5_options *o);
/* TRRHSP1: a token at the output stage. */
bool pp5_serializer_trr(const pp5_serializer *s, const pp5_options *o);

/* ---- (8) OutputLatch ---- */
#define PP5_OL_SRC_STATE(X) /* the undelayed sources of one clock */               \
    X(V, uint32_t, uw, 1, NOSIG)                                                   \
    X(V, bool, dir_en, 1, NOSIG)                                                   \
    X(V, bool, aludat, 1, NOSIG)                                                   \
    X(V, bool, rmode, 1, NOSIG)                                                    \
    X(V, bool, shift, 1, NOSIG)                                                    \
    X(V, uint8_t, addr, 1, NOSIG)                                                  \
    X(A, bool, dat, 6, NOSIG)                                                      \
    X(V, bool, lsb, 1, NOSIG)                                                      \
    X(V, bool, valid, 1, NOSIG)
typedef struct pp5_ol_src { PP5_OL_SRC_STATE(PP5_STATE_DECL) } pp5_ol_src;
#define PP5_LIST_pp5_ol_src PP5_OL_SRC_STATE
#define PP5_OUTPUTLATCH_STATE(X)                                                   \
    X(SA, pp5_ol_src, hist, 4, NOSIG) /* [0] = this clock, [k] = k clocks ago */
typedef struct pp5_outputlatch { PP5_OUTPUTLATCH_STATE(PP5_STATE_DECL) } pp5_outputlatch;
#define PP5_LIST_pp5_outputlatch PP5_OUTPUTLATCH_STATE
void pp5_outputlatch_clock(pp5_outputlatch *ol, const pp5_ol_src *now, pp5_pins *pins);

/* ---- the whole IGC ---- */
#define PP5_MAX_WARNINGS 64
/* The IGC's architectural state: the eight modules and the top level's own
 * (the fast path's compact forms and tables follow it in struct pp5_igc). */
#define PP5_IGC_UW_SIGNALS(Y)                                                    \
    Y(29, "UWord", 32, PP5_SIG_INTERNAL, 1, a->uw)                                 \
    Y(30, "Done", 1, PP5_SIG_INTERNAL, 1, (a->uw >> 31) & 1u)                      \
    Y(31, "DirEn", 1, PP5_SIG_INTERNAL, 1, a->uw & 1u)
#define PP5_IGC_STATE(X)                                                                 \
    X(V, uint64_t, cycle, 1, NOSIG)                                                      \
    X(S, pp5_inputlatch, il, 1, NOSIG)                                                   \
    X(S, pp5_controller, ctl, 1, NOSIG)                                                  \
    X(S, pp5_sequencer, seq, 1, NOSIG)                                                   \
    X(S, pp5_loopcount, lc, 1, NOSIG)                                                    \
    X(S, pp5_pixmemaddr, pma, 1, NOSIG)                                                  \
    X(S, pp5_directreg, dr, 1, NOSIG)                                                    \
    X(S, pp5_serializer, ser, 1, NOSIG)                                                  \
    X(S, pp5_outputlatch, ol, 1, NOSIG)                                                  \
    X(V, bool, st1, 1, NOSIG)                                                            \
    X(V, bool, st2, 1, NOSIG)                                                            \
    X(S, pp5_pins, last_pins, 1, NOSIG)                                                  \
    X(V, uint32_t, uw, 1, SIGLIST(PP5_IGC_UW_SIGNALS)) /* microword of the last clock */ \
    X(V, uint16_t, pc_exec, 1, SIG(28, "PC", 9)) /* its address */                       \
    X(V, uint32_t, rd_data, 1, NOSIG)                                                    \
    X(V, bool, c_fresh, 1, NOSIG) /* C written since the last posting (A-7 variant) */   \
    X(V, size_t, nwarn, 1, NOSIG)
struct pp5_igc {
    pp5_options opt;
    PP5_IGC_STATE(PP5_STATE_DECL)
    char warn[PP5_MAX_WARNINGS][160];
    /* an observer's mark, not state: pp5_igc_signal_*() called since the
     * stream runner last cleared it (it wants every clock's signals) */
    bool signals_read;
    /* the accelerator's hooks (NULL: the model alone) */
    const struct pp5_igc_hooks *hooks;
};
void pp5_igc_warn(pp5_igc *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Shared by the full and the fast step (igc.c). */
void pp5_igc_store_write(pp5_igc *g, unsigned addr, uint32_t w);
void pp5_igc_post_i(pp5_igc *g);
ls_status pp5_igc_host_side(pp5_igc *g, const pp5_host_in *hi, bool busy, ls_diag *d);
/* The accelerator's hooks (src/pp5/accel/igc_fast_*.c): the model calls them
 * where the accelerator keeps a form of its own that must follow. */
typedef struct pp5_igc_hooks {
    /* make the module structs current (the accelerator keeps parts of them
     * in a form of its own while it runs) */
    void (*sync)(pp5_igc *g);
    /* before a model step: sync, and the accelerator's own form will lag */
    void (*model_step)(pp5_igc *g);
    /* the store word at addr was written */
    void (*store_written)(pp5_igc *g, unsigned addr);
    /* after pp5_igc_reset() cleared the model's state */
    void (*reset)(pp5_igc *g);
} pp5_igc_hooks;
/* The model's state made (the store all 0, the options checked), with the
 * accelerator's hooks (may be NULL); the caller owns the memory. */
ls_status pp5_igc_model_init(pp5_igc *g, const pp5_options *opt, const pp5_igc_hooks *hooks,
                             ls_diag *d);
/* Make the module structs current (a logically-const cache fill). */
static inline void pp5_igc_sync(const pp5_igc *cg)
{
    if (cg->hooks)
        cg->hooks->sync((pp5_igc *)cg); /* every pp5_igc is heap-allocated, never const */
}
/* pp5_igc_sync() for a signal read, noted for the stream runner. */
static inline void pp5_igc_sync_signals(const pp5_igc *cg)
{
    pp5_igc *g = (pp5_igc *)cg; /* as above */
    pp5_igc_sync(g);
    g->signals_read = true;
}

#endif
