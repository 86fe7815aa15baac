-- partial_mode.fs.asm: branches in partial flow-control mode (US_FC_CTRL
-- FULL_FC_EN = 0: twice the contexts, no loops or subroutines, shallow
-- nesting). Three bands by u: < 1/3 dark, < 2/3 mid, else light grey.
.fc partial
.const 0 0.33333334 0.6666667 0 0
.const 1 0.25 0.5 0.75 1
src0.rgb = temp[0], src1.rgb = const[0] :
  MAD src0.rrr src0.111 -src1.rrr { ALU_WMASK=1 ALU_RESULT_OP=LT } ;
IF alu
    src0.rgb = const[1] :
      temp[1].rgb = MAX src0.rrr src0.rrr ;
ELSE
    src0.rgb = temp[0], src1.rgb = const[0] :
      MAD src0.rrr src0.111 -src1.ggg { ALU_WMASK=1 ALU_RESULT_OP=LT } ;
    IF alu
        src0.rgb = const[1] :
          temp[1].rgb = MAX src0.ggg src0.ggg ;
    ELSE
        src0.rgb = const[1] :
          temp[1].rgb = MAX src0.bbb src0.bbb ;
    ENDIF
ENDIF
OUT
src0.a = const[1], src0.rgb = temp[1] :
  out[0].a = MAX src0.a src0.a ,
  out[0].rgb = MAX src0.rgb src0.rgb ;
