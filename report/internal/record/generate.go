package record

import (
	"bytes"
	"context"
	"errors"

	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Generate records a generation through r: the response table it wrote
// (res.Rows) is scored with pkg/qa's default metrics and recorded with
// the model and promptHash (a hash of the prompt templates; "" when
// there are none), so two generations can be diffed and gated like any
// scored run.
func Generate(ctx context.Context, r *store.Recorder, res *generate.Result, promptHash string) (int64, error) {
	if res == nil {
		return 0, errors.New("store: no generation to record")
	}
	var buf bytes.Buffer
	if _, err := res.WriteCSVOptions(&buf, tabular.CSVOptions{Raw: true}); err != nil {
		return 0, err
	}
	var opt qa.Options
	hook, err := r.Hook(ctx, store.Columns{}, nil)
	if err != nil {
		return 0, err
	}
	opt.Rows = hook
	name := res.Out
	if name == "" {
		name = "generated responses"
	}
	sc, err := qa.Score(ctx, &buf, name, opt)
	if err != nil {
		return 0, err
	}
	sc.Tool = r.Tool
	run, err := store.FromScore("generate", sc, nil)
	if err != nil {
		return 0, err
	}
	run.Model, run.PromptHash = res.Model, promptHash
	return r.Commit(ctx, run, nil)
}
