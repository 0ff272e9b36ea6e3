package store

import (
	"context"
	"math"
	"testing"

	"github.com/evalbook/evalbook/pkg/sample"
)

// TestSamplesFlowIntoSummaries (issue 26): a stored run read back as
// samples and summarised by pkg/sample gives, group by group, the very
// figures the run recorded (qa.Score's: Wilson for exact_substring, the
// normal interval for word_overlap's graded mean), and every row keeps
// its id and texts.
func TestSamplesFlowIntoSummaries(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	res, rows := sampleByModel(t, "kestrel-7b")
	run, err := FromScore("score", res, rows)
	if err != nil {
		t.Fatal(err)
	}
	run.Model = "kestrel-7b"
	record(t, s, run)
	got, defs, err := s.Samples(ctx, "last")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 142 || got[0].SampleID == "" || !got[0].HasGolden || got[0].Model != "kestrel-7b" {
		t.Fatalf("%d samples, first %+v", len(got), got[0])
	}
	golden, _ := rows.Row(0).Field("answer")
	response, _ := rows.Row(0).Field("response")
	if got[0].Golden != golden || got[0].Response != response {
		t.Fatalf("texts of row 1: %q / %q, want %q / %q", got[0].Golden, got[0].Response, golden, response)
	}
	sum, err := sample.Summarize(got, sample.Options{By: [][]string{{"Domain"}}, Defs: defs})
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, want := range res.Groups {
		for _, g := range sum.Groups {
			if g.Group != want.Group {
				continue
			}
			if g.N != want.N {
				t.Errorf("%s: n %d, recorded %d", g.Group, g.N, want.N)
			}
			for id, wm := range want.Metrics {
				gm := g.Metrics[id]
				if math.Abs(gm.Accuracy-wm.Accuracy) > 1e-12 || math.Abs(gm.CILow-wm.CILow) > 1e-12 || math.Abs(gm.CIHigh-wm.CIHigh) > 1e-12 {
					t.Errorf("%s %s: %+v, recorded %+v", g.Group, id, gm, wm)
				}
				compared++
			}
		}
	}
	if compared < 4 {
		t.Fatalf("only %d figures compared", compared)
	}
}
