top: JUMP top
