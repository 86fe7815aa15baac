-- transform a position by the matrix in const[0..3], pass a colour through
temp[0].x = VE_DOT const[0].xyzw input[0].xyzw ;
temp[0].y = VE_DOT const[1].xyzw input[0].xyzw ;
temp[0].z = VE_DOT const[2].xyzw input[0].xyzw ;
temp[0].w = VE_DOT const[3].xyzw input[0].xyzw ;
out[0].xyzw = VE_ADD temp[0].xyzw temp[0].0000 ;
out[1].xyzw = VE_MAX input[1].xyzw input[1].xyzw ;
