// Package fasttext holds the byte-level fast paths under pkg/textnorm and
// the scoring loop (pkg/qa, pkg/score): lower-casing as Python's str.lower
// does, with or without the NFC and UTF-8 checks in the same pass, the NFC
// quick check and its generated tables, UTF-8 validation, the lead bytes
// of Python whitespace, and word spans, each written to step over Indic
// text (U+0800 to U+0FFF) without decoding it.
//
// It is not an API. pkg/textnorm exposes the documented functions (Lower,
// AppendLower, IsNFC, Words, IsWordRune) by calling these, and qa and
// score call the rest (AppendLowerCheck, ValidUTF8, MaybeSpaceLead,
// WordSpans) in their inner loops. Each function gives the same answer as
// the plain reference its doc comment names, which its tests check on
// every code point, exhaustively where that is feasible, and by fuzzing.
//
// Like textnorm it imports only the standard library and golang.org/x/text.
package fasttext
