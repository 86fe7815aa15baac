:
  temp[0].g = MAD src0.000 src0.010 src0.000 ;
:
  temp[0].b = MAD src0.000 src0.001 src0.000 ;
:
  temp[1].r = MAD src0.000 src0.100 src0.000 ;
    LOOP
src0.rgb = const[0] :
  temp[1].g = FRC |src0.0r0| ;
src0.rgb = const[0], src1.rgb = temp[1] :
  temp[1].g = MAD |src0.0r0| src0.010 -src1.0g0 ;
src0.rgb = temp[1], src1.rgb = const[0] :
  temp[1].g = CMP src0.0g0 -src0.0g0 src1.0r0 ;
src0.rgb = temp[0], src1.rgb = temp[1] :
  MAD src0.g00 src0.111 -src1.g00 { ALU_RESULT_OP=GE ALU_WMASK=1 RGB_ADDRD=3 } ;
    IF alu
    BREAK
    ENDIF
src0.a = const[1], src0.rgb = temp[1], src1.rgb = const[1], src2.rgb = temp[0] :
  temp[0].a = MAD src2.b src0.1 src0.a ,
  temp[1].r = MAD src0.r00 src0.100 src1.g00 ;
src0.a = const[1], src0.rgb = temp[0] :
  temp[1].gb = MAD src0.0gg src0.0ha src0.000 ;
src0.rgb = temp[0], src1.rgb = temp[0], src2.rgb = temp[1] :
  temp[1].a = MAD src1.r src0.1 -src2.b ,
  temp[0].g = MAD src0.010 src0.010 src0.0g0 ;
NOP
src0.rgb = temp[1] :
  temp[2].r = FRC src0.g00 ;
src0.a = temp[1], src0.rgb = temp[2], src1.rgb = const[2], srcp.rgb = sub :
  temp[1].a = CMP src0.0 src0.1 src0.a ,
  temp[1].g = CMP src0.000 src0.010 srcp.0r0 ;
src0.a = temp[1], src0.rgb = temp[1] :
  temp[1].g = MAX src0.0g0 src0.0a0 ;
src0.a = temp[0], src1.rgb = temp[0], src2.rgb = temp[1] :
  temp[0].b = CMP src0.00a src1.00b -src2.00g ;
    ENDLOOP
OUT TEX_SEM_WAIT
src0.rgb = temp[0], src1.rgb = temp[1], src2.rgb = temp[0] :
  out[0].a = MAD src0.1 src0.1 src0.0 ,
  out[0].rgb = MAD src0.11r src1.r01 src2.0b0 ;
