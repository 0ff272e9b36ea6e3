package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/mc"
	"github.com/evalbook/evalbook/pkg/tabular"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/store"
)

// recordFlags are --record and --store, for a command whose run can be
// kept in the run store. A command declares them with addRecordFlag,
// hands the rows to rowHook (or passes them to recordRun), and calls
// recordRun once its result is computed.
type recordFlags struct {
	record bool
	store  string
	title  string
	model  string

	st  *store.Store
	rec *store.Recording
}

// addRecordFlag declares --record, --record-title, --record-model and --store on fs.
func addRecordFlag(fs *flag.FlagSet) *recordFlags {
	r := &recordFlags{}
	fs.BoolVar(&r.record, "record", false, "also keep this run (figures and every row's outcome) in the run store")
	fs.StringVar(&r.title, "record-title", "", "a `title` for the recorded run (shown by evalbook runs list)")
	fs.StringVar(&r.model, "record-model", "", "the `model` to record the run under")
	addStoreFlag(fs, &r.store)
	return r
}

// addStoreFlag declares --store.
func addStoreFlag(fs *flag.FlagSet, p *string) {
	fs.StringVar(p, "store", "", "run store `FILE` (default $"+store.EnvVar+", else ./"+store.DefaultPath+")")
}

func openStore(flagPath string) (*store.Store, error) {
	return store.Open(store.Path(flagPath))
}

// readStore opens the store for a command that only reads it: a missing
// file is an error, not a new empty store.
func readStore(flagPath string) (*store.Store, error) {
	return store.OpenExisting(store.Path(flagPath))
}

// rowHook returns the qa.Options.Rows callback that records each scored
// row as pkg/qa streams it (then calls prev, when not nil); without
// --record it returns prev. The recording's transaction stays open
// until recordRun commits it or the command fails.
func (r *recordFlags) rowHook(e *env, opt qa.Options, prev func(*results.Row) error) (func(*results.Row) error, error) {
	if r == nil || !r.record {
		return prev, nil
	}
	st, err := openStore(r.store)
	if err != nil {
		return nil, err
	}
	r.st = st
	r.rec = st.Begin(e.ctx, nil, store.Columns{ID: opt.Columns.ID, Question: opt.Columns.Question, Answer: opt.Columns.Answer, Response: opt.Columns.Response})
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

// recordRun keeps the run of command in the store when --record was
// given: result is the command's result (a *results.Score, or a
// store.Run for a command that builds its own), rows the scored rows when
// rowHook did not already take them (nil otherwise). It prints the
// run's id on stderr.
func recordRun(e *env, r *recordFlags, command string, result any, rows results.Rows) error {
	if r == nil || !r.record {
		return nil
	}
	var run store.Run
	switch v := result.(type) {
	case *results.Score:
		var err error
		if run, err = store.FromScore(command, v, rows); err != nil {
			return err
		}
	case store.Run:
		run = v
		run.Command = command
		if rows == nil {
			rows = v.Source
		}
	default:
		return fmt.Errorf("--record: %s results cannot be recorded yet", command)
	}
	if run.Tool == "" {
		run.Tool = "evalbook " + version
	}
	if run.Title == "" {
		run.Title = r.title
	}
	if r.model != "" {
		run.Model = r.model
	}
	if t := results.Now(); t != nil && run.Created.IsZero() {
		run.Created = *t
	}
	if r.rec == nil {
		st, err := openStore(r.store)
		if err != nil {
			return err
		}
		r.st = st
		if rows == nil {
			st.Close()
			return fmt.Errorf("--record: %s gave no rows to record", command)
		}
		r.rec = st.Begin(e.ctx, nil, run.Columns)
		for row, err := range rows.All() {
			if err == nil {
				err = r.rec.Add(row)
			}
			if err != nil {
				r.rec.Abort()
				st.Close()
				return err
			}
		}
	}
	id, err := r.rec.Commit(run)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "evalbook: recorded run %d in %s\n", id, r.st.Path())
	return nil
}

// close drops a recording that was begun but not committed (the command
// failed) and closes the store; commands defer it after addRecordFlag.
func (r *recordFlags) close() {
	if r == nil || r.st == nil {
		return
	}
	if r.rec != nil {
		r.rec.Abort()
	}
	r.st.Close()
}

// recordJudge keeps a judge run in the store when --record was given
// (store.FromJudge).
func recordJudge(e *env, r *recordFlags, res *judge.RunSummary, tbl *judge.Responses) error {
	if r == nil || !r.record {
		return nil
	}
	run, err := store.FromJudge(res, tbl)
	if err != nil {
		return err
	}
	return recordRun(e, r, "judge", run, nil)
}

// recordMC keeps an mc run in the store when --record was given
// (store.FromMC).
func recordMC(e *env, r *recordFlags, f *mc.File, rep *mc.Report, opt mc.Options) error {
	if r == nil || !r.record {
		return nil
	}
	run, err := store.FromMC(f, rep, opt.Seed)
	if err != nil {
		return err
	}
	return recordRun(e, r, "mc", run, nil)
}

// recordGenerate keeps a generate run in the store when --record was
// given: the response table it wrote (res.Rows) is scored with pkg/qa's
// default metrics and recorded with the model and promptHash (a hash of
// the prompt templates; "" when there are none), so two generations can
// be diffed and gated like any scored run.
func recordGenerate(e *env, r *recordFlags, res *generate.Result, promptHash string) error {
	if r == nil || !r.record {
		return nil
	}
	var buf bytes.Buffer
	if _, err := res.WriteCSVOptions(&buf, tabular.CSVOptions{Raw: true}); err != nil {
		return err
	}
	var opt qa.Options
	hook, err := r.rowHook(e, opt, nil)
	if err != nil {
		return err
	}
	opt.Rows = hook
	name := res.Out
	if name == "" {
		name = "generated responses"
	}
	sc, err := qa.Score(e.ctx, &buf, name, opt)
	if err != nil {
		return err
	}
	sc.Tool = "evalbook " + version
	run, err := store.FromScore("generate", sc, nil)
	if err != nil {
		return err
	}
	run.Model, run.PromptHash = res.Model, promptHash
	return recordRun(e, r, "generate", run, nil)
}

// templatesHash is the prompt hash of generate's templates: the first 12
// hex digits of SHA-256 over the template file's bytes (the built-in
// file when path is empty), as DESIGN.md's hashes are.
func templatesHash(path string) (string, error) {
	var data []byte
	var err error
	if path == "" {
		data, err = datasets.Leaderboard.ReadFile(datasets.GeneratePromptsName)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])[:12], nil
}
