#version 110
void main()
{
  gl_FragColor = vec4(0.0);
  vec4 t0 = vec4(0.0);
  {
    int i2 = 0;
    do {
      i2++;
      if (i2 == 0) {
        t0 = vec3(float(i2)).xzzy;
        if (0.0 <= ((-1.375) + t0.x)) {
          continue;
        } else {
          return;
        }
      }
    } while (i2 < 1);
  }
  gl_FragColor = vec4(1.0);
}
