out[0].xyzw = VE_ADD const[0].xyzw const[1].xyzw ;
