-- Mandelbrot escape-time fragment program for the R500 (lockstep demo).
-- Hand-encoded with the field table of include/lockstep/r500_isa.h; the FC
-- words are Mesa's exact encodings (spec/r500.md §3.2): LOOP/ENDLOOP on
-- US_FC_INT_CONST_0 (KR = 255 by default, as Mesa sets it), and inside the
-- loop `if (escaped) break;` as IF / BRK(pop 1) / ENDIF.
--
-- Input:  t0 = uv  (lockstep r500 run ... --input t0=uv)
-- Temps:  t1.rg = (cx, cy/2)   t2.r = x, t2.a = y   t3.a = n (iterations)
--         t4, t5 scratch       t6, t7 palette
-- Per iteration: z = z*z + c ; n += 1 ; break when x*x + y*y >= 4.
-- Colour: 0.5 + 0.5*sin(2*pi*(n*c1 + c2)) per channel; black when n >= c3.a
-- (the point never escaped within KR iterations).
--
-- (Disassembled from examples/r500/mandelbrot.inc by `lockstep r500 dis`; the demo runs this file.)
--
.const 0 3 1.20000005 -2.20000005 -0.600000024   -- 3.0 1.2 -2.2 -0.6 : c = (uv.x*3-2.2, 2*(uv.y*1.2-0.6))
.const 1 0.0500000007 0.0370370373 0.0285714287 0   -- 0.05 0.037 0.02857 0 : palette frequency per channel
.const 2 0 0.330000013 0.670000017 0   -- 0 0.33 0.67 0 : palette phase per channel
.const 3 0 0 0 254.5   -- 0 0 0 254.5 : n above this = inside the set
src1.a = const[0], src0.rgb = temp[0], src1.rgb = const[0] :
  temp[1].rg = MAD src0.rg0 src1.rg0 src1.ba0 ,
  MAD src0.0 src0.0 src0.0 ;
:
  temp[2].a = MAD src0.0 src0.0 src0.0 ,
  temp[2].r = MAD src0.000 src0.000 src0.000 ;
:
  temp[3].a = MAD src0.0 src0.0 src0.0 ,
  MAD src0.000 src0.000 src0.000 ;
    LOOP
src0.a = temp[2], src0.rgb = temp[2], src1.rgb = temp[1] :
  temp[4].a = MAD src0.a src0.a src0.0 ,
  temp[4].r = MAD src0.r00 src0.r00 src1.r00 ;
src0.a = temp[4], src1.a = temp[2], src0.rgb = temp[4], src1.rgb = temp[2], src2.rgb = temp[1] :
  temp[2].a = 2.0 * MAD src1.r src1.a src2.g ,
  temp[2].r = MAD -src0.a00 src0.100 src0.r00 ;
src0.a = temp[3], src0.rgb = temp[2], src1.rgb = float(72) :
  temp[3].a = MAD src0.a src0.1 src0.1 ,
  temp[5].r = MAD src0.r00 src0.r00 -src1.r00 ;
src0.a = temp[2], src0.rgb = temp[2], src2.rgb = temp[5] :
  MAD src0.a00 src0.a00 src2.r00 ,
  MAD src0.0 src0.0 src0.0 { ALU_RESULT_OP=GE ALU_WMASK=1 } ;
    IF alu
    BREAK
    ENDIF
    ENDLOOP
src0.a = temp[3], src1.rgb = const[1], src2.rgb = const[2] :
  temp[6].rgb = MAD src0.aaa src1.rgb src2.rgb ,
  MAD src0.0 src0.0 src0.0 ;
src0.rgb = temp[6] :
  temp[6].rgb = FRC src0.rgb ,
  MAD src0.0 src0.0 src0.0 ;
src0.rgb = temp[6] :
  SIN src0.r ,
  temp[7].r = SOP src0.000 src0.000 src0.000 ;
src0.rgb = temp[6] :
  SIN src0.g ,
  temp[7].g = SOP src0.000 src0.000 src0.000 ;
src0.rgb = temp[6] :
  SIN src0.b ,
  temp[7].b = SOP src0.000 src0.000 src0.000 ;
src0.rgb = temp[7] :
  temp[7].rgb = MAD src0.rgb src0.hhh src0.hhh ,
  MAD src0.0 src0.0 src0.0 ;
OUT
src0.a = const[3], src1.a = temp[3], src0.rgb = temp[7], srcp.a = sub, srcp.rgb = sub :
  out[0].a = MAD src0.1 src0.1 src0.0 ,
  out[0].rgb = CMP src0.000 src0.rgb srcp.aaa { RGB_OMOD=DISABLE } ;
