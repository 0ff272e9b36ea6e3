package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/evalbook/evalbook/pkg/tabular"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/llm"
)

func init() {
	register(&command{name: "judge", summary: "judge each response against its golden answer with a model (any OpenAI-compatible endpoint)", run: runJudge})
}

// judgeClientFlags are the flags of a model judge, shared by judge, calibrate
// and probes.
type judgeClientFlags struct {
	s              llm.Settings
	cache, prompts string
}

func addJudgeClientFlags(fs *flag.FlagSet, concurrency int) *judgeClientFlags {
	cf := &judgeClientFlags{}
	fs.StringVar(&cf.s.Model, "model", "", "judge model `NAME` as the endpoint knows it")
	fs.StringVar(&cf.s.APIKeyEnv, "api-key-env", llm.DefaultConfig.APIKeyEnv, "environment `variable` holding the API key (unset: no key sent)")
	fs.StringVar(&cf.cache, "cache", "", "reply cache `FILE` (JSON Lines, append-only); default evalbook/judge-cache.jsonl in the user cache directory; none: memory only")
	fs.StringVar(&cf.prompts, "prompts", "", "prompt `FILE` (JSON); default the built-in datasets/judge/prompts.json")
	fs.IntVar(&cf.s.Concurrency, "concurrency", concurrency, "`N` requests in flight at once")
	fs.IntVar(&cf.s.RPM, "rpm", 0, "at most `N` requests per minute (0: no limit)")
	fs.IntVar(&cf.s.Retries, "retries", llm.DefaultConfig.Retries, "`N` retries after a failed attempt (429, 5xx, timeout, network, malformed reply)")
	fs.DurationVar(&cf.s.Timeout, "timeout", llm.DefaultConfig.Timeout, "time allowed for each attempt (`duration`, e.g. 30s)")
	fs.StringVar(&cf.s.Seed, "model-seed", "", "sampling seed `N` sent with every request (default: none)")
	return cf
}

// modelJudge is an opened client with its cache.
type modelJudge struct {
	client    *llm.Client
	cache     *llm.Cache
	cachePath string
}

func (m *modelJudge) close() error { return m.cache.Close() }

// open checks the client flags and opens the cache and the client for
// endpoint. cmd names the command in messages.
func (cf *judgeClientFlags) open(e *env, cmd, endpoint string) (*modelJudge, error) {
	cf.s.BaseURL = endpoint
	cfg, err := cf.s.Config()
	for _, u := range []struct {
		err error
		msg string
	}{
		{llm.ErrNoModel, "--model is required with an endpoint"},
		{llm.ErrConcurrency, "--concurrency must be at least 1"},
		{llm.ErrLimits, "--rpm and --retries must not be negative, --timeout must be positive"},
		{llm.ErrSeed, fmt.Sprintf("--model-seed must be an integer, not %q", cf.s.Seed)},
	} {
		if errors.Is(err, u.err) {
			return nil, usagef("%s: %s", cmd, u.msg)
		}
	}
	if err != nil {
		return nil, usagef("%s: %v", cmd, err)
	}
	m := &modelJudge{}
	if m.cache, m.cachePath, err = llm.OpenCacheFile(cf.cache, filepath.Join("evalbook", "judge-cache.jsonl")); err != nil {
		if errors.Is(err, llm.ErrNoCacheDir) {
			return nil, fmt.Errorf("%s: %v; pass --cache FILE or --cache none", cmd, err)
		}
		return nil, err
	}
	for _, w := range m.cache.Warnings() {
		fmt.Fprintln(e.stderr, "evalbook: warning:", w)
	}
	cfg.Cache = m.cache
	cfg.Logf = func(format string, args ...any) {
		// "judge: " is the prefix these lines had when the client lived in
		// pkg/judge; pkg/llm's lines carry none.
		fmt.Fprintf(e.stderr, "evalbook: judge: "+format+"\n", args...)
	}
	if m.client, err = llm.NewClient(cfg); err != nil {
		m.cache.Close()
		return nil, usagef("%s: %v", cmd, err)
	}
	return m, nil
}

// report prints the client's request counts on stderr: they change from
// run to run (a rerun is served from the cache), so they stay out of the
// report itself.
func (m *modelJudge) report(e *env) {
	st := m.client.Stats()
	where := m.cachePath
	if where == "none" {
		where = "memory"
	}
	fmt.Fprintf(e.stderr, "evalbook: %d requests sent (%d retries), %d replies from the cache (%s)\n",
		st.Requests, st.Retries, st.CacheHits, where)
}

// interrupted turns a cancelled run into a message that says how to resume
// (or, with --cache none, that a rerun starts again).
func (m *modelJudge) interrupted(err error) error {
	if !errors.Is(err, context.Canceled) {
		return err
	}
	if m.cachePath == "none" {
		return fmt.Errorf("interrupted; with --cache none the %s received were kept in memory only and are lost, so running the command again starts from the beginning (pass --cache FILE to make a rerun resume)",
			nounCount(m.cache.Len(), "reply", "replies"))
	}
	return fmt.Errorf("interrupted; %s in the cache %s: run the same command again to resume", nounCount(m.cache.Len(), "reply is", "replies are"), m.cachePath)
}

// readJudgeData reads the file at path with read, or the built-in
// datasets/judge/builtin when path is empty, and returns what it read with
// the name it read it as.
func readJudgeData[T any](path, builtin string, read func(io.Reader, string) ([]T, error)) ([]T, string, error) {
	var f io.ReadCloser
	var err error
	if path == "" {
		path = "datasets/judge/" + builtin
		f, err = datasets.Judge.Open("judge/" + builtin)
	} else {
		f, err = os.Open(path)
	}
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	v, err := read(f, path)
	return v, path, err
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
		return judge.Prompt{}, usagef("%s: --prompt %s is a %s prompt; this command needs a %s prompt", cmd, p.ID(), p.Kind, kind)
	case err != nil:
		return judge.Prompt{}, usagef("%s: --prompt: %v", cmd, err)
	}
	return p, nil
}

// loadJudgePairs reads labelled pairs from path, or the built-in set with a
// note on stderr.
func loadJudgePairs(e *env, cmd, path string) ([]judge.Pair, string, error) {
	if path == "" {
		fmt.Fprintf(e.stderr, "evalbook: no --pairs given: %s uses the built-in datasets/judge/pairs.jsonl\n", cmd)
	}
	return readJudgeData(path, "pairs.jsonl", judge.ReadPairs)
}

// openPairJudge turns a --judge value into a pairwise judge: a named fake
// judge, or a model behind an endpoint asked with prompt p (then with its
// client, which the caller closes).
func openPairJudge(e *env, cmd, spec string, cf *judgeClientFlags, p judge.Prompt) (judge.Judge, string, *modelJudge, error) {
	s, err := judge.ParseSpec(spec)
	switch {
	case errors.Is(err, judge.ErrNoFake):
		return nil, "", nil, usagef("%s: --judge: %v", cmd, err)
	case err != nil:
		return nil, "", nil, usagef("%s: --judge must be fake:NAME or an endpoint URL such as http://127.0.0.1:8000/v1, not %q", cmd, spec)
	case s.Endpoint == "":
		j, name, err := s.Open(nil, p)
		return j, name, nil, err
	}
	m, err := cf.open(e, cmd, s.Endpoint)
	if err != nil {
		return nil, "", nil, err
	}
	j, name, err := s.Open(m.client, p)
	return j, name, m, err
}

// progress returns a callback drawing a progress bar on stderr when it is
// a terminal, and nil otherwise (pipes, files, tests), with a function
// that clears the bar.
func judgeProgress(e *env, total int, what string) (func(done, total int), func()) {
	f, ok := e.stderr.(*os.File)
	if !ok || total < 2 || os.Getenv("TERM") == "dumb" {
		return nil, func() {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil, func() {}
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	return func(done, _ int) { bar.Set(done) }, func() { bar.Finish() }
}

func runJudge(e *env) error {
	fs := newFlags(e, "judge")
	var (
		endpoint  = fs.String("endpoint", "", "base `URL` of an OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1")
		responses = fs.String("responses", "", "response table `FILE` (.csv, .jsonl); default: the built-in sample")
		promptID  = fs.String("prompt", "reference", "reference prompt `ID`: name, name@version or a hash prefix")
		limit     = fs.Int("limit", 0, "judge only the first `N` rows (0: all)")
		by        = fs.String("by", "Domain", "group by `COL` (\"\" for none)")
		out       = fs.String("out", "", "write the verdict `FILE` (CSV): input columns, exact_substring, word_overlap, llm_judge (1, 0, empty when invalid), llm_judge_reason")
		asJSON    = fs.Bool("json", false, "print one JSON document instead of tables")
		export    = addTableExportFlags(fs)
		rawCSV    = addRawCSVFlag(fs)
	)
	cf := addJudgeClientFlags(fs, 8)
	if err := parseNoArgs(e, fs, ""); err != nil {
		return err
	}
	if *endpoint == "" {
		return usagef("judge: --endpoint is required (e.g. http://127.0.0.1:8000/v1 for vLLM)")
	}
	if *limit < 0 {
		return usagef("judge: --limit must not be negative")
	}
	if *out != "" {
		if err := refuseDir(*out); err != nil {
			return usagef("judge: --out: %v", err)
		}
		if err := refuseInput(*out, *responses); err != nil {
			return usagef("judge: --out: %v", err)
		}
	}
	p, err := chooseJudgePrompt("judge", cf.prompts, *promptID, judge.KindReference)
	if err != nil {
		return err
	}
	data, name := datasets.Responses, datasets.ResponsesName
	if *responses == "" {
		fmt.Fprintf(e.stderr, "evalbook: no --responses given: judging the built-in sample %s\n", name)
	} else {
		if data, err = os.ReadFile(*responses); err != nil {
			return err
		}
		name = *responses
	}
	tbl, err := judge.ReadResponses(e.ctx, data, name, judge.ResponseOptions{By: *by, Limit: *limit})
	if err != nil {
		return err
	}
	m, err := cf.open(e, "judge", *endpoint)
	if err != nil {
		return err
	}
	defer m.close()
	j := judge.NewClientJudge(m.client, p)
	tick, finish := judgeProgress(e, tbl.Sendable(), "judging")
	res, err := judge.JudgeResponses(e.ctx, j, tbl, judge.RunOptions{
		Model: cf.s.Model, Endpoint: m.client.Endpoint(), Tool: "evalbook " + version,
		Workers: cf.s.Concurrency, Progress: tick,
	})
	finish()
	m.report(e)
	if err != nil {
		return m.interrupted(err)
	}
	res.Score.Created = createdTime()
	if *out != "" {
		if err := writeJudgeVerdicts(e, *out, tbl, *rawCSV); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "evalbook: wrote verdicts for %s to %s\n", nounCount(len(tbl.Rows), "row", "rows"), *out)
	}
	return render(e, res, *asJSON, export, "judge")
}

// writeJudgeVerdicts writes the verdict file (judge.Responses.WriteVerdicts)
// to path, atomically.
func writeJudgeVerdicts(e *env, path string, tbl *judge.Responses, raw bool) error {
	if raw {
		rawCSVNote(e, "judge")
	}
	w, commit, abort, err := createAtomic(path)
	if err != nil {
		return err
	}
	defer abort()
	guarded, err := tbl.WriteVerdictsCSV(w, tabular.CSVOptions{Raw: raw})
	if err != nil {
		return err
	}
	if err := commit(); err != nil {
		return err
	}
	formulaNote(e, "judge", path, guarded)
	return nil
}
