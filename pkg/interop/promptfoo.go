package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// promptfoo eval -o results.json writes {evalId, results, config,
// shareableUrl}; results is an EvaluateSummary: version 3 has
// {version, timestamp, results, prompts, stats}, version 2 {version,
// timestamp, results, table, stats} with the per-prompt figures under
// table.head.prompts. Each entry of results.results is one test case
// (testIdx, vars, testCase with its assertions) run through one prompt
// (promptIdx, prompt.raw, prompt.label) by one provider (provider.id,
// provider.label): success, score, namedScores, response.output,
// gradingResult (pass, score, reason, componentResults, one per
// assertion), error. A prompt's metrics sum the scores of its results
// (score, namedScores) and count passes, failures and errors.

func init() {
	Register(Format{Name: "promptfoo", Detect: detectPromptfoo, Read: readPromptfoo})
}

func detectPromptfoo(path string) bool {
	if !strings.EqualFold(filepath.Ext(path), ".json") {
		return false
	}
	h := headOf(path, 1<<16)
	return bytes.Contains(h, []byte(`"results"`)) && (bytes.Contains(h, []byte(`"evalId"`)) || bytes.Contains(h, []byte(`"promptIdx"`)) ||
		bytes.Contains(h, []byte(`"testIdx"`)) || bytes.Contains(h, []byte(`"gradingResult"`)))
}

type promptfooFile struct {
	EvalID  string          `json:"evalId"`
	Results json.RawMessage `json:"results"`
	Config  struct {
		Description string `json:"description"`
	} `json:"config"`
}

type promptfooSummary struct {
	Version *int              `json:"version"`
	Results []json.RawMessage `json:"results"`
	Prompts []promptfooPrompt `json:"prompts"`
	Table   *struct {
		Head struct {
			Prompts []promptfooPrompt `json:"prompts"`
		} `json:"head"`
	} `json:"table"`
	Stats *promptfooStats `json:"stats"`
}

type promptfooStats struct {
	Successes int `json:"successes"`
	Failures  int `json:"failures"`
	Errors    int `json:"errors"`
}

type promptfooPrompt struct {
	Raw      string `json:"raw"`
	Label    string `json:"label"`
	Provider string `json:"provider"`
	Metrics  *struct {
		Score            float64            `json:"score"`
		TestPassCount    int                `json:"testPassCount"`
		TestFailCount    int                `json:"testFailCount"`
		TestErrorCount   int                `json:"testErrorCount"`
		NamedScores      map[string]float64 `json:"namedScores"`
		NamedScoresCount map[string]int     `json:"namedScoresCount"`
	} `json:"metrics"`
}

type promptfooResult struct {
	PromptIdx *int            `json:"promptIdx"`
	TestIdx   *int            `json:"testIdx"`
	Provider  json.RawMessage `json:"provider"`
	Prompt    struct {
		Raw   string `json:"raw"`
		Label string `json:"label"`
	} `json:"prompt"`
	Vars     map[string]json.RawMessage `json:"vars"`
	TestCase struct {
		Description string `json:"description"`
		Assert      []struct {
			Type   string          `json:"type"`
			Value  json.RawMessage `json:"value"`
			Metric string          `json:"metric"`
		} `json:"assert"`
		Metadata map[string]json.RawMessage `json:"metadata"`
	} `json:"testCase"`
	Response *struct {
		Output     json.RawMessage `json:"output"`
		TokenUsage *struct {
			Prompt     int64 `json:"prompt"`
			Completion int64 `json:"completion"`
		} `json:"tokenUsage"`
	} `json:"response"`
	Success       *bool              `json:"success"`
	Score         *float64           `json:"score"`
	NamedScores   map[string]float64 `json:"namedScores"`
	GradingResult *struct {
		Pass             bool `json:"pass"`
		ComponentResults []struct {
			Pass      bool    `json:"pass"`
			Score     float64 `json:"score"`
			Assertion *struct {
				Type   string `json:"type"`
				Metric string `json:"metric"`
			} `json:"assertion"`
		} `json:"componentResults"`
	} `json:"gradingResult"`
	Error *string `json:"error"`
}

func providerName(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		return text(raw)
	}
	var p struct{ ID, Label string }
	_ = json.Unmarshal(raw, &p)
	if p.Label != "" {
		return p.Label
	}
	return p.ID
}

func readPromptfoo(ctx context.Context, path string, opt Options) (*Run, error) {
	run := &Run{Format: "promptfoo", Source: path, Files: []string{path}}
	data, err := readBounded(path, opt.Limits.File)
	if err != nil {
		return nil, err
	}
	var file promptfooFile
	if err := decodeDoc(path, data, &file); err != nil {
		return nil, err
	}
	sum, prefix, err := promptfooSummaryOf(path, data, file)
	if err != nil {
		return nil, err
	}
	run.Version = strconv.Itoa(*sum.Version)
	task := file.Config.Description
	if task == "" {
		task = "promptfoo"
	}
	prompts := sum.Prompts
	if sum.Table != nil && len(prompts) == 0 {
		prompts = sum.Table.Head.Prompts
	}
	names := promptfooNames{multiPrompt: len(prompts) > 1 && distinctPromptText(prompts) > 1}
	models := map[string]bool{}
	seen := map[string]int{}
	for i, raw := range sum.Results {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, err := promptfooSample(path, fmt.Sprintf("%sresults[%d]", prefix, i), raw, names, opt.NoText)
		if err != nil {
			return nil, err
		}
		s.Task, s.Line = task, i+1
		models[s.Model] = true
		if s.SampleID == "" { // version 2 files of older promptfoo: the test's place among this provider's results
			s.SampleID = strconv.Itoa(seen[s.Model])
		}
		seen[s.Model]++
		if err := run.add(&opt, &s); err != nil {
			return nil, err
		}
	}
	run.Reported = append(run.Reported, promptfooReported(prompts, sum.Stats, task, names)...)
	if len(models) == 1 {
		for m := range models {
			run.Model = m
		}
	}
	return run, nil
}

// promptfooSummaryOf decodes the results summary of a promptfoo output
// (inside its {evalId, results} wrapper, or the summary alone) and checks
// its version; prefix is where its fields are, for errors ("results." or
// "").
func promptfooSummaryOf(path string, data []byte, file promptfooFile) (promptfooSummary, string, error) {
	var sum promptfooSummary
	if len(file.Results) == 0 {
		return sum, "", perr(path, 0, "results", fmt.Errorf("%w \"results\": is this the output of promptfoo eval -o results.json?", ErrMissing))
	}
	prefix := "results."
	if file.Results[0] == '[' { // the summary itself, without the {evalId, results} wrapper
		if err := decodeDoc(path, data, &sum); err != nil {
			return sum, "", err
		}
		prefix = ""
	} else if err := decodeDoc(path, file.Results, &sum); err != nil {
		return sum, "", err
	}
	if sum.Version == nil {
		return sum, "", perr(path, 0, prefix+"version", fmt.Errorf("%w \"%sversion\": promptfoo's results state their version (2 or 3)", ErrMissing, prefix))
	}
	if *sum.Version < 2 || *sum.Version > 3 {
		return sum, "", perr(path, 0, prefix+"version", fmt.Errorf("%w: results version %d; this reader knows promptfoo's versions 2 and 3", ErrSchema, *sum.Version))
	}
	return sum, prefix, nil
}

// promptfooNames names a model: the provider, and the prompt's label too
// when the eval ran prompts of different text.
type promptfooNames struct{ multiPrompt bool }

func (n promptfooNames) model(provider, label string) string {
	if n.multiPrompt {
		return provider + " | " + label
	}
	return provider
}

// promptfooSample maps one promptfoo result (at: where it is, for
// errors) to a Sample: pass, score, named scores and each assertion as
// metrics; prompt, output and a golden answer from an equality or
// containment assertion as text (unless noText); token usage; vars as
// metadata (var/language or var/lang as the language).
func promptfooSample(path, at string, raw json.RawMessage, names promptfooNames, noText bool) (Sample, error) {
	var r promptfooResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return Sample{}, perr(path, 0, at, fmt.Errorf("not a promptfoo result: %v", err))
	}
	if r.Success == nil {
		return Sample{}, perr(path, 0, at+".success", fmt.Errorf("%w \"success\" in %s", ErrMissing, at))
	}
	prov := providerName(r.Provider)
	if prov == "" {
		return Sample{}, perr(path, 0, at+".provider", fmt.Errorf("%w \"provider\" in %s", ErrMissing, at))
	}
	label := r.Prompt.Label
	if label == "" {
		label = r.Prompt.Raw
	}
	s := Sample{Model: names.model(prov, label), File: path}
	if r.TestIdx != nil {
		s.SampleID = strconv.Itoa(*r.TestIdx)
	}
	s.SetMetric("pass", b2f(*r.Success))
	if r.Score != nil {
		s.SetMetric("score", *r.Score)
	}
	for k, v := range r.NamedScores {
		s.SetMetric("named/"+k, v)
	}
	if r.GradingResult != nil {
		count := map[string]int{}
		for _, c := range r.GradingResult.ComponentResults {
			name := "assert"
			if c.Assertion != nil {
				name = c.Assertion.Type
				if c.Assertion.Metric != "" {
					name = c.Assertion.Metric
				}
			}
			count[name]++
			if count[name] > 1 {
				name += "#" + strconv.Itoa(count[name])
			}
			s.SetMetric("assert/"+name, b2f(c.Pass))
		}
	}
	if !noText {
		promptfooText(&s, &r)
	}
	if r.Response != nil && r.Response.TokenUsage != nil {
		s.InputTokens, s.OutputTokens = r.Response.TokenUsage.Prompt, r.Response.TokenUsage.Completion
	}
	for _, k := range slices.Sorted(maps.Keys(r.Vars)) {
		v := text(r.Vars[k])
		s.Metadata = append(s.Metadata, KV{Key: "var/" + k, Value: v})
		if k == "language" || k == "lang" {
			s.Language = v
		}
	}
	if r.Error != nil && *r.Error != "" {
		s.Metadata = append(s.Metadata, KV{Key: "error", Value: *r.Error})
	}
	return s, nil
}

// promptfooText sets the sample's prompt, response and (from the first
// equality or containment assertion with a string or list value) golden
// answer.
func promptfooText(s *Sample, r *promptfooResult) {
	s.Prompt, s.HasPrompt = r.Prompt.Raw, true
	if r.Response != nil {
		s.Response, s.HasResponse = text(r.Response.Output), true
	}
	for _, a := range r.TestCase.Assert {
		switch a.Type {
		case "equals", "contains", "icontains", "starts-with", "contains-any", "icontains-any":
			if len(a.Value) > 0 && (a.Value[0] == '"' || a.Value[0] == '[') && !s.HasGolden {
				s.Golden, s.HasGolden = text(a.Value), true
			}
		}
	}
}

// promptfooReported returns the figures promptfoo reported itself: per
// prompt, the pass rate, mean score and named scores; over the whole
// eval, the pass rate of its stats.
func promptfooReported(prompts []promptfooPrompt, stats *promptfooStats, task string, names promptfooNames) []Aggregate {
	var out []Aggregate
	for _, p := range prompts {
		if p.Metrics == nil {
			continue
		}
		m := p.Metrics
		n := m.TestPassCount + m.TestFailCount + m.TestErrorCount
		if n == 0 {
			continue
		}
		label := p.Label
		if label == "" {
			label = p.Raw
		}
		mod := names.model(p.Provider, label)
		from := "the prompt's testPassCount+testFailCount+testErrorCount"
		out = append(out,
			Aggregate{Model: mod, Task: task, Metric: "pass", Value: float64(m.TestPassCount) / float64(n), Rounding: -1, Filter: "testPassCount/(pass+fail+error)", Expected: n, ExpectedFrom: from},
			Aggregate{Model: mod, Task: task, Metric: "score", Value: m.Score / float64(n), Rounding: -1, Filter: "metrics.score/tests", Expected: n, ExpectedFrom: from})
		for _, k := range slices.Sorted(maps.Keys(m.NamedScores)) {
			if c := m.NamedScoresCount[k]; c > 0 {
				out = append(out, Aggregate{Model: mod, Task: task, Metric: "named/" + k, Value: m.NamedScores[k] / float64(c), Rounding: -1, Expected: c, ExpectedFrom: "the prompt's namedScoresCount." + k})
			}
		}
	}
	if stats != nil {
		if n := stats.Successes + stats.Failures + stats.Errors; n > 0 {
			out = append(out, Aggregate{Model: AllModels, Task: task, Metric: "pass", Value: float64(stats.Successes) / float64(n), Rounding: -1, Filter: "stats.successes", Expected: n, ExpectedFrom: "stats.successes+failures+errors"})
		}
	}
	return out
}

// AllModels as an Aggregate's Model means the figure pools every model's
// samples of the task (promptfoo's stats over the whole eval).
const AllModels = "*"

func distinctPromptText(ps []promptfooPrompt) int {
	seen := map[string]bool{}
	for _, p := range ps {
		seen[p.Label+"\x00"+p.Raw] = true
	}
	return len(seen)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
