package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/judge"
)

func TestCalibrateGolden(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"calibrate_mixed.stdout", []string{"calibrate", "--judge", "fake:mixed", "--prompt", "pairwise@1"}},
		{"calibrate_mixed_swap.json", []string{"calibrate", "--judge", "fake:mixed", "--prompt", "pairwise@1", "--swap", "--json"}},
		{"calibrate_verbosity.stdout", []string{"calibrate", "--judge", "fake:verbosity", "--pairs", filepath.Join("..", "datasets", "judge", "pairs.jsonl")}},
		{"calibrate_clean.stdout", []string{"calibrate", "--judge", "fake:clean"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			builtin := !strings.Contains(strings.Join(c.args, " "), "--pairs")
			if got := strings.Contains(errOut, "no --pairs given: calibrate uses the built-in datasets/judge/pairs.jsonl"); got != builtin {
				t.Errorf("stderr %q", errOut)
			}
			golden(t, c.name, out)
		})
	}
}

// TestCalibrateSeedFigures checks the command's JSON against the figures
// seed 003 prints for the mixed judge (SPEC.md section 3): without swap
// agreement 0.633 (19/30) with interval (0.467, 0.8) and kappa 0.456; with
// swap agreement 0.6, kappa 0.416 and 17 order disagreements; and the
// lesson's usable verdicts for clean, verbosity, self and mixed, to which
// Usable adds the language slice (the mixed judge is blind to Bangla).
func TestCalibrateSeedFigures(t *testing.T) {
	read := func(args ...string) judge.Calibration {
		t.Helper()
		out, errOut, code := runCLI(t, append([]string{"calibrate", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r judge.Calibration
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	// round3 rounds to the three decimals the report prints.
	round3 := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	r := read("--judge", "fake:mixed")
	rec := r.Record
	if rec.Agree != 19 || round3(rec.AgreementLow) != 0.467 || round3(rec.AgreementHigh) != 0.8 || round3(rec.Kappa) != 0.456 {
		t.Errorf("mixed: agree %d [%v, %v] kappa %v", rec.Agree, rec.AgreementLow, rec.AgreementHigh, rec.Kappa)
	}
	r = read("--judge", "fake:mixed", "--swap")
	if r.Record.Agree != 18 || round3(r.Record.Kappa) != 0.416 || r.Record.OrderDisagreements != 17 {
		t.Errorf("mixed swap: agree %d kappa %v disagreements %d", r.Record.Agree, r.Record.Kappa, r.Record.OrderDisagreements)
	}
	usable := map[string][]string{
		"clean":     {},
		"verbosity": {"kind verbose_tie agrees on 0/5, below 0.6"},
		"self":      {"kind self agrees on 0/5, below 0.6"},
		"mixed":     {"kappa 0.456 below 0.6", "kind self agrees on 0/5, below 0.6", "lang bn agrees on 0/2, below 0.6"},
	}
	for name, want := range usable {
		r := read("--judge", "fake:"+name)
		if !reflect.DeepEqual(r.Reasons, want) || r.Usable != (len(want) == 0) {
			t.Errorf("%s: usable %v %q, want %q", name, r.Usable, r.Reasons, want)
		}
	}
	// Looser thresholds: with --min-kappa 0.4 and --min-slice 0 the mixed
	// judge passes (its kappa is 0.456).
	if r := read("--judge", "fake:mixed", "--min-kappa", "0.4", "--min-slice", "0"); !r.Usable {
		t.Errorf("thresholds ignored: %q", r.Reasons)
	}
}

// TestCalibrateModelJudge calibrates the stub model, which always answers
// "first", with both prompt versions. By hand: asked a-first only, it says
// a on every pair, so it agrees on the 10 pairs labelled a (10/30); with
// swap every pair flips, so every label is a tie and it agrees on the 9
// ties (9/30), with 30 order disagreements. The two wordings give the same
// labels (a gap of 0).
func TestCalibrateModelJudge(t *testing.T) {
	s := newJudgeStub(t)
	base := []string{"calibrate", "--judge", s.endpoint(), "--model", "stub-judge", "--cache", "none"}
	out, errOut, code := runCLI(t, append(base, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r judge.Calibration
	json.Unmarshal([]byte(out), &r)
	if r.Record.Agree != 10 || r.Record.Invalid != 0 || r.Record.Judge != "stub-judge at "+s.endpoint() || s.count() != 30 {
		t.Errorf("one order: agree %d invalid %d judge %q after %d requests", r.Record.Agree, r.Record.Invalid, r.Record.Judge, s.count())
	}
	out, errOut, code = runCLI(t, append(base, "--swap", "--vs", "pairwise@1")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "calibrate_model_vs.stdout", s.normalize(out))
	if !strings.Contains(out, "agreement            9/30") || !strings.Contains(out, "order disagreements  30") ||
		!strings.Contains(out, "pairwise@2 agrees 9/30, pairwise@1 agrees 9/30 (gap +0.000); the two versions give the same label on 30/30 pairs") {
		t.Errorf("swap with two prompts:\n%s", out)
	}
	if want := 30 + 2*2*30; s.count() != want {
		t.Errorf("%d requests, want %d", s.count(), want)
	}
}

func TestCalibrateUsage(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	badUTF8 := filepath.Join(t.TempDir(), "badutf8.jsonl")
	os.WriteFile(badUTF8, []byte("{\"id\":\"x\",\"question\":\"q\",\"facts\":[\"f\"],\"a\":\"x\xff\",\"b\":\"B\",\"kind\":\"tie\",\"lang\":\"en\",\"ann1\":\"tie\",\"ann2\":\"tie\",\"final\":\"tie\"}\n"), 0o644)
	os.WriteFile(bad, []byte(`{"id": "p1", "question": "q", "facts": ["f"], "a": "x", "b": "y", "kind": "clear", "lang": "en", "ann1": "a", "ann2": "a", "final": "first"}`+"\n"), 0o644)
	// "final" opens at column 124, counted by hand: {"id": "p1",  (13 chars with
	// the space) "question": "q",  (17) "facts": ["f"],  (16) "a": "x",  (10)
	// "b": "y",  (10) "kind": "clear",  (17) "lang": "en",  (14) "ann1": "a",
	// (13) "ann2": "a",  (13): 123 characters before it.
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no judge", []string{"calibrate"}, 2, "--judge is required"},
		{"unknown fake", []string{"calibrate", "--judge", "fake:lenient"}, 2, `no fake judge "lenient"`},
		{"not a URL", []string{"calibrate", "--judge", "gpt-4o"}, 2, "--judge must be fake:NAME or an endpoint URL"},
		{"reference prompt", []string{"calibrate", "--judge", "fake:clean", "--prompt", "reference"}, 2, "is a reference prompt"},
		{"bad label", []string{"calibrate", "--judge", "fake:clean", "--pairs", bad}, 1, "bad.jsonl:1:124 (column \"final\"): pair \"p1\": final is \"first\", want a, b or tie"},
		{"help", []string{"calibrate", "--help"}, 0, ""},
		// Audit defect 11: --min-slice is a share, --min-kappa a kappa.
		{"min-slice a count", []string{"calibrate", "--judge", "fake:clean", "--min-slice", "5"}, 2, "--min-slice is the lowest share of agreement a kind or language may show, between 0 and 1 (0.6 means 60%), not a number of pairs; got 5"},
		{"min-slice negative", []string{"calibrate", "--judge", "fake:clean", "--min-slice", "-0.1"}, 2, "--min-slice is the lowest share"},
		{"min-slice NaN", []string{"calibrate", "--judge", "fake:clean", "--min-slice", "NaN"}, 2, "--min-slice is the lowest share"},
		{"min-kappa above 1", []string{"calibrate", "--judge", "fake:clean", "--min-kappa", "2"}, 2, "--min-kappa is a kappa, between -1 and 1 (e.g. 0.6), not 2"},
		{"min-kappa below -1", []string{"calibrate", "--judge", "fake:clean", "--min-kappa", "-1.5"}, 2, "--min-kappa is a kappa"},
		{"min-kappa NaN", []string{"calibrate", "--judge", "fake:clean", "--min-kappa", "NaN"}, 2, "--min-kappa is a kappa, between -1 and 1 (e.g. 0.6), not NaN"},
		{"bounds accepted", []string{"calibrate", "--judge", "fake:clean", "--min-kappa", "-1", "--min-slice", "1"}, 0, ""},
		{"vs with a fake judge", []string{"calibrate", "--judge", "fake:clean", "--vs", "pairwise@1"}, 2, "--vs compares two prompts of a model judge; a fake judge does not read the prompt"},
		// Audit defect 4: "a" opens at byte 40 of the line, so the bad byte
		// after its value's x is byte 46.
		{"invalid UTF-8", []string{"calibrate", "--judge", "fake:clean", "--pairs", badUTF8}, 1, "badutf8.jsonl:1:46 (column \"a\"): invalid UTF-8: first bad byte 0xFF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
}

// A set of one pair reads "1 pair" (audit defect 15), in calibrate and
// in probes.
func TestCalibrateOnePair(t *testing.T) {
	one := filepath.Join(t.TempDir(), "one.jsonl")
	os.WriteFile(one, []byte(`{"id":"x","question":"q","facts":["f"],"a":"A","b":"B","kind":"tie","lang":"en","ann1":"tie","ann2":"tie","final":"tie"}`+"\n"), 0o644)
	for _, tc := range []struct{ cmd, want string }{
		{"calibrate", "calibration of fake:clean against " + one + " (1 pair, label set"},
		{"probes", "bias probes over " + one + " (1 pair, label set"},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.cmd, "--judge", "fake:clean", "--pairs", one)
			if code != 0 || !strings.HasPrefix(out, tc.want) {
				t.Errorf("exit %d: %s\n%s", code, errOut, out)
			}
		})
	}
}
