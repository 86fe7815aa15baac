#version 110
varying vec2 uv;
void main()
{
  gl_FragColor = vec4(0.0);
  if (1.0 <= uv.x) {
    discard;
  } else {
    for (int i2 = 0; i2 < 1; i2++) {
      if (i2 < 4) {
        if (i2 != 1) {
          return;
        }
      } else {
        gl_FragColor.wz += vec2(1.0);
      }
    }
  }
  gl_FragColor = uv.yyxy;
}
