package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMCGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"mc_sample.stdout", []string{"mc"}},
		{"mc_sample_k.json", []string{"mc", "--json", "--k", "1,3", "--resamples", "2000", "--seed", "7"}},
		{"mc_sample_file.stdout", []string{"mc", "--predictions", "../datasets/mc/kestrel-7b_predictions.csv"}},
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

// The sample's figures, read from the JSON: recall@1 equals acc, and the
// per-language counts add up to the overall count.
func TestMCSampleConsistent(t *testing.T) {
	out, errOut, code := runCLI(t, "mc", "--json", "--k", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Mode           string `json:"mode"`
		LanguageSource string `json:"language_source"`
		Overall        struct {
			N       int
			Metrics map[string]struct{ Correct, Value float64 }
		}
		Languages []struct {
			Group   string
			N       int
			Metrics map[string]struct{ Correct float64 }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Mode != "loglik" || rep.LanguageSource != "column" || rep.Overall.N != 32 || len(rep.Languages) != 4 {
		t.Fatalf("%+v", rep)
	}
	if rep.Overall.Metrics["recall@1"] != rep.Overall.Metrics["acc"] {
		t.Errorf("recall@1 %+v, acc %+v", rep.Overall.Metrics["recall@1"], rep.Overall.Metrics["acc"])
	}
	n, c := 0, 0.0
	for _, l := range rep.Languages {
		n += l.N
		c += l.Metrics["acc"].Correct
	}
	if n != rep.Overall.N || c != rep.Overall.Metrics["acc"].Correct {
		t.Errorf("languages add up to n %d, correct %v", n, c)
	}
}

func TestMCLettersAndErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	letters := write("tern-13b_bengali.csv", "id,subject,prediction,gold\n1,science,ক,A\n2,science,(খ),খ\n3,history,no idea,গ\n")
	out, errOut, code := runCLI(t, "mc", "--predictions", letters)
	if code != 0 || !strings.Contains(out, "language from file name") || !strings.Contains(out, "bengali   3  0.667") ||
		!strings.Contains(out, "1 prediction names no option") || strings.Contains(out, "LetterIndex") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
	// No language column and a file name without _<language>: the header
	// said "language from none".
	plain := write("predictions.csv", "id,subject,prediction,gold\n1,science,A,A\n2,science,B,C\n")
	out, errOut, code = runCLI(t, "mc", "--predictions", plain)
	if code != 0 || strings.Contains(out, "language from none") ||
		!strings.Contains(out, "2 questions, predicted letters; no language (no language column, and the file name is not <model>_<language>); 95% intervals") {
		t.Errorf("no language: exit %d\n%s\n%s", code, out, errOut)
	}
	bad := write("bad.csv", "id,choice,loglik,gold\n1,A,oops,A\n")
	if _, errOut, code := runCLI(t, "mc", "--predictions", bad); code != 1 || !strings.Contains(errOut, "bad.csv:2:5: log-likelihood \"oops\"") {
		t.Errorf("bad file: exit %d, %s", code, errOut)
	}
	if _, errOut, code := runCLI(t, "mc", "--k", "0"); code != 2 || !strings.Contains(errOut, "--k") {
		t.Errorf("--k 0: exit %d, %s", code, errOut)
	}
	if _, _, code := runCLI(t, "mc", "extra"); code != 2 {
		t.Errorf("positional argument: exit %d", code)
	}
	if _, _, code := runCLI(t, "mc", "--predictions", filepath.Join(dir, "missing.csv")); code != 1 {
		t.Errorf("missing file: exit %d", code)
	}
	if out, _, code := runCLI(t, "mc", "--help"); code != 0 || !strings.Contains(out, "acc_norm_char") {
		t.Errorf("--help: exit %d", code)
	}
}

// TestMCSuspectInput covers audit defects 4, 11, 12 and 15 for mc: bad
// bytes are refused with file, line, column and field; a positive
// log-likelihood and a gold label past J are warned with file and line;
// a k given twice counts once; a single question is "1 question".
func TestMCSuspectInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badUTF8 := write("bad.csv", "id,choice,loglik,gold\n1,A,-1,A\xff\n1,B,-2,A\n")
	badJSONL := write("bad.jsonl", "{\"id\": \"1\", \"prediction\": \"\xfe\", \"gold\": \"A\"}\n")
	positive := write("pos.csv", "id,choice,loglik,gold\n1,A,5.0,A\n1,B,-2,A\n")
	farGold := write("far.csv", "id,prediction,gold\n1,A,A\n2,B,Q\n")
	one := write("one.csv", "id,prediction,gold\n1,A,A\n")
	tests := []struct {
		name       string
		args       []string
		code       int
		out, inErr string
	}{
		// The gold field starts at column 8 of line 2; the bad byte is its
		// 2nd character, at column 9.
		{"invalid UTF-8 in a CSV", []string{"--predictions", badUTF8}, 1, "", badUTF8 + ":2:9 (column \"gold\"): invalid UTF-8: first bad byte 0xFF at character 2 of the field"},
		// Before the bad byte: { (1) "id" (4) : and a space (2) "1" (3) , and a
		// space (2) "prediction" (12) : and a space (2) and the quote (1), 27
		// characters; the bad byte is the 28th.
		{"invalid UTF-8 in JSONL", []string{"--predictions", badJSONL}, 1, "", badJSONL + ":1:28 (column \"prediction\"): invalid UTF-8: first bad byte 0xFE"},
		{"positive log-likelihood", []string{"--predictions", positive}, 0, "1 option has a positive log-likelihood, but a log-probability is never above 0: check that the column holds log-likelihoods (divided by its length, a positive score favours long options in acc_norm) (" + positive + ":2)", ""},
		{"gold past J", []string{"--predictions", farGold}, 0, "1 gold label names an option past J, the tenth; no common multiple-choice benchmark has more options, so it may be a typo (it is scored as written) (" + farGold + ":3)", ""},
		{"one question", []string{"--predictions", one}, 0, "1 question, predicted letters", ""},
		{"k twice", []string{"--k", "2,3,2"}, 0, "mrr                   recall@2              recall@3\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, append([]string{"mc"}, tc.args...)...)
			if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.inErr) {
				t.Errorf("exit %d, want %d\nstdout %s\nstderr %s\nwant %q / %q", code, tc.code, out, errOut, tc.out, tc.inErr)
			}
		})
	}
}
