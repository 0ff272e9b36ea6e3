package fasttext

import (
	"encoding/binary"
	"slices"
	"sync"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/unicode/norm"
)

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
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return true
	}
	nfcOnce.Do(buildNFCTables)
	st := nfcState{starter: -1}
	if i > 0 {
		st.starter = rune(s[i-1])
	}
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			st.prev, st.starter = 0, rune(c)
			i++
			continue
		}
		var r rune
		if c == 0xE0 && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
			// U+0800 to U+0FFF, every Indic script: decode inline.
			r = rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			i += 3
		} else {
			var n int
			r, n = utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return norm.NFC.IsNormalString(s) // invalid UTF-8: let x/text decide
			}
			i += n
		}
		switch st.step(r) {
		case nfcNo:
			return false
		case nfcUnsure:
			return norm.NFC.IsNormalString(s)
		}
	}
	return true
}

// Outcomes of one step of the quick check.
const (
	nfcYes    = iota // so far the string is in NFC
	nfcNo            // it is not
	nfcUnsure        // the full algorithm must decide
)

// nfcState carries the quick check from one rune to the next.
type nfcState struct {
	prev    uint8 // combining class of the previous rune
	starter rune  // the last rune of combining class 0, or -1
}

// step advances the quick check over r (any rune; ASCII may take the
// shortcut prev = 0, starter = r).
func (st *nfcState) step(r rune) int {
	if r < utf8.RuneSelf {
		st.prev, st.starter = 0, r
		return nfcYes
	}
	if r >= nfcTableSize {
		return nfcUnsure
	}
	v := nfcTab[r]
	if v == 0 { // the common case: a starter that is NFC on its own and never combines
		st.prev, st.starter = 0, r
		return nfcYes
	}
	f, ccc := uint8(v>>8), uint8(v)
	if f&qcNo != 0 {
		return nfcNo
	}
	if f&qcMaybe != 0 && st.starter >= 0 {
		// A Maybe character can compose only with the last starter,
		// and only if no character in between blocks it: one of class
		// 0, or of a class at least its own (UAX #15, D118). The
		// characters in between are in canonical order (else the string
		// already failed), so the largest class among them is prev.
		if st.prev == 0 || (ccc != 0 && st.prev < ccc) {
			if composes(st.starter, r) {
				return nfcNo
			}
		}
	}
	if ccc != 0 && st.prev > ccc {
		return nfcNo // marks out of canonical order
	}
	st.prev = ccc
	if ccc == 0 {
		st.starter = r
	}
	return nfcYes
}

// composes reports whether first and second form a primary composite.
// Second characters from U+0300 to U+0FFF (combining diacritics and every
// Indic script) are looked up in a flat table; others in a map.
func composes(first, second rune) bool {
	if second >= maybeLo && second < maybeHi {
		for _, f := range nfcFirsts[second-maybeLo] {
			if f == first {
				return true
			}
		}
		return false
	}
	if _, ok := nfcPairs[uint64(first)<<32|uint64(second)]; ok {
		return true
	}
	return hangulComposes(first, second)
}

// AppendLowerCheck appends AppendLower(dst, s) to dst and also reports
// IsNFC(s) and whether s is valid UTF-8 (utf8.ValidString), in one pass
// over s: the scoring loop needs all three for every field it scores, and
// need not run separate normalisation and validation passes over them.
func AppendLowerCheck(dst []byte, s string) (out []byte, nfc, valid bool) {
	out, nfc, valid, _ = AppendLowerScan(dst, s)
	return out, nfc, valid
}

// AppendLowerScan is AppendLowerCheck that also reports whether s holds
// a character that IsInvisible (as results.HasInvisible does), in the
// same pass: the scoring loop lower-cases every response, checks it is
// valid UTF-8 and in NFC, and warns about bidi controls in it, and reads
// its bytes once for all four.
func AppendLowerScan(dst []byte, s string) (out []byte, nfc, valid, invisible bool) {
	out, _, nfc, valid, invisible = lowerScan(dst, s, false)
	return out, nfc, valid, invisible
}

// LowerScanView is AppendLowerScan(dst[:0], s), except that when lowering
// changes nothing (text in lower case, or in a script without case, such
// as every Indic one) it returns s itself, as a slice that must not be
// written (view true), and leaves dst alone: most answers and responses
// need no copy. Otherwise it returns dst[:0] extended with the lower case
// (view false), which the caller may keep as its buffer.
func LowerScanView(dst []byte, s string) (out []byte, view, nfc, valid, invisible bool) {
	return lowerScan(dst[:0], s, len(s) > 0)
}

// lowerScan is AppendLowerScan, and LowerScanView when view is set.
func lowerScan(dst []byte, s string, view bool) (out []byte, isView, nfc, valid, invisible bool) {
	nfcOnce.Do(buildNFCTables)
	// Fast path for ASCII and U+0800 to U+0FFF (every Indic script), whose
	// lower case has the same length: copy s in one go, then lower-case
	// ASCII letters in place and run the NFC quick check over the Indic
	// runes. Any other rune hands the rest of s to the general loop. For
	// a view, s is read in place until the first capital letter, and
	// copied from there.
	base := len(dst)
	var o []byte
	if view {
		o = unsafe.Slice(unsafe.StringData(s), len(s)) // read, never written while view
	} else {
		dst, o = copyIn(dst, s)
	}
	st := nfcState{starter: -1}
	verdict := nfcYes
	i := 0
	for i < len(o) {
		c := o[i]
		if c < utf8.RuneSelf {
			// A run of ASCII: eight bytes at a time, then byte by byte.
			for i+8 <= len(o) {
				w := binary.LittleEndian.Uint64(o[i:])
				if w&0x8080808080808080 != 0 {
					break
				}
				if !invisible && maybeInvisible8(w) {
					invisible = invisibleIn(o[i : i+8])
				}
				// Eight ASCII bytes: a byte b has its high bit set in
				// b+0x3F when b >= 'A' and in b+0x25 when b > 'Z', so
				// upper marks the capitals; adding 0x20 lowers them.
				if upper := (w + 0x3F3F3F3F3F3F3F3F) &^ (w + 0x2525252525252525) & 0x8080808080808080; upper != 0 {
					if view {
						dst, o = copyIn(dst, s)
						view = false
					}
					binary.LittleEndian.PutUint64(o[i:], w|upper>>2)
				}
				i += 8
			}
			if k := len(o) - i; k > 0 && k < 8 && len(o) >= 8 {
				// Fewer than eight bytes left: the last eight, shifted
				// down to start at o[i], the bytes above them made 'a'.
				sh := 8 * uint(8-k)
				w := binary.LittleEndian.Uint64(o[len(o)-8:])
				if t := w>>sh | 0x6161616161616161<<(8*uint(k)); t&0x8080808080808080 == 0 {
					if !invisible && maybeInvisible8(t) {
						invisible = invisibleIn(o[i:])
					}
					if upper := (t + 0x3F3F3F3F3F3F3F3F) &^ (t + 0x2525252525252525) & 0x8080808080808080; upper != 0 {
						if view {
							dst, o = copyIn(dst, s)
							view = false
						}
						binary.LittleEndian.PutUint64(o[len(o)-8:], w|upper>>2<<sh)
					}
					i = len(o)
				}
			}
			for ; i < len(o) && o[i] < utf8.RuneSelf; i++ {
				c := o[i]
				if 'A' <= c && c <= 'Z' {
					if view {
						dst, o = copyIn(dst, s)
						view = false
					}
					o[i] = c + 'a' - 'A'
				}
				invisible = invisible || invisibleASCII(c)
			}
			st.prev, st.starter = 0, rune(s[i-1]) // the check is of s, not its lower case
			continue
		}
		if c == 0xE0 && i+2 < len(o) && o[i+1]&0xE0 == 0xA0 && o[i+2]&0xC0 == 0x80 {
			// A run of U+0800 to U+0FFF (the Indic scripts, which have
			// no case) and single spaces.
			i, st, verdict, invisible = scanIndic(o, i, st, verdict, invisible)
			continue
		}
		if view {
			dst = append(dst, s[:i]...) // s[:i] is its own lower case
		}
		out, nfc, valid, invisible = appendLowerCheckFrom(dst[:base+i], s, i, st, verdict, invisible)
		return out, false, nfc, valid, invisible
	}
	if view {
		return o, true, nfcDecide(verdict, s), true, invisible
	}
	return dst, false, nfcDecide(verdict, s), true, invisible
}

// copyIn appends s to dst and returns the extended dst and the copy.
func copyIn(dst []byte, s string) ([]byte, []byte) {
	base := len(dst)
	dst = slices.Grow(dst, len(s)+8) // lower-casing rarely changes the length
	dst = dst[:base+len(s)]
	o := dst[base:]
	copy(o, s)
	return dst, o
}

// nfcDecide turns the quick check's verdict over s into an answer.
func nfcDecide(verdict int, s string) bool {
	switch verdict {
	case nfcNo:
		return false
	case nfcUnsure:
		return norm.NFC.IsNormalString(s)
	}
	return true
}

// appendLowerCheckFrom is the general loop of AppendLowerCheck: it
// continues from s[i:], with the quick check's state so far, appending
// to dst (which holds the lower case of s[:i]), and with whether s[:i]
// holds an invisible character.
func appendLowerCheckFrom(dst []byte, s string, i int, st nfcState, verdict int, invisible bool) (out []byte, nfc, valid, inv bool) {
	valid = true
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			// A run of ASCII: find its end eight bytes at a time, copy
			// it in one go, then lower-case it in place through a table.
			j := i + 1
			for j+8 <= len(s) {
				w := uint64(s[j]) | uint64(s[j+1])<<8 | uint64(s[j+2])<<16 | uint64(s[j+3])<<24 |
					uint64(s[j+4])<<32 | uint64(s[j+5])<<40 | uint64(s[j+6])<<48 | uint64(s[j+7])<<56
				if w&0x8080808080808080 != 0 {
					break
				}
				j += 8
			}
			for j < len(s) && s[j] < utf8.RuneSelf {
				j++
			}
			start := len(dst)
			dst = append(dst, s[i:j]...)
			run := dst[start:]
			if !invisible {
				invisible = invisibleIn(run)
			}
			for k, b := range run {
				run[k] = asciiLower[b]
			}
			st.prev, st.starter = 0, rune(s[j-1])
			i = j
			continue
		}
		if c == 0xE0 {
			// A run of U+0800 to U+0FFF (the Indic scripts, which have no
			// case): check each rune's NFC property, then copy the run.
			j := i
			for j+2 < len(s) && s[j] == 0xE0 && s[j+1] >= 0xA0 && s[j+1] <= 0xBF && s[j+2]&0xC0 == 0x80 {
				if s[j+1]&0xFE == 0xA2 && !invisible {
					invisible = IsInvisible(rune(s[j+1]&0x3F)<<6 | rune(s[j+2]&0x3F))
				}
				if verdict == nfcYes {
					r := rune(s[j+1]&0x3F)<<6 | rune(s[j+2]&0x3F)
					if nfcTab[r] == 0 { // a plain starter: the common case, inline
						st.prev, st.starter = 0, r
					} else {
						verdict = st.step(r)
					}
				}
				j += 3
			}
			if j > i {
				dst = append(dst, s[i:j]...)
				i = j
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		dst = appendLowerRune(dst, s, i, r, size)
		if r == utf8.RuneError && size == 1 {
			valid = false
			verdict = nfcUnsure
		} else {
			invisible = invisible || IsInvisible(r)
			if verdict == nfcYes {
				verdict = st.step(r)
			}
		}
		i += size
	}
	return dst, nfcDecide(verdict, s), valid, invisible
}

const (
	maybeLo, maybeHi = 0x0300, 0x1000
	nfcTableSize     = 0x30000
	qcNo             = 1
	qcMaybe          = 2
)

//go:generate go test . -run TestNFCTablesMatchXText -update-nfc-tables

var (
	nfcOnce  sync.Once
	nfcTab   []uint16            // per code point below nfcTableSize: flags (qcNo, qcMaybe) << 8 | combining class
	nfcPairs map[uint64]struct{} // first<<32 | second for every primary composite but Hangul's
	// nfcFirsts lists, for each second character in [maybeLo, maybeHi),
	// the first characters it composes with.
	nfcFirsts [][]rune
	// indicClass classifies the code points from U+0800 to U+0FFF,
	// by indicKey, for scanIndic (indicClassOf).
	indicClass [0x4000]uint8
)

// buildNFCTables expands the generated data of nfc_tables.go (runs of
// equal table values, and the primary composites) into lookup tables. It
// takes well under a millisecond; deriving the same data from x/text at
// run time took 40 ms, during which every other scoring goroutine
// waited. TestNFCTablesMatchXText derives the data from x/text again and
// fails, with the command that regenerates the file, if they differ.
func buildNFCTables() {
	tab := make([]uint16, nfcTableSize)
	for _, run := range nfcRuns {
		for r := run.lo; r <= run.hi; r++ {
			tab[r] = run.v
		}
	}
	pairs := make(map[uint64]struct{}, len(nfcComposites))
	firsts := make([][]rune, maybeHi-maybeLo)
	for _, p := range nfcComposites {
		pairs[uint64(p[0])<<32|uint64(p[1])] = struct{}{}
		if sec := p[1]; sec >= maybeLo && sec < maybeHi {
			firsts[sec-maybeLo] = append(firsts[sec-maybeLo], p[0])
		}
	}
	first := map[rune]bool{}
	for sec := 0x0800; sec < 0x1000; sec++ {
		for _, f := range firsts[sec-maybeLo] {
			first[f] = true
		}
	}
	for k := range uint64(len(indicClass)) {
		indicClass[k] = indicClassOf(keyRune(k), tab, first)
	}
	nfcTab, nfcPairs, nfcFirsts = tab, pairs, firsts
}

// Hangul syllables compose by arithmetic rather than from a list (Unicode
// chapter 3.12): a leading consonant with a vowel, and a syllable without
// a final consonant with a trailing consonant.
const (
	hangulLBase, hangulLLast  = 0x1100, 0x1112
	hangulVBase, hangulVLast  = 0x1161, 0x1175
	hangulTFirst, hangulTLast = 0x11A8, 0x11C2
	hangulSBase, hangulSLast  = 0xAC00, 0xD7A3
	hangulTCount              = 28
)

func hangulComposes(first, second rune) bool {
	switch {
	case first >= hangulLBase && first <= hangulLLast:
		return second >= hangulVBase && second <= hangulVLast
	case first >= hangulSBase && first <= hangulSLast && (first-hangulSBase)%hangulTCount == 0:
		return second >= hangulTFirst && second <= hangulTLast
	}
	return false
}
