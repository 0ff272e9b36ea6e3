package leaderboard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/sample"
)

// DiscoverDir finds the inputs of a board in dir: harness outputs
// (every format of interop.Formats: lm-evaluation-harness, lighteval,
// inspect, promptfoo, Every Eval Ever, evalbook task-run details), one
// Input with its Run each, with the names of the entries that are not
// harness outputs in skipped; or, when dir holds none, evalbook's own
// <model>_<language> response files (Discover). Build ranks the runs by
// the harness's own per-sample values.
//
// The runs are read a sample at a time and not held: each Input's Run
// has what the harness files say of the run (its source, model, files,
// warnings; Count samples) and no Samples, and Build reads the samples
// again from the file, keeping per sample only what the board needs
// (a key, a value, a blank flag).
func DiscoverDir(ctx context.Context, dir string) (inputs []Input, skipped []string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if _, ok := interop.Harness(p, ""); !ok {
			skipped = append(skipped, e.Name())
			continue
		}
		in, err := streamInput(ctx, p, interop.Options{})
		if errors.Is(err, interop.ErrUnknownFormat) { // as interop.ReadDir's error
			inputs, err = Discover(dir)
			return inputs, nil, err
		}
		if err != nil {
			return nil, nil, err
		}
		inputs = append(inputs, in)
	}
	if len(inputs) == 0 { // as interop.ReadDir: no harness output, so response files
		inputs, err = Discover(dir)
		return inputs, nil, err
	}
	return inputs, skipped, nil
}

// runStream reads a run's samples again from its file (DiscoverDir).
type runStream struct {
	path string
	opt  interop.Options
	prof *interop.Profile
}

// streamInput reads the harness output at path a sample at a time for
// what the metric names need (interop.Profile) and returns it as an
// Input whose samples Build reads again.
func streamInput(ctx context.Context, path string, opt interop.Options) (Input, error) {
	prof := interop.NewProfile("")
	o := opt
	o.NoText = true // the profile needs the metrics alone
	o.Each = func(s *interop.Sample) error {
		prof.Add(s)
		return nil
	}
	r, err := interop.Read(ctx, path, o)
	if err != nil {
		return Input{}, err
	}
	prof.Source = r.Source
	return Input{Path: r.Source, Model: r.Model, Run: r, stream: &runStream{path: path, opt: opt, prof: prof}}, nil
}

// profile is what the run's samples say of its metrics.
func (in Input) profile() *interop.Profile {
	if in.stream != nil {
		return in.stream.prof
	}
	return interop.ProfileOf(in.Run)
}

// eachSample gives f every sample of the run, in file order: from
// Run.Samples, or read again from the file a sample at a time (without
// the texts when noText), valid only during the call. An error of f
// stops and is returned as it is.
func (in Input) eachSample(ctx context.Context, noText bool, f func(s *sample.Sample) error) error {
	if in.stream == nil {
		for i := range in.Run.Samples {
			if err := f(&in.Run.Samples[i]); err != nil {
				return err
			}
		}
		return nil
	}
	var ferr error
	o := in.stream.opt
	o.NoText, o.Hashes = noText, true
	o.Each = func(s *interop.Sample) error {
		ferr = f(s)
		return ferr
	}
	_, err := interop.Read(ctx, in.stream.path, o)
	if ferr != nil {
		return ferr
	}
	return err
}

// fullRun is the run with its samples and their texts: Run, or read
// whole again from the file.
func (in Input) fullRun(ctx context.Context) (*interop.Run, error) {
	if in.stream == nil {
		return in.Run, nil
	}
	return interop.Read(ctx, in.stream.path, in.stream.opt)
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
