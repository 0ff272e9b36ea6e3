package score

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestEditDistance(t *testing.T) {
	cases := []struct {
		name, a, b string
		d          int
		sim        float64
	}{
		// The textbook pair: k→s, e→i, insert g.
		{"kitten sitting", "kitten", "sitting", 3, 1 - 3.0/7},
		{"flaw lawn", "flaw", "lawn", 2, 0.5},
		// Precomposed ज़ (U+095B) and ज + nukta are one form after NFC.
		{"nukta forms", "\u095Bरूर", "\u091C\u093Cरूर", 0, 1},
		// गंगा नदी is 8 code points (ग ं ग ा, space, न द ी); 4 inserted.
		{"hindi insertion", "गंगा", "गंगा नदी", 4, 0.5},
		// One vowel sign substituted (ा → े) in 5 code points (ल ड ़ क ा).
		{"hindi matra", "लड़का", "लड़के", 1, 0.8},
		{"bengali identical", "বঙ্গভঙ্গ", "বঙ্গভঙ্গ", 0, 1},
		{"both empty", "", "", 0, 1},
		{"one empty", "abc", "", 3, 0},
		{"case counts", "Delhi", "delhi", 1, 0.8},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if d := EditDistance(c.a, c.b); d != c.d {
				t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, d, c.d)
			}
			if d := EditDistance(c.b, c.a); d != c.d {
				t.Errorf("EditDistance is not symmetric on %q, %q: %d", c.a, c.b, d)
			}
			if s := EditSimilarity(c.a, c.b); math.Abs(s-c.sim) > 1e-12 {
				t.Errorf("EditSimilarity(%q, %q) = %v, want %v", c.a, c.b, s, c.sim)
			}
		})
	}
}

func naiveLevenshtein(a, b []rune) int {
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

// TestEditDistanceOracle: the one-row programme with the common prefix
// and suffix trimmed equals the full table on seeded random strings.
func TestEditDistanceOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 9))
	alpha := []rune("abकखा्")
	str := func() string {
		x := make([]rune, r.IntN(15))
		for i := range x {
			x[i] = alpha[r.IntN(len(alpha))]
		}
		return string(x)
	}
	for i := 0; i < 3000; i++ {
		a, b := str(), str()
		if got, want := EditDistance(a, b), naiveLevenshtein([]rune(a), []rune(b)); got != want {
			t.Fatalf("EditDistance(%q, %q) = %d, full table %d", a, b, got, want)
		}
	}
}

func ExampleEditDistance() {
	fmt.Println(EditDistance("kitten", "sitting"))
	fmt.Printf("%.4f\n", EditSimilarity("kitten", "sitting"))
	// Output:
	// 3
	// 0.5714
}
