package interop

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// Every Eval Ever (evaleval/every_eval_ever) stores one evaluation of
// one model as an aggregate JSON document (schema_version, evaluation_id,
// source_metadata, eval_library, model_info, evaluation_results: each an
// evaluation_name with metric_config and score_details {score,
// uncertainty}) and, optionally, its per-sample records as JSONL named
// by detailed_evaluation_results.file_path (a path in the EEE
// repository, data/<benchmark>/<developer>/<model>/<uuid>_samples.jsonl)
// with a checksum. Each instance line has schema_version, evaluation_id,
// model_id, evaluation_name, sample_id, input {raw, reference}, output
// {raw}, evaluation {score, is_correct}. Schemas 0.2.0 to 0.2.3 and 0.3.0
// are read; before 0.2.3 source_data sat at the top level of the
// aggregate instead of in each evaluation result.

func init() {
	Register(Format{Name: "eee", Detect: detectEEE, Read: readEEE})
}

// EEESchema is the schema version the writer produces.
const EEESchema = "0.3.0"

func eeeSupported(v string) bool {
	return v == "0.3.0" || strings.HasPrefix(v, "0.2.")
}

func detectEEE(path string) bool {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return len(eeeAggregates(path)) > 0
	}
	if !strings.EqualFold(filepath.Ext(path), ".json") {
		return false
	}
	h := headOf(path, 1<<14)
	return bytes.Contains(h, []byte(`"schema_version"`)) && bytes.Contains(h, []byte(`"evaluation_id"`))
}

// eeeAggregates lists the aggregate files in dir (not its subfolders).
func eeeAggregates(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			h := headOf(p, 1<<14)
			if bytes.Contains(h, []byte(`"schema_version"`)) && bytes.Contains(h, []byte(`"evaluation_results"`)) {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

type eeeAggregate struct {
	SchemaVersion string          `json:"schema_version"`
	EvaluationID  string          `json:"evaluation_id"`
	SourceData    json.RawMessage `json:"source_data"` // schemas before 0.2.3
	ModelInfo     *struct {
		Name string `json:"name"`
		ID   string `json:"id"`
	} `json:"model_info"`
	Results []struct {
		ResultID     string          `json:"evaluation_result_id"`
		Name         string          `json:"evaluation_name"`
		SourceData   json.RawMessage `json:"source_data"`
		MetricConfig *struct {
			MetricID   string `json:"metric_id"`
			MetricName string `json:"metric_name"`
		} `json:"metric_config"`
		ScoreDetails *struct {
			Score       *float64 `json:"score"`
			Uncertainty *struct {
				StandardError *struct {
					Value float64 `json:"value"`
				} `json:"standard_error"`
				NumSamples *int `json:"num_samples"`
			} `json:"uncertainty"`
		} `json:"score_details"`
	} `json:"evaluation_results"`
	Detailed *struct {
		Format        string `json:"format"`
		FilePath      string `json:"file_path"`
		HashAlgorithm string `json:"hash_algorithm"`
		Checksum      string `json:"checksum"`
		TotalRows     *int   `json:"total_rows"`
	} `json:"detailed_evaluation_results"`
}

func readEEE(ctx context.Context, path string, opt Options) (*Run, error) {
	run := &Run{Format: "eee", Source: path}
	files := []string{path}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		if files = eeeAggregates(path); len(files) == 0 {
			return nil, perr(path, 0, "", fmt.Errorf("%w: no Every Eval Ever aggregate (.json with schema_version and evaluation_results) in the folder", ErrMissing))
		}
	}
	models := map[string]bool{}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := readEEEOne(f, opt, run, models); err != nil {
			return nil, err
		}
	}
	if len(models) == 1 {
		for m := range models {
			run.Model = m
		}
	}
	return run, nil
}

func readEEEOne(path string, opt Options, run *Run, models map[string]bool) error {
	run.Files = append(run.Files, path)
	data, err := readBounded(path, opt.Limits.File)
	if err != nil {
		return err
	}
	var a eeeAggregate
	if err := decodeDoc(path, data, &a); err != nil {
		return err
	}
	if a.SchemaVersion == "" {
		return perr(path, 0, "schema_version", fmt.Errorf("%w \"schema_version\"", ErrMissing))
	}
	if !eeeSupported(a.SchemaVersion) {
		return perr(path, 0, "schema_version", fmt.Errorf("%w: schema_version %q; this reader knows Every Eval Ever 0.2.x and %s", ErrSchema, a.SchemaVersion, EEESchema))
	}
	if a.SchemaVersion == EEESchema && len(a.SourceData) > 0 {
		return perr(path, 0, "source_data", fmt.Errorf("%w: a top-level source_data belongs to schemas before 0.2.3; in %s each evaluation result has its own", ErrSchema, EEESchema))
	}
	run.Version = a.SchemaVersion
	if a.ModelInfo == nil || a.ModelInfo.ID == "" {
		return perr(path, 0, "model_info.id", fmt.Errorf("%w \"model_info.id\"", ErrMissing))
	}
	model := a.ModelInfo.ID
	models[model] = true
	if len(a.Results) == 0 {
		return perr(path, 0, "evaluation_results", fmt.Errorf("%w: no evaluation_results", ErrMissing))
	}
	metricOf := map[string]string{} // evaluation_name or result id -> metric
	for i, r := range a.Results {
		at := fmt.Sprintf("evaluation_results[%d]", i)
		if r.Name == "" {
			return perr(path, 0, at+".evaluation_name", fmt.Errorf("%w \"evaluation_name\" in %s", ErrMissing, at))
		}
		if r.ScoreDetails == nil || r.ScoreDetails.Score == nil {
			return perr(path, 0, at+".score_details.score", fmt.Errorf("%w \"score_details.score\" in %s (%s)", ErrMissing, at, r.Name))
		}
		if len(r.SourceData) == 0 && len(a.SourceData) == 0 {
			return perr(path, 0, at+".source_data", fmt.Errorf("%w \"source_data\" in %s (%s)", ErrMissing, at, r.Name))
		}
		metric := "score"
		if r.MetricConfig != nil {
			if r.MetricConfig.MetricID != "" {
				metric = r.MetricConfig.MetricID
			} else if r.MetricConfig.MetricName != "" {
				metric = r.MetricConfig.MetricName
			}
		}
		metricOf[r.Name] = metric
		if r.ResultID != "" {
			metricOf["id:"+r.ResultID] = metric
		}
		ag := Aggregate{Model: model, Task: r.Name, Metric: metric, Value: *r.ScoreDetails.Score, Rounding: -1}
		if u := r.ScoreDetails.Uncertainty; u != nil && u.StandardError != nil {
			ag.Stderr, ag.HasStderr = u.StandardError.Value, true
		}
		if u := r.ScoreDetails.Uncertainty; u != nil && u.NumSamples != nil && *u.NumSamples > 0 {
			ag.Expected, ag.ExpectedFrom = *u.NumSamples, at+".score_details.uncertainty.num_samples in "+filepath.Base(path)
		} else if len(a.Results) == 1 && a.Detailed != nil && a.Detailed.TotalRows != nil && *a.Detailed.TotalRows > 0 {
			ag.Expected, ag.ExpectedFrom = *a.Detailed.TotalRows, "detailed_evaluation_results.total_rows in "+filepath.Base(path)
		}
		run.Reported = append(run.Reported, ag)
	}
	if a.Detailed == nil || a.Detailed.FilePath == "" {
		run.warn(CodeNoInstanceFile, 1, "%s names no per-sample file (detailed_evaluation_results): only its aggregates are read", filepath.Base(path))
		return nil
	}
	inst, err := findInstanceFile(path, a.Detailed.FilePath, opt.Root)
	if err != nil {
		return err
	}
	run.Files = append(run.Files, inst)
	var h hash.Hash
	switch a.Detailed.HashAlgorithm {
	case "sha256":
		h = sha256.New()
	case "md5":
		h = md5.New()
	}
	n, err := readEEEInstances(inst, model, metricOf, h, opt, run)
	if err != nil {
		return err
	}
	if h != nil && a.Detailed.Checksum != "" {
		if got := hex.EncodeToString(h.Sum(nil)); !strings.EqualFold(got, a.Detailed.Checksum) {
			run.warn(CodeChecksumMismatch, 1, "%s: %s is %s, but the aggregate %s records %s: the file changed after the aggregate was written", filepath.Base(inst), a.Detailed.HashAlgorithm, got, filepath.Base(path), a.Detailed.Checksum)
		}
	}
	if a.Detailed.TotalRows != nil && *a.Detailed.TotalRows != n {
		run.warn(CodeRowCountMismatch, 1, "%s has %d records; the aggregate records total_rows %d", filepath.Base(inst), n, *a.Detailed.TotalRows)
		if n < *a.Detailed.TotalRows {
			run.Short = append(run.Short, fmt.Sprintf("%s: %d of the %d rows its aggregate %s records (detailed_evaluation_results.total_rows)", inst, n, *a.Detailed.TotalRows, filepath.Base(path)))
		}
	}
	return nil
}

// findInstanceFile resolves the aggregate's file_path, a path in the EEE
// repository, inside root (the folder imported: Options.Root, or the
// aggregate's folder): beside the aggregate (its base name), relative to
// the aggregate's folder, or relative to a folder between it and root
// (the repository root of a checkout, when root is that checkout). An
// absolute path, a path with .. and a path whose real place (symbolic
// links followed) is outside root are refused before any file is
// opened: a harness file names what evalbook reads only inside the
// folder it was given.
func findInstanceFile(aggregate, filePath, root string) (string, error) {
	dir := filepath.Dir(aggregate)
	if root == "" {
		root = dir
	}
	const field = "detailed_evaluation_results.file_path"
	fp := filepath.FromSlash(filePath)
	if !filepath.IsLocal(fp) || strings.Contains(filePath, `\`) {
		return "", perr(aggregate, 0, field, fmt.Errorf("%w: the per-sample file %q is not a path inside the imported folder %s (absolute, or leaving it with ..): evalbook reads nothing outside the folder it was given; put the file beside the aggregate and name it by its base name", ErrOutside, filePath, root))
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	realRoot, _ = filepath.Abs(realRoot)
	cands := []string{filepath.Join(dir, filepath.Base(fp)), filepath.Join(dir, fp)}
	if rel, err := filepath.Rel(root, dir); err == nil && filepath.IsLocal(rel) {
		for d := dir; d != filepath.Clean(root); {
			d = filepath.Dir(d)
			cands = append(cands, filepath.Join(d, fp))
		}
	}
	for _, c := range cands {
		st, err := os.Lstat(c)
		if err != nil || st.IsDir() {
			continue
		}
		real, err := filepath.EvalSymlinks(c) // reads links, opens nothing
		if err != nil {
			continue
		}
		real, _ = filepath.Abs(real)
		if rel, err := filepath.Rel(realRoot, real); err != nil || !filepath.IsLocal(rel) {
			return "", perr(aggregate, 0, field, fmt.Errorf("%w: the per-sample file %q is %s, a link to %s outside the imported folder %s: evalbook reads nothing outside the folder it was given; copy the file into it", ErrOutside, filePath, c, real, root))
		}
		if st, err := os.Stat(c); err != nil || st.IsDir() {
			continue
		}
		return c, nil
	}
	return "", perr(aggregate, 0, field, fmt.Errorf("%w: the per-sample file %q is neither beside the aggregate (%s) nor under a folder above it inside the imported folder %s; put it beside the aggregate, or import the checkout's root (--root)", ErrMissing, filePath, filepath.Join(dir, filepath.Base(fp)), root))
}

type eeeInstance struct {
	SchemaVersion string          `json:"schema_version"`
	ModelID       string          `json:"model_id"`
	Name          string          `json:"evaluation_name"`
	ResultID      string          `json:"evaluation_result_id"`
	SampleID      json.RawMessage `json:"sample_id"`
	SampleHash    *string         `json:"sample_hash"`
	Input         *struct {
		Raw       string   `json:"raw"`
		Reference []string `json:"reference"`
	} `json:"input"`
	Output *struct {
		Raw []string `json:"raw"`
	} `json:"output"`
	Evaluation *struct {
		Score     json.RawMessage `json:"score"`
		IsCorrect *bool           `json:"is_correct"`
	} `json:"evaluation"`
	TokenUsage *struct {
		Input  int64 `json:"input_tokens"`
		Output int64 `json:"output_tokens"`
	} `json:"token_usage"`
	Metadata map[string]json.RawMessage `json:"metadata"`
}

func readEEEInstances(path, model string, metricOf map[string]string, h hash.Hash, opt Options, run *Run) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var r io.Reader = f
	if h != nil {
		r = io.TeeReader(f, h)
	}
	ln := tabular.NewLines(r, path, opt.Limits.Line)
	n := 0
	for ln.Scan() {
		var in eeeInstance
		if err := json.Unmarshal(ln.Bytes(), &in); err != nil {
			return n, ln.Errorf(-1, "not an Every Eval Ever instance record: %v", err)
		}
		at := func(field string, format string, a ...any) error {
			return &tabular.ParseError{File: path, Line: ln.Line(), Column: ln.KeyColumn(strings.Split(field, ".")[0]), Field: field, Err: fmt.Errorf(format, a...)}
		}
		if in.SchemaVersion != "" && !eeeSupported(in.SchemaVersion) {
			return n, at("schema_version", "%w: schema_version %q; this reader knows 0.2.x and %s", ErrSchema, in.SchemaVersion, EEESchema)
		}
		if len(in.SampleID) == 0 {
			return n, at("sample_id", "%w \"sample_id\"", ErrMissing)
		}
		if in.Name == "" {
			return n, at("evaluation_name", "%w \"evaluation_name\"", ErrMissing)
		}
		if in.Evaluation == nil || len(in.Evaluation.Score) == 0 || string(in.Evaluation.Score) == "null" {
			return n, at("evaluation.score", "%w \"evaluation.score\"", ErrMissing)
		}
		score, ok := number(in.Evaluation.Score)
		if !ok {
			what, _ := describe(in.Evaluation.Score)
			return n, at("evaluation.score", "sample %s: evaluation.score is %s, not a number: the figure %s cannot be recomputed from it; write the score as a number", text(in.SampleID), what, in.Name)
		}
		n++
		s := Sample{Model: model, Task: in.Name, SampleID: text(in.SampleID), File: path, Line: ln.Line()}
		if in.ModelID != "" {
			s.Model = in.ModelID
		}
		if in.SampleHash != nil {
			s.DocHash = *in.SampleHash
		}
		metric := metricOf["id:"+in.ResultID]
		if metric == "" {
			metric = metricOf[in.Name]
		}
		if metric == "" {
			metric = "score"
		}
		s.SetMetric(metric, score)
		if in.Evaluation.IsCorrect != nil && metric != "is_correct" {
			s.SetMetric("is_correct", b2f(*in.Evaluation.IsCorrect))
		}
		if !opt.NoText {
			if in.Input != nil {
				s.Prompt, s.HasPrompt = in.Input.Raw, true
				if len(in.Input.Reference) > 0 {
					s.Golden, s.HasGolden = strings.Join(in.Input.Reference, " | "), true
				}
			}
			if in.Output != nil {
				s.Response, s.HasResponse = strings.Join(in.Output.Raw, "\n"), true
			}
		}
		if in.TokenUsage != nil {
			s.InputTokens, s.OutputTokens = in.TokenUsage.Input, in.TokenUsage.Output
		}
		keys := make([]string, 0, len(in.Metadata))
		for k := range in.Metadata {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := text(in.Metadata[k])
			s.Metadata = append(s.Metadata, KV{Key: k, Value: v})
			if k == "language" || k == "lang" {
				s.Language = v
			}
		}
		if err := run.add(&opt, &s); err != nil {
			return n, err
		}
	}
	if err := ln.Err(); err != nil {
		return n, err
	}
	if h != nil {
		_, _ = io.Copy(h, f) // blank lines at the end are part of the checksum
	}
	return n, nil
}
