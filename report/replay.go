package main

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

// A replayKind is the result type behind one value of a saved result's
// "kind": the command that prints it with --json, and a new zero value
// to decode it into.
type replayKind struct {
	cmd string
	new func() results.Report
}

// replayKinds maps the kind of every result JSON that report --from
// renders again to its type. score and judge have their own path
// (their workbook, page and charts; readScoreResult). Not here:
// summarize (seed 004's document has no kind), runs list and runs show
// (views of the store, shown again from it), task list.
var replayKinds = map[string]replayKind{
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

// replayableKinds lists every kind report --from takes, score and judge
// included, sorted.
func replayableKinds() []string {
	ks := []string{"score", "judge"}
	for k := range replayKinds {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// resultKind returns the kind of a saved result: the "kind" of the
// document, or of every element of an array of them (leaderboard's
// boards, one per metric), or "" when there is none.
func resultKind(name string, data []byte) (string, error) {
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

// decodeResult decodes a saved result of kind (not score or judge) into
// its type. A field the type does not have is refused, so a document
// edited by hand, or saved by another tool under the same kind, is not
// rendered as if it were whole.
func decodeResult(name, kind string, data []byte) (results.Report, string, error) {
	rk, ok := replayKinds[kind]
	if !ok {
		what := fmt.Sprintf("a result of kind %q", kind)
		if kind == "" {
			what = "a document with no \"kind\""
		}
		return nil, "", fmt.Errorf("%s: %s; evalbook report --from renders the --json of these kinds: %s", name, what, strings.Join(replayableKinds(), ", "))
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
		trimmed := bytes.TrimLeft(data, " \t\r\n")
		if trimmed[0] == '[' {
			var bs []*leaderboard.Board
			if err := decode(&bs); err != nil {
				return nil, "", err
			}
			return leaderboard.Boards(bs), rk.cmd, nil
		}
		var b leaderboard.Board
		if err := decode(&b); err != nil {
			return nil, "", err
		}
		return leaderboard.Boards{&b}, rk.cmd, nil
	}
	r := rk.new()
	if err := decode(r); err != nil {
		return nil, "", err
	}
	return r, rk.cmd, nil
}
