package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/evalbook/evalbook/pkg/leaderboard"
)

// With no --dir, leaderboard scores the embedded sample in place
// (leaderboard.DiscoverFS): its board is the board of the same files on
// disk, named as they are in the repository, as the temporary copy it
// used to score had them.
func TestLeaderboardEmbeddedSampleIsTheFilesOnDisk(t *testing.T) {
	inputs, err := leaderboard.Discover("../datasets/leaderboard")
	if err != nil {
		t.Fatal(err)
	}
	for i := range inputs {
		inputs[i].Name = "datasets/leaderboard/" + filepath.Base(inputs[i].Path)
	}
	b, err := leaderboard.Build(context.Background(), inputs, leaderboard.Options{Metric: "word_overlap", Confidence: 0.95, Alpha: 0.05,
		Resamples: 200, Seed: 1, Advice: leaderboardAdvice})
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "leaderboard", "--metric", "word_overlap", "--resamples", "200", "--seed", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := "evalbook leaderboard: no --dir given; using the built-in sample datasets/leaderboard\n"; errOut != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	if want := jsonOf(t, b); out != want {
		t.Errorf("leaderboard --json over the embedded sample differs from the board of the files on disk\n got: %.300s\nwant: %.300s", out, want)
	}
}
