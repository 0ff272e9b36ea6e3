#include "textflag.h"

// The UTF-8 check of ValidUTF8Block (utf8block_amd64.go), 32 bytes at a
// time with AVX2. For each byte and the one before it (prev1), the
// tables give a byte of error bits that the pair can show: byte1High by
// prev1's high nibble, byte1Low by its low nibble, byte2High by the
// byte's high nibble. Their AND is the errors the pair does show, except
// that two continuation bytes in a row (bit 0x80) are right where a lead
// byte two or three bytes back asks for them: that bit is XORed with
// "prev2 >= 0xE0 or prev3 >= 0xF0". A block ending in an unfinished
// sequence is an error unless the next block finishes it (incomplete).
// The bits: 0x01 too short (a lead byte not followed by a continuation),
// 0x02 too long (a continuation after ASCII), 0x04 overlong 3-byte form
// (E0 80-9F), 0x08 above U+10FFFF (F4 90-BF, F5-FF), 0x10 surrogate
// (ED A0-BF), 0x20 overlong 2-byte form (C0, C1), 0x40 overlong 4-byte
// form (F0 80-8F) or above U+10FFFF (F5-FF 80-8F), 0x80 two
// continuations.

DATA byte1High<>+0(SB)/8, $0x0202020202020202
DATA byte1High<>+8(SB)/8, $0x4915012180808080
DATA byte1High<>+16(SB)/8, $0x0202020202020202
DATA byte1High<>+24(SB)/8, $0x4915012180808080
GLOBL byte1High<>(SB), RODATA|NOPTR, $32

DATA byte1Low<>+0(SB)/8, $0xcbcbcb8b8383a3e7
DATA byte1Low<>+8(SB)/8, $0xcbcbdbcbcbcbcbcb
DATA byte1Low<>+16(SB)/8, $0xcbcbcb8b8383a3e7
DATA byte1Low<>+24(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL byte1Low<>(SB), RODATA|NOPTR, $32

DATA byte2High<>+0(SB)/8, $0x0101010101010101
DATA byte2High<>+8(SB)/8, $0x01010101babaaee6
DATA byte2High<>+16(SB)/8, $0x0101010101010101
DATA byte2High<>+24(SB)/8, $0x01010101babaaee6
GLOBL byte2High<>(SB), RODATA|NOPTR, $32

DATA incompleteMax<>+0(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+8(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+16(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+24(SB)/8, $0xbfdfefffffffffff
GLOBL incompleteMax<>(SB), RODATA|NOPTR, $32

DATA nibbleMask<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbleMask<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbleMask<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbleMask<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbleMask<>(SB), RODATA|NOPTR, $32

DATA third80<>+0(SB)/8, $0x6060606060606060
DATA third80<>+8(SB)/8, $0x6060606060606060
DATA third80<>+16(SB)/8, $0x6060606060606060
DATA third80<>+24(SB)/8, $0x6060606060606060
GLOBL third80<>(SB), RODATA|NOPTR, $32

DATA fourth80<>+0(SB)/8, $0x7070707070707070
DATA fourth80<>+8(SB)/8, $0x7070707070707070
DATA fourth80<>+16(SB)/8, $0x7070707070707070
DATA fourth80<>+24(SB)/8, $0x7070707070707070
GLOBL fourth80<>(SB), RODATA|NOPTR, $32

DATA high80<>+0(SB)/8, $0x8080808080808080
DATA high80<>+8(SB)/8, $0x8080808080808080
DATA high80<>+16(SB)/8, $0x8080808080808080
DATA high80<>+24(SB)/8, $0x8080808080808080
GLOBL high80<>(SB), RODATA|NOPTR, $32

// func cpuAVX2() bool
TEXT ·cpuAVX2(SB), NOSPLIT, $0-1
	XORL AX, AX
	XORL CX, CX
	CPUID
	CMPL AX, $7
	JLT  no
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x18000000, CX // OSXSAVE and AVX
	CMPL CX, $0x18000000
	JNE  no
	XORL CX, CX
	XGETBV               // XCR0: the system saves XMM and YMM state
	ANDL $6, AX
	CMPL AX, $6
	JNE  no
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL  $5, BX          // AVX2
	JCC  no
	MOVB $1, ret+0(FP)
	RET
no:
	MOVB $0, ret+0(FP)
	RET

// CHECK checks the block in Y0 after the block in Y8: it ORs its errors
// into Y10, sets Y9 to the unfinished sequence at its end and Y8 to Y0.
#define CHECK \
	VPERM2I128 $0x21, Y0, Y8, Y1 \
	VPALIGNR   $15, Y1, Y0, Y2 \
	VPALIGNR   $14, Y1, Y0, Y3 \
	VPALIGNR   $13, Y1, Y0, Y4 \
	VPSRLW     $4, Y2, Y1 \
	VPAND      Y15, Y1, Y1 \
	VPSHUFB    Y1, Y14, Y1 \
	VPAND      Y15, Y2, Y2 \
	VPSHUFB    Y2, Y13, Y2 \
	VPAND      Y2, Y1, Y1 \
	VPSRLW     $4, Y0, Y2 \
	VPAND      Y15, Y2, Y2 \
	VPSHUFB    Y2, Y12, Y2 \
	VPAND      Y2, Y1, Y1 \
	VPSUBUSB   Y7, Y3, Y3 \
	VPSUBUSB   Y6, Y4, Y4 \
	VPOR       Y4, Y3, Y3 \
	VPAND      Y5, Y3, Y3 \
	VPXOR      Y1, Y3, Y3 \
	VPOR       Y3, Y10, Y10 \
	VPSUBUSB   Y11, Y0, Y9 \
	VMOVDQU    Y0, Y8

// func validAVX2(p *byte, n int, tail *[32]byte) bool
TEXT ·validAVX2(SB), NOSPLIT, $0-25
	MOVQ    p+0(FP), SI
	MOVQ    n+8(FP), CX
	MOVQ    tail+16(FP), DX
	VMOVDQU nibbleMask<>(SB), Y15
	VMOVDQU byte1High<>(SB), Y14
	VMOVDQU byte1Low<>(SB), Y13
	VMOVDQU byte2High<>(SB), Y12
	VMOVDQU incompleteMax<>(SB), Y11
	VMOVDQU third80<>(SB), Y7
	VMOVDQU fourth80<>(SB), Y6
	VMOVDQU high80<>(SB), Y5
	VPXOR   Y10, Y10, Y10
	VPXOR   Y9, Y9, Y9
	VPXOR   Y8, Y8, Y8
	TESTQ   CX, CX
	JZ      tail
loop:
	VMOVDQU   (SI), Y0
	VPMOVMSKB Y0, AX
	TESTL     AX, AX
	JNZ       full
	// an ASCII block ends nothing: only an unfinished sequence before
	// it is an error
	VPOR      Y9, Y10, Y10
	VPXOR     Y9, Y9, Y9
	VMOVDQU   Y0, Y8
	JMP       next
full:
	CHECK
next:
	ADDQ      $32, SI
	SUBQ      $32, CX
	JNZ       loop
tail:
	VMOVDQU (DX), Y0
	CHECK
	// (the tail's last byte is a NUL, so an unfinished sequence in it is
	// already an error: nothing is left unfinished to add)
	VPTEST  Y10, Y10
	SETEQ   ret+24(FP)
	VZEROUPPER
	RET
