varying vec4 v;
void main() { gl_FragColor = v; }
