package depcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/evalbook/evalbook"

// Third-party modules named by DESIGN.md. A rule allows a module path and
// every package inside it.
const (
	xtext    = "golang.org/x/text"
	excelize = "github.com/xuri/excelize/v2"
	plot     = "gonum.org/v1/plot"
	gota     = "github.com/go-gota/gota"
	gonbui   = "github.com/janpfeifer/gonb/gonbui"
	gonb     = "github.com/janpfeifer/gonb" // the whole module: gonbui and the kernel
	sqlite   = "modernc.org/sqlite"
	arrow    = "github.com/apache/arrow-go/v18"
	// klauspost/compress is arrow-go's own Snappy encoder (it comes with
	// arrow-go); parquetio hands arrow-go its fast mode (issue 29).
	snappy = "github.com/klauspost/compress"
	// typesetting shapes the charts' Hindi and Bengali labels (HarfBuzz in Go), with
	// x/image's fixed-point type that its API speaks (issue 18).
	typesetting = "github.com/go-text/typesetting"
	ximage      = "golang.org/x/image"
)

// heavy are the edge libraries the core must never reach, not even through
// another module.
var heavy = []string{excelize, plot, gota, gonb, sqlite, arrow, typesetting}

// rules is DESIGN.md's "Which way dependencies point" as data. Every package
// may import the standard library. A package may also import the module
// packages listed in allow and, transitively, whatever those may import
// (module packages and third-party modules alike), as in the Go tree's
// deps_test.go: "results -> stats" and "qa -> results" let qa import stats.
//
// Decisions beyond DESIGN.md's text, recorded here so they are visible:
//   - score -> textnorm: the seed protocols lower-case and split exactly as
//     Python does, which is textnorm's job; textnorm stays the bottom layer.
//   - qa, design, harness, judge -> results: the integrator made pkg/results
//     a plain model that qa fills.
//
// Every arrow here is an import the code makes (TestNoStaleArrows), and
// DESIGN.md's list is rendered from this table (TestDesignArrows).
//   - report -> datasets: the command scores the embedded sample set.
//   - harness -> design: the sample system runs design's case records and
//     measures the metrics of design's plans (design never imports harness).
var rules = []rule{
	// Core: the standard library, golang.org/x/text and the core below them.
	// The byte-level fast paths under textnorm and the scoring loop (Python
	// lower-casing and whitespace, the NFC quick check and its generated
	// tables, UTF-8 validation, word spans), kept out of textnorm's API
	// (issue 12, REVIEW.md 8). textnorm wraps them for its documented
	// functions; qa and score call them directly in their inner loops.
	{pkg: "internal/fasttext", core: true, ext: []string{xtext}},
	{pkg: "pkg/textnorm", core: true, allow: []string{"internal/fasttext"}, ext: []string{xtext}},
	{pkg: "pkg/stats", core: true},
	// agree -> results: agree.Analyze fills results.RaterAgreement (issue 12:
	// analysis packages fill the plain result model below them).
	{pkg: "pkg/agree", core: true, allow: []string{"pkg/tabular", "pkg/results"}},
	// score -> fasttext: the tokenisers step over Indic text with
	// MaybeSpaceLead, and ROUGE splits words with WordSpans.
	{pkg: "pkg/score", core: true, allow: []string{"pkg/textnorm", "internal/fasttext"}},
	// results -> tabular: VerdictReader takes off the formula guard of
	// tabular.GuardFormula, the one rule of safe CSV (issue 17).
	{pkg: "pkg/results", core: true, allow: []string{"pkg/stats", "pkg/tabular"}}, // not agree: agree imports results
	// qa -> fasttext: the scoring loop lower-cases with the NFC and UTF-8
	// checks in one pass (AppendLowerCheck) and validates the other fields
	// with ValidUTF8.
	{pkg: "pkg/qa", core: true, allow: []string{"internal/rawpos", "internal/fasttext", "pkg/score", "pkg/stats", "pkg/textnorm", "pkg/results", "pkg/tabular"}},
	{pkg: "pkg/design", core: true, allow: []string{"internal/rawpos", "pkg/results", "pkg/stats", "pkg/tabular", "pkg/textnorm"}},                // stats: the Wilson intervals of plan gate's report
	{pkg: "pkg/harness", core: true, allow: []string{"pkg/design", "internal/rawpos", "pkg/results", "pkg/stats", "pkg/tabular", "pkg/textnorm"}}, // runs case records, measures a plan's metrics; stats for the intervals of its report
	// The OpenAI-compatible client (chat and completions, retries, cache),
	// split out of judge (issue 12, REVIEW.md 10): net/http and the standard
	// library only, no module package, so generate and future task runs can
	// use it without pulling in judging.
	{pkg: "pkg/llm", core: true},
	// generate asks a model for a response to every question of a dataset (evalbook
	// generate, issue 12): it sends them through pkg/llm, reads CSV and JSONL
	// datasets through pkg/tabular (its one ParseError) and registered formats
	// (.xlsx) through pkg/qa, settles languages with textnorm, and warns with
	// results.Warning.
	{pkg: "pkg/generate", core: true, allow: []string{"pkg/llm", "pkg/tabular", "pkg/qa", "pkg/textnorm", "pkg/results"}},
	// judge sends model judges' prompts through pkg/llm.
	{pkg: "pkg/judge", core: true, allow: []string{"pkg/llm", "pkg/qa", "pkg/agree", "pkg/jury", "pkg/results", "pkg/score", "pkg/stats", "pkg/tabular"}, ext: []string{xtext}}, // judge -> qa: judge.ReadResponses (evalbook judge's run summary, issue 12) reads and scores the response table with qa's seed metrics; qa does not import judge; judge -> jury: JuryLabels, judge --judges' labels
	// mc -> score: the choice metrics (acc, acc_norm, mrr, recall@k) and
	// their rules live in the registry, with the rank function task run uses.
	{pkg: "pkg/mc", core: true, allow: []string{"pkg/score", "pkg/stats", "pkg/textnorm", "pkg/results", "pkg/tabular"}, ext: []string{xtext}},
	{pkg: "pkg/leaderboard", core: true, allow: []string{"pkg/qa", "pkg/interop", "pkg/results", "pkg/score", "pkg/stats", "pkg/textnorm"}},
	// Bradley-Terry ratings from pairwise verdicts (evalbook ratings, issue 16):
	// reads the verdict file through pkg/tabular (its ParseError), fits and
	// bootstraps with pkg/stats, fills a result with results.Warning and Table.
	{pkg: "pkg/ratings", core: true, allow: []string{"pkg/results", "pkg/stats", "pkg/tabular"}},
	// A judge's pass rate corrected with human labels (evalbook correct, issue
	// 28): reads the two files through pkg/tabular, PPI and Rogan-Gladen from
	// pkg/stats, a results.Report.
	{pkg: "pkg/correct", core: true, allow: []string{"pkg/results", "pkg/stats", "pkg/tabular"}},
	// Issue 28: a jury of raters (majority, Dawid-Skene), repeated samples
	// per item (Miller's within/between split) and a 2PL item response fit:
	// each reads its long-form file through pkg/tabular, takes its
	// statistics from pkg/stats and fills a result with results' Warning and Table.
	{pkg: "pkg/jury", core: true, allow: []string{"pkg/results", "pkg/stats", "pkg/tabular"}},
	{pkg: "pkg/repeats", core: true, allow: []string{"pkg/results", "pkg/stats", "pkg/tabular"}},
	{pkg: "pkg/irt", core: true, allow: []string{"pkg/results", "pkg/stats", "pkg/tabular"}},
	// Two versions' verdict tables paired and compared (evalbook compare): it reads
	// CSV through pkg/tabular (whose ParseError it aliases) and fills results with
	// stats' paired comparison.
	{pkg: "pkg/compare", core: true, allow: []string{"pkg/results", "pkg/score", "pkg/stats", "pkg/tabular"}}, // compare -> score: compare --corpus scores corpus metrics (issue 28)
	// Other harnesses' outputs (lm-eval, inspect, promptfoo, Every Eval Ever,
	// lighteval, OpenAI batch) read into one model and checked (evalbook
	// import, issue 13): the standard library only (archive/zip for .eval
	// logs), results for the typed report and warnings, tabular for the one
	// ParseError, stats for the intervals of import's per-task means.
	// Parquet readers register from an edge package.
	{pkg: "pkg/interop", core: true, allow: []string{"pkg/results", "pkg/tabular", "pkg/compare", "pkg/sample", "pkg/stats"}},
	// The one evaluated-sample model (issue 26): samples, their metric definitions, figures per slice.
	{pkg: "pkg/sample", core: true, allow: []string{"pkg/results", "pkg/stats"}},
	// Task runs (evalbook task, issue 15): task files and data through
	// pkg/tabular (its ParseError), calls through pkg/llm, intervals and
	// pass@k/maj@k from pkg/stats, warnings and tables from pkg/results.
	// tasks -> score: every metric a task reports is the registry's.
	{pkg: "pkg/tasks", core: true, allow: []string{"pkg/llm", "pkg/tabular", "pkg/stats", "pkg/results", "pkg/score", "pkg/interop", "pkg/sample", "pkg/repeats"}}, // tasks -> repeats: Repeats, the repeated-samples analysis of generative details
	// The tiny bigram model behind a loopback server (its own, or llmtest's for tests) for pkg/tasks' tests, examples and notebook 10.
	{pkg: "pkg/tasks/tasktest", core: true, allow: []string{"internal/llmtest"}},
	// Places in raw input (a bad byte, the JSON key holding it) for readers' errors.
	{pkg: "internal/rawpos", core: true},
	// The loopback OpenAI-compatible server that pkg/llm's and pkg/judge's
	// tests share: the standard library only.
	{pkg: "internal/llmtest", core: true},
	// The helpers the reading-limit tests share (set tabular's limits, check a limit error).
	{pkg: "internal/limitstest", core: true, allow: []string{"pkg/tabular"}},
	// The Markdown link check of README.md, docs/ and the other guides:
	// the standard library only.
	{pkg: "internal/doclinks", core: true},
	// The command's output files (atomic replacement, refusing directories):
	// the standard library only.
	{pkg: "internal/outfile", core: true},
	// The one reader error (ParseError, ErrInvalidUTF8) and the small-table
	// reader; every reader above imports it, so it sits at the bottom with rawpos.
	{pkg: "pkg/tabular", core: true, allow: []string{"internal/rawpos"}},

	// Edge: adapters from the result model to heavy libraries.
	{pkg: "pkg/xlsxreport", allow: []string{"pkg/results"}, ext: []string{excelize}},
	// XLSX input: a reader registered with qa from the edge (issue 2: excelize stays out of the core).
	// xlsxread is the reader (xlsxreport, above, the writer).
	{pkg: "pkg/xlsxread", allow: []string{"pkg/qa"}, ext: []string{excelize}},
	// labelbook is the human-labelling round trip in Excel (label export /
	// import): it opens workbooks through xlsxread's bounded reader and
	// measures the labellers' agreement with agree.
	{pkg: "pkg/labelbook", allow: []string{"pkg/agree", "pkg/results", "pkg/tabular", "pkg/xlsxread"}, ext: []string{excelize}},
	// Parquet in and out (issue 13): arrow-go and its codecs, thrift and
	// flatbuffers are a large tree, so the core must never import arrow-go
	// (it is in heavy); parquetio registers its reader with qa from the
	// edge, as xlsxread does, and writes results.Row values.
	{pkg: "pkg/parquetio", allow: []string{"pkg/qa", "pkg/results", "pkg/tabular", "pkg/interop", "pkg/tasks", "internal/outfile"}, ext: []string{arrow, snappy}},
	{pkg: "pkg/htmlreport", allow: []string{"pkg/results"}}, // html/template is in the standard library
	{pkg: "pkg/chart", allow: []string{"pkg/results"}, ext: []string{plot, typesetting, ximage}},
	{pkg: "pkg/frame", allow: []string{"pkg/results", "pkg/tabular", "pkg/qa", "pkg/compare"}, ext: []string{gota}}, // frame.Score and frame.Models: the core on a DataFrame
	// The run store (issue 14): SQLite through modernc.org/sqlite (pure Go, no
	// cgo) is an edge library; the store reads the result model and reuses the
	// paired statistics, and nothing in the core imports it.
	// Storage only (issue 26): the runs of mc, judge, task run and generate
	// are built by report/internal/record, so store imports none of them.
	{pkg: "pkg/store", allow: []string{"pkg/results", "pkg/stats", "pkg/sample"}, ext: []string{sqlite}}, // store -> sample: Samples gives a stored run as the one sample model
	// The run store as a static site (evalbook runs report, issue 27): pages from the store's runs and diffs,
	// a diff page drawn by htmlreport as runs diff --html draws it.
	{pkg: "pkg/runsite", allow: []string{"pkg/store", "pkg/results", "pkg/htmlreport"}},
	// output: writing a result's outputs, for the command and notebooks alike: the files a result
	// becomes (workbook, page, charts) and where a scoring run's rows go (verdict CSV, Parquet file
	// and folder, Every Eval Ever, a spool for reports).
	{pkg: "pkg/output", allow: []string{"pkg/results", "pkg/xlsxreport", "pkg/htmlreport", "pkg/chart", "pkg/qa", "pkg/parquetio", "pkg/interop", "internal/outfile"}},
	// replay: a saved result read back into its type by its kind (evalbook report --from), for the
	// command and notebooks alike; edge because store and labelbook are.
	{pkg: "pkg/replay", allow: []string{"pkg/correct", "pkg/design", "pkg/generate", "pkg/harness", "pkg/interop", "pkg/irt", "pkg/judge", "pkg/jury", "pkg/labelbook", "pkg/leaderboard", "pkg/mc", "pkg/ratings", "pkg/repeats", "pkg/results", "pkg/store", "pkg/tasks"}},
	{pkg: "pkg/nb", allow: []string{"pkg/htmlreport", "pkg/chart", "pkg/frame"}, ext: []string{gonbui}},

	// The command framework (issue 12, moved under the command by issue 26):
	// the App (its commands, help and version), exit statuses, usage errors,
	// flag parsing and the flags many commands share, output files and the
	// report files a result becomes; only the commands in report/ call it.
	{pkg: "report/internal/cli", allow: []string{"pkg/results", "pkg/score", "pkg/tabular", "pkg/textnorm", "pkg/xlsxread", "pkg/output", "pkg/htmlreport", "pkg/chart", "pkg/store", "pkg/qa", "pkg/judge", "pkg/mc", "pkg/generate", "pkg/llm", "internal/outfile", "report/internal/record"}, ext: []string{"github.com/schollz/progressbar/v3"}}, // the LLM commands' progress bar on a terminal

	// The runs the command records from mc, judge, task run and generate
	// results (FromMC, FromJudge, FromTasks, Generate), beside their one caller.
	{pkg: "report/internal/record", allow: []string{"pkg/store", "pkg/generate", "pkg/judge", "pkg/mc", "pkg/qa", "pkg/results", "pkg/tabular", "pkg/tasks"}},

	// The command links neither gota nor gonbui.
	{
		pkg:   "report",
		allow: []string{"pkg/...", "datasets", "report/internal/cli", "report/internal/record"},
		deny:  []string{"pkg/frame", "pkg/nb"},
		// (the progress bar of the LLM commands is drawn by report/internal/cli)
		forbidDeps: []string{gota, gonb, module + "/pkg/frame", module + "/pkg/nb"},
	},

	// The README's library tour: what a program using the library imports.
	{pkg: "examples/...", allow: []string{"pkg/...", "datasets"}, deny: []string{"pkg/frame", "pkg/nb"}},

	// Sample data and repository tooling: the standard library only.
	{pkg: "datasets"},
	{pkg: "internal/depcheck"},
	{pkg: "internal/tools/..."},
	// The coverage table of the README (issue 16): exact coverage of
	// stats.ProportionInterval's methods, so it needs pkg/stats.
	{pkg: "internal/tools/coverage", allow: []string{"pkg/stats"}},
	// scripts/screenshots.sh's helper serves the loopback bigram model of
	// the task-run tests, so that task run's page is made without a network.
	{pkg: "internal/tools/shots", allow: []string{"pkg/tasks/tasktest"}},
}

// TestDependencyRules checks every package of this module, as `go list`
// sees it now, against rules.
func TestDependencyRules(t *testing.T) {
	pkgs := listModule(t)
	if len(pkgs) == 0 {
		t.Fatal("go list returned no packages")
	}
	var mine int
	for _, p := range pkgs {
		if p.Error != nil {
			// go vet and go test report broken packages; here we check what resolved.
			t.Logf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		if inModule(p.ImportPath) {
			mine++
			if _, ok := findRule(rules, rel(p.ImportPath)); !ok && !strings.HasPrefix(rel(p.ImportPath), "pkg/") {
				t.Logf("%s has no rule; packages outside pkg/ without a rule are not checked", rel(p.ImportPath))
			}
		}
	}
	// This package itself and report exist from the start, so a listing
	// without them means the walk went wrong, not that the module is clean.
	for _, want := range []string{"internal/depcheck", "report"} {
		found := false
		for _, p := range pkgs {
			found = found || p.ImportPath == module+"/"+want
		}
		if !found {
			t.Fatalf("go list did not report %s; is the test running inside the module?", want)
		}
	}
	for _, v := range check(pkgs, rules) {
		t.Error(v)
	}
	t.Logf("checked %d packages of %s against %d rules", mine, module, len(rules))
}

// listModule runs `go list -deps -json ./...` at the module root (once
// per test binary).
func listModule(t *testing.T) []listedPackage {
	t.Helper()
	pkgs, err := listed()
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// moduleRoot is the folder of the module's go.mod.
func moduleRoot() (string, error) {
	goCmd, err := exec.LookPath("go") // go test puts GOROOT/bin first on PATH
	if err != nil {
		return "", fmt.Errorf("cannot find the go command: %v", err)
	}
	gomod, err := exec.Command(goCmd, "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(gomod))), nil
}

// goList runs `go list -e -deps -json ./...` at the module root.
func goList() ([]listedPackage, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("go", "list", "-e", "-deps",
		"-json=ImportPath,Standard,Imports,Deps,Error", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list in %s: %v\n%s", root, err, stderr.String())
	}
	pkgs, err := decodeList(out)
	if err != nil {
		return nil, fmt.Errorf("decoding go list output: %v", err)
	}
	return pkgs, nil
}

// decodeList reads the stream of JSON objects `go list -json` prints.
func decodeList(b []byte) ([]listedPackage, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var pkgs []listedPackage
	for {
		var p listedPackage
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			return pkgs, nil
		}
		if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
}
