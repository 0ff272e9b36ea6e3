package main

import (
	"fmt"
	"time"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/textnorm"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var generateCommand = cli.Command{Name: "generate", Summary: "ask an OpenAI-compatible endpoint for a response to every question of a dataset", Run: runGenerate}

func runGenerate(e *cli.Env) error {
	fs := cli.NewFlags(e, "generate")
	var (
		dataset  = cli.InputFlag(fs, "dataset", "", "question `FILE` (.csv, .jsonl or .xlsx) with a question column")
		endpoint = fs.String("endpoint", "", "OpenAI-compatible base `URL`, e.g. http://127.0.0.1:8000/v1")
		out      = cli.OutputFlag(fs, "out", "", "response table `FILE` to write (CSV)")
		rawCSV   = cli.AddRawCSVFlag(fs)
		wbLimits = cli.AddWorkbookLimitFlags(fs)
		language = fs.String("language", "", "language of every question (`name` or code); default: per row")
		prompts  = cli.InputFlag(fs, "prompts", "", "prompt template `FILE` (JSON); default the built-in datasets/leaderboard/generate_prompts.json")
		limit    = fs.Int("limit", 0, "ask only the first `N` questions (0: all)")
		asJSON   = fs.Bool("json", false, "print the run's summary as one JSON document (also when questions failed)")
	)
	cf := cli.AddClientFlags(fs, 4, "generate-cache.jsonl", "generate")
	fs.IntVar(&cf.MaxTokens, "max-tokens", 256, "`N` tokens at most per response (0: the endpoint's default)")
	rec, batch := cli.AddRecordFlag(fs), cli.AddBatchFlags(fs)
	if err := cli.ParseNoArgs(e, fs, ""); err != nil {
		return err
	}
	if err := wbLimits.Apply(); err != nil {
		return err
	}
	defer rec.Close()
	for _, f := range []struct{ name, val string }{{"--dataset", *dataset}, {"--endpoint", *endpoint}, {"--model", cf.S.Model}, {"--out", *out}} {
		if f.val == "" {
			return cli.Usagef("generate: %s is required (see evalbook generate --help)", f.name)
		}
	}
	if _, err := cf.Config(*endpoint); err != nil {
		return err
	}
	if cf.MaxTokens < 0 || *limit < 0 {
		return cli.Usagef("generate: --max-tokens and --limit must not be negative")
	}
	tpl, qs, err := readGenerateInputs(*prompts, *dataset, *language, *limit)
	if err != nil {
		return err
	}
	for _, w := range generate.TemplateWarnings(qs, tpl) {
		fmt.Fprintf(e.Stderr, "evalbook generate: %s\n", w.Message)
	}

	m, err := cf.Open(e, *endpoint)
	if err != nil {
		return err
	}
	defer m.Close()
	if err := batch.Chats(e, m, func() ([]llm.Request, error) { return generate.Requests(qs, tpl) }); err != nil {
		return err
	}
	res, err := generate.Run(e.Ctx, m.Client, qs, generate.Options{
		Model: cf.S.Model, Templates: tpl, Workers: cf.S.Concurrency, Cache: m.Where(),
		Progress: progressLines(e, "evalbook generate: %d/%d\n"),
	})
	if res != nil {
		fmt.Fprintf(e.Stderr, "evalbook: %s\n", res.Counts())
		m.Notes(e)
	}
	if err != nil {
		return m.Interrupted(err)
	}
	if err := cli.WriteCSVFile(e, "generate", *out, *rawCSV, res.WriteCSVOptions); err != nil {
		return err
	}
	res.Out = *out
	if err := rec.Generate(e, res, tpl.FileHash); err != nil {
		return err
	}
	if *asJSON {
		err = cli.WriteJSON(e.Stdout, res)
	} else {
		err = res.WriteText(e.Stdout)
	}
	if err != nil || len(res.Failures) == 0 {
		return err
	}
	// Every row is written, a failed one with its error cell; then fail.
	return fmt.Errorf("generate: %s; their rows in %s have an empty response and an error cell; %s", res.FailureSummary(), *out, m.Rerun(res.Failed, "question", "questions"))
}

// readGenerateInputs reads the prompt templates (--prompts, or the
// built-in ones) and the questions of the dataset, each of language when
// it is given, the first limit of them when limit > 0.
func readGenerateInputs(prompts, dataset, language string, limit int) (*generate.Templates, []generate.Question, error) {
	fixedLang := ""
	if language != "" {
		l, ok := textnorm.ParseLanguage(language)
		if !ok {
			return nil, nil, cli.Usagef("generate: unknown --language %q", language)
		}
		fixedLang = l
	}
	data, name, err := cli.ReadOrSample(prompts, datasets.Leaderboard, datasets.GeneratePromptsName)
	if err != nil {
		return nil, nil, err
	}
	tpl, err := generate.ReadTemplates(data, name)
	if err != nil {
		return nil, nil, err
	}
	qs, err := generate.ReadQuestionsFile(dataset, fixedLang)
	if err != nil {
		return nil, nil, err
	}
	if limit > 0 && limit < len(qs) {
		qs = qs[:limit]
	}
	return tpl, qs, nil
}

// progressLines returns a Progress callback that prints format (with the
// done and total counts) to stderr at most every two seconds, and once
// at the end; calls do not overlap.
func progressLines(e *cli.Env, format string) func(done, total int) {
	last := time.Now()
	return func(done, total int) {
		if time.Since(last) > 2*time.Second || done == total {
			fmt.Fprintf(e.Stderr, format, done, total)
			last = time.Now()
		}
	}
}
