package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// copyTree copies the repository folder src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Issue 27: no output carries the input's absolute path. The commands
// that neither TestReportsHaveNoPaths (score's page, workbook, charts,
// text and JSON; report --from), TestReportDesignEveryCommand (compare,
// ratings, agree, import, leaderboard, task run) nor
// TestReportDesignMoreCommands cover, each given every input by its
// absolute path in a folder named private-folder: every file they write
// (page, workbook parts, verdict and details files, partition folders,
// judged and generated tables) is searched for that name. What a command
// prints on the terminal may name the path as typed; the files are what
// is forwarded.
func TestOutputsNameNoInputFolder(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	tmp := t.TempDir()
	p := filepath.Join(tmp, "private-folder")
	for _, d := range []string{p, filepath.Join(p, "sources")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cp := func(src string) string { return copyPrivate(t, p, src) }
	cases, planWeak, planV1 := cp("../datasets/helpdesk/cases.jsonl"), cp("../datasets/helpdesk/plan_weak.json"), cp("../datasets/helpdesk/plan_v1.json")
	fewShot := copyPrivate(t, filepath.Join(p, "sources"), "../datasets/helpdesk/sources/few_shot.txt")
	earlier := copyPrivate(t, filepath.Join(p, "sources"), "../datasets/helpdesk/sources/earlier_set.jsonl")
	lb, lmeval, tasksDir := filepath.Join(p, "leaderboard"), filepath.Join(p, "lmeval"), filepath.Join(p, "tasks")
	copyTree(t, "../datasets/leaderboard", lb)
	copyTree(t, "../pkg/interop/testdata/lmeval/new", lmeval)
	copyTree(t, "../datasets/tasks", tasksDir)
	store := filepath.Join(p, "runs.db")
	scoreAndRecord(t, store, "v1.csv", storeTestTable(40, func(i int) bool { return i < 30 }))
	scoreAndRecord(t, store, "v2.csv", storeTestTable(40, func(i int) bool { return i < 35 }))
	responses := filepath.Join(p, "responses.csv")
	if err := os.WriteFile(responses, datasets.Responses, 0o644); err != nil {
		t.Fatal(err)
	}
	judged := writeJudged(t, p)
	questions := filepath.Join(p, "qs.csv")
	if err := os.WriteFile(questions, []byte("id,question\nq1,What is ROW-001?\nq2,What is ROW-002?\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gen := faultJudge(t) // answers any chat request
	ts := tasktest.New(t, tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।"))

	out := filepath.Join(tmp, "out")
	o := func(name string) string { return filepath.Join(out, name) }
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"runs list", []string{"runs", "list", "--store", store}, 0},
		{"runs diff", []string{"runs", "diff", "--store", store, "1", "2"}, 0},
		{"runs show", []string{"runs", "show", "--store", store, "1"}, 0},
		{"cases hash", []string{"cases", "hash", cases}, 0},
		{"cases split", []string{"cases", "split", cases}, 0},
		{"cases leakage", []string{"cases", "leakage", "--source", "few_shot=" + fewShot, "--source", "earlier=" + earlier, cases}, 0},
		{"plan check", []string{"plan", "check", planWeak}, 0},
		{"run", []string{"run", "--plan", planV1, "--cases", cases, "--out", o("run/new.csv")}, 0},
		{"plan gate", []string{"plan", "gate", "--plan", planV1, "--run", o("run/new.csv")}, 3}, // the plan's gate fails on this run
		{"score", []string{"score", "--responses", responses, "--out", o("score/v.csv"), "--out-dir", o("score/parts"), "--partition-by", "language"}, 0},
		{"leaderboard", []string{"leaderboard", "--dir", lb}, 0},
		{"import", []string{"import", lmeval, "--out", o("import/samples.csv")}, 0},
		{"label export", []string{"label", "export", "--judged", judged, "--out", o("label/labels.xlsx"), "--n", "12", "--seed", "5"}, 0},
		{"generate", []string{"generate", "--dataset", questions, "--endpoint", gen.BaseURL(), "--model", "m", "--language", "english", "--out", o("generate/out.csv")}, 0},
		{"judge", []string{"judge", "--endpoint", gen.BaseURL(), "--model", "m", "--responses", responses, "--limit", "6", "--out", o("judge/judged.csv")}, 0},
		{"task run", []string{"task", "run", "--task-dir", tasksDir, "--tasks", "indiceval|Translate:bengali|1|0", "--endpoint", ts.BaseURL(), "--model", "bigram",
			"--details", o("task/details.jsonl")}, 0},
		{"task merge", []string{"task", "merge", o("task/details.jsonl")}, 0},
		{"repeats", []string{"repeats", "--details", o("task/details.jsonl")}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := o(strings.Fields(tc.name)[0])
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			args := append([]string{}, tc.args...)
			if tc.name != "generate" { // generate writes no report
				name := strings.ReplaceAll(tc.name, " ", "-")
				args = append(args, "--html", filepath.Join(dir, name+".html"), "--xlsx", filepath.Join(dir, name+".xlsx"))
			}
			_, errb, code := runCLI(t, args...)
			if code != tc.code {
				t.Fatalf("exit %d (want %d): %s", code, tc.code, errb)
			}
			texts := reportTexts(t, dir)
			// reportTexts reads pages, charts, JSON, text and workbooks;
			// add the data files a command writes.
			filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
				if err == nil && !fi.IsDir() && (strings.HasSuffix(path, ".csv") || strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".parquet")) {
					b, _ := os.ReadFile(path)
					texts[path] = string(b)
				}
				if err == nil && strings.Contains(path, "private-folder") {
					t.Errorf("a file or folder named %s", path)
				}
				return nil
			})
			if len(texts) == 0 {
				t.Fatal("no output was searched")
			}
			for name, text := range texts {
				if i := strings.Index(text, "private-folder"); i >= 0 {
					t.Errorf("%s names the input's folder: ...%s...", name, text[max(0, i-80):min(len(text), i+40)])
				}
			}
		})
	}
}
