// lockstep test (tests/mesa/draw_engines.sh): a vertex shader with a loop
// whose trip count depends on the vertex (r300 cannot unroll it: the R500
// vertex program has flow control, which the vertex JIT leaves to the
// interpreter) and a break.
attribute vec2 pos;
varying vec4 v;
void main() {
  gl_Position = vec4(pos * 0.75, 0.0, 1.0);
  vec4 acc = vec4(0.0);
  int n = int(pos.x * 3.0 + 4.0);
  for (int i = 0; i < n; i++) {
    acc += vec4(0.125, 0.0625, 0.25, 0.0) * (pos.y + 2.0);
    if (acc.x > 1.0)
      break;
  }
  v = acc;
}
