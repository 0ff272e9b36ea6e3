#include "textflag.h"

// func specialMasksSSE2(t []byte, out, high []uint64)
//
// For each whole 64-byte block j of t (j < len(out), len(high) >=
// len(out)), out[j] gets bit b set when byte 64j+b of t is a comma, a
// quote or a line feed, and high[j] bit b when that byte is not ASCII
// (its high bit). SSE2 is part of every amd64 processor.
TEXT ·specialMasksSSE2(SB), NOSPLIT, $0-72
	MOVQ t_base+0(FP), SI
	MOVQ out_base+24(FP), DI
	MOVQ out_len+32(FP), CX
	MOVQ high_base+48(FP), DX
	TESTQ CX, CX
	JZ   done
	MOVQ $0x2c2c2c2c2c2c2c2c, AX
	MOVQ AX, X1
	PUNPCKLQDQ X1, X1
	MOVQ $0x2222222222222222, AX
	MOVQ AX, X2
	PUNPCKLQDQ X2, X2
	MOVQ $0x0a0a0a0a0a0a0a0a, AX
	MOVQ AX, X3
	PUNPCKLQDQ X3, X3

loop:
	MOVOU 0(SI), X4
	PMOVMSKB X4, R9
	MOVO  X4, X5
	MOVO  X4, X6
	PCMPEQB X1, X4
	PCMPEQB X2, X5
	PCMPEQB X3, X6
	POR   X5, X4
	POR   X6, X4
	PMOVMSKB X4, AX

	MOVOU 16(SI), X4
	PMOVMSKB X4, R10
	SHLQ  $16, R10
	ORQ   R10, R9
	MOVO  X4, X5
	MOVO  X4, X6
	PCMPEQB X1, X4
	PCMPEQB X2, X5
	PCMPEQB X3, X6
	POR   X5, X4
	POR   X6, X4
	PMOVMSKB X4, BX
	SHLQ  $16, BX
	ORQ   BX, AX

	MOVOU 32(SI), X4
	PMOVMSKB X4, R10
	SHLQ  $32, R10
	ORQ   R10, R9
	MOVO  X4, X5
	MOVO  X4, X6
	PCMPEQB X1, X4
	PCMPEQB X2, X5
	PCMPEQB X3, X6
	POR   X5, X4
	POR   X6, X4
	PMOVMSKB X4, BX
	SHLQ  $32, BX
	ORQ   BX, AX

	MOVOU 48(SI), X4
	PMOVMSKB X4, R10
	SHLQ  $48, R10
	ORQ   R10, R9
	MOVO  X4, X5
	MOVO  X4, X6
	PCMPEQB X1, X4
	PCMPEQB X2, X5
	PCMPEQB X3, X6
	POR   X5, X4
	POR   X6, X4
	PMOVMSKB X4, BX
	SHLQ  $48, BX
	ORQ   BX, AX

	MOVQ  AX, (DI)
	MOVQ  R9, (DX)
	ADDQ  $64, SI
	ADDQ  $8, DI
	ADDQ  $8, DX
	DECQ  CX
	JNZ   loop

done:
	RET
