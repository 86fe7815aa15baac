#version 110
varying vec2 uv;
void main()
{
  gl_FragColor = vec4(0.0);
  if (uv.y >= 1.0) { discard; gl_FragColor.wxz = vec3(1.0); }
  discard;
  gl_FragColor += vec4(1.0);
}
