.fc partial
.int 1 4 0 2
.const 0 1 2 3 4
L: IF pred.r & !bool[2]
REP 1
BREAK
CONTINUE
ENDREP
ELSE
CALL L
RET if alu
ENDIF TEX_SEM_WAIT
.fc FC_OP=JUMP JUMP_FUNC=0x33 JUMP_ADDR=L
.raw 1 2 3 4 5 6
