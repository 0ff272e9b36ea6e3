package interop

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/evalbook/evalbook/pkg/results"
)

// EEEExport says what the Every Eval Ever export cannot find in a
// results.Score.
type EEEExport struct {
	// ModelID is model_info.id ("org/model"); required.
	ModelID string
	// ModelName is model_info.name; default the part of ModelID after
	// its last slash. Developer is model_info.developer (optional).
	ModelName, Developer string
	// Organization is source_metadata.source_organization_name; default
	// "unknown".
	Organization string
	// EvaluationID is evaluation_id; default
	// "<dataset name>/<model id with / as _>/<dataset hash>".
	EvaluationID string
	// Retrieved is retrieved_timestamp (Unix seconds in the file);
	// default Score.Created, else the Unix epoch, so exports reproduce.
	Retrieved time.Time
	// InstancePath is detailed_evaluation_results.file_path: the
	// instance file's name as the aggregate records it; default
	// EEEInstancePath of the aggregate's name, base name only.
	InstancePath string
	// Columns name the row fields used for instances; zero fields take
	// id, question, answer, response.
	ID, Question, Golden, Response string
}

// EEEInstancePath is where the instance JSONL of an aggregate file goes:
// beside it, named as Every Eval Ever names them (<name>_samples.jsonl).
func EEEInstancePath(aggregate string) string {
	return strings.TrimSuffix(aggregate, filepath.Ext(aggregate)) + "_samples.jsonl"
}

// ErrEEEExport is matched by WriteEEE's errors about its input.
var ErrEEEExport = errors.New("cannot export to Every Eval Ever")

// WriteEEE writes an evalbook score as Every Eval Ever schema 0.3.0: the
// aggregate JSON to agg and the instance JSONL to inst (one line per row
// and metric). Each metric of the combined figures, and of every group,
// is one evaluation result whose score_details carries the accuracy and,
// in uncertainty, evalbook's interval (confidence_interval lower, upper,
// confidence_level and method: wilson or bootstrap), its standard error
// when the score has one, and num_samples. The aggregate records the
// instance file's sha256 and row count. rows are the scored rows
// (qa.Options.Rows or a results.RowTable), in file order; nil writes the
// aggregate without instances.
func WriteEEE(agg, inst io.Writer, s *results.Score, rows []*results.Row, e EEEExport) error {
	if s == nil {
		return fmt.Errorf("%w: no score", ErrEEEExport)
	}
	if e.ModelID == "" {
		return fmt.Errorf("%w: the model id (model_info.id) is required: give --model", ErrEEEExport)
	}
	dataset := e.fill(s)
	metrics := s.Settings.Metrics
	if len(metrics) == 0 {
		for _, m := range s.Metrics {
			metrics = append(metrics, m.ID)
		}
	}
	ib, n, err := eeeInstances(rows, e, dataset, metrics)
	if err != nil {
		return err
	}
	doc := eeeAggregateDoc(s, e, dataset, metrics)
	if rows != nil {
		instPath := e.InstancePath
		if instPath == "" {
			instPath = "samples.jsonl"
		}
		sum := sha256.Sum256(ib)
		doc["detailed_evaluation_results"] = eeeObj{"format": "jsonl", "file_path": instPath, "hash_algorithm": "sha256",
			"checksum": hex.EncodeToString(sum[:]), "total_rows": n}
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if _, err := agg.Write(append(out, '\n')); err != nil {
		return err
	}
	if rows != nil && inst != nil {
		_, err = inst.Write(ib)
	}
	return err
}

// eeeObj is a JSON object of the schema.
type eeeObj = map[string]any

// fill gives e's empty fields their defaults (model name from the id,
// organization "unknown", the evaluation id from dataset, model and the
// input's hash, the columns id, question, answer, response) and returns
// the dataset's name (the input's base name without its extension).
func (e *EEEExport) fill(s *results.Score) string {
	if e.ModelName == "" {
		e.ModelName = e.ModelID[strings.LastIndex(e.ModelID, "/")+1:]
	}
	if e.Organization == "" {
		e.Organization = "unknown"
	}
	dataset := strings.TrimSuffix(filepath.Base(s.Dataset.Path), filepath.Ext(s.Dataset.Path))
	if dataset == "" || dataset == "." {
		dataset = "dataset"
	}
	if e.EvaluationID == "" {
		e.EvaluationID = dataset + "/" + strings.ReplaceAll(e.ModelID, "/", "_") + "/" + s.Dataset.Hash
	}
	col := func(v, d string) string {
		if v == "" {
			return d
		}
		return v
	}
	e.ID, e.Question, e.Golden, e.Response = col(e.ID, "id"), col(e.Question, "question"), col(e.Golden, "answer"), col(e.Response, "response")
	return dataset
}

// eeeAggregateDoc returns the aggregate document: source, library and model,
// and one evaluation result per metric of the combined figures and of
// every group.
func eeeAggregateDoc(s *results.Score, e EEEExport, dataset string, metrics []string) eeeObj {
	ts := e.Retrieved
	if ts.IsZero() && s.Created != nil {
		ts = *s.Created
	}
	if ts.IsZero() {
		ts = time.Unix(0, 0)
	}
	version := strings.TrimSpace(strings.TrimPrefix(s.Tool, "evalbook"))
	if version == "" {
		version = "unknown"
	}
	sourceData := eeeObj{"dataset_name": dataset, "source_type": "other",
		"additional_details": eeeObj{"path": s.Dataset.Path, "format": s.Dataset.Format, "sha256_prefix": s.Dataset.Hash, "rows": strconv.Itoa(s.Dataset.Rows)}}
	var evalResults []eeeObj
	for _, m := range metrics {
		evalResults = append(evalResults, eeeResult(s, sourceData, dataset, s.Combined, m))
	}
	for _, g := range s.Groups {
		for _, m := range metrics {
			evalResults = append(evalResults, eeeResult(s, sourceData, dataset+" ["+g.By+"="+g.Group+"]", g, m))
		}
	}
	doc := eeeObj{
		"schema_version":       EEESchema,
		"evaluation_id":        e.EvaluationID,
		"evaluation_timestamp": strconv.FormatInt(ts.Unix(), 10),
		"retrieved_timestamp":  strconv.FormatInt(ts.Unix(), 10),
		"source_metadata": eeeObj{"source_name": "evalbook", "source_type": "evaluation_run",
			"source_organization_name": e.Organization, "evaluator_relationship": "first_party"},
		"eval_library": eeeObj{"name": "evalbook", "version": version},
		"model_info": eeeObj{"name": e.ModelName, "id": e.ModelID,
			"additional_details": eeeObj{"deployment_type": "unknown", "model_availability": "unknown"}},
		"evaluation_results": evalResults,
	}
	if e.Developer != "" {
		doc["model_info"].(eeeObj)["developer"] = e.Developer
	}
	return doc
}

// eeeResult is one evaluation result: metric over group g (name is the
// evaluation's name), with evalbook's interval and standard error.
func eeeResult(s *results.Score, sourceData eeeObj, name string, g results.Group, metric string) eeeObj {
	ms := g.Metrics[metric]
	scoreType := "binary"
	for _, m := range s.Metrics {
		if m.ID == metric && m.Graded {
			scoreType = "continuous"
		}
	}
	unc := eeeObj{"num_samples": g.N}
	if s.Settings.CI != "" && s.Settings.CI != "none" && !math.IsNaN(ms.CILow) {
		unc["confidence_interval"] = eeeObj{"lower": ms.CILow, "upper": ms.CIHigh, "confidence_level": s.Settings.Confidence, "method": s.Settings.CI}
	}
	if ms.SE > 0 {
		unc["standard_error"] = eeeObj{"value": ms.SE, "method": "analytic"}
	}
	return eeeObj{
		"evaluation_result_id": name + "." + metric,
		"evaluation_name":      name,
		"source_data":          sourceData,
		"metric_config": eeeObj{"metric_id": metric, "metric_name": metric, "metric_kind": "accuracy", "metric_unit": "proportion",
			"lower_is_better": false, "score_type": scoreType, "min_score": 0.0, "max_score": 1.0,
			"evaluation_description": "evalbook " + metric + " over " + strconv.Itoa(g.N) + " rows"},
		"score_details": eeeObj{"score": ms.Accuracy, "uncertainty": unc},
	}
}

// eeeInstances returns the instance JSONL (one line per row and metric
// with a verdict) and its number of lines.
func eeeInstances(rows []*results.Row, e EEEExport, dataset string, metrics []string) ([]byte, int, error) {
	var ib bytes.Buffer
	enc := json.NewEncoder(&ib)
	enc.SetEscapeHTML(false)
	n := 0
	for _, r := range rows {
		id, _ := r.Field(e.ID)
		if id == "" {
			id = "line-" + strconv.Itoa(r.Line)
		}
		q, _ := r.Field(e.Question)
		gold, _ := r.Field(e.Golden)
		resp, _ := r.Field(e.Response)
		for _, m := range metrics {
			v, ok := r.Value(m)
			if !ok || math.IsNaN(v) {
				continue
			}
			meta := eeeObj{"line": strconv.Itoa(r.Line)}
			for i, gname := range r.Schema.Groupings {
				if i < len(r.Groups) {
					meta[gname] = r.Groups[i]
				}
			}
			line := eeeObj{
				"schema_version": EEESchema, "evaluation_id": e.EvaluationID, "model_id": e.ModelID,
				"evaluation_name": dataset, "evaluation_result_id": dataset + "." + m, "sample_id": id,
				"interaction_type": "single_turn",
				"input":            eeeObj{"raw": q, "reference": []string{gold}},
				"output":           eeeObj{"raw": []string{resp}},
				"answer_attribution": []eeeObj{{"turn_idx": 0, "source": "output.raw", "extracted_value": resp,
					"extraction_method": m, "is_terminal": true}},
				"evaluation": eeeObj{"score": v, "is_correct": v == 1},
				"metadata":   meta,
			}
			if err := enc.Encode(line); err != nil {
				return nil, 0, err
			}
			n++
		}
	}
	return ib.Bytes(), n, nil
}
