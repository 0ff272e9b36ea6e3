package compare

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
)

func writeTemp(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Corpus pairs rows by key (in any order), scores the corpus metric of
// each system as score.CorpusBLEU does on the same pairs, and passes the
// row statistics to the stats tests.
func TestCorpusPairsAndScores(t *testing.T) {
	old := writeTemp(t, "old.csv", "id,answer,response\n"+
		"a,The dog bit the man.,The dog bit the man.\n"+
		"b,It was not unexpected.,It wasn't surprising.\n"+
		"c,The man bit him first.,The man had just bitten him.\n")
	nw := writeTemp(t, "new.csv", "id,answer,response\n"+
		"c,The man bit him first.,The man bit him first.\n"+
		"a,The dog bit the man.,A dog bit the man.\n"+
		"b,It was not unexpected.,It was not unexpected.\n")
	res, err := Corpus(old, nw, CorpusOptions{Metric: "bleu", Seed: stats.DefaultCorpusSeed, Tests: "bs", Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	refs := [][]string{{"The dog bit the man.", "It was not unexpected.", "The man bit him first."}}
	wantOld := score.CorpusBLEU([]string{"The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."}, refs, score.BLEUOptions{EffectiveOrder: true}).Score
	wantNew := score.CorpusBLEU([]string{"A dog bit the man.", "It was not unexpected.", "The man bit him first."}, refs, score.BLEUOptions{EffectiveOrder: true}).Score
	if math.Abs(res.OldScore-wantOld) > 1e-12 || math.Abs(res.NewScore-wantNew) > 1e-12 || res.N != 3 || len(res.Tests) != 1 || res.Tests[0].Method != "paired-bs" {
		t.Errorf("result %+v; want old %v new %v", res, wantOld, wantNew)
	}
	// Identical systems: the warning.
	same, err := Corpus(old, old, CorpusOptions{Metric: "chrf", Seed: 1, Trials: 100, Resamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(same.Warnings) != 1 || same.Warnings[0].Code != stats.CodeIdenticalSystems || same.Tests[1].P != 1.0/101 {
		t.Errorf("identical: %+v", same)
	}
}

func TestCorpusErrors(t *testing.T) {
	old := writeTemp(t, "old.csv", "id,answer,response\na,x y,x y\nb,u v,u\n")
	for _, c := range []struct {
		newBody string
		opt     CorpusOptions
		want    string
		is      error
	}{
		{"id,answer,response\na,x y,x\nc,u v,u\n", CorpusOptions{Metric: "bleu"}, `key "b" is not in`, nil},
		{"id,answer,response\na,x y,x\nb,u w,u\n", CorpusOptions{Metric: "bleu"}, "different references", nil},
		{"id,answer,response\na,x y,x\na,u v,u\n", CorpusOptions{Metric: "bleu"}, "new.csv:3", ErrDuplicateKey},
		{"id,answer,reply\na,x y,x\n", CorpusOptions{Metric: "bleu"}, "new.csv:1", ErrNoColumn},
		{"id,answer,response\na,x y,x\nb,u v,u\n", CorpusOptions{Metric: "exact_match"}, "not a corpus-level metric", nil},
		{"id,answer,response\na,x y,x\nb,u v,u\n", CorpusOptions{Metric: "chrf", Tests: "xx"}, "want bs, ar or both", nil},
	} {
		nw := writeTemp(t, "new.csv", c.newBody)
		_, err := Corpus(old, nw, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%q %+v: %v, want %q", c.newBody, c.opt, err, c.want)
		}
	}
	// Several references split on a separator.
	a := writeTemp(t, "a.csv", "id,refs,response\n1,New Delhi | Delhi,Delhi\n2,Mumbai | Bombay,Bombay\n")
	res, err := Corpus(a, a, CorpusOptions{Metric: "chrf", References: "refs", RefSeparator: "|", Seed: 1, Tests: "ar", Trials: 10})
	if err != nil || res.OldScore != 1 || res.References != "refs" {
		t.Errorf("separator references: %+v, %v (each response equals one reference: chrF 1)", res, err)
	}
}
