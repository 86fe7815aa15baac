a0[0].x = VE_FLT2FIX_DX const[0].xxxx ;
out[0].x = VE_ADD temp[a0.x+0].xxxx temp[0].0000 ;
