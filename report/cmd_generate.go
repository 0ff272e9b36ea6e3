package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/evalbook/evalbook/pkg/tabular"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

func init() {
	register(&command{name: "generate", summary: "ask an OpenAI-compatible endpoint for a response to every question of a dataset", run: runGenerate})
}

func runGenerate(e *env) error {
	fs := newFlags(e, "generate")
	var (
		dataset     = fs.String("dataset", "", "question `FILE` (.csv, .jsonl or .xlsx) with a question column")
		endpoint    = fs.String("endpoint", "", "OpenAI-compatible base `URL`, e.g. http://127.0.0.1:8000/v1")
		model       = fs.String("model", "", "model `NAME` as the endpoint knows it")
		out         = fs.String("out", "", "response table `FILE` to write (CSV)")
		rawCSV      = addRawCSVFlag(fs)
		language    = fs.String("language", "", "language of every question (`name` or code); default: per row")
		prompts     = fs.String("prompts", "", "prompt template `FILE` (JSON); default the built-in datasets/leaderboard/generate_prompts.json")
		cache       = fs.String("cache", "", "reply cache `FILE` (JSON Lines, append-only); default evalbook/generate-cache.jsonl in the user cache directory; none: memory only")
		apiKeyEnv   = fs.String("api-key-env", llm.DefaultConfig.APIKeyEnv, "environment `variable` holding the API key (unset: no key sent)")
		concurrency = fs.Int("concurrency", 4, "`N` requests in flight at once")
		rpm         = fs.Int("rpm", 0, "at most `N` requests per minute (0: no limit)")
		retries     = fs.Int("retries", llm.DefaultConfig.Retries, "`N` retries after a failed attempt")
		timeout     = fs.Duration("timeout", llm.DefaultConfig.Timeout, "time allowed for each attempt (`duration`)")
		maxTokens   = fs.Int("max-tokens", 256, "`N` tokens at most per response (0: the endpoint's default)")
		modelSeed   = fs.String("model-seed", "", "sampling seed `N` sent with every request (default: none)")
		limit       = fs.Int("limit", 0, "ask only the first `N` questions (0: all)")
		asJSON      = fs.Bool("json", false, "print the run's summary as one JSON document (also when questions failed)")
	)
	if err := parseNoArgs(e, fs, ""); err != nil {
		return err
	}
	for _, f := range []struct{ name, val string }{{"--dataset", *dataset}, {"--endpoint", *endpoint}, {"--model", *model}, {"--out", *out}} {
		if f.val == "" {
			return usagef("generate: %s is required (see evalbook generate --help)", f.name)
		}
	}
	if err := refuseDir(*out); err != nil {
		return usagef("generate: --out: %v", err)
	}
	if err := refuseInput(*out, *dataset); err != nil {
		return usagef("generate: --out: %v", err)
	}
	if *concurrency < 1 || *rpm < 0 || *retries < 0 || *timeout <= 0 || *maxTokens < 0 || *limit < 0 {
		return usagef("generate: --concurrency must be at least 1; --rpm, --retries, --max-tokens and --limit must not be negative; --timeout must be positive")
	}
	var seed *int64
	if *modelSeed != "" {
		s, err := strconv.ParseInt(*modelSeed, 10, 64)
		if err != nil {
			return usagef("generate: --model-seed must be an integer, not %q", *modelSeed)
		}
		seed = &s
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

	// Open the cache and pkg/llm's client (retries, limits, cache).
	c, cachePath, err := llm.OpenCacheFile(*cache, filepath.Join("evalbook", "generate-cache.jsonl"))
	if err != nil {
		if errors.Is(err, llm.ErrNoCacheDir) {
			return fmt.Errorf("generate: %v; pass --cache FILE or --cache none", err)
		}
		return err
	}
	for _, w := range c.Warnings() {
		fmt.Fprintln(e.stderr, "evalbook: warning:", w)
	}
	defer c.Close()
	r := *retries
	if r == 0 {
		r = -1 // llm.Config: negative means no retries, zero the default
	}
	client, err := llm.NewClient(llm.Config{
		BaseURL: *endpoint, Model: *model, APIKeyEnv: *apiKeyEnv, Seed: seed, MaxTokens: *maxTokens,
		Timeout: *timeout, Retries: r, Concurrency: *concurrency, RPM: *rpm, Cache: c,
		Logf: func(format string, a ...any) { fmt.Fprintf(e.stderr, "evalbook: generate: "+format+"\n", a...) },
	})
	if err != nil {
		return usagef("generate: %v", err)
	}

	where := cachePath
	if where == "none" {
		where = "memory"
	}
	last := time.Now() // Progress calls do not overlap

	res, err := generate.Run(e.ctx, client, qs, generate.Options{
		Model: *model, Templates: tpl, Workers: *concurrency, Cache: where,
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
		if !errors.Is(err, context.Canceled) {
			return err
		}
		if cachePath == "none" {
			return fmt.Errorf("generate: interrupted; with --cache none %s, so running the command again starts from the beginning (pass --cache FILE to make a rerun resume)",
				keptInMemory(c.Len()))
		}
		return fmt.Errorf("generate: interrupted; %s in the cache %s: run the same command again to resume", nounCount(c.Len(), "reply is", "replies are"), where)
	}
	if len(res.Failures) > 0 {
		if *asJSON {
			if err := writeJSON(e.stdout, res); err != nil {
				return err
			}
		}
		got := nounCount(res.Received, "reply", "replies")
		rerun := fmt.Sprintf("the %s received are cached in %s, so running the same command again asks only for the rest", got, where)
		if res.Received == 1 {
			rerun = fmt.Sprintf("the 1 reply received is cached in %s, so running the same command again asks only for the rest", where)
		}
		if cachePath == "none" {
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

// keptInMemory says that n replies received with --cache none are lost:
// "the 1 reply received was kept in memory only and is lost", "the 3
// replies received were kept ... and are lost".
func keptInMemory(n int) string {
	if n == 1 {
		return "the 1 reply received was kept in memory only and is lost"
	}
	return fmt.Sprintf("the %d replies received were kept in memory only and are lost", n)
}
