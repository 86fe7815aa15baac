#version 110
varying vec2 uv;
void main()
{
  gl_FragColor = vec4(0.0);
  vec2 t0 = vec2(0.0);
  for (int i0 = 0; i0 < 1; i0++) {
    t0 = vec2(0.0, gl_FragCoord.y);
    if (0.0 > t0.y) {
      break;
    }
    if (uv.x < 1.0) {
      break;
    }
  }
  gl_FragColor = t0.yxyy;
}
