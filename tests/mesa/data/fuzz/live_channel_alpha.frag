#version 110
uniform int n0;
varying vec2 uv;
void main()
{
  gl_FragColor = vec4(0.0);
  float t0 = 0.0;
  vec2 t1 = vec2(1.0);
  {
    int i0 = 0;
    do {
      i0++;
      t0 = vec4((t1.x + vec3(1.0)), 0.0).y;
      for (int i2 = 0; i2 < 8; i2++) {
        t1 += vec2(0.0, float(i2));
      }
    } while (i0 < n0);
  }
  gl_FragColor = vec4(t0);
  gl_FragColor += uv.xyyy;
}
