package fasttext

import (
	"encoding/binary"
	"unsafe"
)

// Indic text, in every script from Devanagari to Sinhala, is runs of
// three-byte runes from U+0800 to U+0FFF (E0, then A0 to BF, then a
// continuation byte) with single ASCII spaces between words. The loops
// here read such a run eight bytes at a time, test a rune's three bytes
// with one mask, and step over the space after it without leaving the
// loop.

// A rune from U+0800 to U+0FFF in the low three bytes of a little-endian
// word: w&indicMask == indicBits (E0, then 101xxxxx, then 10xxxxxx).
const (
	indicMask = 0xC0E0FF
	indicBits = 0x80A0E0
)

// indicKey is the index into indicClass of the rune in the low three
// bytes of w: the low five bits of its second byte, and above them the
// six of its third, as they lie in w.
func indicKey(w uint64) uint64 { return w >> 8 & 0x3F1F }

// keyRune is the rune of an indicKey.
func keyRune(k uint64) rune { return rune(0x800 | (k&0x1F)<<6 | k>>8&0x3F) }

// Classes of indicClass. The low three bits say after what scanIndic
// may take a rune without the full quick check, the next three what the
// rune, once taken, is for the rune after it (one of the same bits):
const (
	// after a character of combining class 0 (a starter) that no
	// character from U+0800 to U+0FFF composes with
	afterStarter = 1
	// after a combining mark (a class other than 0)
	afterMark = 2
	// after a starter that some character from U+0800 to U+0FFF
	// composes with (as U+09C7 BENGALI VOWEL SIGN E with U+09BE
	// BENGALI VOWEL SIGN AA)
	afterFirst = 4

	// a starter that is NFC on its own, never combines with the one
	// before it, and is not invisible: all the quick check does with it
	// is note it as the last starter (with afterStarter<<3 or, if some
	// rune composes with it, afterFirst<<3)
	indicPlain = afterStarter | afterMark | afterFirst
	// a combining mark that is NFC on its own and never combines (a
	// virama, a nukta): after a starter all the quick check does with
	// it is note its class (after a mark it checks their order)
	indicMark = afterStarter | afterFirst | afterMark<<3
	// a starter that composes with some starters before it (U+09BE),
	// after a starter it does not compose with, or after a mark (which
	// blocks it): the quick check notes it as the last starter (with
	// afterStarter<<3 or afterFirst<<3, as indicPlain)
	indicMaybe = afterStarter | afterMark

	indicInvisible = 64 // IsInvisible (never any of the above)
)

// indicClassOf returns the indicClass of r, from U+0800 to U+0FFF, given
// the quick check's table and the runes that some rune from U+0800 to
// U+0FFF composes with.
func indicClassOf(r rune, tab []uint16, first map[rune]bool) uint8 {
	next := uint8(afterStarter << 3)
	if first[r] {
		next = afterFirst << 3
	}
	switch f, ccc := uint8(tab[r]>>8), uint8(tab[r]); {
	case IsInvisible(r):
		return indicInvisible
	case f == 0 && ccc == 0:
		return indicPlain | next
	case f == 0:
		return indicMark
	case f == qcMaybe && ccc == 0:
		return indicMaybe | next
	}
	return 0
}

// indicStep returns the length of the rune in the low three bytes of w
// with the space after it, if there is one: 4 or 3. It is a branch, not
// arithmetic on w: the processor predicts it (3) and reads on, where a
// step computed from the bytes makes each read wait for the one before
// (the arithmetic took 580 ns on BenchmarkIndicTexts/lower, the branch
// 440).
func indicStep(w uint64) int {
	if byte(w>>24) == ' ' {
		return 4
	}
	return 3
}

// settle returns the quick check's state before o[i], given st, its
// state before o[from], and that o[from:i] holds only runes scanIndic
// took in its fast step and spaces: starters, and marks that follow a
// starter (a rune, a space, or the starter of st when st.prev is 0).
// The last of those is the starter, or it is a mark and the character
// before it is.
func settle(o []byte, from, i int, st nfcState) nfcState {
	if i == from {
		return st
	}
	if c := o[i-1]; c < 0x80 {
		return nfcState{starter: rune(c)}
	}
	r := rune(o[i-2]&0x3F)<<6 | rune(o[i-1]&0x3F)
	if indicClass[uint64(o[i-2]&0x1F)|uint64(o[i-1]&0x3F)<<8]>>3 != afterMark {
		return nfcState{starter: r}
	}
	m := nfcState{prev: uint8(nfcTab[r])}
	switch j := i - 3; {
	case j == from:
		m.starter = st.starter
	case o[j-1] < 0x80:
		m.starter = rune(o[j-1])
	default:
		m.starter = rune(o[j-2]&0x3F)<<6 | rune(o[j-1]&0x3F)
	}
	return m
}

// scanIndic is lowerScan's loop over a run of runes from U+0800 to
// U+0FFF and single spaces, starting at o[i], which holds such a rune.
// These have no case, so only the NFC quick check (st, verdict) and the
// invisible check have work to do; it returns where the run ends and the
// three checks' state there.
//
// Nearly every rune is indicPlain, and all the checks would do with it
// is note it as the last starter; nearly every other is an indicMark
// after a starter, or an indicMaybe after a starter it does not compose
// with or after a mark, and all they would do is note its class or note
// it as the starter. The loop does none of that: it tests the class of
// two runes per step against what the character before each was
// (after). Before any other rune, and at the end, settle finds the
// state from the bytes.
func scanIndic(o []byte, i int, st nfcState, verdict int, invisible bool) (int, nfcState, int, bool) {
	class := &indicClass
	from := i                  // st is the state before o[from]; o[from:i] is as settle needs
	after := uint8(afterFirst) // the class bit the next rune needs (afterFirst: any starter)
	if st.prev != 0 {
		after = afterMark
	}
	for i < len(o) {
		var w uint64
		if i+8 <= len(o) {
			w = loadAt(o, i)
		} else {
			w = load8(o, i)
		}
		if w&indicMask != indicBits {
			break
		}
		n := 3
		if c := class[indicKey(w)]; c&after != 0 {
			after = c >> 3
			if byte(w>>24) == ' ' { // a predicted branch, not arithmetic (see indicStep)
				n, after = 4, afterStarter
			}
			// a second such rune in the same eight bytes
			if w2 := w >> (8 * uint(n)); w2&indicMask == indicBits {
				if c2 := class[indicKey(w2)]; c2&after != 0 {
					after = c2 >> 3
					n += 3
					if byte(w2>>24) == ' ' {
						n, after = n+1, afterStarter
					}
				}
			}
			i += n
			continue
		}
		c := class[indicKey(w)]
		st = settle(o, from, i, st)
		r := keyRune(indicKey(w))
		invisible = invisible || c&indicInvisible != 0
		if verdict == nfcYes {
			if nfcTab[r] == 0 {
				st.prev, st.starter = 0, r
			} else {
				verdict = st.step(r)
			}
		}
		if byte(w>>24) == ' ' {
			n = 4
			st.prev, st.starter = 0, ' '
		}
		after = afterFirst
		if st.prev != 0 {
			after = afterMark
		}
		i += n
		from = i
	}
	return i, settle(o, from, i, st), verdict, invisible
}

// loadAt returns o[i:i+8] as a little-endian word; i+8 <= len(o), which
// the caller has checked. It is an unsafe load because the bounds checks
// of binary.LittleEndian.Uint64(o[i:]) cost, on BenchmarkIndicTexts,
// 331-372 ns against 290-317 (lower) and 208-315 against 160-171 (valid,
// skipIndic's load of a string): the check the caller made is not one
// the compiler can carry to the load.
func loadAt(o []byte, i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(o)), i))[:])
}

// load8 returns o[i:i+8] as a little-endian word, with zero bytes past
// the end of o; i < len(o).
func load8(o []byte, i int) uint64 {
	if len(o) >= 8 {
		// the last eight bytes, shifted down to start at o[i]
		return binary.LittleEndian.Uint64(o[len(o)-8:]) >> (8 * uint(i+8-len(o)))
	}
	var w uint64
	for k := len(o) - 1; k >= i; k-- {
		w = w<<8 | uint64(o[k])
	}
	return w
}
