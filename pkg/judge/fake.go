package judge

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fake is a deterministic pairwise judge whose biases can be switched on
// one at a time, so that each bias can be seen in the probes and the
// calibration. It reads no prompt. Its score for an answer is
//
//	score = share of the facts the answer contains
//	      + 0.15                          if it cites a source id
//	      + Verbosity · min(words/60, 1)
//	      + Self                          if it opens in the judge's own style
//	      + Position                      if it is shown first
//
// and it picks the answer with the higher score when the gap exceeds
// Margin, otherwise it says tie. With BanglaBlind set the judge cannot read
// Bangla: for a text written mostly in Bengali script the fact share and
// the citation bonus are zero, so only length (through Verbosity) and the
// other biases are left to decide; it judges Bangla by length only.
//
// The zero value is an unbiased judge with no margin (any gap decides);
// the named judges (Fakes) use DefaultMargin.
type Fake struct {
	Name        string  // shown in reports, e.g. "position"
	Position    float64 // bonus for the answer shown first
	Verbosity   float64 // bonus for length, per 60 words, capped at one 60-word unit
	Self        float64 // bonus for an answer in the judge's own style: one that opens with "Certainly!"
	BanglaBlind bool    // judge Bangla text by length only
	Margin      float64 // score gaps at or below Margin are ties
}

// Constants of the fake judge's score.
const (
	DefaultMargin  = 0.1  // the gap under which a fake judge says tie
	citationBonus  = 0.15 // added for an answer that cites a source id
	verbosityWords = 60   // words per unit of the verbosity bonus
)

// ownStyleOpener is how the fake judges' own style begins: an answer that
// opens with it (after leading spaces) reads like the judge's own writing.
const ownStyleOpener = "Certainly!"

// Fakes returns the named fake judges, in the order the probe table
// prints them. The bonus magnitudes are chosen so that each bias, alone,
// is strong enough to overturn a tie or a citation but not a missing fact:
//
//	clean      no bias
//	position   +0.20 for the answer shown first (beats the 0.1 margin on a
//	           tie, and cancels most of a citation's 0.15 when the cited
//	           answer is shown second)
//	verbosity  +0.30 per 60 words (an answer 21 or more words longer wins
//	           a tie; it cannot make up for a missing fact when half the
//	           facts or more are missing)
//	self       +0.30 for the judge's own style (beats a citation: 0.30 - 0.15 > 0.1)
//	mixed      +0.08 position, +0.25 per 60 words, +0.20 own style, and
//	           blind to Bangla: each bias smaller than alone, all at once
func Fakes() []Fake {
	m := DefaultMargin
	return []Fake{
		{Name: "clean", Margin: m},
		{Name: "position", Position: 0.2, Margin: m},
		{Name: "verbosity", Verbosity: 0.3, Margin: m},
		{Name: "self", Self: 0.3, Margin: m},
		{Name: "mixed", Position: 0.08, Verbosity: 0.25, Self: 0.2, BanglaBlind: true, Margin: m},
	}
}

// FakeByName returns the named fake judge (see Fakes).
func FakeByName(name string) (Fake, error) {
	var names []string
	for _, f := range Fakes() {
		if f.Name == name {
			return f, nil
		}
		names = append(names, f.Name)
	}
	return Fake{}, fmt.Errorf("%w %q (want one of %s)", ErrNoFake, name, strings.Join(names, ", "))
}

// Score returns the fake judge's score for one answer (see Fake).
func (f Fake) Score(text string, facts []string, first bool) float64 {
	var s float64
	if !(f.BanglaBlind && isBangla(text)) {
		s = factShare(text, facts)
		if Cited(text) {
			s += citationBonus
		}
	}
	s += f.Verbosity * min(float64(Words(text))/verbosityWords, 1)
	if ownStyle(text) {
		s += f.Self
	}
	if first {
		s += f.Position
	}
	return s
}

// Compare implements Judge: it scores both answers and picks the higher
// when the gap exceeds the margin. It never fails.
func (f Fake) Compare(_ context.Context, q Query) (Winner, error) {
	gap := f.Score(q.First, q.Facts, true) - f.Score(q.Second, q.Facts, false)
	switch {
	case gap > f.Margin:
		return First, nil
	case gap < -f.Margin:
		return Second, nil
	}
	return Tie, nil
}

// String returns the judge's name with the fake: prefix the commands use.
func (f Fake) String() string { return "fake:" + f.Name }

// factShare returns the share of facts that text contains, comparing
// case-insensitively after NFC normalisation (a fact typed in decomposed
// form still matches). It is 0 when facts is empty.
func factShare(text string, facts []string) float64 {
	if len(facts) == 0 {
		return 0
	}
	t := fold(text)
	n := 0
	for _, f := range facts {
		if strings.Contains(t, fold(f)) {
			n++
		}
	}
	return float64(n) / float64(len(facts))
}

func fold(s string) string { return strings.ToLower(norm.NFC.String(s)) }

// sourceID matches a citation: a source id in square brackets, lower-case
// letters and digits in at least two hyphen-separated parts, such as
// [lib-loans-2].
var sourceID = regexp.MustCompile(`\[[a-z][a-z0-9]*(?:-[a-z0-9]+)+\]`)

// Cited reports whether text cites a source id such as [lib-loans-2].
func Cited(text string) bool { return sourceID.MatchString(text) }

// ownStyle reports whether text opens in the fake judges' own style, that
// is with ownStyleOpener.
func ownStyle(text string) bool {
	return strings.HasPrefix(strings.TrimLeftFunc(text, unicode.IsSpace), ownStyleOpener)
}

// Words returns the number of whitespace-separated words in text.
func Words(text string) int { return len(strings.Fields(text)) }

// isBangla reports whether most letters of text (counting combining
// marks such as vowel signs) are in the Bengali script block, so that
// "[lib-fees-1]" in a Bangla answer does not make it English.
func isBangla(text string) bool {
	var bengali, other int
	for _, r := range text {
		if !unicode.IsLetter(r) && !unicode.IsMark(r) {
			continue
		}
		if unicode.Is(unicode.Bengali, r) {
			bengali++
		} else {
			other++
		}
	}
	return bengali > other
}
