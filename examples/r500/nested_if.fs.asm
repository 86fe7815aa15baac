-- nested_if.fs.asm: four quadrants through nested IF/ELSE (temp[0] = uv).
--   u >= 0.5, v >= 0.5: red     u >= 0.5, v < 0.5: green
--   u <  0.5, v >= 0.5: blue    u <  0.5, v < 0.5: white
-- run: lockstep r500 run examples/r500/nested_if.fs.asm --input t0=uv -o quadrants.png
.const 0 0.5 0.5 0.5 0.5
.const 1 1 0 0 1
.const 2 0 1 0 1
.const 3 0 0 1 1
.const 4 1 1 1 1

-- ALU result <- (u - 0.5 >= 0)
src0.rgb = temp[0], src1.rgb = const[0] :
  MAD src0.rrr src0.111 -src1.rrr { ALU_WMASK=1 ALU_RESULT_OP=GE } ;
IF alu
    src0.rgb = temp[0], src1.rgb = const[0] :
      MAD src0.ggg src0.111 -src1.ggg { ALU_WMASK=1 ALU_RESULT_OP=GE } ;
    IF alu
        src0.a = const[1], src0.rgb = const[1] :
          temp[1].a = MAX src0.a src0.a ,
          temp[1].rgb = MAX src0.rgb src0.rgb ;
    ELSE
        src0.a = const[2], src0.rgb = const[2] :
          temp[1].a = MAX src0.a src0.a ,
          temp[1].rgb = MAX src0.rgb src0.rgb ;
    ENDIF
ELSE
    src0.rgb = temp[0], src1.rgb = const[0] :
      MAD src0.ggg src0.111 -src1.ggg { ALU_WMASK=1 ALU_RESULT_OP=GE } ;
    IF alu
        src0.a = const[3], src0.rgb = const[3] :
          temp[1].a = MAX src0.a src0.a ,
          temp[1].rgb = MAX src0.rgb src0.rgb ;
    ELSE
        src0.a = const[4], src0.rgb = const[4] :
          temp[1].a = MAX src0.a src0.a ,
          temp[1].rgb = MAX src0.rgb src0.rgb ;
    ENDIF
ENDIF
OUT
src0.a = temp[1], src0.rgb = temp[1] :
  out[0].a = MAX src0.a src0.a ,
  out[0].rgb = MAX src0.rgb src0.rgb ;
