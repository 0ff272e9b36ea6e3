package score

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestTERMetric(t *testing.T) {
	m, _ := Lookup("ter")
	cases := []struct {
		name, golden, response string
		want                   float64
	}{
		// One shift of the run "नई दिल्ली" (or of "भारत की राजधानी") makes the
		// six words identical: TER = 1/6, value 5/6.
		{"hindi one shift", "नई दिल्ली भारत की राजधानी है", "भारत की राजधानी नई दिल्ली है", 5.0 / 6},
		// One substitution in four words: TER = 1/4.
		{"bengali substitution", "বঙ্গভঙ্গ ঘোষিত হয়েছিল ১৯০৫", "বঙ্গভঙ্গ ঘোষিত হয়েছিল ১৯১১", 0.75},
		// Case-insensitive by default.
		{"case", "New Delhi", "new delhi", 1},
		// Two insertions against one golden word: TER = 2, floored at value 0.
		{"floored", "Delhi", "it is Delhi", 0},
		{"blank response", "Delhi", "", 0},
		{"both blank", "", "", 1},
		{"blank golden", "", "Delhi", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := m.New().Score(c.golden, c.response).Value; math.Abs(got-c.want) > 1e-12 {
				t.Errorf("ter(%q, %q) = %v, want %v", c.golden, c.response, got, c.want)
			}
		})
	}
	if s := SentenceTER("it is Delhi", []string{"Delhi"}, TEROptions{}); s.Score != 2 || s.Edits != 2 || s.RefLength != 1 {
		t.Errorf("SentenceTER = %+v, want TER 2 (2 edits, 1 reference word)", s)
	}
}

// wordLevenshtein is the plain edit distance between word sequences.
func wordLevenshtein(a, b []int32) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			d[i][j] = min(d[i-1][j-1]+c, d[i-1][j]+1, d[i][j-1]+1)
		}
	}
	return d[len(a)][len(b)]
}

// TestTERProperties on seeded random word sequences shorter than the
// beam: the beam distance is the full Levenshtein distance; reusing the
// rows of a common prefix gives the same distance and trace as a fresh
// matrix; shifts only ever lower the count, so TER edits never exceed the
// plain distance; and no edits means identical words.
func TestTERProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 2))
	seq := func() []int32 {
		x := make([]int32, r.IntN(20))
		for i := range x {
			x[i] = int32(r.IntN(6))
		}
		return x
	}
	var tr ter
	for i := 0; i < 1500; i++ {
		h, ref := seq(), seq()
		if len(ref) == 0 {
			continue
		}
		var reused, fresh terEditDistance
		reused.init(ref, len(h))
		// Warm the reused matrix with a sequence sharing a prefix with h.
		warm := slices.Clone(h)
		if len(warm) > 0 {
			warm[len(warm)-1] = 99
		}
		reused.distance(warm)
		d1, t1 := reused.distance(h)
		t1 = slices.Clone(t1)
		fresh.init(ref, len(h))
		d2, t2 := fresh.distance(h)
		if d1 != d2 || string(t1) != string(t2) {
			t.Fatalf("reused rows: %d %q, fresh: %d %q (h %v, ref %v)", d1, t1, d2, t2, h, ref)
		}
		if lev := wordLevenshtein(h, ref); d2 != lev {
			t.Fatalf("beam distance %d, Levenshtein %d (h %v, ref %v)", d2, lev, h, ref)
		}
		e := tr.edits(h, ref)
		if e > d2 {
			t.Fatalf("TER edits %d exceed the distance %d", e, d2)
		}
		if (e == 0) != slices.Equal(h, ref) {
			t.Fatalf("edits %d for h %v, ref %v", e, h, ref)
		}
	}
}

// TestTERLongSentences exercises the beam and the cap on shift
// candidates: a reversed 120-word sentence must finish and cost at most
// its length in edits.
func TestTERLongSentences(t *testing.T) {
	var w []string
	for i := 0; i < 120; i++ {
		w = append(w, fmt.Sprintf("w%d", i%37))
	}
	ref := strings.Join(w, " ")
	slices.Reverse(w)
	hyp := strings.Join(w, " ")
	s := SentenceTER(hyp, []string{ref}, TEROptions{})
	if s.Edits > 120 || s.Edits < 1 || s.RefLength != 120 {
		t.Errorf("reversed 120 words: %+v", s)
	}
}

func ExampleCorpusTER() {
	// sacreBLEU test/test_ter.py: a single shift fixes the hypothesis, TER = 1/8.
	s := CorpusTER([]string{"d e f g h a b c"}, [][]string{{"a b c d e f g h"}}, TEROptions{})
	fmt.Printf("TER %.3f (%v edits / %v words)\n", s.Score, s.Edits, s.RefLength)
	// Output: TER 0.125 (1 edits / 8 words)
}
