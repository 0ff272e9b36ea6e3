package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// lighteval (Hugging Face) writes OUTPUT/results/<model>/results_<date>.json
// ({config_general, results, versions, config_tasks, summary_tasks,
// summary_general}; results maps "suite|task|few_shot" to metric values
// and "<metric>_stderr", plus "all", their mean) and, with
// --save-details, OUTPUT/details/<model>/<date>/details_<task>_<date>.parquet
// per task. Older releases kept the model's name in
// config_general.model_name, newer ones in config_general.model_config.
// This package reads the JSON; the Parquet details are read by a reader
// an edge package registers with RegisterLightevalDetails.

func init() {
	Register(Format{Name: "lighteval", Detect: detectLighteval, Read: readLighteval})
}

// DetailsReader reads one lighteval details Parquet file of the given
// task and model, giving each row to add as a Sample (Task and Model
// set, Metrics named as in the results file).
type DetailsReader func(ctx context.Context, path, task, model string, opt Options, add func(*Sample) error) error

var (
	detailsMu     sync.RWMutex
	detailsReader DetailsReader
)

// RegisterLightevalDetails installs the reader of details_*.parquet
// files; an edge package (Parquet) calls it from init.
func RegisterLightevalDetails(r DetailsReader) {
	detailsMu.Lock()
	defer detailsMu.Unlock()
	detailsReader = r
}

func lightevalDetails() DetailsReader {
	detailsMu.RLock()
	defer detailsMu.RUnlock()
	return detailsReader
}

func detectLighteval(path string) bool {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		rs, ds := findLighteval(path)
		return len(rs) > 0 || len(ds) > 0
	}
	if strings.HasSuffix(path, ".json") {
		return bytes.Contains(headOf(path, 1<<16), []byte(`"config_general"`))
	}
	return strings.HasPrefix(filepath.Base(path), "details_") && strings.HasSuffix(path, ".parquet")
}

func findLighteval(dir string) (results, details []string) {
	root := filepath.Clean(dir)
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if rel, _ := filepath.Rel(root, p); rel != "." && strings.Count(rel, string(filepath.Separator)) >= 4 {
				return filepath.SkipDir
			}
			return nil
		}
		b := d.Name()
		switch {
		case strings.HasPrefix(b, "results_") && strings.HasSuffix(b, ".json") && bytes.Contains(headOf(p, 1<<16), []byte(`"config_general"`)):
			results = append(results, p)
		case strings.HasPrefix(b, "details_") && strings.HasSuffix(b, ".parquet"):
			details = append(details, p)
		}
		return nil
	})
	sort.Strings(results)
	sort.Strings(details)
	return results, details
}

type lightevalResults struct {
	ConfigGeneral *struct {
		ModelName   string `json:"model_name"`
		ModelConfig *struct {
			ModelName string `json:"model_name"`
		} `json:"model_config"`
	} `json:"config_general"`
	Results map[string]map[string]json.RawMessage `json:"results"`
}

func readLighteval(ctx context.Context, path string, opt Options) (*Run, error) {
	run := &Run{Format: "lighteval", Source: path}
	rs, ds, err := lightevalFiles(path)
	if err != nil {
		return nil, err
	}
	models := map[string]bool{}
	var taskNames []string
	for _, r := range rs {
		run.Files = append(run.Files, r)
		model, tasks, err := readLightevalResults(run, r, opt)
		if err != nil {
			return nil, err
		}
		models[model] = true
		taskNames = append(taskNames, tasks...)
	}
	if len(ds) > 0 {
		rd := lightevalDetails()
		if rd == nil {
			run.warn(CodeDetailsNeedParquet, len(ds), "%d lighteval details file(s) (%s) are Parquet, which this build reads only with the Parquet reader registered (import the parquet edge package); only the aggregates were read", len(ds), filepath.Base(ds[0]))
		} else {
			model := ""
			if len(models) == 1 {
				for m := range models {
					model = m
				}
			}
			for _, d := range ds {
				run.Files = append(run.Files, d)
				task := LightevalDetailsTask(filepath.Base(d))
				for _, t := range taskNames { // file names may have | and : replaced by _
					if sanitizeTask(t) == sanitizeTask(task) {
						task = t
						break
					}
				}
				if err := rd(ctx, d, task, model, opt, func(s *Sample) error { return run.add(&opt, s) }); err != nil {
					return nil, err
				}
			}
		}
	}
	if len(models) == 1 {
		for m := range models {
			run.Model = m
		}
	}
	return run, nil
}

// lightevalFiles finds the results files (rs) and details files (ds) a
// path names: a folder's, a details Parquet file, or a results file with
// the details of its run (OUTPUT/results/<model>/results_<date>.json ->
// OUTPUT/details/<model>/<date>/; the model name may hold a slash:
// evalbook/tiny-bn is two folders).
func lightevalFiles(path string) (rs, ds []string, err error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, nil, err
	case st.IsDir():
		rs, ds = findLighteval(path)
	case strings.HasSuffix(path, ".parquet"):
		ds = []string{path}
	default:
		rs = []string{path}
		if d := dateOf(filepath.Base(path)); d != "" {
			for r := filepath.Dir(path); filepath.Dir(r) != r; r = filepath.Dir(r) {
				if filepath.Base(r) == "results" {
					rel, _ := filepath.Rel(r, filepath.Dir(path))
					det := filepath.Join(filepath.Dir(r), "details", rel, d)
					if m, _ := filepath.Glob(filepath.Join(det, "details_*.parquet")); len(m) > 0 {
						sort.Strings(m)
						ds = m
					}
					break
				}
			}
		}
	}
	if len(rs) == 0 && len(ds) == 0 {
		return nil, nil, perr(path, 0, "", fmt.Errorf("%w: no lighteval results_*.json or details_*.parquet", ErrMissing))
	}
	return rs, ds, nil
}

// readLightevalResults reads results file r into run's reported figures
// (each metric with its _stderr; a value that is not a number goes to
// BadReported) and returns its model and tasks.
func readLightevalResults(run *Run, r string, opt Options) (string, []string, error) {
	data, err := readBounded(r, opt.Limits.File)
	if err != nil {
		return "", nil, err
	}
	var lr lightevalResults
	if err := decodeDoc(r, data, &lr); err != nil {
		return "", nil, err
	}
	if lr.ConfigGeneral == nil {
		return "", nil, perr(r, 0, "config_general", fmt.Errorf("%w \"config_general\": is this a lighteval results file?", ErrMissing))
	}
	if lr.Results == nil {
		return "", nil, perr(r, 0, "results", fmt.Errorf("%w \"results\"", ErrMissing))
	}
	model := lr.ConfigGeneral.ModelName
	if lr.ConfigGeneral.ModelConfig != nil && lr.ConfigGeneral.ModelConfig.ModelName != "" {
		model = lr.ConfigGeneral.ModelConfig.ModelName
	}
	if model == "" {
		return "", nil, perr(r, 0, "config_general.model_name", fmt.Errorf("%w: neither config_general.model_name nor config_general.model_config.model_name", ErrMissing))
	}
	var tasks []string
	for _, t := range slices.Sorted(maps.Keys(lr.Results)) {
		if t == "all" {
			continue
		}
		tasks = append(tasks, t)
		for _, k := range slices.Sorted(maps.Keys(lr.Results[t])) {
			if strings.HasSuffix(k, "_stderr") {
				continue
			}
			v, ok := number(lr.Results[t][k])
			if !ok {
				what, list := describe(lr.Results[t][k])
				run.BadReported = append(run.BadReported, BadValue{Model: model, Task: t, Metric: k, File: r, Field: "results." + t + "." + k, What: what, List: list})
				continue
			}
			a := Aggregate{Model: model, Task: t, Metric: k, Value: v, Rounding: -1}
			if raw, has := lr.Results[t][k+"_stderr"]; has {
				if se, ok := number(raw); ok {
					a.Stderr, a.HasStderr = se, true
				} else if string(raw) != "null" {
					what, list := describe(raw)
					run.BadReported = append(run.BadReported, BadValue{Model: model, Task: t, Metric: k + "_stderr", File: r, Field: "results." + t + "." + k + "_stderr", What: what, List: list})
				}
			}
			run.Reported = append(run.Reported, a)
		}
	}
	return model, tasks, nil
}

// LightevalDetailsTask is the task of details_<task>_<date>.parquet, as
// the results file names it ("lighteval|gsm8k|5").
func LightevalDetailsTask(name string) string {
	t := strings.TrimSuffix(strings.TrimPrefix(name, "details_"), ".parquet")
	if m := lmevalDate.FindStringIndex(t); m != nil {
		t = t[:m[0]]
	}
	return t
}

func sanitizeTask(t string) string { return strings.NewReplacer("|", "_", ":", "_").Replace(t) }
