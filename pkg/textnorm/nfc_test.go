package textnorm

import (
	"testing"

	"golang.org/x/text/unicode/norm"
)

// The reference for IsNFC is norm.NFC.IsNormalString (golang.org/x/text).
func TestIsNFCMatchesXText(t *testing.T) {
	cases := []string{
		"", "ascii only", "é", "e\u0301", "\u0958", "\u0915\u093c", "\u0929", "\u0928\u093c",
		"\u09df", "\u09af\u09bc", "\u0995\u09cb", "\u0995\u09c7\u09be", "হিন্দি", "हिन्दी", "क्\u200dष",
		"a\u0323\u0301", "a\u0301\u0323", "\u1100\u1161", "\uAC00\u11A8", "Å", "\u212B", "ந\u0bca", "ந\u0bc6\u0bbe",
	}
	for _, s := range cases {
		if got, want := IsNFC(s), norm.NFC.IsNormalString(s); got != want {
			t.Errorf("IsNFC(%+q) = %v, x/text says %v", s, got, want)
		}
	}
}
