#version 110
varying vec2 uv;
void main()
{
  gl_FragColor = vec4(0.0);
  vec2 t0 = vec2(1.0);
  vec3 t1 = inversesqrt(uv.yyx);
  {
    int i6 = 0;
    do {
      i6++;
      if (t0.yyyx.x > 0.0) {
        t1.y = 0.0;
      }
      if (t1.x >= 0.0) {
        continue;
      }
      t1 = vec3(0.0);
      t0.x = 0.0;
    } while (i6 < 1);
  }
  gl_FragColor = mix(vec2(0.0), t1.zz, 0.25).yxxx;
}
