/* Every signal the seed names, observable by name (for --trace and VCD).
 * One table: name, width, kind, and how to read it from the context. Internal
 * signals are the values of the last clock, undelayed; pins are the last
 * pp5_pins. The CSBLatch busy latches are prefixed "Ser." because the seed
 * reuses the names CBsy/IBsy (erratum §9.6). */
#include "pp5/model/igc/igc_internal.h"

#include <string.h>

#define PP5_SIGNALS(X) \
    X("Busy",      1, PP5_SIG_PIN,      g->last_pins.busy) \
    X("ACmp",      1, PP5_SIG_PIN,      g->last_pins.acmp) \
    X("AGtsS",     1, PP5_SIG_PIN,      g->last_pins.agts_s) \
    X("AGtsT",     1, PP5_SIG_PIN,      g->last_pins.agts_t) \
    X("BCmp",      1, PP5_SIG_PIN,      g->last_pins.bcmp) \
    X("BGtsE",     1, PP5_SIG_PIN,      g->last_pins.bgts_e) \
    X("BGtsM",     1, PP5_SIG_PIN,      g->last_pins.bgts_m) \
    X("CCmp",      1, PP5_SIG_PIN,      g->last_pins.ccmp) \
    X("CGtsC",     1, PP5_SIG_PIN,      g->last_pins.cgts_c) \
    X("LdC",       1, PP5_SIG_PIN,      g->last_pins.ldc) \
    X("LdE",       1, PP5_SIG_PIN,      g->last_pins.lde) \
    X("MWrt",      1, PP5_SIG_PIN,      g->last_pins.mwrt) \
    X("AddrL",     8, PP5_SIG_PIN,      g->last_pins.addr_l) \
    X("AddrH",     8, PP5_SIG_PIN,      g->last_pins.addr_h) \
    X("ADat",      1, PP5_SIG_PIN,      g->last_pins.dat[0]) \
    X("BDat",      1, PP5_SIG_PIN,      g->last_pins.dat[1]) \
    X("CDat",      1, PP5_SIG_PIN,      g->last_pins.dat[2]) \
    X("DDat",      1, PP5_SIG_PIN,      g->last_pins.dat[3]) \
    X("EDat",      1, PP5_SIG_PIN,      g->last_pins.dat[4]) \
    X("FDat",      1, PP5_SIG_PIN,      g->last_pins.dat[5]) \
    X("LSB",       1, PP5_SIG_PIN,      g->last_pins.lsb) \
    X("TrSt",      1, PP5_SIG_PIN,      g->last_pins.trst) \
    X("ExtOp",     6, PP5_SIG_PIN,      g->last_pins.extop) \
    X("ALUDat",    1, PP5_SIG_PIN,      g->last_pins.aludat) \
    X("Config",    1, PP5_SIG_PIN,      g->last_pins.config_mode) \
    X("Pair",      1, PP5_SIG_PIN,      g->last_pins.pair) \
    X("TestPE",    1, PP5_SIG_PIN,      g->last_pins.d_out_en) \
    X("DOut",     32, PP5_SIG_PIN,      g->last_pins.d_out_en ? g->last_pins.d_out : 0u) \
    X("PC",        9, PP5_SIG_INTERNAL, g->pc_exec) \
    X("UWord",    32, PP5_SIG_INTERNAL, g->uw) \
    X("Done",      1, PP5_SIG_INTERNAL, (g->uw >> 31) & 1u) \
    X("DirEn",     1, PP5_SIG_INTERNAL, g->uw & 1u) \
    X("NewL",      1, PP5_SIG_INTERNAL, g->seq.new_l) \
    X("Branch",    1, PP5_SIG_INTERNAL, g->seq.branch) \
    X("IBsy",      1, PP5_SIG_INTERNAL, g->ctl.ibsy) \
    X("CBsy",      1, PP5_SIG_INTERNAL, g->ctl.cbsy) \
    X("IP",        1, PP5_SIG_INTERNAL, g->ctl.ip) \
    X("PostI",     1, PP5_SIG_INTERNAL, g->ctl.post_i) \
    X("PostC",     1, PP5_SIG_INTERNAL, g->ctl.post_c) \
    X("RMode",     1, PP5_SIG_INTERNAL, g->ctl.rmode) \
    X("Shift",     1, PP5_SIG_INTERNAL, g->ctl.shift) \
    X("TRR",       1, PP5_SIG_INTERNAL, g->ser.trr.trr) \
    X("CSB",       1, PP5_SIG_INTERNAL, g->ser.cl.csb) \
    X("LSBInt",    1, PP5_SIG_INTERNAL, g->ser.cl.lsb) \
    X("MsIn",      1, PP5_SIG_INTERNAL, g->ser.cl.msin) \
    X("TC1",       1, PP5_SIG_INTERNAL, g->lc.tc1) \
    X("TC2",       1, PP5_SIG_INTERNAL, g->lc.tc2) \
    X("LC1",       7, PP5_SIG_INTERNAL, g->lc.lc1) \
    X("LC2",       7, PP5_SIG_INTERNAL, g->lc.lc2) \
    X("Addr",      8, PP5_SIG_INTERNAL, g->pma.addr) \
    X("Dst",       8, PP5_SIG_INTERNAL, g->pma.ctr[PP5_CTR_DST]) \
    X("Src",       8, PP5_SIG_INTERNAL, g->pma.ctr[PP5_CTR_SRC]) \
    X("Aux",       8, PP5_SIG_INTERNAL, g->pma.ctr[PP5_CTR_AUX]) \
    X("ALUDatInt", 1, PP5_SIG_INTERNAL, g->dr.aludat) \
    X("DirShReg", 32, PP5_SIG_INTERNAL, g->dr.shreg) \
    X("FBits",     5, PP5_SIG_INTERNAL, g->ser.fbits_reg) \
    X("ST1",       1, PP5_SIG_INTERNAL, g->il.st1) \
    X("ST2",       1, PP5_SIG_INTERNAL, g->il.st2) \
    X("Ser.ABsy",  1, PP5_SIG_INTERNAL, g->ser.cl.bsy[0]) \
    X("Ser.BBsy",  1, PP5_SIG_INTERNAL, g->ser.cl.bsy[1]) \
    X("Ser.CBsy",  1, PP5_SIG_INTERNAL, g->ser.cl.bsy[2]) \
    X("Ser.DBsy",  1, PP5_SIG_INTERNAL, g->ser.cl.bsy[3]) \
    X("Ser.EBsy",  1, PP5_SIG_INTERNAL, g->ser.cl.bsy[4]) \
    X("Ser.FBsy",  1, PP5_SIG_INTERNAL, g->ser.cl.bsy[5]) \
    X("Ser.IBsy",  1, PP5_SIG_INTERNAL, g->ser.cl.bsy[6]) \
    X("ABit",      1, PP5_SIG_INTERNAL, g->ser.cs[0].bit) \
    X("CBit",      1, PP5_SIG_INTERNAL, g->ser.cs[2].bit) \
    X("ADatInt",   1, PP5_SIG_INTERNAL, g->ser.cg[0].dat) \
    X("CDatInt",   1, PP5_SIG_INTERNAL, g->ser.cg[2].dat)

static const pp5_signal_info signal_table[] = {
#define X(name, width, kind, expr) {name, width, kind},
    PP5_SIGNALS(X)
#undef X
};

size_t pp5_igc_signal_count(void) { return sizeof signal_table / sizeof signal_table[0]; }

const pp5_signal_info *pp5_igc_signal_info(size_t i)
{
    return i < pp5_igc_signal_count() ? &signal_table[i] : NULL;
}

long pp5_igc_signal_find(const char *name)
{
    for (size_t i = 0; i < pp5_igc_signal_count(); i++)
        if (strcmp(signal_table[i].name, name) == 0)
            return (long)i;
    return -1;
}

uint64_t pp5_igc_signal_value(const pp5_igc *g, size_t i)
{
    pp5_igc_sync_signals(g); /* after fast steps: rebuild the module fields read below */
    size_t k = 0;
#define X(name, width, kind, expr) \
    if (k++ == i)                  \
        return (uint64_t)(expr);
    PP5_SIGNALS(X)
#undef X
    return 0;
}

void pp5_igc_signal_values(const pp5_igc *g, uint64_t *out)
{
    pp5_igc_sync_signals(g);
    size_t k = 0;
#define X(name, width, kind, expr) out[k++] = (uint64_t)(expr);
    PP5_SIGNALS(X)
#undef X
}
