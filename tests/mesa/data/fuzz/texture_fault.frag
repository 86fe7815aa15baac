#version 110
uniform sampler2D s;
varying vec2 uv;
void main()
{
  gl_FragColor = texture2D(s, uv);
}
