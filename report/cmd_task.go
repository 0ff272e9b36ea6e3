package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/parquetio"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/pkg/tasks"
	"github.com/evalbook/evalbook/report/internal/cli"
	"github.com/evalbook/evalbook/report/internal/record"
)

var taskCommands = []cli.Command{
	{Name: "task run", Summary: "run few-shot tasks (log-likelihood or letter multiple choice, generative) against an OpenAI-compatible endpoint", Run: runTaskRun},
	{Name: "task merge", Summary: "join the details files of a sharded task run and score them as one run", Run: runTaskMerge},
	{Name: "merge", Summary: "the same as task merge: join shard details files into one run", Run: runTaskMerge},
	{Name: "task list", Summary: "list the task files (suite|task and languages) evalbook task run knows", Run: runTaskList},
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

func runTaskRun(e *cli.Env) error {
	fs := cli.NewFlags(e, "task run")
	var (
		specs      = fs.String("tasks", "", "task strings `suite|task:language|shots|truncate`, comma-separated")
		taskDir    = cli.InputFlag(fs, "task-dir", "", "read task files (*.json) from `DIR` instead of the shipped ones")
		details    = cli.OutputFlag(fs, "details", "", "write every sample (prompt, responses, log-probabilities, extracted answers, tokens) to `FILE` (JSONL; Parquet when it ends in .parquet)")
		shard      = fs.String("shard", "", "run only shard `i/n` of the items (item index modulo n is i; 0 <= i < n)")
		seed       = fs.Int64("seed", 1, "few-shot draw and bootstrap `seed` (same seed: same examples for every model and run)")
		confidence = cli.AddConfidenceFlag(fs, "")
		prices     = cli.InputFlag(fs, "prices", "", "dated price `FILE` (JSON: date, currency, models.<name>.prompt_per_million, completion_per_million) to turn tokens into cost")
		batch      = cli.AddBatchFlags(fs)
		perChoice  = fs.Bool("per-choice", false, "score each choice with its own request (default: one request per item with every choice as a prompt list)")
		stopWhen   = fs.Float64("stop-when", 0, "stop each task once the anytime-valid confidence sequence of its main metric (acc; the match metric of a generative task) is at most `WIDTH` wide, e.g. 0.1; items go in a shuffle seeded by --seed, in blocks of 2 x concurrency")
	)
	var endpoints cli.MultiFlag
	fs.Var(&endpoints, "endpoint", "OpenAI-compatible base `URL`, e.g. http://127.0.0.1:8000/v1; give it again to spread the requests over several servers")
	cf := cli.AddClientFlags(fs, 32, "task-cache.jsonl", "task")
	export, rec := cli.AddTableExportFlags(fs), cli.AddRecordFlag(fs)
	if err := cli.ParseNoArgs(e, fs, ""); err != nil {
		return err
	}
	defer rec.Close()
	for _, f := range []struct{ name, val string }{{"--tasks", *specs}, {"--endpoint", strings.Join(endpoints, ",")}, {"--model", cf.S.Model}} {
		if f.val == "" {
			return cli.Usagef("task run: %s is required (see evalbook task run --help)", f.name)
		}
	}
	sh, shards, err := tasks.ParseShard(*shard)
	if err != nil {
		return cli.Usagef("task run: --%v", err)
	}
	if err := checkStopWhen(*stopWhen, shards, *shard, *batch.On); err != nil {
		return err
	}
	pr, err := tasks.ReadPricesFile(*prices)
	if err != nil {
		return err
	}
	cat, sp, err := resolveTasks(fs, *specs, *taskDir)
	if err != nil {
		return err
	}
	m, client, shown, err := openTaskClients(e, cf, endpoints)
	if err != nil {
		return err
	}
	defer m.Close()
	runOpt := tasks.Options{Catalog: cat, Specs: sp, Model: cf.S.Model, Endpoint: strings.Join(shown, " "), Seed: *seed, Shard: sh, Shards: shards, PerChoice: *perChoice,
		StopWhen: *stopWhen, StopConfidence: confidence.Level()}
	if *batch.On {
		reqs, err := tasks.Requests(e.Ctx, runOpt)
		if err != nil {
			return err
		}
		if err := batch.Submit(e, m, len(endpoints), llm.BatchJob{Samples: reqs}); err != nil {
			return err
		}
	}
	runOpt.Client, runOpt.Workers = client, 2*cf.S.Concurrency*len(endpoints)
	runOpt.Progress = progressLines(e, "evalbook task run: %d/%d items\n")
	d, err := tasks.Run(e.Ctx, runOpt)
	m.Report(e)
	if err != nil {
		return m.Interrupted(err)
	}
	if *details != "" {
		if err := parquetio.WriteTaskDetailsFile(*details, d); err != nil {
			return err
		}
	}
	r, err := tasks.Score(d, tasks.ScoreOptions{Confidence: confidence.Level(), Prices: pr})
	if err != nil {
		return err
	}
	if err := rec.RecordWith(e, "task run", func() (store.Run, error) { return record.FromTasks(d, r) }); err != nil {
		return err
	}
	if err := renderTaskRun(e, d, r, export); err != nil {
		return err
	}
	if r.Failed > 0 {
		return fmt.Errorf("task run: %s failed after retries and are left out of every figure; %s", cli.Plural(r.Failed, "item", "items"), m.Rerun(r.Failed, "item", "items"))
	}
	return nil
}

// checkStopWhen checks --stop-when: a width in (0, 1], the whole task in
// one run, and not with --batch.
func checkStopWhen(width float64, shards int, shard string, batch bool) error {
	switch {
	case width == 0:
		return nil
	case !(width > 0 && width <= 1):
		return cli.Usagef("task run: --stop-when %v: want an interval width above 0 and at most 1, e.g. 0.1", width)
	case shards > 1:
		return cli.Usagef("task run: --stop-when needs the whole task in one run; leave out --shard %s", shard)
	case batch:
		return cli.Usagef("task run: --stop-when stops sending requests as soon as the interval is narrow enough, --batch sends them all at once: use one of them")
	}
	return nil
}

// resolveTasks parses --tasks and finds every task in the catalog of
// --task-dir (or the shipped one). The data files that tasks of
// --task-dir name, known only now, are checked against the outputs: one
// reached through a link out of --task-dir would be replaced.
func resolveTasks(fs *flag.FlagSet, specs, taskDir string) (*tasks.Catalog, []tasks.Spec, error) {
	sp, err := tasks.ParseSpecs(specs)
	if err != nil {
		return nil, nil, cli.Usagef("task run: --tasks: %v", err)
	}
	cat, err := taskCatalog(taskDir)
	if err != nil {
		return nil, nil, err
	}
	for _, s := range sp {
		if _, err := cat.Resolve(s); err != nil {
			return nil, nil, cli.Usagef("task run: %v (see evalbook task list)", err)
		}
	}
	if taskDir != "" {
		for _, s := range sp {
			t, _ := cat.Resolve(s)
			if err := cli.GuardInputs(fs, fmt.Sprintf("the data file of task %s|%s", t.Suite, t.Name), filepath.Join(taskDir, filepath.FromSlash(t.DataFile(s.Language)))); err != nil {
				return nil, nil, err
			}
		}
	}
	return cat, sp, nil
}

// openTaskClients opens the client of the first --endpoint; further
// endpoints share its cache and settings, each with --concurrency
// requests in flight, and the requests are spread over them
// (tasks.Spread). It returns the first client (which the caller closes),
// the sampler to run with and the endpoints as shown.
func openTaskClients(e *cli.Env, cf *cli.ClientFlags, endpoints []string) (*cli.ModelClient, tasks.Sampler, []string, error) {
	for _, ep := range endpoints {
		if _, err := cf.Config(ep); err != nil {
			return nil, nil, nil, err
		}
	}
	m, err := cf.Open(e, endpoints[0])
	if err != nil {
		return nil, nil, nil, err
	}
	shown := []string{m.Client.Endpoint()}
	if len(endpoints) == 1 {
		return m, m.Client, shown, nil
	}
	spread := tasks.Spread{m.Client}
	for _, ep := range endpoints[1:] {
		cfg, err := cf.Config(ep)
		if err == nil {
			cfg.Cache = m.Cache
			var c *llm.Client
			if c, err = llm.NewClient(cfg); err != nil {
				err = cli.Usagef("task run: %v", err)
			} else {
				spread = append(spread, c)
				shown = append(shown, c.Endpoint())
			}
		}
		if err != nil {
			m.Close()
			return nil, nil, nil, err
		}
	}
	return m, spread, shown, nil
}

// renderTaskRun renders a task run's result; the workbook and the page
// show every item too (the page its first htmlreport.MaxTableRows).
func renderTaskRun(e *cli.Env, d *tasks.Details, r *tasks.Result, export *cli.TableExport) error {
	var rep results.Report = r
	if export.XLSX != "" || export.HTML != "" {
		st, err := tasks.SampleTable(d, 0)
		if err != nil {
			return err
		}
		rep = &tasks.RunReport{Result: r, Samples: st}
	}
	return cli.Render(e, rep, export)
}

func runTaskMerge(e *cli.Env) error {
	fs := cli.NewFlags(e, "task merge")
	var (
		out        = cli.OutputFlag(fs, "details", "", "also write the merged details to `FILE` (JSONL; Parquet when it ends in .parquet)")
		confidence = cli.AddConfidenceFlag(fs, "")
		prices     = cli.InputFlag(fs, "prices", "", "dated price `FILE` (JSON) to turn tokens into cost")
	)
	export := cli.AddTableExportFlags(fs)
	args, err := cli.ParseFlags(e, fs, cli.InputArgs)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return cli.Usagef("task merge: give the details files of every shard (see evalbook task merge --help)")
	}
	pr, err := tasks.ReadPricesFile(*prices)
	if err != nil {
		return err
	}
	var parts []*tasks.Details
	for _, p := range args {
		d, err := parquetio.ReadTaskDetailsFile(p)
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
		if err := parquetio.WriteTaskDetailsFile(*out, merged); err != nil {
			return err
		}
	}
	r, err := tasks.Score(merged, tasks.ScoreOptions{Confidence: confidence.Level(), Prices: pr})
	if err != nil {
		return err
	}
	return cli.Render(e, r, export)
}

func runTaskList(e *cli.Env) error {
	fs := cli.NewFlags(e, "task list")
	taskDir := cli.InputFlag(fs, "task-dir", "", "read task files (*.json) from `DIR` instead of the shipped ones")
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
