#version 110
uniform int n0;
varying vec2 uv;
void main()
{
  gl_FragColor = vec4(0.0);
  float t1 = 1.0;
  vec2 t3 = vec2(0.0);
  if (gl_FragCoord.xyy.x >= 0.0) {
    t3 = uv.xx;
  } else {
    for (int i1 = 0; i1 < 5; i1++) {
      for (int i2 = 0; i2 < n0; i2++) {
        t1 = 0.0;
      }
    }
    if (gl_FragCoord.xxy.z < 0.0) {
      return;
    }
  }
  if (distance(vec4(t1), vec4(0.0)) >= 1.0) {
    if (t3.y >= 0.0) {
      discard;
    }
  }
  gl_FragColor = vec4(1.0);
}
