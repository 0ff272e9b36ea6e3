package store

import (
	"context"
	"fmt"

	"github.com/evalbook/evalbook/pkg/results"
)

// Recorder keeps one run of a command in a store, the way `--record`
// does: the rows are added as the analysis streams them (Hook), or all
// at once when the result is known (Commit), and the run is committed in
// one transaction. The store file is opened on first use; Close drops a
// recording that was not committed (the command failed) and closes it.
//
//	rec := &store.Recorder{Path: store.Path(""), Tool: "my-tool 1.0"}
//	defer rec.Close()
//	opt.Rows, _ = rec.Hook(ctx, store.Columns{ID: "id"}, nil)
//	res, _ := qa.Score(ctx, in, name, opt)
//	run, _ := store.FromScore("score", res, nil)
//	id, _ := rec.Commit(ctx, run, nil)
type Recorder struct {
	Path  string // the store file (see Path)
	Tool  string // Run.Tool when the run has none, e.g. "evalbook v0.3"
	Title string // Run.Title when the run has none
	Model string // overrides Run.Model when not empty

	st  *Store
	rec *Recording
}

func (r *Recorder) open() error {
	if r.st != nil {
		return nil
	}
	st, err := Open(r.Path)
	if err != nil {
		return err
	}
	r.st = st
	return nil
}

// Hook returns a row callback (e.g. for qa.Options.Rows) that adds each
// row to the recording, then calls prev when it is not nil. The
// recording's transaction stays open until Commit or Close.
func (r *Recorder) Hook(ctx context.Context, cols Columns, prev func(*results.Row) error) (func(*results.Row) error, error) {
	if err := r.open(); err != nil {
		return nil, err
	}
	r.rec = r.st.Begin(ctx, nil, cols)
	return func(row *results.Row) error {
		if err := r.rec.Add(row); err != nil {
			return err
		}
		if prev != nil {
			return prev(row)
		}
		return nil
	}, nil
}

// Commit records run with its rows: those Hook took, or else rows (or
// run.Source when rows is nil). It fills Tool, Title and Created when
// the run has none (Created from results.Now, so SOURCE_DATE_EPOCH fixes
// it) and Model when the Recorder names one, and returns the run's id.
func (r *Recorder) Commit(ctx context.Context, run Run, rows results.Rows) (int64, error) {
	if run.Tool == "" {
		run.Tool = r.Tool
	}
	if run.Title == "" {
		run.Title = r.Title
	}
	if r.Model != "" {
		run.Model = r.Model
	}
	if t := results.Now(); t != nil && run.Created.IsZero() {
		run.Created = *t
	}
	if r.rec == nil {
		if rows == nil {
			rows = run.Source
		}
		if rows == nil {
			return 0, fmt.Errorf("store: the %s run has no rows to record", run.Command)
		}
		if err := r.open(); err != nil {
			return 0, err
		}
		r.rec = r.st.Begin(ctx, nil, run.Columns)
		for row, err := range rows.All() {
			if err == nil {
				err = r.rec.Add(row)
			}
			if err != nil {
				r.rec.Abort()
				return 0, err
			}
		}
	}
	return r.rec.Commit(run)
}

// StorePath is the path of the open store ("" before first use).
func (r *Recorder) StorePath() string {
	if r.st == nil {
		return ""
	}
	return r.st.Path()
}

// Close aborts a recording that was begun but not committed and closes
// the store; it is safe to call more than once and on an unused Recorder.
func (r *Recorder) Close() {
	if r.rec != nil {
		r.rec.Abort()
	}
	if r.st != nil {
		r.st.Close()
		r.st = nil
	}
}
