package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLeaderboardGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"leaderboard_sample.stdout", []string{"leaderboard"}},
		{"leaderboard_indic.stdout", []string{"leaderboard", "--dir", "../datasets/leaderboard", "--normalize", "indic"}},
		{"leaderboard_chrf.json", []string{"leaderboard", "--metric", "chrf", "--resamples", "200", "--seed", "5", "--json"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tc.golden, out)
		})
	}
}

// The output shown in datasets/leaderboard/README.md is what the command
// prints on the shipped data.
func TestLeaderboardReadme(t *testing.T) {
	b, err := os.ReadFile("../datasets/leaderboard/README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	const begin, end = "<!-- leaderboard output: begin -->\n```\n", "```\n<!-- leaderboard output: end -->"
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatal("README.md has no marked leaderboard output")
	}
	out, errOut, code := runCLI(t, "leaderboard")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := s[i+len(begin) : j]; got != out {
		t.Errorf("README.md shows other output than `evalbook leaderboard` prints; update it from:\n%s", out)
	}
}

func TestLeaderboardJSONFigures(t *testing.T) {
	out, errOut, code := runCLI(t, "leaderboard", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var b struct {
		Models, Languages []string
		Cells             []struct {
			Model, Language string
			N               int
			Best            bool
		}
		Leaders []struct {
			Language    string
			Significant bool
		}
	}
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Models) != 3 || len(b.Languages) != 5 || len(b.Cells) != 15 || len(b.Leaders) != 5 {
		t.Fatalf("%d models, %d languages, %d cells, %d leaders", len(b.Models), len(b.Languages), len(b.Cells), len(b.Leaders))
	}
	marks := 0
	for _, c := range b.Cells {
		if c.N != 24 {
			t.Errorf("cell %+v", c)
		}
		if c.Best {
			marks++
		}
	}
	sig := 0
	for _, l := range b.Leaders {
		if l.Significant {
			sig++
		}
	}
	if marks != sig {
		t.Errorf("%d cells marked best, %d significant leaders", marks, sig)
	}
}

func TestLeaderboardErrors(t *testing.T) {
	dir := t.TempDir()
	if _, errOut, code := runCLI(t, "leaderboard", "--dir", dir); code != 1 || !strings.Contains(errOut, "no response files") {
		t.Errorf("empty dir: exit %d, %s", code, errOut)
	}
	os.WriteFile(filepath.Join(dir, "m_hindi.csv"), []byte("question,answer,Domain\nq,a,D\n"), 0o644)
	if _, errOut, code := runCLI(t, "leaderboard", "--dir", dir); code != 1 || !strings.Contains(errOut, "m_hindi.csv") || !strings.Contains(errOut, "response") {
		t.Errorf("missing column: exit %d, %s", code, errOut)
	}
	for _, args := range [][]string{
		{"leaderboard", "--metric", "nope"},
		{"leaderboard", "--normalize", "nope"},
		{"leaderboard", "--alpha", "1.5"},
		{"leaderboard", "--resamples", "-1"},
		{"leaderboard", "extra"},
	} {
		if _, _, code := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if out, _, code := runCLI(t, "leaderboard", "--help"); code != 0 || !strings.Contains(out, "McNemar") {
		t.Errorf("--help: exit %d", code)
	}
}

// TestLeaderboardAuditFixes covers the leaderboard items of the
// 2026-11-30 audit: a hint naming a flag the command has (5), the chrF
// warning naming --resamples (9), singular counts, the graded interval
// of a cell whose rows all score the same (13) and an empty domain (15).
func TestLeaderboardAuditFixes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m_hindi.csv"), []byte("question,answer,Domain,response\nq1,a\xff,,a\nq2,b,,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCLI(t, "leaderboard", "--dir", dir)
	if code != 1 || !strings.Contains(errs, "m_hindi.csv:2") || !strings.Contains(errs, "pass --repair-utf8") {
		t.Fatalf("invalid UTF-8: exit %d, %s", code, errs)
	}
	out, errs, code := runCLI(t, "leaderboard", "--dir", dir, "--repair-utf8", "--metric", "chrf")
	if code != 0 {
		t.Fatalf("--repair-utf8: exit %d, %s", code, errs)
	}
	for _, want := range []string{
		"1 model × 1 language,",
		"pass --resamples N",
		"1 row had its invalid UTF-8 replaced by U+FFFD [1 file: m_hindi.csv (1)]",
		"(empty)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// A graded metric on a cell whose rows all score 1.
	if err := os.WriteFile(filepath.Join(dir, "m_hindi.csv"), []byte("question,answer,Domain,response\nq1,a,D,a\nq2,b,D,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = runCLI(t, "leaderboard", "--dir", dir, "--metric", "squad_f1", "--json")
	if code != 0 {
		t.Fatalf("squad_f1: exit %d, %s", code, errs)
	}
	var b struct {
		Cells []struct {
			Low  float64 `json:"ci_low"`
			High float64 `json:"ci_high"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(out), &b); err != nil || len(b.Cells) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	// Both rows score 1: Wilson at mean 1 with n = 2, by hand
	// lo = 2/(2 + 1.959964²) = 2/5.841459 = 0.342380 (was [1, 1]).
	if c := b.Cells[0]; math.Abs(c.Low-0.342380) > 5e-7 || c.High != 1 {
		t.Errorf("cell interval [%v, %v], want [0.342380, 1]", c.Low, c.High)
	}
}

// TestLeaderboardNFCHint: pkg/qa's not-NFC warning names no flag; the
// leaderboard names its own (--normalize), as score does.
func TestLeaderboardNFCHint(t *testing.T) {
	dir := t.TempDir()
	// "café" with the accent as a combining mark (NFD) in the response.
	body := "question,answer,Domain,response\nq1,cafe,D,cafe\u0301 au lait\nq2,b,D,b\n"
	if err := os.WriteFile(filepath.Join(dir, "m_english.csv"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, "leaderboard", "--dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if all := out + errs; !strings.Contains(all, "not in Unicode NFC") || !strings.Contains(all, "consider --normalize nfc (or indic)") {
		t.Errorf("no NFC warning naming --normalize:\n%s%s", out, errs)
	}
}
