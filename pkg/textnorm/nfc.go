package textnorm

import "github.com/evalbook/evalbook/internal/fasttext"

// IsNFC reports whether s is in Unicode Normalization Form C. It gives
// the same answer as norm.NFC.IsNormalString, faster on Indic text: it
// runs the quick check of UAX #15 (section 9) over compact per-code-point
// tables and calls the full check only when the quick check says "maybe".
//
// A string passes the quick check when it has no character whose NFC
// quick-check property is No, none whose property is Maybe (a character
// that can combine with the one before it, such as the Devanagari nukta
// or the Bengali vowel sign AA), and its combining marks are in canonical
// order. Such a string is in NFC; anything else is decided by the full
// algorithm.
func IsNFC(s string) bool {
	return fasttext.IsNFC(s)
}
