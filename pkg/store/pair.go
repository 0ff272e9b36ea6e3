package store

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/evalbook/evalbook/pkg/results"
)

// RunRef names a run in an analysis's result.
type RunRef struct {
	ID          int64     `json:"id"`
	Time        time.Time `json:"time"`
	Command     string    `json:"command"`
	Model       string    `json:"model,omitempty"`
	Title       string    `json:"title,omitempty"`
	DatasetHash string    `json:"dataset_hash"`
	Rows        int       `json:"rows"`
	// Input is the base name of the file the run read (never its
	// folder), for the reports; not in the JSON.
	Input string `json:"-"`
}

func refOf(r Run) RunRef {
	ref := RunRef{ID: r.ID, Time: r.Created, Command: r.Command, Model: r.Model, Title: r.Title, DatasetHash: r.DatasetHash, Rows: r.Rows}
	if r.DatasetPath != "" {
		ref.Input = results.DisplayName(r.DatasetPath)
	}
	return ref
}

func (r RunRef) String() string {
	s := fmt.Sprintf("run %d (%s, %s", r.ID, show(r.Command), r.Time.UTC().Format("2006-01-02 15:04"))
	if r.Model != "" {
		s += ", " + show(r.Model)
	}
	if r.Title != "" {
		s += ", " + show(r.Title)
	}
	return s + ")"
}

// Incomparable returns why runs a and b may not be paired row by row: a
// different dataset content hash, key kind, prompt, judge prompt or
// normaliser. None means they are comparable.
func Incomparable(a, b Run) []string {
	var why []string
	diff := func(what, x, y string) {
		if x != y {
			why = append(why, fmt.Sprintf("%s differs (%q vs %q)", what, x, y))
		}
	}
	diff("dataset_hash", a.DatasetHash, b.DatasetHash)
	diff("key_kind", a.KeyKind, b.KeyKind)
	diff("prompt_hash", a.PromptHash, b.PromptHash)
	diff("judge_prompt_hash", a.JudgePromptHash, b.JudgePromptHash)
	diff("normalizer", a.Normalizer, b.Normalizer)
	return why
}

// NotComparableError is the error of an analysis asked to pair two runs
// that are not comparable (see Incomparable), without Force.
type NotComparableError struct {
	A, B    int64
	Reasons []string
}

func (e *NotComparableError) Error() string {
	return fmt.Sprintf("runs %d and %d are not comparable: %s; they are not paired (use --force to pair them anyway, at your own risk)",
		e.A, e.B, strings.Join(e.Reasons, "; "))
}

// pairing is the rows two runs share: a[i] of run A with b[i] of run B.
type pairing struct {
	a, b         []int32
	onlyA, onlyB int
}

// pairRuns pairs the rows of a and b by sample id (or by row number when
// either run is keyed by row, if the row counts agree).
func pairRuns(a, b *runData, force bool) (pairing, []results.Warning, error) {
	var ws []results.Warning
	if why := Incomparable(a.Run, b.Run); len(why) > 0 {
		if !force {
			return pairing{}, nil, &NotComparableError{A: a.ID, B: b.ID, Reasons: why}
		}
		ws = append(ws, results.Warning{Code: CodeNotComparable, Count: len(why),
			Message: "the runs are not comparable and were paired because --force was given: " + strings.Join(why, "; ")})
	}
	var p pairing
	if a.KeyKind == KeyID && b.KeyKind == KeyID && slices.Equal(a.keys, b.keys) {
		// The usual case: the same ids in the same order.
		p.a = make([]int32, len(a.keys))
		for i := range p.a {
			p.a[i] = int32(i)
		}
		p.b = p.a
	} else if a.KeyKind == KeyID && b.KeyKind == KeyID {
		idx := make(map[string]int32, len(b.keys))
		for j, k := range b.keys {
			idx[k] = int32(j)
		}
		p.a = make([]int32, 0, len(a.keys))
		p.b = make([]int32, 0, len(a.keys))
		for i, k := range a.keys {
			if j, ok := idx[k]; ok {
				p.a = append(p.a, int32(i))
				p.b = append(p.b, j)
			}
		}
		p.onlyA, p.onlyB = len(a.keys)-len(p.a), len(b.keys)-len(p.a)
	} else {
		if a.Rows != b.Rows {
			return pairing{}, nil, fmt.Errorf("runs %d and %d are keyed by row number and have %d and %d rows: they cannot be paired", a.ID, b.ID, a.Rows, b.Rows)
		}
		p.a = make([]int32, a.Rows)
		for i := range p.a {
			p.a[i] = int32(i)
		}
		p.b = p.a
	}
	if p.onlyA+p.onlyB > 0 {
		ws = append(ws, results.Warning{Code: CodeUnpaired, Count: p.onlyA + p.onlyB,
			Message: fmt.Sprintf("%d rows of run %d and %d rows of run %d have no partner (sample id absent from the other run) and are left out", p.onlyA, a.ID, p.onlyB, b.ID)})
	}
	return p, ws, nil
}

// metricIndex returns the position of metric id in d.Metrics, or -1.
func (d *runData) metricIndex(id string) int {
	for i, m := range d.Metrics {
		if m.ID == id {
			return i
		}
	}
	return -1
}

// pairedValues returns the paired verdicts of metric ma of a and mb of
// b, leaving out pairs where either has no verdict; pos[k] is the pair
// number of value k.
func pairedValues(p pairing, av, bv []float64) (old, new []float64, pos []int32, noVerdict int) {
	old = make([]float64, 0, len(p.a))
	new = make([]float64, 0, len(p.a))
	pos = make([]int32, 0, len(p.a))
	for k := range p.a {
		x, y := av[p.a[k]], bv[p.b[k]]
		if math.IsNaN(x) || math.IsNaN(y) {
			noVerdict++
			continue
		}
		old = append(old, x)
		new = append(new, y)
		pos = append(pos, int32(k))
	}
	return
}
