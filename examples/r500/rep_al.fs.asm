-- rep_al.fs.asm: aL-relative constant indexing. An outer LOOP steps aL over
-- 2, 3, 4 (US_FC_INT_CONST_1: count 3, init 2, step 1); an inner REP (count 2,
-- US_FC_INT_CONST_2) keeps the outer aL (seed 001: REP "don't push the loop
-- register aL") and adds const[0 + aL] each time:
--   out.r = 2 * (const[2] + const[3] + const[4]) = 2 * (1/16 + 1/8 + 1/4) = 0.875
.int 1 3 2 1
.int 2 2 0 0
.const 2 0.0625 0 0 0
.const 3 0.125 0 0 0
.const 4 0.25 0 0 0
.const 5 0 0 0 1
:
  temp[1].rgb = MAX src0.000 src0.000 ;
LOOP 1
    REP 2
        src0.rgb = const[0], src1.rgb = temp[1] :
          temp[1].r = MAD src0.rrr src0.111 src1.rrr { RGB_ADDR0_REL=1 } ;
    ENDREP
ENDLOOP
OUT
src0.a = const[5], src0.rgb = temp[1] :
  out[0].a = MAX src0.a src0.a ,
  out[0].rgb = MAX src0.r00 src0.r00 ;
