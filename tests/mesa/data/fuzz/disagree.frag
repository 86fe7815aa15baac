#version 110
uniform int n0;
void main()
{
  gl_FragColor = vec4(0.0);
  vec4 t0 = vec4(1.0);
  vec4 t1 = vec4(1.0);
  for (int i1 = 0; i1 < 2; i1++) {
    if ((t1.z + 1.0) > 1.0) {
      t1.yz = vec2(0.0, (-1.0));
    } else {
      for (int i2 = 0; i2 < n0; i2++) {
        t0.xy = vec2(0.0);
      }
    }
  }
  gl_FragColor = t0;
}
