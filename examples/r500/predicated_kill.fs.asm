-- predicated_kill.fs.asm: TEXKILL under a predicate (a discard in one branch
-- of a condition without flow control).
--   pred.r <- (u - 0.5 >= 0)                 (as in predicated_jump.fs.asm)
--   temp[2] = (v - 0.5) in every channel
--   TEXKILL temp[2] with RGB_PRED_SEL=RRRR RGB_PRED_INV=1: of the pixels
--   with pred.r clear (u < 0.5), those with v < 0.5 are killed and keep the
--   clear colour; every other pixel is red.
.const 0 0.5 0.5 0.5 0.5
.const 1 1 0 0 1
src0.rgb = temp[0], src1.rgb = const[0] :
  MAD src0.rrr src0.111 -src1.rrr { RGB_OMASK=1 RGB_TARGET=2 } ;
src0.a = temp[0], src0.rgb = temp[0], src1.a = const[0], src1.rgb = const[0] :
  temp[2].a = MAD src0.g src0.1 -src1.a ,
  temp[2].rgb = MAD src0.ggg src0.111 -src1.rrr ;
TEX
  temp[3].rgba = TEXKILL tex[0].rgba temp[2].rgba { RGB_PRED_SEL=RRRR RGB_PRED_INV=1 } ;
OUT
src0.a = const[1], src0.rgb = const[1] :
  out[0].a = MAX src0.a src0.a ,
  out[0].rgb = MAX src0.rgb src0.rgb ;
