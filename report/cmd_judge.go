package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/report/internal/cli"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/jury"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/tabular"
)

var judgeCommand = cli.Command{Name: "judge", Summary: "judge each response against its golden answer with a model (any OpenAI-compatible endpoint)", Run: runJudge}

// addJudgeClientFlags declares the client flags of a model judge (judge,
// calibrate, probes) and --prompts.
func addJudgeClientFlags(fs *flag.FlagSet) (*cli.ClientFlags, *string) {
	return cli.AddClientFlags(fs, 8, "judge-cache.jsonl", "judge"),
		cli.InputFlag(fs, "prompts", "", "prompt `FILE` (JSON); default the built-in datasets/judge/prompts.json")
}

// readJudgeData reads the file at path with read, or the built-in
// datasets/judge/builtin when path is empty, and returns what it read with
// the name it read it as.
func readJudgeData[T any](path, builtin string, read func(io.Reader, string) ([]T, error)) ([]T, string, error) {
	b, name, err := cli.ReadOrSample(path, datasets.Judge, "judge/"+builtin)
	if err != nil {
		return nil, "", err
	}
	v, err := read(bytes.NewReader(b), name)
	return v, name, err
}

// chooseJudgePrompt reads the prompts (the file at path, or the built-in
// ones) and finds the prompt id of kind.
func chooseJudgePrompt(cmd, path, id string, kind judge.Kind) (judge.Prompt, error) {
	ps, _, err := readJudgeData(path, "prompts.json", judge.ReadPrompts)
	if err != nil {
		return judge.Prompt{}, err
	}
	p, err := judge.ChoosePrompt(ps, id, kind)
	switch {
	case errors.Is(err, judge.ErrPromptKind):
		return judge.Prompt{}, cli.Usagef("%s: --prompt %s is a %s prompt; this command needs a %s prompt", cmd, p.ID(), p.Kind, kind)
	case err != nil:
		return judge.Prompt{}, cli.Usagef("%s: --prompt: %v", cmd, err)
	}
	return p, nil
}

// loadJudgePairs reads labelled pairs from path, or the built-in set with a
// note on stderr.
func loadJudgePairs(e *cli.Env, cmd, path string) ([]judge.Pair, string, error) {
	if path == "" {
		fmt.Fprintf(e.Stderr, "evalbook: no --pairs given: %s uses the built-in datasets/judge/pairs.jsonl\n", cmd)
	}
	return readJudgeData(path, "pairs.jsonl", judge.ReadPairs)
}

// openPairJudge turns a --judge value into a pairwise judge: a named fake
// judge, or a model behind an endpoint asked with prompt p (then with its
// client, which the caller closes).
func openPairJudge(e *cli.Env, cmd, spec string, cf *cli.ClientFlags, p judge.Prompt) (judge.Judge, string, *cli.ModelClient, error) {
	s, err := judge.ParseSpec(spec)
	switch {
	case errors.Is(err, judge.ErrNoFake):
		return nil, "", nil, cli.Usagef("%s: --judge: %v", cmd, err)
	case err != nil:
		return nil, "", nil, cli.Usagef("%s: --judge must be fake:NAME or an endpoint URL such as http://127.0.0.1:8000/v1, not %q", cmd, spec)
	case s.Endpoint == "":
		j, name, err := s.Open(nil, p)
		return j, name, nil, err
	}
	m, err := cf.Open(e, s.Endpoint)
	if err != nil {
		return nil, "", nil, err
	}
	j, name, err := s.Open(m.Client, p)
	return j, name, m, err
}

// readJudgeResponses reads and scores the response table at path, or the
// built-in sample with a note on stderr, for judge and judge --judges.
func readJudgeResponses(e *cli.Env, path, by string, limit int) (*judge.Responses, error) {
	data, name := datasets.Responses, datasets.ResponsesName
	if path == "" {
		fmt.Fprintf(e.Stderr, "evalbook: no --responses given: judging the built-in sample %s\n", name)
	} else {
		var err error
		if data, err = tabular.ReadFile(path, 0); err != nil {
			return nil, err
		}
		name = path
	}
	return judge.ReadResponses(e.Ctx, data, name, judge.ResponseOptions{By: by, Limit: limit})
}

func runJudge(e *cli.Env) error {
	fs := cli.NewFlags(e, "judge")
	var (
		endpoint  = fs.String("endpoint", "", "base `URL` of an OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1")
		responses = cli.InputFlag(fs, "responses", "", "response table `FILE` (.csv, .jsonl); default: the built-in sample")
		promptID  = fs.String("prompt", "reference", "reference prompt `ID`: name, name@version or a hash prefix")
		limit     = fs.Int("limit", 0, "judge only the first `N` rows (0: all)")
		by        = fs.String("by", "Domain", "group by `COL` (\"\" for none)")
		out       = cli.OutputFlag(fs, "out", "", "write the verdict `FILE` (CSV): input columns, exact_substring, word_overlap, llm_judge (1, 0, empty when invalid or failed), llm_judge_reason, llm_judge_error")
		export    = cli.AddTableExportFlags(fs)
		rawCSV    = cli.AddRawCSVFlag(fs)
		judges    = fs.String("judges", "", "a jury: judge with each of these `models` (comma-separated, same --endpoint) and aggregate their verdicts per row as evalbook jury does; --out then writes the label file (item, rater, label)")
		juryBy    = cli.AddChoice(fs, "jury-method", "with --judges: aggregate by `majority` or dawid-skene", jury.Methods...)
	)
	cf, prompts := addJudgeClientFlags(fs)
	rec, batch := cli.AddRecordFlag(fs), cli.AddBatchFlags(fs)
	if err := cli.ParseNoArgs(e, fs, ""); err != nil {
		return err
	}
	defer rec.Close()
	if *endpoint == "" {
		return cli.Usagef("judge: --endpoint is required (e.g. http://127.0.0.1:8000/v1 for vLLM)")
	}
	if *limit < 0 {
		return cli.Usagef("judge: --limit must not be negative")
	}
	p, err := chooseJudgePrompt("judge", *prompts, *promptID, judge.KindReference)
	if err != nil {
		return err
	}
	if *judges != "" {
		return runJudgeJury(e, juryRun{endpoint: *endpoint, responses: *responses, by: *by, limit: *limit, out: *out,
			models: cli.SplitList(*judges), method: *juryBy, prompt: p, cf: cf, export: export, rawCSV: *rawCSV,
			batch: *batch.On, record: rec.Asked()})
	}
	tbl, err := readJudgeResponses(e, *responses, *by, *limit)
	if err != nil {
		return err
	}
	m, err := cf.Open(e, *endpoint)
	if err != nil {
		return err
	}
	defer m.Close()
	if err := batch.Chats(e, m, func() ([]llm.Request, error) { return tbl.Requests(p) }); err != nil {
		return err
	}
	j := judge.NewClientJudge(m.Client, p)
	tick, finish := cli.Progress(e, tbl.Sendable(), "judging")
	res, err := judge.JudgeResponses(e.Ctx, j, tbl, judge.RunOptions{
		Model: cf.S.Model, Endpoint: m.Client.Endpoint(), Tool: "evalbook " + version,
		Workers: cf.S.Concurrency, Progress: tick,
	})
	finish()
	m.Report(e)
	var failed *judge.RowsFailedError // the other rows are judged: write them, then fail
	if err != nil && !errors.As(err, &failed) {
		return m.Interrupted(err)
	}
	res.Score.Created = results.Now()
	if err := rec.Judge(e, res, tbl); err != nil {
		return err
	}
	if *out != "" {
		if err := cli.WriteCSVFile(e, "judge", *out, *rawCSV, tbl.WriteVerdictsCSV); err != nil {
			return err
		}
		fmt.Fprintf(e.Stderr, "evalbook: wrote verdicts for %s to %s\n", cli.Plural(len(tbl.Rows), "row", "rows"), *out)
	}
	if err := cli.Render(e, res, export); err != nil || failed == nil {
		return err
	}
	return fmt.Errorf("judge: %v; their llm_judge_error cell says why, and they are left out of every llm_judge figure; %s", failed, m.Rerun(failed.Failed, "row", "rows"))
}
