#version 110
varying vec2 uv;
void main()
{
  gl_FragColor = vec4(0.0);
  vec2 t0 = vec2(1.0, uv.y);
  vec3 t1 = log((t0.yxx + vec3(1.0)));
  t0.xy += ((t1.zx + 1.0) * (vec2(1.0) - t1.xy));
  gl_FragColor = t0.yyxy;
}
