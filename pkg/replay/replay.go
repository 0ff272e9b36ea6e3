// Package replay reads a saved result (the --json of an evalbook command,
// or a result value encoded as JSON by a program) back into its type, by
// the document's "kind", so that it can be rendered again without
// recomputing it: its text (WriteText) and its tables (Tables), for a
// workbook, a page or a notebook.
//
// Score and judge results are read by results.ReadResult (their figures
// and review table, rendered with their own workbook and page); every
// other kind a command saves is read by Decode:
//
//	kind, err := replay.Kind(name, data)
//	r, err := replay.Decode(name, kind, data)
//	err = r.WriteText(os.Stdout)
//
// Not here: summarize (seed 004's document has no kind), runs list and
// runs show (views of the store, shown again from it), task list.
package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/pkg/correct"
	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/harness"
	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/irt"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/jury"
	"github.com/evalbook/evalbook/pkg/labelbook"
	"github.com/evalbook/evalbook/pkg/leaderboard"
	"github.com/evalbook/evalbook/pkg/mc"
	"github.com/evalbook/evalbook/pkg/ratings"
	"github.com/evalbook/evalbook/pkg/repeats"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/pkg/tasks"
)

// A kind is the result type behind one value of a saved result's "kind":
// the command that prints it with --json, and a new zero value to decode
// it into.
type kind struct {
	cmd string
	new func() results.Report
}

// kinds maps the kind of every result that Decode reads to its type.
var kinds = map[string]kind{
	"agree":          {"agree", func() results.Report { return new(results.RaterAgreement) }},
	"compare":        {"compare", func() results.Report { return new(results.Comparison) }},
	"power":          {"power", func() results.Report { return new(results.Power) }},
	"mc":             {"mc", func() results.Report { return new(mc.Report) }},
	"ratings":        {"ratings", func() results.Report { return new(ratings.Result) }},
	"correct":        {"correct", func() results.Report { return new(correct.Result) }},
	"jury":           {"jury", func() results.Report { return new(jury.Result) }},
	"label_export":   {"label export", func() results.Report { return new(labelbook.ExportResult) }},
	"label_import":   {"label import", func() results.Report { return new(labelbook.ImportResult) }},
	"repeats":        {"repeats", func() results.Report { return new(repeats.Result) }},
	"irt":            {"irt", func() results.Report { return new(irt.Result) }},
	"calibration":    {"calibrate", func() results.Report { return new(judge.Calibration) }},
	"probes":         {"probes", func() results.Report { return new(judge.ProbeReport) }},
	"gate":           {"gate", func() results.Report { return new(store.GateResult) }},
	"aa":             {"aa", func() results.Report { return new(store.AAResult) }},
	"history":        {"history", func() results.Report { return new(store.HistoryResult) }},
	"runs_diff":      {"runs diff", func() results.Report { return new(store.DiffResult) }},
	"task_run":       {"task run", func() results.Report { return new(tasks.Result) }},
	"import":         {"import", func() results.Report { return new(interop.Summary) }},
	"import_check":   {"import --check", func() results.Report { return new(interop.CheckReport) }},
	"generate":       {"generate", func() results.Report { return new(generate.Result) }},
	"run":            {"run", func() results.Report { return new(harness.RunReport) }},
	"plan_check":     {"plan check", func() results.Report { return new(design.PlanCheck) }},
	"plan_gate":      {"plan gate", func() results.Report { return new(design.GateDecision) }},
	"cases_coverage": {"cases coverage", func() results.Report { return new(design.CoverageReport) }},
	"cases_hash":     {"cases hash", func() results.Report { return new(design.HashReport) }},
	"cases_split":    {"cases split", func() results.Report { return new(design.SplitReport) }},
	"cases_leakage":  {"cases leakage", func() results.Report { return new(design.LeakageCheck) }},
	"leaderboard":    {"leaderboard", nil}, // one board, or an array of them (leaderboard.Boards)
}

// ScoreKinds are the kinds results.ReadResult reads rather than Decode.
var ScoreKinds = []string{"score", "judge"}

// Kinds returns every kind a saved result can be read back from, sorted:
// the kinds Decode reads and ScoreKinds.
func Kinds() []string {
	ks := slices.Clone(ScoreKinds)
	for k := range kinds {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Decodable reports whether Decode reads results of kind.
func Decodable(kind string) bool {
	_, ok := kinds[kind]
	return ok
}

// Command returns the evalbook command whose --json saves a result of
// kind ("label export", "import --check"), or "" for a kind Decode does
// not read.
func Command(kind string) string { return kinds[kind].cmd }

// Kind returns the kind of a saved result: the "kind" of the document, or
// of every element of an array of them (leaderboard's boards, one per
// metric), or "" when there is none. An array of results of other kinds,
// or of several kinds, is an error; name (the file) starts every error.
func Kind(name string, data []byte) (string, error) {
	kind, array, err := results.KindOf(data)
	switch {
	case err != nil && array && strings.HasPrefix(err.Error(), "an array of results"):
		return "", fmt.Errorf("%s: %v; report --from takes one result (or leaderboard's boards)", name, err)
	case err != nil:
		return "", fmt.Errorf("%s: %v", name, err)
	case array && kind != "" && kind != "leaderboard":
		return "", fmt.Errorf("%s: an array of results of kind %q; only leaderboard's boards come as an array", name, kind)
	}
	return kind, nil
}

// Decode decodes a saved result of kind (as Kind returns it; not score or
// judge) into its type: a leaderboard, one board or an array of them, as
// leaderboard.Boards. A field the type does not have is refused, so a
// document edited by hand, or saved by another tool under the same kind,
// is not rendered as if it were whole. Errors start with name and say
// where in the document decoding stopped.
func Decode(name, kind string, data []byte) (results.Report, error) {
	rk, ok := kinds[kind]
	if !ok {
		what := fmt.Sprintf("a result of kind %q", kind)
		if kind == "" {
			what = "a document with no \"kind\""
		}
		return nil, fmt.Errorf("%s: %s; evalbook report --from renders the --json of these kinds: %s", name, what, strings.Join(Kinds(), ", "))
	}
	decode := func(v any) error {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			return fmt.Errorf("%s: a %s result (%s --json) that does not decode: %s", name, kind, rk.cmd, results.JSONErrorAt(data, err))
		}
		return nil
	}
	if kind == "leaderboard" {
		if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '[' {
			var bs []*leaderboard.Board
			if err := decode(&bs); err != nil {
				return nil, err
			}
			return leaderboard.Boards(bs), nil
		}
		var b leaderboard.Board
		if err := decode(&b); err != nil {
			return nil, err
		}
		return leaderboard.Boards{&b}, nil
	}
	r := rk.new()
	if err := decode(r); err != nil {
		return nil, err
	}
	return r, nil
}
