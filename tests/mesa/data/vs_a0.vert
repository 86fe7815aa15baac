// lockstep test (tests/mesa/draw_engines.sh): a uniform array indexed by a
// per-vertex value (r300 reads it as const[a0.x + N]: A0-relative constants,
// which the vertex JIT compiles).
attribute vec2 pos;
varying vec4 v;
uniform vec4 tab[4];
void main() {
  gl_Position = vec4(pos * 0.75, 0.0, 1.0);
  int k = int(pos.x * 1.5 + 1.5);
  v = tab[k] + vec4(0.25, 0.5, 0.125, 1.0) * pos.y;
}
