package qa

import (
	"context"
	"strings"
	"testing"
)

func TestLanguageAxis(t *testing.T) {
	noLang := "question,answer,Domain,response\n" +
		"q,Delhi,D,Delhi\n" +
		"q,नई दिल्ली,D,नई दिल्ली\n" +
		"q,কলকাতা,D,ঢাকা\n" +
		"q,சென்னை,D,சென்னை\n" +
		"q,1947,D,1947\n"
	by := Options{By: [][]string{{"language"}}}
	// No language column, no language in the file name: the script of the golden answer.
	res, err := Score(context.Background(), strings.NewReader(noLang), "run.csv", by)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, g := range res.Groups {
		got[g.Group] = g.N
	}
	want := map[string]int{"english": 1, "hindi": 1, "bengali": 1, "tamil": 1, "unknown": 1}
	if len(got) != len(want) {
		t.Fatalf("groups %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("group %s: n = %d, want %d (all: %v)", k, got[k], n, got)
		}
	}
	if !strings.HasPrefix(res.Settings.LanguageSource, "script") {
		t.Errorf("language source %q", res.Settings.LanguageSource)
	}
	// The file name names the language: every row takes it.
	res, err = Score(context.Background(), strings.NewReader(noLang), "kestrel_hindi.csv", by)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Groups) != 1 || res.Groups[0].Group != "hindi" || res.Settings.LanguageSource != "file name" {
		t.Errorf("file-name language: groups %+v, source %q", res.Groups, res.Settings.LanguageSource)
	}
	// A language column wins over both.
	withLang := "question,answer,Domain,response,language\nq,Delhi,D,Delhi,xx\n"
	res, err = Score(context.Background(), strings.NewReader(withLang), "kestrel_hindi.csv", by)
	if err != nil {
		t.Fatal(err)
	}
	if res.Groups[0].Group != "xx" || res.Settings.LanguageSource != "column" {
		t.Errorf("column language: %+v, %q", res.Groups, res.Settings.LanguageSource)
	}
	// A missing column other than language is still an error.
	if _, err := Score(context.Background(), strings.NewReader(noLang), "run.csv", Options{By: [][]string{{"model"}}}); err == nil {
		t.Error("grouping by a missing model column was accepted")
	}
}
