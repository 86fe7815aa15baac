-- every syntactic form: relative addressing, abs, negate, suffixes, dual math, raw
temp[0].xyzw = VE_ADD const[1].xyzw const[1].0000 ;
a0[0].x = VE_FLT2FIX_DX input[0].xxxx ;
temp[a0.y+1].xw = VE_MAD.SAT.PRED |const[a0.x+5].x-y01| temp[1].xyzw temp[2].hhhh ;
temp[1].yz = VE_MUL input[0]._-zz_ temp[3]._xy_ ,
alt_temp[3].w = ME_COS temp[0].y_ ;
out[0].xyzw = MACRO_OP_2CLK_MADD temp[0].xyzw temp[1].xyzw temp[2].xyzw ;
out_repl_x[1].xyzw = ME_RCP.SAT.NPRED input[1].___w ;
raw 0x00f00203 0x00d10005 0x01248001 0x01ffe001 ;
