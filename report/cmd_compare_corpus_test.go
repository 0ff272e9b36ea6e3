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
