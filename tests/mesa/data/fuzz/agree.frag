#version 110
varying vec2 uv;
void main()
{
  vec4 c = vec4(uv, 0.25, 1.0);
  for (int i = 0; i < 3; i++)
    c.x += 0.125;
  gl_FragColor = c;
}
