package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/replay"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// TestReportReplaysEveryKind saves each command's --json, renders it with
// report --from, and checks that the text is the command's own text and
// that report --from --json gives the saved document back byte for byte:
// one case per kind report --from takes (score and judge have their own
// tests: TestReportReplaysScore, TestReportText, the judge tests).
func TestReportReplaysEveryKind(t *testing.T) {
	dir := t.TempDir()
	const cases = "../datasets/helpdesk/cases.jsonl"
	runFile := filepath.Join(dir, "run.csv")
	if _, errOut, code := runCLI(t, "run", "--out", runFile); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	db := filepath.Join(dir, "runs.db")
	scoreAndRecord(t, db, "a.csv", storeTestTable(100, func(i int) bool { return i%2 == 0 }))
	scoreAndRecord(t, db, "b.csv", storeTestTable(100, func(i int) bool { return (i%2 == 0) != (i < 10) }))
	tm := tasktest.New(t, tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।"))
	gen := newGenStub(t)
	questions := filepath.Join(dir, "q.csv")
	if err := os.WriteFile(questions, []byte("id,question\n1,Which desert lies in Rajasthan?\n2,Which river flows through Varanasi?\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	judged := writeJudged(t, dir)
	labels := filepath.Join(dir, "labels.xlsx")
	if _, errOut, code := runCLI(t, "label", "export", "--judged", judged, "--out", labels, "--n", "12"); code != 0 {
		t.Fatalf("label export: exit %d: %s", code, errOut)
	}
	asha := fillBook(t, labels, "asha.xlsx", "Asha", labelCells("p p p p p p f f f p f f"))
	ben := fillBook(t, labels, "ben.xlsx", "Ben", labelCells("p p p p p f f p f p p f"))

	covered := map[string]bool{}
	for _, tc := range []struct {
		kind string
		args []string
		exit int // the command's exit status (3: a gate or a check that failed)
	}{
		{"agree", []string{"agree", "--labels", "../datasets/agreement/pairs.csv", "--raters", "ann1,ann2", "--id", "id"}, 0},
		{"compare", []string{"compare", "--old", compareOld, "--new", compareNew, "--by", "task"}, 0},
		{"power", []string{"power", "--baseline", "0.7", "--target", "0.75", "--paired", "--discordant", "0.2"}, 0},
		{"mc", []string{"mc", "--k", "2,3", "--resamples", "300"}, 0},
		{"ratings", []string{"ratings", "--pairs", "testdata/ratings_pairs.csv", "--resamples", "200"}, 0},
		{"jury", []string{"jury", "--labels", "../pkg/jury/testdata/dawid_skene_table1.csv", "--method", "dawid-skene"}, 0},
		{"repeats", []string{"repeats", "--samples", "../pkg/repeats/testdata/hand.csv"}, 0},
		{"irt", []string{"irt", "--responses", "../pkg/irt/testdata/lsat.csv", "--points", "11"}, 0},
		{"correct", []string{"correct", "--labelled", "testdata/correct_labelled.csv", "--unlabelled", "testdata/correct_judged.csv"}, 0},
		{"label_export", []string{"label", "export", "--judged", judged, "--out", filepath.Join(dir, "l2.xlsx"), "--n", "9"}, 0},
		{"label_import", []string{"label", "import", asha, ben, "--resamples", "300"}, 0},
		{"calibration", []string{"calibrate", "--judge", "fake:mixed", "--prompt", "pairwise@1"}, 0},
		{"probes", []string{"probes", "--judge", "fake:all"}, 0},
		{"leaderboard", []string{"leaderboard", "--dir", "../datasets/leaderboard", "--resamples", "200"}, 0},
		{"leaderboard", []string{"leaderboard", "--dir", "../datasets/leaderboard", "--metric", "exact_substring,chrf"}, 0},
		{"gate", []string{"gate", "--store", db, "--baseline", "1", "--candidate", "2", "--metric", "exact_substring", "--margin", "0.02"}, 0},
		{"aa", []string{"aa", "--store", db, "1", "2"}, 0},
		{"history", []string{"history", "--store", db, "--metric", "exact_substring", "--by", "Domain"}, 0},
		{"runs_diff", []string{"runs", "diff", "--store", db, "1", "2"}, 0},
		{"task_run", []string{"task", "run", "--tasks", taskSpecs, "--endpoint", tm.BaseURL(), "--model", "bigram", "--cache", "none", "--details", filepath.Join(dir, "d.jsonl")}, 0},
		{"import", []string{"import", interopData + "lmeval/new"}, 0},
		{"import_check", []string{"import", interopData + "lmeval/new", "--check"}, 0},
		{"import_check", []string{"import", interopData + "lmeval/mismatch", "--check"}, 3},
		{"generate", []string{"generate", "--dataset", questions, "--endpoint", gen.URL + "/v1", "--model", "kestrel-7b", "--out", filepath.Join(dir, "g.csv"), "--cache", "none", "--language", "english"}, 0},
		{"run", []string{"run", "--chunking", "sentence", "--min-score", "0.4"}, 0},
		{"plan_check", []string{"plan", "check", "../datasets/helpdesk/plan_weak.json"}, 0},
		{"plan_gate", []string{"plan", "gate", "--plan", "../datasets/helpdesk/plan_weak.json", "--run", runFile}, 3},
		{"cases_coverage", []string{"cases", "coverage", "--rows", "lang", "--cols", "expect", cases}, 0},
		{"cases_hash", []string{"cases", "hash", cases}, 0},
		{"cases_split", []string{"cases", "split", "--holdout", "0.5", cases}, 0},
		{"cases_leakage", []string{"cases", "leakage", "--source", "few_shot=../datasets/helpdesk/sources/few_shot.txt", cases}, 0},
	} {
		t.Run(strings.Join(tc.args[:2], " "), func(t *testing.T) {
			text, errOut, code := runCLI(t, tc.args...)
			if code != tc.exit {
				t.Fatalf("%s: exit %d, want %d: %s", tc.args[0], code, tc.exit, errOut)
			}
			js, errOut, code := runCLI(t, append(slices.Clone(tc.args), "--json")...)
			if code != tc.exit {
				t.Fatalf("%s --json: exit %d, want %d: %s", tc.args[0], code, tc.exit, errOut)
			}
			if k, err := replay.Kind("saved", []byte(js)); err != nil || k != tc.kind {
				t.Fatalf("kind %q (%v), want %q", k, err, tc.kind)
			}
			covered[tc.kind] = true
			saved := filepath.Join(t.TempDir(), "result.json")
			if err := os.WriteFile(saved, []byte(js), 0o644); err != nil {
				t.Fatal(err)
			}
			got, errOut, code := runCLI(t, "report", "--from", saved)
			if code != 0 {
				t.Fatalf("report --from: exit %d: %s", code, errOut)
			}
			if got != text {
				t.Errorf("report --from prints\n%s\nthe command printed\n%s", got, text)
			}
			again, errOut, code := runCLI(t, "report", "--from", saved, "--json")
			if code != 0 || again != js {
				t.Errorf("report --from --json (exit %d, %s) is not the saved document:\n%.600s\nwant\n%.600s", code, errOut, again, js)
			}
		})
	}
	for _, k := range replay.Kinds() {
		if !covered[k] && replay.Decodable(k) {
			t.Errorf("kind %q has no replay case", k)
		}
	}
}

// TestReportHelpListsKinds: the kinds report --help lists are the ones
// it takes.
func TestReportHelpListsKinds(t *testing.T) {
	b, err := helpFiles.ReadFile("help/report.txt")
	if err != nil {
		t.Fatal(err)
	}
	help := strings.Join(strings.Fields(string(b)), " ")
	if want := "The kinds: " + strings.Join(replay.Kinds(), ", ") + "."; !strings.Contains(help, want) {
		t.Errorf("report's help does not say %q", want)
	}
}
