package interop

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// The cases of testdata/malformed (make_malformed.py) that --check used
// to call agreement (issue 26 item 4). Each must say what it is.

const mal = "testdata/malformed/"

func checkOf(t *testing.T, path string, opt Options) (*CheckReport, error) {
	t.Helper()
	streamed, err1 := Check(context.Background(), path, opt)
	// the run read whole must give the same verdict or error
	run, err := Read(context.Background(), path, opt)
	if err != nil {
		if err1 == nil || err1.Error() != err.Error() {
			t.Fatalf("%s: read %v, check %v", path, err, err1)
		}
		return nil, err
	}
	whole, err2 := CheckRun(run)
	if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
		t.Fatalf("%s: check %v, check of the run %v", path, err1, err2)
	}
	if err1 == nil && (whole.Status != streamed.Status || whole.Message != streamed.Message) {
		t.Fatalf("%s: %s %q vs %s %q", path, whole.Status, whole.Message, streamed.Status, streamed.Message)
	}
	return streamed, err1
}

// 10 of the 5,000 samples n-samples declares: the mean of the 10 (0.5)
// equals the claim, but the figure is not confirmed: partial.
func TestCheckPartialSamples(t *testing.T) {
	rep, err := checkOf(t, mal+"lmeval_partial", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.Status != StatusPartial || len(rep.Tasks) != 1 {
		t.Fatalf("%+v", rep)
	}
	c := rep.Tasks[0]
	if c.Match || c.Status != StatusPartial || c.N != 10 || c.ExpectedN != 5000 || c.Recomputed != 0.5 || !strings.Contains(c.Note, "partial: 10 of 5,000 samples") {
		t.Fatalf("%+v", c)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil || !strings.Contains(b.String(), "PARTIAL: 10 of 5,000 samples") || strings.Contains(b.String(), "agree") {
		t.Fatalf("%v\n%s", err, b.String())
	}
}

// The fixtures that agree also agree in n: lm-eval's n-samples says 4, 3
// and 2 documents, and the samples files hold them.
func TestCheckExpectedN(t *testing.T) {
	rep := mustCheck(t, read(t, "testdata/lmeval/new", Options{}))
	if rep.Status != StatusMatch {
		t.Fatalf("%s %s", rep.Status, rep.Message)
	}
	if c := findTask(t, rep, "arc_easy_hi", "acc,none"); c.ExpectedN != 4 || c.N != 4 || c.Status != StatusMatch {
		t.Fatalf("%+v", c)
	}
	// one more sample than the results file says: differs, not match
	run := read(t, "testdata/lmeval/new", Options{})
	for i := range run.Reported {
		if run.Reported[i].Task == "arc_easy_hi" {
			run.Reported[i].Expected = 3
		}
	}
	rep = mustCheck(t, run)
	if c := findTask(t, rep, "arc_easy_hi", "acc,none"); c.Status != StatusDiffers || c.Match || !strings.Contains(c.Note, "4 samples, but the harness says the figure covers 3") {
		t.Fatalf("%+v", c)
	}
	if rep.Status != StatusDiffers {
		t.Fatal(rep.Status)
	}
}

// Values where a number belongs: an error naming the file, line, sample
// id and field, never a skip.
func TestCheckMalformedValues(t *testing.T) {
	for _, tc := range []struct {
		path, file string
		line       int
		want       []string
	}{
		// one string among 1, 0, "1", 0: skipping it would leave the
		// claim 0.75 unchecked; the line is 3, doc_id 2
		{mal + "lmeval_string_value", "samples_arc_hi_", 3, []string{`sample "2"`, `acc is the string "1"`, "acc,none of task arc_hi"}},
		// NaN on line 2 (doc_id 1): dropping it would make n 3 and the
		// claim 2/3 "agree"
		{mal + "lmeval_nan", "samples_arc_hi_", 2, []string{`sample "1"`, "acc,none is NaN"}},
		// inspect: sample id 3's includes score is a list
		{mal + "inspect/list_score.json", "list_score.json (record 3)", 0, []string{`sample "3"`, "samples[2].scores.includes.value is a list", "includes of task qa_hi_bn"}},
	} {
		_, err := checkOf(t, tc.path, Options{})
		var pe *tabular.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrBadValue) || pe.Line != tc.line || !strings.Contains(pe.File, tc.file) {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q not in %v", tc.path, w, err)
			}
		}
	}
	// EEE's instance score typed as a string is refused as it is read
	_, err := Read(context.Background(), mal+"eee_string_score", Options{})
	var pe *tabular.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Field != "evaluation.score" || !strings.Contains(err.Error(), `sample mgsm_bn_1: evaluation.score is the string "1"`) {
		t.Fatalf("%v", err)
	}
}

// A metric whose every value is a list is lm-eval's corpus metric
// (bleu): skipped, not an error; a list among numbers is an error.
func TestCheckCorpusMetricStillSkipped(t *testing.T) {
	rep := mustCheck(t, read(t, "testdata/lmeval/new", Options{}))
	found := false
	for _, s := range rep.Skipped {
		if s.Task == "flores_hi_en" && s.Metric == "bleu,none" && s.Status == StatusSkipped {
			found = true
		}
	}
	if !found {
		t.Fatalf("%+v", rep.Skipped)
	}
	run := read(t, "testdata/lmeval/new", Options{})
	run.noteBad(BadValue{Task: "arc_easy_hi", Metric: "acc,none", File: "x.jsonl", Line: 7, SampleID: "9", Field: "acc", What: "a list", List: true})
	if _, err := CheckRun(run); !errors.Is(err, ErrBadValue) || !strings.Contains(err.Error(), "x.jsonl:7") {
		t.Fatalf("%v", err)
	}
}

// A claim typed as a string, and a results file with no samples: not
// agreement.
func TestCheckNothingOrStringClaim(t *testing.T) {
	rep, err := checkOf(t, mal+"lmeval_string_claim", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.Status != StatusUnchecked || len(rep.Skipped) != 1 || rep.Skipped[0].Status != StatusUnchecked ||
		!strings.Contains(rep.Skipped[0].Reason, `results.arc_hi.acc,none`) || !strings.Contains(rep.Skipped[0].Reason, `the string "0.5"`) {
		t.Fatalf("%+v", rep)
	}
	rep, err = checkOf(t, mal+"lmeval_no_samples", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.Status != StatusUnchecked || rep.Records != 0 || !strings.HasPrefix(rep.Message, "nothing could be checked") {
		t.Fatalf("%+v", rep)
	}
	// a figure with samples beside one without: partial
	run := read(t, "testdata/lmeval/new", Options{})
	run.Reported = append(run.Reported, Aggregate{Model: run.Model, Task: "mmlu_hi", Metric: "acc,none", Value: 0.5, Rounding: -1, Expected: 100, ExpectedFrom: "n-samples"})
	rep = mustCheck(t, run)
	if rep.Status != StatusPartial || !strings.Contains(rep.Message, "1 reported figure(s) could not be checked") {
		t.Fatalf("%s %s", rep.Status, rep.Message)
	}
}

// Duplicates are refused naming both places, or dropped with a count;
// never counted twice.
func TestDuplicates(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{mal + "lmeval_dup_doc", `samples_arc_hi_2026-12-01T10-00-00.000000.jsonl:5: duplicated sample: sample "1" of task arc_hi (model evalbook/tiny-hi) is also at ` + mal + `lmeval_dup_doc/evalbook__tiny-hi/samples_arc_hi_2026-12-01T10-00-00.000000.jsonl:2`},
		{mal + "inspect/dup_id.json", `dup_id.json (record 6): duplicated sample: sample "2" of task qa_hi_bn (model openai/gpt-4o-mini) epoch 1 is also at ` + mal + `inspect/dup_id.json (record 2)`},
		{mal + "promptfoo/dup_result.json", `dup_result.json (record 9): duplicated sample: sample "0"`},
		{mal + "openai_batch/batch_output.jsonl", `batch_output.jsonl:5 (column "custom_id"): duplicated sample: custom_id "q4" is also on line 1`},
	} {
		_, err := checkOf(t, tc.path, Options{})
		if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--drop-duplicates") {
			t.Errorf("%s: %v", tc.path, err)
		}
	}
	// dropped: the first of doc_id 1 is kept, so the four documents'
	// mean is (1+1+0+0)/4 = 0.5 = the claim, with n 4 = n-samples
	rep, err := checkOf(t, mal+"lmeval_dup_doc", Options{DropDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	c := findTask(t, rep, "arc_hi", "acc,none")
	if !rep.OK() || c.N != 4 || c.Recomputed != 0.5 || len(rep.Warnings) != 1 || rep.Warnings[0].Code != "duplicates_dropped" || rep.Warnings[0].Count != 1 {
		t.Fatalf("%+v %+v", c, rep.Warnings)
	}
	run := read(t, mal+"openai_batch/batch_output.jsonl", Options{DropDuplicates: true})
	if len(run.Samples) != 4 || run.Dropped != 1 {
		t.Fatalf("%d samples, %d dropped", len(run.Samples), run.Dropped)
	}
	// the two filters of one gsm8k document are two samples, not a duplicate
	if run := read(t, "testdata/lmeval/new", Options{}); run.Dropped != 0 {
		t.Fatal(run.Dropped)
	}
}

// copyEval rewrites an .eval log with extra members appended.
func copyEval(t *testing.T, src, dst string, extra map[string][]byte, names ...string) {
	t.Helper()
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range zr.File {
		rc, err := m.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(rc)
		rc.Close()
		w, _ := zw.Create(m.Name)
		w.Write(data)
		if extra != nil && extra[m.Name] != nil {
			extra[m.Name] = data
		}
	}
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(extra[n])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An .eval log with a member twice, and one with a member named ../x.
func TestInspectZipMembers(t *testing.T) {
	dir := t.TempDir()
	dup := filepath.Join(dir, "dup.eval")
	member := "samples/2_epoch_1.json"
	copyEval(t, "testdata/inspect/qa_hi_bn.eval", dup, map[string][]byte{member: {}}, member)
	_, err := checkOf(t, dup, Options{})
	if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), "dup.eval["+member+"]") || !strings.Contains(err.Error(), "entries 3 and 12") {
		t.Fatalf("%v", err)
	}
	run := read(t, dup, Options{DropDuplicates: true})
	if len(run.Samples) != 5 || run.Dropped != 1 {
		t.Fatalf("%d samples, %d dropped", len(run.Samples), run.Dropped)
	}
	rep := mustCheck(t, run)
	if !rep.OK() {
		t.Fatalf("%s %s", rep.Status, rep.Message)
	}
	out := filepath.Join(dir, "outside.eval")
	copyEval(t, "testdata/inspect/qa_hi_bn.eval", out, map[string][]byte{"../x.json": []byte("{}")}, "../x.json")
	_, err = Read(context.Background(), out, Options{})
	if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), `"../x.json"`) {
		t.Fatalf("%v", err)
	}
}

// Nothing outside the folder (issue 26 item 5): an absolute file_path
// and a ../ one are refused before any file is opened (the ../ target
// exists), and so is a link inside the folder pointing out of it.
func TestEEEPathOutsideFolder(t *testing.T) {
	for _, tc := range []struct{ path, named string }{
		{mal + "eee_absolute", `"/etc/passwd"`},
		{mal + "eee_dotdot", `"../outside/` + eeeUUID + `_samples.jsonl"`},
	} {
		run, err := Read(context.Background(), tc.path, Options{})
		var pe *tabular.ParseError
		if run != nil || !errors.Is(err, ErrOutside) || !errors.As(err, &pe) || pe.Field != "detailed_evaluation_results.file_path" || !strings.Contains(err.Error(), tc.named) {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if strings.Contains(err.Error(), "root:") || strings.Contains(err.Error(), "invalid UTF-8") { // nothing of /etc/passwd
			t.Fatalf("%v", err)
		}
	}
	// findInstanceFile opens nothing: the refusal comes before any Lstat
	// of the named path (an absolute path is refused as a string)
	if _, err := findInstanceFile("/nonexistent/agg.json", "/etc/passwd", ""); !errors.Is(err, ErrOutside) {
		t.Fatalf("%v", err)
	}
	// a symbolic link beside the aggregate, named by its base name, to a
	// file outside the folder
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	agg, _ := os.ReadFile("testdata/eee/v030/data/mgsm_bn/evalbook/tiny-bn/" + eeeUUID + ".json")
	os.WriteFile(filepath.Join(in, eeeUUID+".json"), agg, 0o644)
	inst, _ := os.ReadFile("testdata/eee/v030/data/mgsm_bn/evalbook/tiny-bn/" + eeeUUID + "_samples.jsonl")
	os.WriteFile(filepath.Join(dir, "elsewhere.jsonl"), inst, 0o644)
	if err := os.Symlink(filepath.Join(dir, "elsewhere.jsonl"), filepath.Join(in, eeeUUID+"_samples.jsonl")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	_, err := Read(context.Background(), in, Options{})
	if !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), "elsewhere.jsonl outside the imported folder") {
		t.Fatalf("%v", err)
	}
	// with the folder above as the root, the same link is inside it
	if _, err := Read(context.Background(), in, Options{Root: dir}); err != nil {
		t.Fatal(err)
	}
}
