package qa

import (
	"reflect"
	"testing"

	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

func TestPairTable(t *testing.T) {
	es, _ := score.Lookup("exact_substring")
	wo, _ := score.Lookup("word_overlap")
	tab := PairTable("seed", []Pair{
		{"amalak", "Amalaka", "inflection"},
		{"Narmada valley", "the Narmada river valley", "inserted word"},
		{"नई दिल्ली", "नई दिल्ली।", "danda"},
	}, []*score.Metric{es, wo}, textnorm.None)
	want := [][]string{
		{`"amalak"`, `"Amalaka"`, "1", "0", "0/1", "inflection"},
		{`"Narmada valley"`, `"the Narmada river valley"`, "0", "1", "2/2", "inserted word"},
		{`"नई दिल्ली"`, `"नई दिल्ली।"`, "1", "0", "1/2", "danda"},
	}
	if !reflect.DeepEqual(tab.Rows, want) {
		t.Errorf("rows = %q\nwant %q", tab.Rows, want)
	}
	if n := len(tab.Columns); n != 6 {
		t.Errorf("%d columns, want 6", n)
	}
	// Under the indic profile the danda no longer splits the words.
	tab = PairTable("", []Pair{{"नई दिल्ली", "नई दिल्ली।", ""}}, []*score.Metric{wo}, textnorm.Indic)
	if tab.Rows[0][2] != "1" {
		t.Errorf("indic word_overlap = %s, want 1", tab.Rows[0][2])
	}
}
