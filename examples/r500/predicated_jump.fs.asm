-- predicated_jump.fs.asm: a predicate bit set by an ALU instruction, used by
-- predicated writes and by a jump.
--   pred.r <- (u - 0.5 >= 0)            (ALU: RGB_OMASK selects predicate bits,
--                                         TARGET the compare, r500.md §4.6)
--   out.rgb = pred.r ? red : blue        (RGB_PRED_SEL=RRRR, with and without INV)
--   JUMP skip if pred.r: when every active pixel of the thread has pred.r set,
--   the blue write is skipped altogether; the result is the same.
.const 0 0.5 0.5 0.5 0.5
.const 1 1 0 0 1
.const 2 0 0 1 1
src0.rgb = temp[0], src1.rgb = const[0] :
  MAD src0.rrr src0.111 -src1.rrr { RGB_OMASK=1 RGB_TARGET=2 } ;
src0.a = const[1], src0.rgb = const[1] :
  temp[1].a = MAX src0.a src0.a ,
  temp[1].rgb = MAX src0.rgb src0.rgb { RGB_PRED_SEL=RRRR } ;
JUMP skip if pred.r
src0.rgb = const[2] :
  temp[1].rgb = MAX src0.rgb src0.rgb { RGB_PRED_SEL=RRRR RGB_PRED_INV=1 } ;
skip:
OUT
src0.a = temp[1], src0.rgb = temp[1] :
  out[0].a = MAX src0.a src0.a ,
  out[0].rgb = MAX src0.rgb src0.rgb ;
