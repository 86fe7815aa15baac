#version 110
void main()
{
  gl_FragColor = vec3(1.0);
}
