package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/ratings"
	"github.com/xuri/excelize/v2"
)

func TestRatingsGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"ratings_pairs.stdout", []string{"ratings", "--pairs", "testdata/ratings_pairs.csv", "--resamples", "2000"}},
		{"ratings_anchor.json", []string{"ratings", "--pairs", "testdata/ratings_pairs.csv", "--resamples", "500", "--seed", "3", "--anchor", "heron-3b", "--json"}},
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

// `ratings --json` is the JSON of ratings.File's result for the same
// file and options; the anchor's rating is 0.
func TestRatingsJSONIsTheLibraryResult(t *testing.T) {
	const file = "testdata/ratings_pairs.csv"
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := ratings.File(f, file, ratings.Options{Resamples: 300, Confidence: 0.9, Seed: 4, Anchor: "wren-1b"})
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "ratings", "--pairs", file, "--resamples", "300", "--confidence", "0.9", "--seed", "4", "--anchor", "wren-1b", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := jsonOf(t, res); out != want {
		t.Errorf("ratings --json differs from the library's result\n got: %.300s\nwant: %.300s", out, want)
	}
	var doc struct {
		Ratings []struct {
			Model  string  `json:"model"`
			Rating float64 `json:"rating"`
		} `json:"ratings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Ratings) != 4 {
		t.Fatalf("%v: %s", err, out)
	}
	for _, r := range doc.Ratings {
		if r.Model == "wren-1b" && r.Rating != 0 {
			t.Errorf("anchor rating %v", r.Rating)
		}
	}
}

func TestRatingsErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, args := range [][]string{
		{"ratings"},
		{"ratings", "--pairs", "x.csv", "extra"},
		{"ratings", "--pairs", "x.csv", "--resamples", "0"},
		{"ratings", "--pairs", "x.csv", "--confidence", "2"},
	} {
		if _, _, code := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	for _, tc := range []struct {
		body string
		want []string
	}{
		{"model_a,model_b,winner\nA,B,a\nB,A,a\nC,D,a\nD,C,tie\n", []string{"{A, B} | {C, D}", "no verdict joins"}},
		{"model_a,model_b,winner\nA,B,a\nB,A,a\nC,A,a\nC,B,a\n", []string{"{C} > {A, B}", "does not exist"}},
		{"model_a,model_b,winner\nA,B,a\nA,B,maybe\n", []string{"p.csv:3:5", `column "winner"`, `winner "maybe"`}},
	} {
		p := write("p.csv", tc.body)
		_, errOut, code := runCLI(t, "ratings", "--pairs", p)
		if code != 1 {
			t.Errorf("%q: exit %d, want 1: %s", tc.body, code, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%q: stderr lacks %q:\n%s", tc.body, w, errOut)
			}
		}
	}
	if out, _, code := runCLI(t, "ratings", "--help"); code != 0 || !strings.Contains(out, "Bradley-Terry") {
		t.Errorf("--help: exit %d", code)
	}
}

// The workbook and the page carry the ratings table.
func TestRatingsExports(t *testing.T) {
	dir := t.TempDir()
	x, h := filepath.Join(dir, "r.xlsx"), filepath.Join(dir, "r.html")
	_, errs, code := runCLI(t, "ratings", "--pairs", "testdata/ratings_pairs.csv", "--resamples", "200", "--xlsx", x, "--html", h)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// The text output's figure (rank 1, kestrel-7b, +0.553 with 2000
	// resamples; the point estimate does not depend on resamples).
	f, err := excelize.OpenFile(x)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	found := false
	for _, sh := range f.GetSheetList() {
		rows, _ := f.GetRows(sh)
		for _, r := range rows {
			if len(r) >= 3 && r[1] == "kestrel-7b" {
				v, err := strconv.ParseFloat(r[2], 64)
				found = err == nil && math.Abs(v-0.553) < 0.0005
			}
		}
	}
	if !found {
		t.Error("workbook lacks kestrel-7b's rating 0.553")
	}
	page, err := os.ReadFile(h)
	if err != nil || !strings.Contains(string(page), "Bradley-Terry ratings") || !strings.Contains(string(page), "kestrel-7b") {
		t.Errorf("page: %v", err)
	}
}
