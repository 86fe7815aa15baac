-- loop_break_continue.fs.asm: a loop with a data-dependent BREAK and a CONTINUE.
--   r = 0, g = 0
--   loop { r += 1/16; if (r >= u) break; if (r < 0.25) continue; g += 1/16; }
--   out = (r, g, 0, 1)
-- float(24) is the inline constant 2^-4 = 1/16 (r500.md §4.2).
.const 0 0.25 0 0 1
:
  temp[1].a = MAX src0.0 src0.0 ,
  temp[1].rgb = MAX src0.000 src0.000 ;
LOOP
    src0.rgb = temp[1], src1.rgb = float(24) :
      temp[1].r = MAD src1.rrr src0.111 src0.rrr ;
    -- ALU result <- (r - u >= 0)
    src0.rgb = temp[1], src1.rgb = temp[0] :
      MAD src0.rrr src0.111 -src1.rrr { ALU_WMASK=1 ALU_RESULT_OP=GE } ;
    IF alu
        BREAK
    ENDIF
    -- ALU result <- (r - 0.25 < 0)
    src0.rgb = temp[1], src1.rgb = const[0] :
      MAD src0.rrr src0.111 -src1.rrr { ALU_WMASK=1 ALU_RESULT_OP=LT } ;
    IF alu
        CONTINUE
    ENDIF
    src0.rgb = temp[1], src1.rgb = float(24) :
      temp[1].g = MAD src1.ggg src0.111 src0.ggg ;
ENDLOOP
OUT
src0.a = const[0], src0.rgb = temp[1] :
  out[0].a = MAX src0.a src0.a ,
  out[0].rgb = MAX src0.rg0 src0.rg0 ;
