-- subroutine.fs.asm: a subroutine called twice (A_OP=PUSH on CALL, POP on RET).
--   t1 = u / 4; double(); double(); out = (t1, t1, t1, 1)  ->  out.r = u
src0.rgb = temp[0] :
  temp[1].rgb = 0.25 * MAX src0.rrr src0.rrr ;
CALL double
CALL double
JUMP done
double:
    src0.rgb = temp[1] :
      temp[1].rgb = MAD src0.rgb src0.111 src0.rgb ;
    RET
done:
OUT
src0.a = float(56), src0.rgb = temp[1] :
  out[0].a = MAX src0.a src0.a ,
  out[0].rgb = MAX src0.rgb src0.rgb ;
