//go:build !amd64

package fasttext

// ValidUTF8Block reports whether s is valid UTF-8 (ValidUTF8; on amd64
// with AVX2, 32 bytes at a time).
func ValidUTF8Block(s string) bool { return ValidUTF8(s) }

// FastUTF8Block reports whether ValidUTF8Block checks 32 bytes at a
// time here: not on this architecture.
func FastUTF8Block() bool { return false }
