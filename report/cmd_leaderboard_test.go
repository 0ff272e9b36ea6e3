package main

import (
	"encoding/json"
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
