#version 110
// The GLSL of examples/r500/mandelbrot.fs.asm for `lockstep mesa bench`
// (scripts/bench_mesa.sh): c = (3 uv.x - 2.2, 2 (1.2 uv.y - 0.6)), z = z*z + c,
// at most 255 iterations, leaving when |z|^2 >= 4; colour 0.5 + 0.5 sin(2 pi
// (n f + phase)) per channel, black inside the set.
varying vec2 uv;
void main() {
    vec2 c = vec2(uv.x * 3.0 - 2.2, 2.0 * (uv.y * 1.2 - 0.6));
    float x = 0.0, y = 0.0, n = 0.0;
    for (int i = 0; i < 255; i++) {
        float xx = x * x - y * y + c.x;
        y = 2.0 * x * y + c.y;
        x = xx;
        n += 1.0;
        if (x * x + y * y >= 4.0)
            break;
    }
    vec3 col = 0.5 + 0.5 * sin(6.2831853 * fract(n * vec3(0.05, 0.037037037, 0.0285714287)
                                                 + vec3(0.0, 0.33, 0.67)));
    gl_FragColor = vec4(n > 254.5 ? vec3(0.0) : col, 1.0);
}
