package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/internal/cli"
	"github.com/evalbook/evalbook/internal/outfile"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/parquetio"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/pkg/tasks"
)

func init() {
	cli.Register(&cli.Command{Name: "task run", Summary: "run few-shot tasks (log-likelihood or letter multiple choice, generative) against an OpenAI-compatible endpoint", Run: runTaskRun})
	cli.Register(&cli.Command{Name: "task merge", Summary: "join the details files of a sharded task run and score them as one run", Run: runTaskMerge})
	cli.Register(&cli.Command{Name: "merge", Summary: "the same as task merge: join shard details files into one run", Run: runTaskMerge})
	cli.Register(&cli.Command{Name: "task list", Summary: "list the task files (suite|task and languages) evalbook task run knows", Run: runTaskList})
}

// taskCatalog opens the task files of dir, or the shipped ones.
func taskCatalog(dir string) (*tasks.Catalog, error) {
	if dir == "" {
		return tasks.LoadCatalog(datasets.Tasks, datasets.TasksRoot)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, cli.Usagef("--task-dir %q is not a folder", dir)
	}
	return tasks.LoadCatalog(os.DirFS(dir), ".")
}

// parseShard reads --shard i/n (0 <= i < n).
func parseShard(s string) (int, int, error) {
	if s == "" {
		return 0, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, cli.Usagef("task run: --shard %q: want i/n with 0 <= i < n, e.g. 0/4 to 3/4", s)
	}
	return i, n, nil
}

// readPrices reads --prices ("" for none), at most 1 MiB.
func readPrices(path string) (*tasks.Prices, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 1<<20+1))
	if err != nil {
		return nil, err
	}
	if len(data) > 1<<20 {
		return nil, fmt.Errorf("%s: over 1 MiB; a price file is small", path)
	}
	return tasks.ParsePrices(data, path)
}

// endpointList is a flag given once or more.
type endpointList []string

func (l *endpointList) String() string { return strings.Join(*l, ",") }

func (l *endpointList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// isParquet says a details file is Parquet (by its extension), not JSONL.
func isParquet(path string) bool { return strings.EqualFold(filepath.Ext(path), ".parquet") }

func writeDetailsFile(path string, d *tasks.Details) error {
	w, commit, abort, err := outfile.Create(path)
	if err != nil {
		return err
	}
	write := tasks.WriteDetails
	if isParquet(path) {
		write = func(w io.Writer, d *tasks.Details) error {
			return parquetio.WriteTaskDetails(w, d, parquetio.WriteOptions{})
		}
	}
	if err := write(w, d); err != nil {
		abort()
		return err
	}
	return commit()
}

func runTaskRun(e *cli.Env) error {
	fs := cli.NewFlags(e, "task run")
	var (
		specs      = fs.String("tasks", "", "task strings `suite|task:language|shots|truncate`, comma-separated")
		taskDir    = fs.String("task-dir", "", "read task files (*.json) from `DIR` instead of the shipped ones")
		details    = fs.String("details", "", "write every sample (prompt, responses, log-probabilities, extracted answers, tokens) to `FILE` (JSONL; Parquet when it ends in .parquet)")
		shard      = fs.String("shard", "", "run only shard `i/n` of the items (item index modulo n is i; 0 <= i < n)")
		seed       = fs.Int64("seed", 1, "few-shot draw and bootstrap `seed` (same seed: same examples for every model and run)")
		confidence = fs.Float64("confidence", 0.95, "confidence `level` of the intervals, between 0 and 1")
		prices     = fs.String("prices", "", "dated price `FILE` (JSON: date, currency, models.<name>.prompt_per_million, completion_per_million) to turn tokens into cost")
		batch      = addBatchFlags(fs)
		perChoice  = fs.Bool("per-choice", false, "score each choice with its own request (default: one request per item with every choice as a prompt list)")
	)
	var endpoints endpointList
	fs.Var(&endpoints, "endpoint", "OpenAI-compatible base `URL`, e.g. http://127.0.0.1:8000/v1; give it again to spread the requests over several servers")
	cf := addClientFlags(fs, 32, "task-cache.jsonl", "task")
	export, rec := cli.AddTableExportFlags(fs), cli.AddRecordFlag(fs)
	if err := cli.ParseNoArgs(e, fs, ""); err != nil {
		return err
	}
	defer rec.Close()
	for _, f := range []struct{ name, val string }{{"--tasks", *specs}, {"--endpoint", strings.Join(endpoints, ",")}, {"--model", cf.s.Model}} {
		if f.val == "" {
			return cli.Usagef("task run: %s is required (see evalbook task run --help)", f.name)
		}
	}
	if *confidence <= 0 || *confidence >= 1 {
		return cli.Usagef("task run: --confidence must be between 0 and 1")
	}
	sh, shards, err := parseShard(*shard)
	if err != nil {
		return err
	}
	pr, err := readPrices(*prices)
	if err != nil {
		return err
	}
	sp, err := tasks.ParseSpecs(*specs)
	if err != nil {
		return cli.Usagef("task run: --tasks: %v", err)
	}
	cat, err := taskCatalog(*taskDir)
	if err != nil {
		return err
	}
	for _, s := range sp {
		if _, err := cat.Resolve(s); err != nil {
			return cli.Usagef("task run: %v (see evalbook task list)", err)
		}
	}
	if *details != "" {
		if err := cli.CheckOut("task run", *details); err != nil {
			return err
		}
	}
	for _, ep := range endpoints {
		if _, err := cf.config(ep); err != nil {
			return err
		}
	}
	m, err := cf.open(e, endpoints[0])
	if err != nil {
		return err
	}
	defer m.close()
	// Further endpoints share the first one's cache and settings; each has
	// --concurrency requests in flight.
	var client tasks.Sampler = m.client
	shown := []string{m.client.Endpoint()}
	if len(endpoints) > 1 {
		spread := tasks.Spread{m.client}
		for _, ep := range endpoints[1:] {
			cfg, err := cf.config(ep)
			if err != nil {
				return err
			}
			cfg.Cache = m.cache
			c, err := llm.NewClient(cfg)
			if err != nil {
				return cli.Usagef("task run: %v", err)
			}
			spread = append(spread, c)
			shown = append(shown, c.Endpoint())
		}
		client = spread
	}
	runOpt := tasks.Options{Catalog: cat, Specs: sp, Model: cf.s.Model, Endpoint: strings.Join(shown, " "), Seed: *seed, Shard: sh, Shards: shards, PerChoice: *perChoice}
	if *batch.on {
		reqs, err := tasks.Requests(e.Ctx, runOpt)
		if err != nil {
			return err
		}
		if err := batch.submit(e, m, len(endpoints), llm.BatchJob{Samples: reqs}); err != nil {
			return err
		}
	}
	last := time.Now()
	runOpt.Client, runOpt.Workers = client, 2*cf.s.Concurrency*len(endpoints)
	runOpt.Progress = func(done, total int) {
		if time.Since(last) > 2*time.Second || done == total {
			fmt.Fprintf(e.Stderr, "evalbook task run: %d/%d items\n", done, total)
			last = time.Now()
		}
	}
	d, err := tasks.Run(e.Ctx, runOpt)
	m.report(e)
	if err != nil {
		return m.interrupted(err)
	}
	if *details != "" {
		if err := writeDetailsFile(*details, d); err != nil {
			return err
		}
	}
	r, err := tasks.Score(d, tasks.ScoreOptions{Confidence: *confidence, Prices: pr})
	if err != nil {
		return err
	}
	if err := rec.RecordWith(e, "task run", func() (store.Run, error) { return store.FromTasks(d, r) }); err != nil {
		return err
	}
	if err := cli.Render(e, r, export); err != nil {
		return err
	}
	if r.Failed > 0 {
		return fmt.Errorf("task run: %s failed after retries and are left out of every figure; %s", cli.Plural(r.Failed, "item", "items"), m.rerun(r.Failed, "item", "items"))
	}
	return nil
}

func runTaskMerge(e *cli.Env) error {
	fs := cli.NewFlags(e, "task merge")
	var (
		out        = fs.String("details", "", "also write the merged details to `FILE` (JSONL; Parquet when it ends in .parquet)")
		confidence = fs.Float64("confidence", 0.95, "confidence `level` of the intervals, between 0 and 1")
		prices     = fs.String("prices", "", "dated price `FILE` (JSON) to turn tokens into cost")
	)
	export := cli.AddTableExportFlags(fs)
	args, err := cli.ParseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return cli.Usagef("task merge: give the details files of every shard (see evalbook task merge --help)")
	}
	if *confidence <= 0 || *confidence >= 1 {
		return cli.Usagef("task merge: --confidence must be between 0 and 1")
	}
	if *out != "" {
		if err := cli.CheckOut("task merge", *out, args...); err != nil {
			return err
		}
	}
	pr, err := readPrices(*prices)
	if err != nil {
		return err
	}
	var parts []*tasks.Details
	for _, p := range args {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		read := tasks.ReadDetails
		if isParquet(p) {
			read = func(r io.Reader, name string) (*tasks.Details, error) {
				return parquetio.ReadTaskDetails(r, name, parquetio.ReadOptions{})
			}
		}
		d, err := read(f, p)
		f.Close()
		if err != nil {
			return err
		}
		parts = append(parts, d)
	}
	merged, err := tasks.Merge(parts)
	if err != nil {
		return err
	}
	if *out != "" {
		if err := writeDetailsFile(*out, merged); err != nil {
			return err
		}
	}
	r, err := tasks.Score(merged, tasks.ScoreOptions{Confidence: *confidence, Prices: pr})
	if err != nil {
		return err
	}
	return cli.Render(e, r, export)
}

func runTaskList(e *cli.Env) error {
	fs := cli.NewFlags(e, "task list")
	taskDir := fs.String("task-dir", "", "read task files (*.json) from `DIR` instead of the shipped ones")
	if err := cli.ParseNoArgs(e, fs, ""); err != nil {
		return err
	}
	cat, err := taskCatalog(*taskDir)
	if err != nil {
		return err
	}
	for _, n := range cat.Names() {
		t := cat.Task(n)
		fmt.Fprintf(e.Stdout, "%-22s %-11s %s\n", n, t.Kind, strings.Join(t.LanguageNames(), ", "))
	}
	return nil
}
