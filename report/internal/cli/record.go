package cli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/mc"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/report/internal/record"
)

// RecordFlags are --record, --record-title, --record-model and --store,
// for a command whose run can be kept in the run store (store.Recorder).
// Without --record every method does nothing. A store that cannot take
// the run (another process holds its write lock past
// store.BusyTimeout, a full disk, a file that is not a store) does not
// stop the command: its outputs are still written, the rows are no
// longer recorded, and the command ends with a NotRecordedError (exit
// status 1) saying so and how to record the run.
type RecordFlags struct {
	record bool
	store  string
	rec    store.Recorder
	failed error // the store's first failure
}

// NotRecordedError is the error a command given --record ends with
// when its outputs are written but the run store could not keep the run.
type NotRecordedError struct {
	Command string // e.g. "score"
	Store   string // the store file
	Err     error  // the store's failure
}

func (e *NotRecordedError) Error() string {
	why := ""
	if strings.Contains(e.Err.Error(), "database is locked") || strings.Contains(e.Err.Error(), "SQLITE_BUSY") {
		why = fmt.Sprintf(" (another process held its write lock for more than the %g s a recorder waits; is a long run being recorded?)", float64(store.BusyTimeout)/1000)
	}
	return fmt.Sprintf("%s: the run was NOT recorded in the run store %s%s: %v; every other output of the command is written. "+
		"To keep the run, run the same command again with --record once the store is free (a command that asks a model finds its replies in the reply cache and does not pay for them again)",
		e.Command, e.Store, why, e.Err)
}

func (e *NotRecordedError) Unwrap() error { return e.Err }

// fail keeps the store's first failure and drops the recording, so the
// command goes on without it; App.Run reports it at the end.
func (r *RecordFlags) fail(e *Env, err error) {
	if err == nil || r.failed != nil {
		return
	}
	r.failed = err
	r.rec.Close()
	cmd := "evalbook"
	if e.cmd != nil {
		cmd = e.cmd.Name
	}
	e.notRecorded = &NotRecordedError{Command: cmd, Store: r.rec.Path, Err: err}
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
// file is an error, not a new empty store, and a recording in another
// process does not make it wait (store.OpenReadOnly).
func ReadStore(flagPath string) (*store.Store, error) {
	return store.OpenReadOnly(store.Path(flagPath))
}

// EditStore opens an existing store for a command that changes it
// (runs rm): a missing file is an error.
func EditStore(flagPath string) (*store.Store, error) {
	return store.OpenExisting(store.Path(flagPath))
}

// on reports whether --record was given and, if so, completes the
// recorder's store path and tool ("evalbook <version>").
// Asked reports whether --record was given.
func (r *RecordFlags) Asked() bool { return r != nil && r.record }

func (r *RecordFlags) on(e *Env) bool {
	if r == nil || !r.record {
		return false
	}
	r.rec.Path, r.rec.Tool = store.Path(r.store), "evalbook "+e.Version()
	return true
}

// Hook returns the row callback that records each row as the analysis
// streams it, then calls prev; without --record it returns prev. When
// the store fails (at opening, or at a row), the rows are no longer
// recorded and the analysis goes on (see RecordFlags).
func (r *RecordFlags) Hook(e *Env, cols store.Columns, prev func(*results.Row) error) (func(*results.Row) error, error) {
	if !r.on(e) {
		return prev, nil
	}
	hook, err := r.rec.Hook(e.Ctx, cols, nil)
	if err != nil {
		r.fail(e, err)
	}
	return func(row *results.Row) error {
		if r.failed == nil {
			if err := hook(row); err != nil {
				if e.Ctx.Err() != nil {
					return err // interrupted: the command stops anyway
				}
				r.fail(e, err)
			}
		}
		if prev != nil {
			return prev(row)
		}
		return nil
	}, nil
}

// Record commits the run of command (with rows, when Hook did not take
// them) and says its id on stderr. A failure of the store is not
// returned (see RecordFlags).
func (r *RecordFlags) Record(e *Env, command string, run store.Run, rows results.Rows) error {
	if !r.on(e) {
		return nil
	}
	run.Command = command
	return r.said(e, func() (int64, error) { return r.rec.Commit(e.Ctx, run, rows) })
}

// said commits the run and says its id on stderr, or keeps the failure
// for the end of the command.
func (r *RecordFlags) said(e *Env, commit func() (int64, error)) error {
	if r.failed != nil {
		return nil
	}
	id, err := commit()
	if err == nil {
		fmt.Fprintf(e.Stderr, "evalbook: recorded run %d in %s\n", id, r.rec.StorePath())
	} else if e.Ctx.Err() != nil {
		return err
	}
	r.fail(e, err)
	return nil
}

// Score records a scored run (store.FromScore).
func (r *RecordFlags) Score(e *Env, command string, res *results.Score) error {
	if !r.on(e) {
		return nil
	}
	run, err := store.FromScore(command, res, nil)
	if err != nil {
		r.fail(e, err)
		return nil
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
		r.fail(e, err)
		return nil
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
		r.fail(e, err)
		return nil
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
		r.fail(e, err)
		return nil
	}
	return r.Record(e, command, run, nil)
}
