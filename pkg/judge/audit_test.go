package judge

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/stats"
)

// Every exported function that asks a judge refuses a nil judge or
// client up front with ErrNilJudge. Before, Calibrate and JudgeReferences
// crashed the process from a worker goroutine (no recover can catch
// that, so a regression kills this test binary).
func TestNilJudge(t *testing.T) {
	ctx := context.Background()
	pairs := loadPairs(t)
	pw := mustPrompt(t, "pairwise@1")
	ref := mustPrompt(t, "reference@1")
	items := []RefItem{{Question: "q", Golden: "g", Response: "r"}}
	var nilCJ *ClientJudge
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"Calibrate nil", func() error { _, err := Calibrate(ctx, nil, pw, pairs, CalibrateOptions{}); return err }},
		{"Calibrate nil *ClientJudge", func() error { _, err := Calibrate(ctx, nilCJ, pw, pairs, CalibrateOptions{}); return err }},
		{"Calibrate ClientJudge without client", func() error {
			_, err := Calibrate(ctx, &ClientJudge{Prompt: pw}, pw, pairs, CalibrateOptions{})
			return err
		}},
		{"JudgeReferences nil", func() error { _, err := JudgeReferences(ctx, nil, items, 1, nil); return err }},
		{"JudgeReferences without client", func() error {
			_, err := JudgeReferences(ctx, NewClientJudge(nil, ref), items, 1, nil)
			return err
		}},
		{"ComparePrompts nil", func() error {
			_, err := ComparePrompts(ctx, nil, pw, mustPrompt(t, "pairwise@2"), pairs, CalibrateOptions{})
			return err
		}},
		{"Ask nil", func() error { _, err := Ask(ctx, nil, pairs[0], true); return err }},
		{"RunProbes nil", func() error { _, err := RunProbes(ctx, nil, pairs); return err }},
		{"Compare on nil", func() error { _, err := nilCJ.Compare(ctx, Query{}); return err }},
		{"Reference on nil", func() error { _, err := nilCJ.Reference(ctx, "q", "g", "r"); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			if err := tc.call(); !errors.Is(err, ErrNilJudge) {
				t.Errorf("error %v, want ErrNilJudge", err)
			}
		})
	}
}

// Calibrate ties its record to the prompt's hash, so the prompt must be a
// valid pairwise prompt (a zero Prompt was the hash of an empty text), and
// its options must be usable before any pair is asked.
func TestCalibrateRefusesBadInput(t *testing.T) {
	pairs := loadPairs(t)
	clean, _ := FakeByName("clean")
	pw := mustPrompt(t, "pairwise@1")
	for _, tc := range []struct {
		name   string
		prompt Prompt
		opt    CalibrateOptions
		want   string
	}{
		{"zero prompt", Prompt{}, CalibrateOptions{}, `prompt name ""`},
		{"reference prompt", mustPrompt(t, "reference@1"), CalibrateOptions{}, "needs a pairwise prompt"},
		{"negative resamples", pw, CalibrateOptions{Resamples: -5}, "-5 bootstrap resamples"},
		{"confidence 95", pw, CalibrateOptions{Confidence: 95}, "confidence 95 is not strictly between 0 and 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Calibrate(context.Background(), clean, tc.prompt, pairs, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// tieJudge always answers tie.
type tieJudge struct{}

func (tieJudge) Compare(context.Context, Query) (Winner, error) { return Tie, nil }

// When the judge agrees on every pair (or none), the bootstrap interval
// is one point; the record keeps it and a warning gives the Wilson
// interval (pkg/stats advised "use the Wilson interval", which calibrate
// does not offer). By hand, z = 1.959964, z² = 3.841459:
//
//	30/30: lower = n/(n + z²) = 30/33.841459 = 0.88649, upper 1
//	 0/21: lower 0, upper = z²/(n + z²) = 3.841459/24.841459 = 0.15464
//
// (the shipped pairs hold 21 whose final label is a or b, and the clean
// judge agrees on all 30; seed 003's calibration table).
func TestCalibrateZeroWidthWilson(t *testing.T) {
	pairs := loadPairs(t)
	var decisive []Pair
	for _, p := range pairs {
		if p.Final != LabelTie {
			decisive = append(decisive, p)
		}
	}
	clean, _ := FakeByName("clean")
	for _, tc := range []struct {
		name  string
		j     Judge
		pairs []Pair
		lo    float64
		want  string
	}{
		{"clean judge, all agree", clean, pairs, 1,
			"the judge agreed on all 30 pairs, so every bootstrap resample gives 100.0% and the bootstrap interval has zero width; the 95% Wilson interval of 30/30 is [88.6%, 100.0%]"},
		{"tie judge on decisive pairs, none agree", tieJudge{}, decisive, 0,
			"the judge agreed on none of the 21 pairs, so every bootstrap resample gives 0.0% and the bootstrap interval has zero width; the 95% Wilson interval of 0/21 is [0.0%, 15.5%]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Calibrate(context.Background(), tc.j, mustPrompt(t, "pairwise@1"), tc.pairs, CalibrateOptions{Resamples: 500})
			if err != nil {
				t.Fatal(err)
			}
			if r.AgreementLow != tc.lo || r.AgreementHigh != tc.lo {
				t.Errorf("interval [%v, %v], want the bootstrap figures kept at %v", r.AgreementLow, r.AgreementHigh, tc.lo)
			}
			all := strings.Join(warningMessages(r.Warnings), "|")
			if !strings.Contains(all, tc.want) || strings.Contains(all, "use the Wilson interval") {
				t.Errorf("warnings %q, want %q and no advice to use an interval calibrate does not offer", all, tc.want)
			}
			// The replacement keeps the stats code of the warning it
			// replaces, once, and counts the pairs.
			n := 0
			for _, w := range r.Warnings {
				if w.Code == stats.CodePointInterval {
					n++
					if w.Message != tc.want || w.Count != len(tc.pairs) {
						t.Errorf("point interval warning %+v, want count %d", w, len(tc.pairs))
					}
				}
			}
			if n != 1 {
				t.Errorf("%d warnings coded %s, want 1: %+v", n, stats.CodePointInterval, r.Warnings)
			}
		})
	}
}
