attribute vec2 pos;
varying vec3 col;
void main() { gl_Position = vec4(pos, 0.0, 1.0); col = vec3(pos.x * pos.x, 0.5 * pos.y + 0.5, 0.25); }
