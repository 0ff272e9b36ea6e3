package score

import (
	"errors"
	"math"
	"testing"
)

// With no references every sentence function scores 0 (SentenceCHRF
// panicked; CorpusCHRF and SentenceBLEU already returned 0).
func TestNoReferences(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func() float64
	}{
		{"SentenceCHRF nil", func() float64 { return SentenceCHRF("a", nil, CHRFOptions{}) }},
		{"SentenceCHRF empty", func() float64 { return SentenceCHRF("the cat", []string{}, CHRFOptions{WordOrder: 2}) }},
		{"CorpusCHRF nil", func() float64 { return CorpusCHRF([]string{"a", "b"}, nil, CHRFOptions{}) }},
		{"SentenceBLEU nil", func() float64 { return SentenceBLEU("a", nil, BLEUOptions{}).Score }},
		{"CorpusBLEU nil", func() float64 { return CorpusBLEU([]string{"a b c d"}, nil, BLEUOptions{}).Score }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			if v := tc.f(); v != 0 {
				t.Errorf("= %v, want 0", v)
			}
		})
	}
}

func TestOptionsValidate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		check func() error
		ok    bool
	}{
		{"chrF zero value", CHRFOptions{}.Validate, true},
		{"chrF++", CHRFOptions{WordOrder: 2, Beta: 3, CharOrder: 4}.Validate, true},
		{"chrF CharOrder 9", CHRFOptions{CharOrder: 9}.Validate, false},
		{"chrF CharOrder -1", CHRFOptions{CharOrder: -1}.Validate, false},
		{"chrF WordOrder 3", CHRFOptions{WordOrder: 3}.Validate, false},
		{"chrF Beta -1", CHRFOptions{Beta: -1}.Validate, false},
		{"chrF Beta NaN", CHRFOptions{Beta: math.NaN()}.Validate, false},
		{"chrF Beta Inf", CHRFOptions{Beta: math.Inf(1)}.Validate, false},
		{"BLEU zero value", BLEUOptions{}.Validate, true},
		{"BLEU indic add-k", BLEUOptions{Tokenize: "indic", Smooth: "add-k", SmoothValue: 0.5, MaxOrder: 6}.Validate, true},
		{"BLEU MaxOrder 9", BLEUOptions{MaxOrder: 9}.Validate, false},
		{"BLEU MaxOrder -2", BLEUOptions{MaxOrder: -2}.Validate, false},
		{"BLEU Tokenize spm", BLEUOptions{Tokenize: "spm"}.Validate, false},
		{"BLEU Smooth bogus", BLEUOptions{Smooth: "bogus"}.Validate, false},
		{"BLEU SmoothValue -1", BLEUOptions{Smooth: "floor", SmoothValue: -1}.Validate, false},
		{"BLEU SmoothValue NaN", BLEUOptions{Smooth: "add-k", SmoothValue: math.NaN()}.Validate, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.check()
			if tc.ok && err != nil || !tc.ok && !errors.Is(err, ErrOptions) {
				t.Errorf("Validate() = %v, want ok %v (an error wrapping ErrOptions)", err, tc.ok)
			}
		})
	}
}

// The scoring functions panic on invalid options, as documented, with
// the error Validate returns (before: an undocumented panic message, and
// Beta NaN passed and scored NaN).
func TestInvalidOptionsPanicWithValidateError(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"SentenceCHRF CharOrder 9", func() { SentenceCHRF("a", []string{"a"}, CHRFOptions{CharOrder: 9}) }},
		{"CorpusCHRF Beta NaN", func() { CorpusCHRF([]string{"a"}, [][]string{{"a"}}, CHRFOptions{Beta: math.NaN()}) }},
		{"NStats WordOrder 3", func() { CHRFOptions{WordOrder: 3}.NStats() }},
		{"SentenceBLEU spm", func() { SentenceBLEU("a", []string{"a"}, BLEUOptions{Tokenize: "spm"}) }},
		{"CorpusBLEU bogus", func() { CorpusBLEU([]string{"a"}, [][]string{{"a"}}, BLEUOptions{Smooth: "bogus"}) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				err, ok := r.(error)
				if !ok || !errors.Is(err, ErrOptions) {
					t.Errorf("recovered %v, want a panic with an error wrapping ErrOptions", r)
				}
			}()
			tc.f()
		})
	}
}

func TestUnknownMetricSentinel(t *testing.T) {
	if _, err := Lookup("bleurt"); !errors.Is(err, ErrUnknownMetric) {
		t.Errorf("Lookup: %v, want ErrUnknownMetric", err)
	}
	if _, err := ParseList("exact_match,bleurt"); !errors.Is(err, ErrUnknownMetric) {
		t.Errorf("ParseList: %v, want ErrUnknownMetric", err)
	}
	if _, err := Lookup("chrf"); err != nil {
		t.Errorf("Lookup(chrf): %v", err)
	}
}
