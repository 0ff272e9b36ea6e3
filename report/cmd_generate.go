package main

import (
	"bytes"
	"fmt"
	"os"
	"time"

	"github.com/evalbook/evalbook/pkg/tabular"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

func init() {
	register(&command{name: "generate", summary: "ask an OpenAI-compatible endpoint for a response to every question of a dataset", run: runGenerate})
}

func runGenerate(e *env) error {
	fs := newFlags(e, "generate")
	var (
		dataset  = fs.String("dataset", "", "question `FILE` (.csv, .jsonl or .xlsx) with a question column")
		endpoint = fs.String("endpoint", "", "OpenAI-compatible base `URL`, e.g. http://127.0.0.1:8000/v1")
		out      = fs.String("out", "", "response table `FILE` to write (CSV)")
		rawCSV   = addRawCSVFlag(fs)
		language = fs.String("language", "", "language of every question (`name` or code); default: per row")
		prompts  = fs.String("prompts", "", "prompt template `FILE` (JSON); default the built-in datasets/leaderboard/generate_prompts.json")
		limit    = fs.Int("limit", 0, "ask only the first `N` questions (0: all)")
		asJSON   = fs.Bool("json", false, "print the run's summary as one JSON document (also when questions failed)")
	)
	cf := addClientFlags(fs, 4, "generate-cache.jsonl", "generate")
	fs.IntVar(&cf.maxTokens, "max-tokens", 256, "`N` tokens at most per response (0: the endpoint's default)")
	if err := parseNoArgs(e, fs, ""); err != nil {
		return err
	}
	for _, f := range []struct{ name, val string }{{"--dataset", *dataset}, {"--endpoint", *endpoint}, {"--model", cf.s.Model}, {"--out", *out}} {
		if f.val == "" {
			return usagef("generate: %s is required (see evalbook generate --help)", f.name)
		}
	}
	if err := checkOut("generate", *out, *dataset); err != nil {
		return err
	}
	if _, err := cf.config(*endpoint); err != nil {
		return err
	}
	if cf.maxTokens < 0 || *limit < 0 {
		return usagef("generate: --max-tokens and --limit must not be negative")
	}
	fixedLang := ""
	if *language != "" {
		l, ok := textnorm.ParseLanguage(*language)
		if !ok {
			return usagef("generate: unknown --language %q", *language)
		}
		fixedLang = l
	}
	tpl, err := genLoadTemplates(*prompts)
	if err != nil {
		return err
	}
	qs, err := generate.ReadQuestionsFile(*dataset, fixedLang)
	if err != nil {
		return err
	}
	if *limit > 0 && *limit < len(qs) {
		qs = qs[:*limit]
	}
	for _, w := range generate.TemplateWarnings(qs, tpl) {
		fmt.Fprintf(e.stderr, "evalbook generate: %s\n", w.Message)
	}

	m, err := cf.open(e, *endpoint)
	if err != nil {
		return err
	}
	defer m.close()
	where := m.where()
	last := time.Now() // Progress calls do not overlap

	res, err := generate.Run(e.ctx, m.client, qs, generate.Options{
		Model: cf.s.Model, Templates: tpl, Workers: cf.s.Concurrency, Cache: where,
		Progress: func(done, total int) {
			if time.Since(last) > 2*time.Second || done == total {
				fmt.Fprintf(e.stderr, "evalbook generate: %d/%d\n", done, total)
				last = time.Now()
			}
		},
	})
	if res != nil {
		fmt.Fprintf(e.stderr, "evalbook: %s\n", res.Counts())
	}
	if err != nil {
		return m.interrupted(err)
	}
	if len(res.Failures) > 0 {
		if *asJSON {
			if err := writeJSON(e.stdout, res); err != nil {
				return err
			}
		}
		got := plural(res.Received, "reply", "replies")
		rerun := fmt.Sprintf("the %s received are cached in %s, so running the same command again asks only for the rest", got, where)
		if res.Received == 1 {
			rerun = fmt.Sprintf("the 1 reply received is cached in %s, so running the same command again asks only for the rest", where)
		}
		if m.cachePath == "none" {
			rerun = fmt.Sprintf("with --cache none %s, so running the command again asks for every question (pass --cache FILE to make a rerun resume)", keptInMemory(res.Received))
		}
		return fmt.Errorf("generate: %s; nothing was written; %s", res.FailureSummary(), rerun)
	}
	if *rawCSV {
		rawCSVNote(e, "generate")
	}
	if err := genWrite(e, *out, res, tabular.CSVOptions{Raw: *rawCSV}); err != nil {
		return err
	}
	res.Out = *out
	if *asJSON {
		return writeJSON(e.stdout, res)
	}
	return res.WriteText(e.stdout)
}

// genLoadTemplates reads the prompt file, or the built-in one.
func genLoadTemplates(path string) (*generate.Templates, error) {
	var data []byte
	var err error
	name := path
	if path == "" {
		name = "datasets/" + datasets.GeneratePromptsName
		data, err = datasets.Leaderboard.ReadFile(datasets.GeneratePromptsName)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	return generate.ReadTemplates(data, name)
}

// genWrite writes the response table through createAtomic (a temporary
// file beside the target, renamed into place once complete).
func genWrite(e *env, path string, res *generate.Result, opt tabular.CSVOptions) error {
	var b bytes.Buffer
	guarded, err := res.WriteCSVOptions(&b, opt)
	if err != nil {
		return err
	}
	formulaNote(e, "generate", path, guarded)
	out, commit, abort, err := createAtomic(path)
	if err != nil {
		return err
	}
	defer abort()
	if _, err := out.Write(b.Bytes()); err != nil {
		return err
	}
	return commit()
}
