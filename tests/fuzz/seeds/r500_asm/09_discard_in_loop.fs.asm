src0.rgb = temp[0] :
  temp[1].r = MAD src0.r00 src0.100 src0.000 ;
:
  temp[0].b = MAD src0.000 src0.001 src0.000 ;
    LOOP
src0.rgb = const[0] :
  temp[1].g = FRC |src0.0r0| ;
src0.rgb = const[0], src1.rgb = temp[1] :
  temp[1].g = MAD |src0.0r0| src0.010 -src1.0g0 ;
src0.rgb = temp[1], src1.rgb = const[0] :
  temp[1].g = CMP src0.0g0 -src0.0g0 src1.0r0 ;
src0.rgb = temp[0], src1.rgb = temp[1] :
  MAD src0.b00 src0.111 -src1.g00 { ALU_RESULT_OP=GE ALU_WMASK=1 RGB_ADDRD=2 } ;
    IF alu
    BREAK
    ENDIF
src0.a = float(60), src0.rgb = temp[1] :
  temp[1].r = MAD src0.r00 src0.a00 src0.000 ;
NOP
src0.rgb = temp[0] :
  temp[2].r = MAD src0.100 src0.100 src0.g00 ;
src0.rgb = temp[1], src1.rgb = temp[2], src2.rgb = temp[0], srcp.rgb = sub :
  temp[0].a = CMP src0.0 src0.1 srcp.r ,
  temp[0].b = MAD src2.00b src0.001 src0.001 ;
src0.a = temp[0] :
  temp[2].a = MAD -src0.a src0.1 src0.0 ,
  temp[2].rgb = MAD -src0.aaa src0.111 src0.000 ;
TEX TEX_SEM_WAIT TEX_SEM_ACQUIRE
  temp[0].rgba = TEXKILL tex[0].rrrr temp[2].rgba ;
    ENDLOOP TEX_SEM_WAIT
OUT TEX_SEM_WAIT
src0.rgb = temp[1], src1.rgb = temp[0] :
  out[0].a = MAD src0.1 src0.1 src0.0 ,
  out[0].rgb = MAD src0.r11 src0.h0h src1.0g0 ;
