// Package sample is evalbook's one model of an evaluated item: a Sample is
// one document of one task (or one row of a response table) answered by
// one model, with its item id as the source names it, the slices it falls
// in (language, domain, subject, any column), its texts, and its metric
// values. Every reader yields it: the harness outputs of pkg/interop
// (lm-eval, lighteval, inspect, promptfoo, Every Eval Ever, OpenAI
// batch), evalbook's own task-run details (pkg/tasks registers them with
// interop), and rows of a response table or the run store through Rows.
// Every analysis that takes samples takes this type: Summarize gives the
// figures per slice with intervals as a results.Score, so a harness
// output is reported, exported and recorded like a scored response table.
//
// Who computed a value is said once per metric, by a Def: the harness
// (ByHarness, its own per-sample value as its output file holds it) or
// evalbook (ByEvalbook, a rule of pkg/score's registry).
package sample

import (
	"slices"
	"strings"
)

// Sample is one evaluated item.
type Sample struct {
	// Model is the model that answered (empty when the source names none).
	Model string `json:"model,omitempty"`
	// Task is the task (lm-eval's task name, an inspect task, an evalbook
	// task string) or the dataset the item belongs to.
	Task     string `json:"task"`
	Language string `json:"language,omitempty"`
	// SampleID identifies the item within its task as people know it:
	// lm-eval's doc_id, inspect's sample id (with ":epoch" when a log has
	// several epochs), promptfoo's test index, EEE's sample_id, a batch
	// request's custom_id, an evalbook task item's id, a table's id column.
	SampleID string `json:"sample_id"`
	// DocHash is a content hash of the document when the source writes
	// one (lm-eval's doc_hash). Key prefers it for pairing runs; it is
	// never shown in place of SampleID.
	DocHash string `json:"doc_hash,omitempty"`
	// PromptHash is lm-eval's prompt_hash, when present.
	PromptHash string `json:"prompt_hash,omitempty"`
	// Slices are the item's other slicing attributes (domain, subject, a
	// table's column), sorted by key; Task, Language and Model are slices
	// too (see Slice).
	Slices []KV `json:"slices,omitempty"`
	// Metrics holds the per-sample value of each metric, sorted by name.
	// NaN means no value (a failed call, an unscored sample).
	Metrics []Metric `json:"metrics"`
	// Prompt, Response and Golden are the texts when the source has them;
	// HasPrompt, HasResponse and HasGolden say whether it did (an empty
	// response is not a missing one).
	Prompt      string `json:"prompt,omitempty"`
	Response    string `json:"response,omitempty"`
	Golden      string `json:"golden,omitempty"`
	HasPrompt   bool   `json:"-"`
	HasResponse bool   `json:"-"`
	HasGolden   bool   `json:"-"`
	// Epoch is inspect's epoch (1-based); 0 elsewhere.
	Epoch int `json:"epoch,omitempty"`
	// InputTokens and OutputTokens count tokens when the source records
	// them (inspect's model_usage, promptfoo's tokenUsage, a batch
	// response's usage, a task run's usage).
	InputTokens  int64 `json:"input_tokens,omitempty"`
	OutputTokens int64 `json:"output_tokens,omitempty"`
	// Metadata holds the source's per-sample metadata, flattened to
	// strings, sorted by key (inspect's metadata, promptfoo's vars).
	Metadata []KV `json:"metadata,omitempty"`
	// Line is the 1-based line (JSONL) or record index (JSON arrays, ZIP
	// members in order) the sample came from, for messages.
	Line int `json:"-"`
	// File is the file the sample was read from.
	File string `json:"-"`
}

// Metric is one named per-sample value.
type Metric struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// KV is one slice or metadata entry.
type KV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

func byName(m Metric, n string) int { return strings.Compare(m.Name, n) }

// Value returns the sample's value of metric name and whether it has one.
func (s *Sample) Value(name string) (float64, bool) {
	i, ok := slices.BinarySearchFunc(s.Metrics, name, byName)
	if !ok {
		return 0, false
	}
	return s.Metrics[i].Value, true
}

// SetMetric sets metric name to v, keeping Metrics sorted.
func (s *Sample) SetMetric(name string, v float64) {
	i, ok := slices.BinarySearchFunc(s.Metrics, name, byName)
	if ok {
		s.Metrics[i].Value = v
		return
	}
	s.Metrics = slices.Insert(s.Metrics, i, Metric{Name: name, Value: v})
}

// SortMetrics sorts Metrics by name (stable), for a reader that appends
// them in the source's order.
func (s *Sample) SortMetrics() {
	if !slices.IsSortedFunc(s.Metrics, func(a, b Metric) int { return strings.Compare(a.Name, b.Name) }) {
		slices.SortStableFunc(s.Metrics, func(a, b Metric) int { return strings.Compare(a.Name, b.Name) })
	}
}

// SetSlice sets the slice key to value, keeping Slices sorted.
func (s *Sample) SetSlice(key, value string) {
	i, ok := slices.BinarySearchFunc(s.Slices, key, func(kv KV, k string) int { return strings.Compare(kv.Key, k) })
	if ok {
		s.Slices[i].Value = value
		return
	}
	s.Slices = slices.Insert(s.Slices, i, KV{Key: key, Value: value})
}

// Slice returns the sample's value of a slicing attribute: "task",
// "model" and "language" name the fields of those names; any other name
// is looked up in Slices, then in Metadata. ok is false when the sample
// has no such attribute.
func (s *Sample) Slice(name string) (value string, ok bool) {
	switch name {
	case SliceTask:
		return s.Task, true
	case SliceModel:
		return s.Model, s.Model != ""
	case SliceLanguage:
		return s.Language, s.Language != ""
	}
	for _, list := range [][]KV{s.Slices, s.Metadata} {
		i, ok := slices.BinarySearchFunc(list, name, func(kv KV, k string) int { return strings.Compare(kv.Key, k) })
		if ok {
			return list[i].Value, true
		}
	}
	return "", false
}

// The slices every sample has a field for.
const (
	SliceTask     = "task"
	SliceModel    = "model"
	SliceLanguage = "language"
)

// Key is what pairs this sample with the same item in another run: the
// task, then the document hash when there is one, else the sample id.
func (s *Sample) Key() string {
	id := s.SampleID
	if s.DocHash != "" {
		id = s.DocHash
	}
	return s.Task + "\x1f" + id
}

// Who computed a metric's values (Def.By).
const (
	// ByHarness marks a value the harness computed and wrote in its
	// output: evalbook reports it as read.
	ByHarness = "harness"
	// ByEvalbook marks a value evalbook computed with a rule of its
	// metric registry (pkg/score) or of a task run (pkg/tasks).
	ByEvalbook = "evalbook"
)

// Def says what one metric of a set of samples is: its name as the
// samples carry it, who computed it, by what rule, and whether its values
// are graded (any number) rather than binary (1 or 0).
type Def struct {
	Name string `json:"name"`
	// By is ByHarness or ByEvalbook.
	By string `json:"by"`
	// Source names the harness or evalbook component ("lm-eval",
	// "inspect", "evalbook task") that computed it.
	Source string `json:"source,omitempty"`
	// Rule is the rule in words, when it is known.
	Rule   string `json:"rule,omitempty"`
	Graded bool   `json:"graded"`
}
