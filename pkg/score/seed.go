package score

import (
	"bytes"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/fasttext"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

func init() {
	Register(&Metric{
		ID:   "exact_substring",
		Name: "Exact substring",
		Rule: "Correct when the lower-cased golden answer occurs as one contiguous run of characters " +
			"inside the lower-cased response (Python: answer.lower() in response.lower()). " +
			"Lower-casing is the only normalisation: no trimming, no punctuation handling, no word boundaries.",
		FalsePositives: "A short golden answer matches inside an unrelated word (\"No\" in \"no such temple\"), " +
			"and a response that names the answer only to reject it (\"Delhi is not the answer\") still scores correct.",
		FalseNegatives: "Reordered words, an inserted qualifier (\"Narmada river valley\"), trailing whitespace in the " +
			"golden answer, and NFC/NFD spellings of the same Indic word all score wrong.",
		Blank:  "A blank response (empty after trimming) scores 0 and is counted separately. An empty golden answer scores 1 (the empty string is in everything) and is warned about.",
		Source: "seed 000 exact_substring.py",
		New:    func() Scorer { return &substringScorer{} },
	})
	Register(&Metric{
		ID:   "word_overlap",
		Name: "Word overlap",
		Rule: "Both sides are lower-cased, split on whitespace (Python str.split), and each token is stripped of " +
			"leading and trailing ASCII punctuation (Python string.punctuation); correct when the set of golden " +
			"words is a subset of the set of response words. matching_words counts the distinct golden words found, " +
			"total_golden_words the distinct golden words. A token made only of ASCII punctuation (\"-\") becomes an " +
			"empty word, exactly as in the Python one-liner, and only a response with such a token contains it.",
		FalsePositives: "Extra words are free, so a verbose or different claim that happens to contain every golden word " +
			"passes (\"Chola and Hoysala ideals\" for \"Chola ideals\"); repetition is never checked.",
		FalseNegatives: "Whole tokens only, no stemming: inflections (\"Amalaka\" for \"amalak\") and Indic suffixes fail; " +
			"the danda and other non-ASCII punctuation stay attached to words unless --normalize indic.",
		Blank:  "A blank response scores 0 (matching 0) and is counted separately. An empty golden answer scores 1 (the empty set is a subset of everything) and is warned about.",
		Source: "seed 000 word_overlap.py",
		New:    func() Scorer { return &overlapScorer{} },
	})
}

type substringScorer struct{ g, r []byte }

func (s *substringScorer) Score(golden, response string) Verdict {
	s.g = textnorm.AppendLower(s.g[:0], golden)
	s.r = textnorm.AppendLower(s.r[:0], response)
	return s.ScoreLower(s.g, s.r)
}

func (s *substringScorer) ScoreLower(golden, response []byte) Verdict {
	if isBlankBytes(response) {
		return Verdict{}
	}
	if index(response, golden) >= 0 {
		return Verdict{Value: 1}
	}
	return Verdict{}
}

// index is bytes.Index, faster on Indic text. bytes.Index looks for the
// first byte of sep, and for a word in any Indic script that byte is 0xE0,
// a third of the bytes of the text, so it stops almost everywhere. When
// sep starts with a character of three or more bytes, index looks for
// sep's last byte instead (a continuation byte, one of 64), and where it
// finds it compares sep's third byte (another) before the whole of sep.
// Occurrences are found in order of their end, which for one length is
// the order of their start: the result is always bytes.Index's.
func index(s, sep []byte) int {
	n := len(sep)
	if n < 3 || sep[0] < 0xC0 || n > len(s) {
		return bytes.Index(s, sep)
	}
	last := sep[n-1]
	for i := n - 1; i < len(s); i++ {
		o := bytes.IndexByte(s[i:], last)
		if o < 0 {
			return -1
		}
		i += o
		// the third byte as well before the whole: the last and the
		// third are two of 64 continuation bytes
		if s[i-n+3] == sep[2] && bytes.Equal(s[i-n+1:i+1], sep) {
			return i - n + 1
		}
	}
	return -1
}

// isBlankBytes is textnorm.IsBlank for a byte slice (lower-casing never
// changes whether a character is whitespace).
func isBlankBytes(b []byte) bool {
	for i := 0; i < len(b); {
		switch byteClass[b[i]] {
		case 0: // cannot start whitespace: the first byte of nearly every response
			return false
		case 1:
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if !textnorm.IsSpace(r) {
			return false
		}
		i += n
	}
	return true
}

// span is a token's [start, end) offsets in a scratch buffer.
type span struct{ a, b int32 }

type overlapScorer struct {
	g, r   []byte
	gw, rw []span
}

// hasToken reports whether some whitespace-separated token of r, stripped
// of ASCII punctuation at both ends, equals w (itself such a stripped
// token). Instead of splitting all of r it finds each occurrence of w
// and checks that only ASCII punctuation lies between it and whitespace
// (or the ends) on both sides: the token around such an occurrence
// strips to exactly w, because w neither starts nor ends with ASCII
// punctuation. The empty word (a golden token made only of punctuation)
// needs a token of r made only of punctuation; that rare case splits r
// into scratch.
func hasToken(r, w []byte, scratch *[]span) bool {
	if len(w) == 0 {
		*scratch = words(r, *scratch)
		for _, t := range *scratch {
			if t.a == t.b {
				return true
			}
		}
		return false
	}
	return tokenFrom(r, w, index(r, w))
}

// tokenFrom is hasToken for a non-empty w whose first occurrence in r is
// at p (index(r, w), -1 when there is none).
func tokenFrom(r, w []byte, p int) bool {
	for p >= 0 {
		if spaceOrStartBefore(r, p) && spaceOrEndAfter(r, p+len(w)) {
			return true
		}
		off := p + 1
		i := index(r[off:], w)
		if i < 0 {
			return false
		}
		p = off + i
	}
	return false
}

// spaceOrStartBefore reports whether r[:p] ends with whitespace or is
// empty, once trailing ASCII punctuation is skipped.
func spaceOrStartBefore(r []byte, p int) bool {
	for p > 0 && textnorm.IsASCIIPunct(r[p-1]) {
		p--
	}
	if p == 0 {
		return true
	}
	if c := r[p-1]; c < utf8.RuneSelf {
		return byteClass[c] == 1
	}
	ru, _ := utf8.DecodeLastRune(r[:p])
	return textnorm.IsSpace(ru)
}

// spaceOrEndAfter reports whether r[q:] starts with whitespace or is
// empty, once leading ASCII punctuation is skipped.
func spaceOrEndAfter(r []byte, q int) bool {
	for q < len(r) && textnorm.IsASCIIPunct(r[q]) {
		q++
	}
	if q == len(r) {
		return true
	}
	sp, _ := spaceAt(r, q)
	return sp
}

// byteClass classifies bytes for the tokeniser: 0 cannot start
// whitespace, 1 is ASCII whitespace, 2 may start a non-ASCII whitespace
// character (fasttext.MaybeSpaceLead) and needs decoding.
var byteClass = func() (t [256]uint8) {
	for b := 0; b < 256; b++ {
		switch {
		case b < utf8.RuneSelf && textnorm.IsSpace(rune(b)):
			t[b] = 1
		case b >= utf8.RuneSelf && fasttext.MaybeSpaceLead(byte(b)):
			t[b] = 2
		}
	}
	return t
}()

// spaceAt reports whether a Python whitespace character starts at
// buf[i], and its length.
func spaceAt(buf []byte, i int) (bool, int) {
	switch byteClass[buf[i]] {
	case 0:
		return false, 1
	case 1:
		return true, 1
	}
	r, n := utf8.DecodeRune(buf[i:])
	return textnorm.IsSpace(r), n
}

// words returns the tokens of the lower-cased text buf, split on Python
// whitespace and stripped of ASCII punctuation, as spans of buf.
func words(buf []byte, sp []span) []span {
	sp = sp[:0]
	for i := 0; i < len(buf); {
		// ASCII whitespace is told by byteClass alone; only the lead
		// bytes of non-ASCII whitespace need spaceAt
		if c := byteClass[buf[i]]; c == 1 {
			i++
			continue
		} else if c == 2 {
			if isSp, n := spaceAt(buf, i); isSp {
				i += n
				continue
			}
		}
		j := i
		for j < len(buf) {
			c := buf[j]
			if c == 0xE0 && j+2 < len(buf) && buf[j+1]&0xC0 == 0x80 && buf[j+2]&0xC0 == 0x80 {
				j += 3 // U+0800 to U+0FFF (every Indic script): never whitespace
				continue
			}
			switch byteClass[c] {
			case 0:
				j++
				continue
			case 1:
			default:
				isSp, n := spaceAt(buf, j)
				if !isSp {
					j += n
					continue
				}
			}
			break
		}
		a, b := i, j
		for a < b && textnorm.IsASCIIPunct(buf[a]) {
			a++
		}
		for b > a && textnorm.IsASCIIPunct(buf[b-1]) {
			b--
		}
		sp = append(sp, span{int32(a), int32(b)})
		i = j
	}
	return sp
}

func (s *overlapScorer) Score(golden, response string) Verdict {
	s.g = textnorm.AppendLower(s.g[:0], golden)
	s.r = textnorm.AppendLower(s.r[:0], response)
	return s.ScoreLower(s.g, s.r)
}

func (s *overlapScorer) ScoreLower(g, r []byte) Verdict {
	total := s.goldenWords(g)
	if isBlankBytes(r) {
		return Verdict{Total: total}
	}
	return s.match(g, r, -1)
}

// goldenWords keeps the distinct words of the lower-cased golden answer g
// in s.gw, in first-seen order, and returns how many there are.
func (s *overlapScorer) goldenWords(g []byte) int {
	s.gw = words(g, s.gw)
	// Distinct golden words, in first-seen order.
	distinct := s.gw[:0]
	for _, w := range s.gw {
		dup := false
		for _, d := range distinct {
			if bytes.Equal(g[w.a:w.b], g[d.a:d.b]) {
				dup = true
				break
			}
		}
		if !dup {
			distinct = append(distinct, w)
		}
	}
	s.gw = distinct
	return len(distinct)
}

// match is word_overlap's verdict for the golden words that goldenWords
// kept from g, in the response r (not blank). at is where g occurs in r,
// or -1 (unknown, or nowhere): when it does, each golden word occurs in
// r where it lies in g, and if whitespace (or an end) bounds it there,
// past ASCII punctuation, that is a token of r and no search is needed.
func (s *overlapScorer) match(g, r []byte, at int) Verdict {
	matching := 0
	for _, w := range s.gw {
		if at >= 0 && w.a < w.b {
			if p := at + int(w.a); spaceOrStartBefore(r, p) && spaceOrEndAfter(r, p+int(w.b-w.a)) {
				matching++
				continue
			}
		}
		if hasToken(r, g[w.a:w.b], &s.rw) {
			matching++
		}
	}
	v := Verdict{Matching: matching, Total: len(s.gw)}
	if matching == v.Total {
		v.Value = 1
	}
	return v
}

// SeedPair scores exact_substring and word_overlap together, for a
// caller that runs both (the seed protocols): ScoreLower gives what the
// two metrics' ScoreLower give. Most golden answers are one word with no
// punctuation at its ends, and then word_overlap's first search for
// that word in the response is exact_substring's search for the whole
// answer: SeedPair makes it once.
type SeedPair struct{ o overlapScorer }

// NewSeedPair returns a SeedPair.
func NewSeedPair() *SeedPair { return &SeedPair{} }

// ScoreLower returns the exact_substring and word_overlap verdicts of
// the lower-cased golden answer g and response r.
func (p *SeedPair) ScoreLower(g, r []byte) (substring, overlap Verdict) {
	o := &p.o
	total := o.goldenWords(g)
	if isBlankBytes(r) {
		return Verdict{}, Verdict{Total: total}
	}
	if total == 1 && o.gw[0] == (span{0, int32(len(g))}) {
		// g is one word: the first occurrence of the word is the first
		// occurrence of g
		at := index(r, g)
		if at < 0 {
			return Verdict{}, Verdict{Total: 1}
		}
		if tokenFrom(r, g, at) {
			return Verdict{Value: 1}, Verdict{Value: 1, Matching: 1, Total: 1}
		}
		return Verdict{Value: 1}, Verdict{Total: 1}
	}
	at := index(r, g)
	if at < 0 {
		return Verdict{}, o.match(g, r, -1)
	}
	return Verdict{Value: 1}, o.match(g, r, at)
}
