package frame

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/compare"
	"github.com/evalbook/evalbook/pkg/qa"
)

// TestScore: scoring the sample's DataFrame gives the figures and the
// verdict rows that scoring the file gives.
func TestScore(t *testing.T) {
	want, _, rows := sample(t)
	df, err := ReadResponses(bytes.NewReader(datasets.Responses))
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	got, res, err := Score(context.Background(), df, qa.Options{
		By:   [][]string{{"Domain"}, {"model", "language"}},
		Rows: func(*qa.Row) error { seen++; return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Combined, want.Combined) || !reflect.DeepEqual(res.Groups, want.Groups) || !reflect.DeepEqual(res.Agreement, want.Agreement) {
		t.Errorf("figures differ from scoring the file:\n%+v\nwant\n%+v", res.Combined, want.Combined)
	}
	if res.Dataset.Path != "dataframe" || res.Dataset.Rows != want.Dataset.Rows {
		t.Errorf("dataset %+v", res.Dataset)
	}
	if seen != 284 {
		t.Errorf("opt.Rows saw %d rows, want 284", seen)
	}
	fromFile, err := FromRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Names(), fromFile.Names()) || !reflect.DeepEqual(got.Records(), fromFile.Records()) {
		t.Errorf("verdict DataFrame differs from the file's rows: columns %v", got.Names())
	}
	if _, _, err := Score(context.Background(), df.Select([]string{"id"}), qa.Options{}); err == nil {
		t.Error("a table without the golden and response columns scored")
	}
}

// TestModels pairs the sample's two models by id in the verdict
// DataFrame and checks it against compare.Versions on pairs made here,
// by a map from id to each model's verdict.
func TestModels(t *testing.T) {
	_, _, rows := sample(t)
	df, err := FromRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Models(df, "model", compare.Options{Metric: "exact_substring", By: "language", OldName: "kestrel-7b", NewName: "tern-13b", Seed: 1, Resamples: 1000})
	if err != nil {
		t.Fatal(err)
	}
	ids, models, langs := df.Col("id").Records(), df.Col("model").Records(), df.Col("language").Records()
	pass := df.Col("exact_substring").Float()
	by := map[string]map[string]float64{"kestrel-7b": {}, "tern-13b": {}}
	lang := map[string]string{}
	var keys []string
	for i, id := range ids {
		by[models[i]][id] = pass[i]
		if models[i] == "kestrel-7b" {
			keys = append(keys, id)
			lang[id] = langs[i]
		}
	}
	var old, new []float64
	var groups []string
	for _, k := range keys {
		old, new, groups = append(old, by["kestrel-7b"][k]), append(new, by["tern-13b"][k]), append(groups, lang[k])
	}
	v, err := compare.Versions(keys, old, new, groups, compare.Options{By: "language", Seed: 1, Resamples: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if r.All.N != 142 || r.All.N != v.N || r.All.APass != v.OldPass || r.All.BPass != v.NewPass || r.All.Diff != v.Diff || r.All.PSign != v.PSign {
		t.Errorf("all: %+v\nwant n %d, %d and %d passes, diff %v, p %v", r.All, v.N, v.OldPass, v.NewPass, v.Diff, v.PSign)
	}
	if len(r.Groups) != len(v.Groups) {
		t.Fatalf("%d groups, want %d", len(r.Groups), len(v.Groups))
	}
	for i, g := range r.Groups {
		w := v.Groups[i]
		if g.Group != w.Group || g.N != w.N || g.APass != w.OldPass || g.BPass != w.NewPass || g.Better != w.Better || g.Worse != w.Worse {
			t.Errorf("group %+v, want %+v", g, w)
		}
	}
	// A metric column that is not 0/1, and a missing column.
	if _, err := Models(df, "model", compare.Options{Metric: "matching_words"}); err == nil || !strings.Contains(err.Error(), "is not 0 or 1") {
		t.Errorf("counts as outcomes: %v", err)
	}
	if _, err := Models(df, "modell", compare.Options{Metric: "exact_substring"}); err == nil || !strings.Contains(err.Error(), `no column "modell"`) {
		t.Errorf("missing column: %v", err)
	}
}
