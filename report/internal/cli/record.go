package cli

import (
	"flag"
	"fmt"

	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/mc"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/report/internal/record"
)

// RecordFlags are --record, --record-title, --record-model and --store,
// for a command whose run can be kept in the run store (store.Recorder).
// Without --record every method does nothing.
type RecordFlags struct {
	record bool
	store  string
	rec    store.Recorder
}

// AddRecordFlag declares the record flags on fs; the command defers Close.
func AddRecordFlag(fs *flag.FlagSet) *RecordFlags {
	r := &RecordFlags{}
	fs.BoolVar(&r.record, "record", false, "also keep this run (figures and every row's outcome) in the run store")
	fs.StringVar(&r.rec.Title, "record-title", "", "a `title` for the recorded run (shown by evalbook runs list)")
	fs.StringVar(&r.rec.Model, "record-model", "", "the `model` to record the run under")
	// With --record the store is read and written; without, not used.
	storeFlag(fs, &r.store, InputOutput).When(func() bool { return r.record })
	return r
}

// AddStoreFlag declares --store for a command that reads the run store
// (and, for runs rm, removes runs from it): no output may replace it.
func AddStoreFlag(fs *flag.FlagSet, p *string) { storeFlag(fs, p, Input) }

// storeFlag declares --store with role: the file store.Path opens, and
// the journal files SQLite keeps beside it.
func storeFlag(fs *flag.FlagSet, p *string, role Role) *PathValue {
	return PathFlag(fs, p, "store", "", role, "run store `FILE` (default $"+store.EnvVar+", else ./"+store.DefaultPath+")").
		Default(store.Path).Companions("-wal", "-shm", "-journal")
}

// ReadStore opens the store for a command that only reads it: a missing
// file is an error, not a new empty store.
func ReadStore(flagPath string) (*store.Store, error) {
	return store.OpenExisting(store.Path(flagPath))
}

// on reports whether --record was given and, if so, completes the
// recorder's store path and tool ("evalbook <version>").
func (r *RecordFlags) on(e *Env) bool {
	if r == nil || !r.record {
		return false
	}
	r.rec.Path, r.rec.Tool = store.Path(r.store), "evalbook "+e.Version()
	return true
}

// Hook returns the row callback that records each row as the analysis
// streams it, then calls prev; without --record it returns prev.
func (r *RecordFlags) Hook(e *Env, cols store.Columns, prev func(*results.Row) error) (func(*results.Row) error, error) {
	if !r.on(e) {
		return prev, nil
	}
	return r.rec.Hook(e.Ctx, cols, prev)
}

// Record commits the run of command (with rows, when Hook did not take
// them) and says its id on stderr.
func (r *RecordFlags) Record(e *Env, command string, run store.Run, rows results.Rows) error {
	if !r.on(e) {
		return nil
	}
	run.Command = command
	return r.said(e, func() (int64, error) { return r.rec.Commit(e.Ctx, run, rows) })
}

// said commits the run and says its id on stderr.
func (r *RecordFlags) said(e *Env, commit func() (int64, error)) error {
	id, err := commit()
	if err == nil {
		fmt.Fprintf(e.Stderr, "evalbook: recorded run %d in %s\n", id, r.rec.StorePath())
	}
	return err
}

// Score records a scored run (store.FromScore).
func (r *RecordFlags) Score(e *Env, command string, res *results.Score) error {
	if !r.on(e) {
		return nil
	}
	run, err := store.FromScore(command, res, nil)
	if err != nil {
		return err
	}
	return r.Record(e, command, run, nil)
}

// Judge records a judge run (record.FromJudge).
func (r *RecordFlags) Judge(e *Env, res *judge.RunSummary, tbl *judge.Responses) error {
	if !r.on(e) {
		return nil
	}
	run, err := record.FromJudge(res, tbl)
	if err != nil {
		return err
	}
	return r.Record(e, "judge", run, nil)
}

// MC records an mc run (record.FromMC).
func (r *RecordFlags) MC(e *Env, f *mc.File, rep *mc.Report, seed uint64) error {
	if !r.on(e) {
		return nil
	}
	run, err := record.FromMC(f, rep, seed)
	if err != nil {
		return err
	}
	return r.Record(e, "mc", run, nil)
}

// Generate records a generation, scored with pkg/qa's default metrics
// (record.Generate).
func (r *RecordFlags) Generate(e *Env, res *generate.Result, promptHash string) error {
	if !r.on(e) {
		return nil
	}
	return r.said(e, func() (int64, error) { return record.Generate(e.Ctx, &r.rec, res, promptHash) })
}

// Close drops a recording that was begun but not committed and closes the store.
func (r *RecordFlags) Close() {
	if r != nil {
		r.rec.Close()
	}
}

// RecordWith records the run that build makes (called only with --record).
func (r *RecordFlags) RecordWith(e *Env, command string, build func() (store.Run, error)) error {
	if !r.on(e) {
		return nil
	}
	run, err := build()
	if err != nil {
		return err
	}
	return r.Record(e, command, run, nil)
}
