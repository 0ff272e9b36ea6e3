package leaderboard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/results"
)

// DiscoverDir finds the inputs of a board in dir: harness outputs
// (every format of interop.Formats: lm-evaluation-harness, lighteval,
// inspect, promptfoo, Every Eval Ever, evalbook task-run details), one
// Input with its Run each, with the names of the entries that are not
// harness outputs in skipped; or, when dir holds none, evalbook's own
// <model>_<language> response files (Discover). Build ranks the runs by
// the harness's own per-sample values.
func DiscoverDir(ctx context.Context, dir string) (inputs []Input, skipped []string, err error) {
	runs, skipped, err := interop.ReadDir(ctx, dir, interop.Options{})
	if errors.Is(err, interop.ErrUnknownFormat) {
		inputs, err = Discover(dir)
		return inputs, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	return RunInputs(runs), skipped, nil
}

// RunInputs makes harness outputs read by pkg/interop the inputs of a
// board, in order.
func RunInputs(runs []*interop.Run) []Input {
	inputs := make([]Input, len(runs))
	for i, r := range runs {
		inputs[i] = Input{Path: r.Source, Model: r.Model, Run: r}
	}
	return inputs
}

// Boards are the boards of one set of inputs, one per metric (BuildAll).
// Their JSON is the board itself when there is one, else an array.
type Boards []*Board

// BuildAll builds a board per metric id over the same inputs, with opt's
// other settings.
func BuildAll(ctx context.Context, inputs []Input, metrics []string, opt Options) (Boards, error) {
	var bs Boards
	for _, m := range metrics {
		o := opt
		o.Metric = m
		b, err := Build(ctx, inputs, o)
		if err != nil {
			return nil, err
		}
		bs = append(bs, b)
	}
	return bs, nil
}

// MarshalJSON encodes one board as itself, several as an array.
func (bs Boards) MarshalJSON() ([]byte, error) {
	var v any = []*Board(bs)
	if len(bs) == 1 {
		v = bs[0]
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // as the command's encoder: text stays readable
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Tables are every board's tables, in order.
func (bs Boards) Tables() []results.Table {
	var ts []results.Table
	for _, b := range bs {
		ts = append(ts, b.Tables()...)
	}
	return ts
}

// WriteText writes the boards' text, a blank line between two.
func (bs Boards) WriteText(w io.Writer) error {
	for i, b := range bs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := b.WriteText(w); err != nil {
			return err
		}
	}
	return nil
}
