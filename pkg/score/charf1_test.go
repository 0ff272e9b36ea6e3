package score

import (
	"fmt"
	"math"
	"testing"
)

func TestCharF1(t *testing.T) {
	cases := []struct {
		name, golden, response string
		want                   float64
	}{
		{"order ignored", "Narmada valley", "valley Narmada", 1},
		// golden a m a l a k (6), response A m a l a k a (7): common a×3,
		// m, l, k = 6 ('A' differs from 'a'); P = 6/7, R = 1, F1 = 12/13.
		{"inflection", "amalak", "Amalaka", 12.0 / 13},
		// ल ड ़ क ा against ल ड ़ क े: 4 of 5 on each side, F1 = 0.8.
		{"hindi matra", "लड़का", "लड़के", 0.8},
		// Precomposed ড় (U+09DC) and ড + nukta are one form after NFC.
		{"bengali nukta", "\u09DC", "\u09A1\u09BC", 1},
		{"whitespace ignored", "नई दिल्ली", "नईदिल्ली", 1},
		{"both blank", " ", "", 1},
		{"blank response", "Delhi", "  ", 0},
		{"nothing shared", "abc", "xyz", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := CharF1(c.golden, c.response).F; math.Abs(got-c.want) > 1e-12 {
				t.Errorf("CharF1(%q, %q) = %v, want %v", c.golden, c.response, got, c.want)
			}
		})
	}
}

func ExampleCharF1() {
	// By hand: common characters 6, P = 6/7, R = 6/6, F1 = 12/13.
	s := CharF1("amalak", "Amalaka")
	fmt.Printf("P %.4f R %.4f F1 %.4f\n", s.Precision, s.Recall, s.F)
	// Output: P 0.8571 R 1.0000 F1 0.9231
}
