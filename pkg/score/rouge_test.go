package score

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Hand computations; rouge-score's own [a-z0-9] tokeniser finds no token
// in any of the Indic strings and scores them all 0.
func TestRougeUnicode(t *testing.T) {
	cases := []struct {
		name, target, pred string
		n                  int // 0 for ROUGE-L
		want               PRF
	}{
		{"identical hindi", "नई दिल्ली", "नई दिल्ली", 0, PRF{1, 1, 1}},
		{"danda separates, not a word", "नई दिल्ली।", "नई दिल्ली", 1, PRF{1, 1, 1}},
		{"identical bengali", "বঙ্গভঙ্গ ঘোষিত হয়েছিল", "বঙ্গভঙ্গ ঘোষিত হয়েছিল", 2, PRF{1, 1, 1}},
		{"identical tamil", "வணக்கம், உலகம்!", "வணக்கம் உலகம்", 0, PRF{1, 1, 1}},
		// LCS of [गंगा नदी भारत में] and [भारत में गंगा] is [भारत में]:
		// P = 2/3, R = 2/4, F = 2·(2/3)(1/2)/(2/3 + 1/2) = 4/7.
		{"hindi lcs", "गंगा नदी भारत में", "भारत में गंगा", 0, PRF{2.0 / 3, 0.5, 4.0 / 7}},
		// Unigrams: 3 of 3 predicted words in the target's 4: P = 1, R = 3/4, F = 6/7.
		{"hindi unigrams", "गंगा नदी भारत में", "भारत में गंगा", 1, PRF{1, 0.75, 6.0 / 7}},
		// Bigrams: [भारत में] is the only shared one of 2 and 3: P = 1/2, R = 1/3, F = 2/5.
		{"hindi bigrams", "गंगा नदी भारत में", "भारत में गंगा", 2, PRF{0.5, 1.0 / 3, 0.4}},
		{"case folded", "Delhi", "DELHI", 1, PRF{1, 1, 1}},
		// One-word answers: identical scores 1 under rouge2 (evalbook's rule); different 0.
		{"one word rouge2 identical", "गंगा", "गंगा", 2, PRF{1, 1, 1}},
		{"one word rouge2 different", "गंगा", "यमुना", 2, PRF{}},
		{"one side has a bigram", "गंगा", "गंगा नदी", 2, PRF{}},
		{"no words", "।", "।", 1, PRF{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got PRF
			if c.n == 0 {
				got = RougeL(c.target, c.pred)
			} else {
				got = RougeN(c.target, c.pred, c.n)
			}
			if math.Abs(got.Precision-c.want.Precision) > 1e-12 || math.Abs(got.Recall-c.want.Recall) > 1e-12 || math.Abs(got.F-c.want.F) > 1e-12 {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// naiveLCS fills the whole table, as rouge-score's _lcs_table does.
func naiveLCS(a, b []uint32) int {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				t[i][j] = t[i-1][j-1] + 1
			} else {
				t[i][j] = max(t[i-1][j], t[i][j-1])
			}
		}
	}
	return t[len(a)][len(b)]
}

func TestLCSOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	var s rougeScorer
	seq := func() []uint32 {
		x := make([]uint32, r.IntN(25))
		for i := range x {
			x[i] = uint32(r.IntN(5))
		}
		return x
	}
	for i := 0; i < 2000; i++ {
		a, b := seq(), seq()
		if got, want := s.lcs(a, b), naiveLCS(a, b); got != want {
			t.Fatalf("lcs(%v, %v) = %d, full table gives %d", a, b, got, want)
		}
	}
}

func ExampleRougeL() {
	// rouge-score's testRougeLNonConsecutive: P = 1, R = 2/3, F = 4/5.
	s := RougeL("testing one two", "testing two")
	fmt.Printf("P %.4f R %.4f F %.4f\n", s.Precision, s.Recall, s.F)
	// The Unicode tokeniser keeps matras in words, so Hindi works too.
	fmt.Printf("F %.4f\n", RougeL("नई दिल्ली।", "नई दिल्ली").F)
	// Output:
	// P 1.0000 R 0.6667 F 0.8000
	// F 1.0000
}

func ExampleRougeN() {
	// rouge-score's testRouge2: P = 1, R = 1/2, F = 2/3.
	s := RougeN("testing one two", "testing one", 2)
	fmt.Printf("P %.4f R %.4f F %.4f\n", s.Precision, s.Recall, s.F)
	// Output: P 1.0000 R 0.5000 F 0.6667
}

// BenchmarkRougeL100k: ROUGE-L over 100,000 sentence pairs (one op).
// Run with -benchtime=3x.
func BenchmarkRougeL100k(b *testing.B) { benchCorpus(b, "rouge_l", sentencePairs(100000)) }
