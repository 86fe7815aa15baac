// lockstep test (tests/mesa/test_draw_capture.c): positions and a varying
// computed per quad corner; the executor's transformed vertices must match.
attribute vec2 pos;
varying vec4 v;
void main() {
  gl_Position = vec4(pos * 0.75 + vec2(0.125, -0.25), 0.5 * pos.x, 1.0 + 0.25 * pos.y);
  v = vec4(pos.x * pos.y, sin(pos.x), pos.y * pos.y * 3.0, abs(pos.x - 0.5));
}
