#version 110
uniform float a[128];
uniform int k;
void main()
{
  gl_FragColor = vec4(a[k]);
}
