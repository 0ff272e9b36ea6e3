package main

import (
	"os"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/compare"
	"github.com/evalbook/evalbook/pkg/stats"
)

// compare --corpus (issue 28 item 8): the text is golden, and --json is
// the JSON of compare.Corpus's result with sacreBLEU's defaults (1000
// resamples, 10000 trials, seed 12345).
func TestCompareCorpus(t *testing.T) {
	out, errOut, code := runCLI(t, "compare", "--corpus", "bleu", "--old", "testdata/corpus_old.csv", "--new", "testdata/corpus_new.csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "compare_corpus_bleu.stdout", out)
	res, err := compare.Corpus("testdata/corpus_old.csv", "testdata/corpus_new.csv", compare.CorpusOptions{Metric: "chrf", References: "refs",
		Seed: stats.DefaultCorpusSeed})
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCLI(t, "compare", "--corpus", "chrf", "--references", "refs", "--old", "testdata/corpus_old.csv", "--new", "testdata/corpus_new.csv", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := jsonOf(t, res); out != want {
		t.Errorf("compare --corpus --json differs from the library's result\n got: %.300s\nwant: %.300s", out, want)
	}
	if len(res.Tests) != 2 || res.Tests[0].Samples != 1000 || res.Tests[1].Samples != 10000 || res.N != 16 {
		t.Errorf("tests %+v", res.Tests)
	}
	// Usage errors: a metric that is not corpus-level, a flag of the 0/1 comparison.
	for _, args := range [][]string{
		{"compare", "--corpus", "exact_match", "--old", "testdata/corpus_old.csv", "--new", "testdata/corpus_new.csv"},
		{"compare", "--corpus", "bleu", "--by", "x", "--old", "testdata/corpus_old.csv", "--new", "testdata/corpus_new.csv"},
		{"compare", "--references", "refs", "--old", "testdata/corpus_old.csv", "--new", "testdata/corpus_new.csv"},
	} {
		if _, errOut, code := runCLI(t, args...); code != 2 || !strings.Contains(errOut, "corpus") {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
	// A references cell that is not a JSON array names file, line and column.
	bad := t.TempDir() + "/bad.csv"
	if err := os.WriteFile(bad, []byte("id,answer,refs,response\ns01,a,\"[\"\"x\"\", 3]\",a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "compare", "--corpus", "chrf", "--references", "refs", "--old", bad, "--new", bad); code != 1 || !strings.Contains(errOut, "bad.csv:2") || !strings.Contains(errOut, `"refs"`) {
		t.Errorf("bad references: exit %d, %s", code, errOut)
	}
}

// score --references (issue 28 item 8): sacreBLEU's README example with
// two references per item gives corpus BLEU 48.530827.
func TestScoreReferences(t *testing.T) {
	in := t.TempDir() + "/mt.csv"
	body := "question,answer,Domain,response,refs\n" +
		`q,The dog bit the man.,D,The dog bit the man.,"[""The dog bit the man."", ""The dog had bit the man.""]"` + "\n" +
		`q,It was not unexpected.,D,It wasn't surprising.,"[""It was not unexpected."", ""No one was surprised.""]"` + "\n" +
		`q,The man bit him first.,D,The man had just bitten him.,"[""The man bit him first."", ""The man had bitten the dog.""]"` + "\n"
	if err := os.WriteFile(in, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "score", "--responses", in, "--metrics", "bleu", "--references", "refs", "--json")
	if code != 0 || !strings.Contains(out, `"accuracy": 0.48530827`) {
		t.Errorf("exit %d, %s\n%.600s", code, errOut, out)
	}
	if _, errOut, code := runCLI(t, "score", "--responses", in, "--ref-sep", "|"); code != 2 || !strings.Contains(errOut, "--references") {
		t.Errorf("--ref-sep alone: exit %d, %s", code, errOut)
	}
}
