package leaderboard

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/evalbook/evalbook/pkg/interop"
)

// DiscoverDir holds no samples: each run is read a sample at a time
// (Run.Count samples, Run.Samples empty) and Build reads it again; the
// boards (or refusals) are those of the same runs read whole
// (interop.ReadDir and RunInputs), for the default metric, named ones
// and a re-score.
func TestDiscoverDirStreams(t *testing.T) {
	ctx := context.Background()
	lm := t.TempDir()
	for _, run := range []string{"new", "runB"} {
		if err := os.CopyFS(filepath.Join(lm, run), os.DirFS(interopData+"lmeval/"+run)); err != nil {
			t.Fatal(err)
		}
	}
	insp := t.TempDir() // logs of distinct runs (qa_hi_bn.json is qa_hi_bn.eval again)
	for _, f := range []string{"early.eval", "partial.eval", "qa_hi_bn.eval", "v1.json"} {
		b, err := os.ReadFile(interopData + "inspect/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(insp, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		dir     string
		metrics []Options
	}{
		{lm, []Options{{}, {Metric: "exact_match,strict-match"}, {Metric: "exact_substring", Rescore: true}}},
		{insp, []Options{{}, {Metric: "model_graded_qa"}, {Metric: "includes"}, {Metric: "exact_substring", Rescore: true}}},
	}
	for _, tc := range cases {
		streamed, skipped, err := DiscoverDir(ctx, tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		runs, wantSkipped, err := interop.ReadDir(ctx, tc.dir, interop.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(skipped) != len(wantSkipped) || len(streamed) != len(runs) {
			t.Fatalf("%s: %d inputs, skipped %v; read whole: %d, skipped %v", tc.dir, len(streamed), skipped, len(runs), wantSkipped)
		}
		for i, in := range streamed {
			if in.Run == nil || len(in.Run.Samples) != 0 || in.Run.Count != len(runs[i].Samples) || in.Run.Count == 0 {
				t.Errorf("%s: input %d holds %d samples of %d (read whole: %d)", tc.dir, i, len(in.Run.Samples), in.Run.Count, len(runs[i].Samples))
			}
		}
		whole := RunInputs(runs)
		built := 0
		for _, opt := range tc.metrics {
			got, gerr := Build(ctx, streamed, opt)
			want, werr := Build(ctx, whole, opt)
			if gerr != nil || werr != nil { // the same refusal
				if gerr == nil || werr == nil || gerr.Error() != werr.Error() {
					t.Errorf("%s %q: streamed %v, whole %v", tc.dir, opt.Metric, gerr, werr)
				}
				continue
			}
			built++
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if string(g) != string(w) {
				t.Errorf("%s %q: streamed\n%s\nwhole\n%s", tc.dir, opt.Metric, g, w)
			}
		}
		if built < 2 {
			t.Errorf("%s: %d boards built, want at least 2", tc.dir, built)
		}
	}
}

// A value out of [0, 1] stops a streamed board with the error of the
// same run read whole, naming the file and line.
func TestDiscoverDirStreamsErrors(t *testing.T) {
	ctx := context.Background()
	lm := t.TempDir()
	if err := os.CopyFS(filepath.Join(lm, "new"), os.DirFS(interopData+"lmeval/new")); err != nil {
		t.Fatal(err)
	}
	streamed, _, err := DiscoverDir(ctx, lm)
	if err != nil {
		t.Fatal(err)
	}
	runs, _, err := interop.ReadDir(ctx, lm, interop.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, metric := range []string{"bleu,none", "nope"} {
		_, gerr := Build(ctx, streamed, Options{Metric: metric})
		_, werr := Build(ctx, RunInputs(runs), Options{Metric: metric})
		if gerr == nil || werr == nil || gerr.Error() != werr.Error() {
			t.Errorf("%s: streamed %v, whole %v", metric, gerr, werr)
		}
	}
}
