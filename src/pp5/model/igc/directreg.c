/* (6) DirectReg — seed 003 §IV.3.3-6: "two 32-bit latches and a 32-bit shift
 * register". */
#include "pp5/model/igc/igc_internal.h"

/* "Whenever the microcode bit DirEnHSP1 is asserted, the shift register shifts
 * right one bit. The value in the LSB position of the shifter appears on
 * ALUDatHSP1 … If the shifter is bumped more than 32 times, the value is
 * sign-extended." "When execution begins, the data is transferred to the shift
 * register" — execution begins with NewL, after this word's shift. Returns
 * ALUDat of this clock. */
bool pp5_directreg_clock(pp5_directreg *r, bool dir_en, bool new_l)
{
    r->aludat = r->shreg & 1u;
    if (dir_en) {
        uint32_t sign = r->shreg & 0x80000000u;
        r->shreg = (r->shreg >> 1) | sign; /* arithmetic shift: sign extension */
    }
    if (new_l)
        r->shreg = r->post;
    return r->aludat;
}
