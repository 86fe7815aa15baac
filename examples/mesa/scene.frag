// lockstep's demo scene: the texture, lit and tinted per vertex; the alpha
// of the mesh (1 opaque, 0.5 the glass pane) goes to blending.
#version 110
uniform sampler2D tex;
varying vec2 v_uv;
varying vec3 v_color;
varying float v_alpha;

void main()
{
    gl_FragColor = vec4(texture2D(tex, v_uv).rgb * v_color, v_alpha);
}
