// lockstep's demo scene: the whole scene turned by `angle` about the vertical
// axis and tilted towards the viewer, then a perspective projection (90 degree
// field of view, near 1, far 10). Diffuse light from the upper left front.
#version 110
attribute vec3 pos;
attribute vec3 normal;
attribute vec2 uv;
attribute vec3 color;
attribute float alpha;
uniform float angle;
varying vec2 v_uv;
varying vec3 v_color;
varying float v_alpha;

vec3 turn(vec3 v)
{
    float c = cos(angle), s = sin(angle);
    v = vec3(c * v.x + s * v.z, v.y, c * v.z - s * v.x);
    const float ct = 0.9211, st = 0.3894; /* a tilt of 0.4 rad */
    return vec3(v.x, ct * v.y - st * v.z, st * v.y + ct * v.z);
}

void main()
{
    vec3 p = turn(pos) - vec3(0.0, -0.35, 3.0);
    vec3 n = turn(normal);
    float light = 0.3 + 0.7 * max(dot(n, normalize(vec3(-0.5, 0.8, 0.6))), 0.0);
    v_uv = uv;
    v_color = color * light;
    v_alpha = alpha;
    const float near = 1.0, far = 10.0;
    gl_Position = vec4(1.6 * p.x, 1.6 * p.y, (far + near) / (near - far) * p.z +
                       2.0 * far * near / (near - far), -p.z);
}
