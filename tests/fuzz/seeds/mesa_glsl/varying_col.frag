// lockstep test: a vec3 varying from a custom vertex shader (x^2 per vertex)
// drives a data-dependent loop; `mesa check` must agree with llvmpipe.
varying vec3 col;
uniform int n;
void main() {
  float s = 0.0;
  for (int i = 0; i < n; i++) { if (col.x + float(i) * 0.1 > 0.6) break; s += 0.1; }
  gl_FragColor = vec4(s, col.yz, 1.0);
}
