package tasks

import (
	"bufio"
	"context"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/sample"
	"github.com/evalbook/evalbook/pkg/score"
)

// FormatName is the name evalbook's own task-run details go by among the
// formats pkg/interop reads (interop.Formats): `evalbook compare a.jsonl
// b.jsonl`, `evalbook score --responses details.jsonl` and `evalbook
// import details.jsonl --record` take them as they take a harness output.
const FormatName = "evalbook-task"

func init() {
	interop.Register(interop.Format{Name: FormatName, Detect: detectDetails, Read: readDetailsRun})
}

// detectDetails reports whether path is a file whose first line is a
// task-run details header.
func detectDetails(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.IsDir() {
		return false
	}
	line, _ := bufio.NewReaderSize(f, 4096).ReadSlice('\n')
	return strings.Contains(string(line), `"format":"`+DetailsFormat+`"`) || strings.Contains(string(line), `"format": "`+DetailsFormat+`"`)
}

func readDetailsRun(ctx context.Context, path string, opt interop.Options) (*interop.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := ReadDetails(f, path)
	if err != nil {
		return nil, err
	}
	return DetailsRun(ctx, d, path, opt)
}

// DetailsRun gives task-run details read from path (JSONL here, Parquet
// in pkg/parquetio) as an imported run of the evalbook-task format: its
// Samples, the header's model, and Defs saying evalbook computed every
// metric by the registry's rules.
func DetailsRun(ctx context.Context, d *Details, path string, opt interop.Options) (*interop.Run, error) {
	run := &interop.Run{Format: FormatName, Source: path, Model: d.Header.Model, Files: []string{path}}
	ss, err := Samples(d)
	if err != nil {
		return nil, err
	}
	for i := range ss {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ss[i].File = path
		ss[i].Line = i + 2 // the header is line 1
		if opt.NoText {
			ss[i].Prompt, ss[i].Response, ss[i].Golden = "", "", ""
		}
		if opt.Each != nil {
			if err := opt.Each(&ss[i]); err != nil {
				return nil, err
			}
			continue
		}
		run.Samples = append(run.Samples, ss[i])
	}
	run.Count = len(ss)
	run.Defs = Defs(d)
	return run, nil
}

// Samples gives every item of a task run as evalbook's one sample model:
// the model of the header, the task string as the task, the language of
// the task string, the item's id, prompt, golden answer (the gold
// choice's text for a choice task) and response (the choice acc picks,
// or the first generated sample), and the per-item value of every metric
// its task reports as Outcomes scores it (pass@5, not pass@k; NaN, no
// value, for every metric of an item whose call failed).
func Samples(d *Details) ([]sample.Sample, error) {
	outs, err := Outcomes(d)
	if err != nil {
		return nil, err
	}
	ks := map[string]int{}
	langs := map[string]string{}
	for _, ht := range d.Header.Tasks {
		ks[ht.Spec] = ht.K
		if sp, err := ParseSpecs(ht.Spec); err == nil && len(sp) == 1 {
			langs[ht.Spec] = sp[0].Language
		}
	}
	out := make([]sample.Sample, 0, len(outs))
	for _, o := range outs {
		s := o.Sample
		ev := sample.Sample{Model: d.Header.Model, Task: s.Task, Language: langs[s.Task], SampleID: s.ID,
			Prompt: s.Prompt, Golden: s.Golden, HasPrompt: true, HasGolden: true}
		if s.Gold >= 0 && s.Gold < len(s.Choices) {
			ev.Golden = s.Choices[s.Gold]
		}
		switch {
		case len(s.Scored) > 0:
			if acc, _ := s.Picks(); acc < len(s.Choices) {
				ev.Response, ev.HasResponse = s.Choices[acc], true
			}
		case len(s.Response) > 0:
			ev.Response, ev.HasResponse = s.Response[0].Text, true
		}
		if s.PromptTokens != nil {
			ev.InputTokens = *s.PromptTokens
		}
		if s.CompletionTokens != nil {
			ev.OutputTokens = *s.CompletionTokens
		}
		for _, m := range o.Metrics {
			ev.SetMetric(withK(m, ks[s.Task]), math.NaN())
		}
		for j, v := range o.Values { // none when the item failed
			ev.SetMetric(withK(o.Metrics[j], ks[s.Task]), v)
		}
		if s.Error != "" {
			ev.Metadata = append(ev.Metadata, sample.KV{Key: "error", Value: s.Error})
		}
		out = append(out, ev)
	}
	return out, nil
}

// withK writes a task's k into a metric id: pass@k of a task with k 5 is
// pass@5.
func withK(id string, k int) string {
	if k > 0 {
		return strings.Replace(id, "@k", "@"+strconv.Itoa(k), 1)
	}
	return id
}

// Defs gives the definitions of the metrics of a task run's samples:
// evalbook computed them, by the rules of the metric registry.
func Defs(d *Details) []sample.Def {
	var defs []sample.Def
	for _, ht := range d.Header.Tasks {
		pl, err := planOf(ht)
		if err != nil {
			continue
		}
		for _, m := range pl.metrics {
			id := withK(m, ht.K)
			if slices.ContainsFunc(defs, func(d sample.Def) bool { return d.Name == id }) {
				continue
			}
			def := sample.Def{Name: id, By: sample.ByEvalbook, Source: "evalbook task", Graded: strings.HasPrefix(m, "pass@") || strings.HasPrefix(m, "maj@")}
			if rm, err := score.Find(m); err == nil {
				def.Rule = rm.Rule
			}
			defs = append(defs, def)
		}
	}
	slices.SortFunc(defs, func(a, b sample.Def) int { return strings.Compare(a.Name, b.Name) })
	return defs
}
