#version 110
uniform int n0;
void main()
{
  gl_FragColor = vec4(0.0);
  for (int i0 = 0; i0 < n0; i0++) {
    discard;
  }
  gl_FragColor = vec4(1.0);
}
