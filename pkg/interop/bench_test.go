package interop

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// writeLMEvalRun writes an lm-eval output folder with one task of n
// samples shaped as lm-eval writes them for a multiple-choice task (doc,
// four requests, resps, filtered_resps, hashes, acc and acc_norm), and
// its results file with the exact means.
func writeLMEvalRun(tb testing.TB, dir string, n int) {
	tb.Helper()
	d := filepath.Join(dir, "bench__model")
	if err := os.MkdirAll(d, 0o755); err != nil {
		tb.Fatal(err)
	}
	const date = "2026-12-01T10-00-00.000000"
	f, err := os.Create(filepath.Join(d, "samples_mmlu_hi_"+date+".jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var acc, accn int
	for i := range n {
		a, an := (i*7)%10 < 6, (i*3)%10 < 5
		if a {
			acc++
		}
		if an {
			accn++
		}
		fmt.Fprintf(w, `{"doc_id": %d, "doc": {"question": "प्रश्न संख्या %d: भारत की राजधानी क्या है?", "choices": ["दिल्ली", "मुंबई", "कोलकाता", "चेन्नई"], "answer": 0}, "target": "0", "arguments": {"gen_args_0": {"arg_0": "प्रश्न: भारत की राजधानी क्या है?\nउत्तर:", "arg_1": " दिल्ली"}, "gen_args_1": {"arg_0": "प्रश्न: भारत की राजधानी क्या है?\nउत्तर:", "arg_1": " मुंबई"}}, "resps": [[["-0.51", "True"]], [["-2.3", "False"]]], "filtered_resps": [["-0.51", "True"], ["-2.3", "False"]], "filter": "none", "metrics": ["acc", "acc_norm"], "doc_hash": "%064x", "prompt_hash": "%064x", "target_hash": "5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9", "acc": %s, "acc_norm": %s}`+"\n",
			i, i, i, i*31, b2s(a), b2s(an))
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	f.Close()
	res := fmt.Sprintf(`{"results": {"mmlu_hi": {"alias": "mmlu_hi", "acc,none": %s, "acc_norm,none": %s}}, "configs": {"mmlu_hi": {}}, "versions": {"mmlu_hi": 1}, "model_name": "bench/model"}`,
		strconv.FormatFloat(float64(acc)/float64(n), 'g', -1, 64), strconv.FormatFloat(float64(accn)/float64(n), 'g', -1, 64))
	if err := os.WriteFile(filepath.Join(d, "results_"+date+".json"), []byte(res), 0o644); err != nil {
		tb.Fatal(err)
	}
}

func b2s(b bool) string {
	if b {
		return "1.0"
	}
	return "0.0"
}

// BenchmarkCheckLMEval1M reads a million-sample lm-eval samples file and
// recomputes its aggregates (evalbook import --check). peak-MB is the
// most memory the Go runtime held from the operating system meanwhile;
// cpu-s/op the CPU time of one check (on all cores).
//
//	go test -run '^$' -bench CheckLMEval1M -benchtime 1x ./pkg/interop
func BenchmarkCheckLMEval1M(b *testing.B) {
	dir := b.TempDir()
	const n = 1_000_000
	writeLMEvalRun(b, dir, n)
	st, _ := os.Stat(filepath.Join(dir, "bench__model", "samples_mmlu_hi_2026-12-01T10-00-00.000000.jsonl"))
	runtime.GC()
	b.SetBytes(st.Size())
	b.ResetTimer()
	var peak uint64
	done := make(chan struct{})
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	c0 := cpuTime()
	for b.Loop() {
		rep, err := Check(context.Background(), dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if !rep.OK() || rep.Records != n {
			b.Fatalf("records %d, %+v", rep.Records, rep.Tasks)
		}
	}
	b.StopTimer()
	close(done)
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	// CPU seconds per check: the figure that does not depend on what
	// else the machine runs (wall time does, on a shared machine)
	b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu-s/op")
}

func TestBenchGeneratorChecks(t *testing.T) {
	dir := t.TempDir()
	writeLMEvalRun(t, dir, 1000)
	rep, err := Check(context.Background(), dir, Options{})
	if err != nil || !rep.OK() || rep.Records != 1000 || len(rep.Tasks) != 2 {
		t.Fatalf("%v %+v", err, rep)
	}
}

// A bad line deep in a file of several blocks is reported at its own
// line by the parallel reader, as by the sequential one.
func TestParallelBlocksLineNumbers(t *testing.T) {
	dir := t.TempDir()
	writeLMEvalRun(t, dir, 12000) // ~12 MB: three blocks
	p := filepath.Join(dir, "bench__model", "samples_mmlu_hi_2026-12-01T10-00-00.000000.jsonl")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[9876] = strings.Replace(lines[9876], `"doc_id": 9876, `, "", 1)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, e1 := Read(context.Background(), dir, Options{})
	_, e2 := Check(context.Background(), dir, Options{})
	if e1 == nil || e2 == nil || e1.Error() != e2.Error() || !strings.Contains(e2.Error(), ":9877: missing field \"doc_id\"") {
		t.Fatalf("read: %v\ncheck: %v", e1, e2)
	}
	_, e3 := Check(context.Background(), dir, Options{Limits: Limits{Line: 100}})
	if !errors.Is(e3, tabular.ErrTooLong) || !strings.Contains(e3.Error(), ":1: ") {
		t.Fatalf("limit: %v", e3)
	}
}
