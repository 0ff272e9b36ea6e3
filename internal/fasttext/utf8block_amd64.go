package fasttext

import "unsafe"

// hasAVX2 reports whether the processor has AVX2 and the system saves
// its registers (cpuid and xgetbv, utf8block_amd64.s).
var hasAVX2 = cpuAVX2()

//go:noescape
func cpuAVX2() bool

// validAVX2 reports whether the n bytes at p (n a multiple of 32),
// followed by the 32 bytes of tail, are valid UTF-8.
//
//go:noescape
func validAVX2(p *byte, n int, tail *[32]byte) bool

// FastUTF8Block reports whether ValidUTF8Block checks 32 bytes at a
// time here (else it is ValidUTF8).
func FastUTF8Block() bool { return hasAVX2 }

// ValidUTF8Block reports whether s is valid UTF-8, as ValidUTF8 and
// utf8.ValidString do. On a processor with AVX2 it checks 32 bytes at a
// time whatever the script, by the lookup method of Keiser and Lemire
// ("Validating UTF-8 in less than one instruction per byte", Software:
// Practice and Experience, 2021): three table lookups on the nibbles of
// each byte and the byte before it name the errors that pair can show,
// and two comparisons catch the third and fourth bytes a lead byte asks
// for. It is for whole blocks of input (a 256 KB block of a CSV file):
// a short string is checked by ValidUTF8.
func ValidUTF8Block(s string) bool {
	if !hasAVX2 || len(s) < 64 {
		return ValidUTF8(s)
	}
	n := len(s) &^ 31
	var tail [32]byte // the last bytes, then NULs (ASCII: they end nothing)
	copy(tail[:], s[n:])
	return validAVX2(unsafe.StringData(s), n, &tail)
}
