#version 110
uniform vec3 u0;
uniform int n0;
void main()
{
  gl_FragColor = vec4(0.0);
  vec2 t0 = u0.xx;
  vec2 t1 = vec2(0.0);
  vec4 t2 = vec4(0.0);
  if (t0.x <= 0.0) {
    return;
  }
  for (int i0 = 0; i0 < 1; i0++) {
    if (0.0 < float(i0)) {
      continue;
    }
    for (int i1 = 0; i1 < 2; i1++) {
      for (int i2 = 0; i2 < n0; i2++) {
        t1.y = 0.0;
      }
    }
    if (t1.x <= 0.0) {
    } else {
      if (t2.w > (-0.75)) {
        return;
      }
      t1 = vec2(0.0);
    }
  }
  gl_FragColor = vec4(1.0);
}
