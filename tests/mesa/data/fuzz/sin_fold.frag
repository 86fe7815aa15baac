#version 110
varying vec2 uv;
void main()
{
  vec4 c = sin(vec4(1.0, 2.0, uv));
  gl_FragColor = vec4(c.xy, 0.0, 1.0);
}
