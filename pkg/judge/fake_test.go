package judge

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

func TestFakeScore(t *testing.T) {
	pairs := loadPairs(t)
	mixed, _ := FakeByName("mixed")
	clean, _ := FakeByName("clean")
	verbosity, _ := FakeByName("verbosity")
	self, _ := FakeByName("self")
	position, _ := FakeByName("position")
	long := strings.Repeat("word ", 120) + "21 days"
	tests := []struct {
		name  string
		judge Fake
		text  string
		facts []string
		first bool
		want  float64 // hand computation in the comment
	}{
		// facts 1/1 = 1, no citation
		{"clean right", clean, pairByID(t, pairs, "clear-1").A, pairByID(t, pairs, "clear-1").Facts, false, 1},
		// "21 days" missing: 0/1
		{"clean wrong", clean, pairByID(t, pairs, "clear-1").B, pairByID(t, pairs, "clear-1").Facts, true, 0},
		// 2/2 facts + 0.15 for [lib-rooms-1]
		{"clean cited", clean, pairByID(t, pairs, "cite-1").A, pairByID(t, pairs, "cite-1").Facts, false, 1.15},
		// 1 of 3 facts missing ("no charge"): 2/3
		{"clean partial", clean, pairByID(t, pairs, "clear-5").A, pairByID(t, pairs, "clear-5").Facts, false, 2.0 / 3},
		// 1 + 0.2 for being shown first
		{"position first", position, pairByID(t, pairs, "clear-1").A, pairByID(t, pairs, "clear-1").Facts, true, 1.2},
		// 48 words: 1 + 0.3 * 48/60 = 1.24
		{"verbosity 48 words", verbosity, pairByID(t, pairs, "verbose_tie-1").B, pairByID(t, pairs, "verbose_tie-1").Facts, false, 1.24},
		// 122 words, capped at one unit: 1 + 0.3
		{"verbosity cap", verbosity, long, []string{"21 days"}, false, 1.3},
		// own style, uncited: 1 + 0.3
		{"self own style", self, pairByID(t, pairs, "self-1").A, pairByID(t, pairs, "self-1").Facts, false, 1.3},
		// Bangla, blind: no facts, no citation; 16 words: 0.25 * 16/60 + 0.08 first
		{"mixed blind first", mixed, pairByID(t, pairs, "cite-5").A, pairByID(t, pairs, "cite-5").Facts, true, 0.25*16/60 + 0.08},
		// Bangla, blind, the cited answer: 9 words, 0.25 * 9/60; the citation is unseen
		{"mixed blind cited", mixed, pairByID(t, pairs, "cite-5").B, pairByID(t, pairs, "cite-5").Facts, false, 0.25 * 9 / 60},
		// English, not blind: 2/2 facts, 13 words: 1 + 0.25 * 13/60 + 0.2 own style
		{"mixed own style", mixed, pairByID(t, pairs, "self-3").A, pairByID(t, pairs, "self-3").Facts, false, 1 + 0.25*14/60 + 0.2},
		// the clean judge reads Bangla: 1/1 fact + 0.15
		{"clean reads Bangla", clean, pairByID(t, pairs, "cite-5").B, pairByID(t, pairs, "cite-5").Facts, false, 1.15},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.judge.Score(tt.text, tt.facts, tt.first)
			if math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("score = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFakeCompareMargin(t *testing.T) {
	ctx := context.Background()
	q := func(first, second string) Query {
		return Query{Facts: []string{"7 days"}, First: first, Second: second}
	}
	tests := []struct {
		name  string
		judge Fake
		q     Query
		want  Winner
	}{
		{"fact beats no fact", Fake{Margin: DefaultMargin}, q("kept 7 days", "kept 3 days"), First},
		{"second has the fact", Fake{Margin: DefaultMargin}, q("kept 3 days", "kept 7 days"), Second},
		// gap 0.15 > 0.1
		{"citation decides", Fake{Margin: DefaultMargin}, q("7 days", "7 days [lib-holds-1]"), Second},
		// gap 0.15 - 0.2 = -0.05: inside the margin
		{"position cancels citation", Fake{Position: 0.2, Margin: DefaultMargin}, q("7 days", "7 days [lib-holds-1]"), Tie},
		// the zero value has no margin: any gap decides
		{"zero value", Fake{}, q("7 days", "7 days [lib-holds-1]"), Second},
		{"equal", Fake{Margin: DefaultMargin}, q("7 days", "7 days"), Tie},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.judge.Compare(ctx, tt.q)
			if err != nil || got != tt.want {
				t.Errorf("Compare = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// TestProbeFingerprints reproduces the lesson's bias probe table (SPEC.md
// section 3; seed 003 prints it to two decimals):
//
//	judge      first_pick order_flip longer_wins self_wins
//	clean             0.5        0.0         0.0       0.0
//	position         0.78       0.63         0.4       0.0
//	verbosity         0.5        0.0         1.0       0.0
//	self              0.5        0.0         0.0       1.0
//	mixed            0.74       0.57         0.4       0.6
//
// The counts behind them, by hand for the position judge (+0.2 for the
// first answer): the 11 clear and padded_wrong pairs differ by a third of
// the facts or more, so both orders pick the right answer (22 decisive, 11
// first); the 9 ties go to whichever is first in both orders (18 decisive,
// 18 first, 9 flips); the 10 cite and self pairs differ by 0.15, so the
// better answer wins when first (0.35) and ties when second (0.05): 10
// decisive, 10 first, 10 flips. first_pick 39/50 = 0.78, order_flip 19/30.
// In two of the five verbose ties the longer answer is a, so a first-picker
// makes the longer win 2/5 times.
func TestProbeFingerprints(t *testing.T) {
	pairs := loadPairs(t)
	want := map[string][4]Share{
		"clean":     {{21, 42}, {0, 30}, {0, 5}, {0, 5}},
		"position":  {{39, 50}, {19, 30}, {2, 5}, {0, 5}},
		"verbosity": {{26, 52}, {0, 30}, {5, 5}, {0, 5}},
		"self":      {{21, 42}, {0, 30}, {0, 5}, {5, 5}},
		"mixed":     {{26, 35}, {17, 30}, {2, 5}, {3, 5}},
	}
	seed := map[string][4]float64{
		"clean":     {0.5, 0, 0, 0},
		"position":  {0.78, 0.63, 0.4, 0},
		"verbosity": {0.5, 0, 1, 0},
		"self":      {0.5, 0, 0, 1},
		"mixed":     {0.74, 0.57, 0.4, 0.6},
	}
	var names []string
	for _, f := range Fakes() {
		names = append(names, f.Name)
		t.Run(f.Name, func(t *testing.T) {
			pr, err := RunProbes(context.Background(), f, pairs)
			if err != nil {
				t.Fatal(err)
			}
			got := [4]Share{pr.FirstPick, pr.OrderFlip, pr.LongerWins, pr.SelfWins}
			if got != want[f.Name] {
				t.Errorf("probes %v, want %v", got, want[f.Name])
			}
			for i, s := range got {
				v, _ := s.Value()
				if math.Round(v*100)/100 != seed[f.Name][i] {
					t.Errorf("probe %d = %.2f, the lesson prints %v", i, v, seed[f.Name][i])
				}
			}
		})
	}
	if fmt.Sprint(names) != "[clean position verbosity self mixed]" {
		t.Errorf("named set %v", names)
	}
}

func TestFakeByName(t *testing.T) {
	if f, err := FakeByName("verbosity"); err != nil || f.Verbosity != 0.3 || f.Margin != DefaultMargin {
		t.Errorf("FakeByName(verbosity) = %+v, %v", f, err)
	}
	if _, err := FakeByName("lenient"); err == nil || !strings.Contains(err.Error(), "clean, position, verbosity, self, mixed") {
		t.Errorf("unknown name: %v", err)
	}
}

func TestTextFeatures(t *testing.T) {
	tests := []struct {
		text               string
		cited, own, bangla bool
		words              int
	}{
		{"Keep it 21 days [lib-loans-1].", true, false, false, 5},
		{"Keep it 21 days [Lib-Loans-1].", false, false, false, 5},
		{"Keep it 21 days [loans].", false, false, false, 5},
		{"  Certainly! It is 21 days.", false, true, false, 5},
		{"It is certainly! 21 days.", false, false, false, 5},
		{"একটা ই-বুক ১৪ দিনের জন্য ধার নেওয়া যায় [lib-ebooks-1]।", true, false, true, 9},
		{"Bangla word: বই", false, false, false, 3},
		{"", false, false, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if Cited(tt.text) != tt.cited || ownStyle(tt.text) != tt.own || isBangla(tt.text) != tt.bangla || Words(tt.text) != tt.words {
				t.Errorf("Cited %v ownStyle %v isBangla %v Words %d", Cited(tt.text), ownStyle(tt.text), isBangla(tt.text), Words(tt.text))
			}
		})
	}
}

// A fact typed in decomposed form (NFD) still matches an answer in NFC:
// the vowel sign ো is U+09CB composed and U+09C7 U+09BE decomposed.
func TestFactShareNFC(t *testing.T) {
	text := norm.NFC.String("নোটিশ বোর্ড ১৪ দিন")
	fact := norm.NFD.String("নোটিশ বোর্ড")
	if fact == text[:len(fact)] {
		t.Skip("NFC and NFD agree on this text; the test proves nothing")
	}
	if got := factShare(text, []string{fact, "১৪ দিন"}); got != 1 {
		t.Errorf("factShare = %v, want 1", got)
	}
	if got := factShare("anything", nil); got != 0 {
		t.Errorf("no facts: %v, want 0", got)
	}
}

func ExampleFake_Score() {
	mixed, _ := FakeByName("mixed")
	facts := []string{"7 days"}
	// 1 fact of 1, cited: 1 + 0.15, 6 words: + 0.25 * 6/60, shown first: + 0.08
	fmt.Printf("%.3f\n", mixed.Score("Holds wait 7 days [lib-holds-1] there.", facts, true))
	// Output: 1.255
}
