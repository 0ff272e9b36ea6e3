// Command genlmeval writes a synthetic lm-evaluation-harness output folder
// for the streaming benchmarks (scripts/bench-stream.sh).
//
// Usage:
//
//	go run ./internal/tools/genlmeval [-rows N] [-out DIR]
//
// DIR/bench__model holds one task's samples file of N lines, each shaped as
// lm-eval writes a multiple-choice sample (doc, two requests, resps,
// filtered_resps, hashes, acc and acc_norm; about 900 bytes, so 330,000
// rows come to about 300 MB), and its results file with the exact means, so
// `evalbook import --check` passes on it. The lines are those of
// pkg/interop's benchmark (bench_test.go writeLMEvalRun); the output depends
// only on -rows.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "genlmeval:", err)
		}
		os.Exit(2)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("genlmeval", flag.ContinueOnError)
	rows := fs.Int("rows", 330_000, "the number of samples")
	out := fs.String("out", "lmeval", "the output `FOLDER` (created)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rows < 1 {
		return fmt.Errorf("-rows %d: want at least 1", *rows)
	}
	d := filepath.Join(*out, "bench__model")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	const date = "2026-12-01T10-00-00.000000"
	f, err := os.Create(filepath.Join(d, "samples_mmlu_hi_"+date+".jsonl"))
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	var acc, accn int
	for i := range *rows {
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
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	res := fmt.Sprintf(`{"results": {"mmlu_hi": {"alias": "mmlu_hi", "acc,none": %s, "acc_norm,none": %s}}, "configs": {"mmlu_hi": {}}, "versions": {"mmlu_hi": 1}, "model_name": "bench/model"}`,
		strconv.FormatFloat(float64(acc)/float64(*rows), 'g', -1, 64), strconv.FormatFloat(float64(accn)/float64(*rows), 'g', -1, 64))
	return os.WriteFile(filepath.Join(d, "results_"+date+".json"), []byte(res), 0o644)
}

func b2s(b bool) string {
	if b {
		return "1.0"
	}
	return "0.0"
}
