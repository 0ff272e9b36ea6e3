// Package tasks runs language evaluations against served models: task
// files as data (the data file per language, its fields, the kind, the
// prompt template per language, few-shot source split and selection,
// metrics, stop sequences, max tokens, an extraction regex), task strings
// `suite|task:language|shots|truncate` as lighteval and Indic Eval write
// them, seeded few-shot selection recorded per sample, log-likelihood
// multiple choice over /v1/completions (echo, logprobs, max_tokens 0),
// multiple choice by a generated letter, generative tasks with n samples
// (pass@k, maj@k), and saved details (JSONL) that Score re-scores without
// a call.
package tasks

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// The task kinds.
const (
	KindLoglik     = "mc_loglik"  // multiple choice by the log-likelihood of each choice
	KindLetter     = "mc_letter"  // multiple choice by a generated letter
	KindGenerative = "generative" // free text compared with a golden answer
)

// The metric ids a task reports: ids of pkg/score's registry, whose
// entries state each rule (score.Find(id).Rule).
const (
	MetricAcc        = score.Acc     // the choice with the largest log-likelihood (or the letter extracted) is the gold one
	MetricAccNorm    = score.AccNorm // the same per character of the choice (lm-eval); acc_norm_char is its alias
	MetricExactMatch = score.ExactMatch
	// MetricLooseExactMatch compares after lower-casing, collapsing
	// spaces and dropping a final full stop or danda: the rule task run
	// applied under exact_match before the metrics had one home.
	MetricLooseExactMatch = score.LooseExactMatch
	MetricPassAtK         = score.PassAtK
	MetricMajAtK          = score.MajAtK
)

// matchMetrics are the row metrics a generative task may compare an
// answer with: its match metric, which pass@k and maj@k use too.
var matchMetrics = []string{MetricExactMatch, MetricLooseExactMatch}

// Task is one task file: a benchmark in one or more languages.
type Task struct {
	Suite string `json:"suite"`
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	// Fields name the data's columns: id, the gold answer, the choices
	// (a JSON array column, or Fields.ChoiceColumns), the label few-shot
	// balancing uses (default the gold field).
	Fields Fields `json:"fields"`
	// Split is the column holding each row's split; EvalSplit and
	// FewshotSplit name the values (the few-shot source must differ from
	// the evaluated split, or an item could be its own example).
	SplitField   string `json:"split_field"`
	EvalSplit    string `json:"eval_split"`
	FewshotSplit string `json:"fewshot_split"`
	// FewshotSelection is "random" (default), "balanced" (by label) or "first".
	FewshotSelection string              `json:"fewshot_selection"`
	Languages        map[string]Language `json:"languages"`
	Metrics          []string            `json:"metrics"`
	// Generation: stop sequences, max tokens, temperature, samples per
	// item (n, for pass@k and maj@k), k for those metrics, and whether to
	// ask through the chat API (the server's chat template) instead of
	// raw completions.
	Stop        []string `json:"stop"`
	MaxTokens   int      `json:"max_tokens"`
	Temperature float64  `json:"temperature"`
	Samples     int      `json:"samples"`
	K           int      `json:"k"`
	Chat        bool     `json:"chat"`
	// Extract is a regular expression applied to a generated response;
	// its first group (or the whole match) is the extracted answer. A
	// response it does not match extracts nothing (counted wrong).
	Extract string `json:"extract"`
	// MaxPromptChars bounds a prompt when a task string's truncate is 1:
	// few-shot examples are dropped from the end until it fits.
	MaxPromptChars int `json:"max_prompt_chars"`

	dir     string // where the task file is, for its data paths
	extract *regexp.Regexp
	hash    string
}

// Fields name the data's columns.
type Fields struct {
	ID            string         `json:"id"`
	Gold          string         `json:"gold"`
	Choices       string         `json:"choices"`
	ChoiceColumns []string       `json:"choice_columns"`
	Label         string         `json:"label"`
	GoldMap       map[string]int `json:"gold_map"` // gold text -> choice index (e.g. "true": 1)
}

// Language is a task's data and prompt in one language.
type Language struct {
	Data string `json:"data"` // the data file, relative to the task file (CSV or JSONL)
	// Instruction opens the prompt once, before the few-shot examples.
	Instruction string `json:"instruction"`
	// Template renders one item: {column} is the row's column, {choices}
	// the lettered choices one per line ("A. text"), {letters} "A, B, C".
	Template string `json:"template"`
	// Separator goes between examples (default "\n\n"); TargetPrefix
	// before a target (default " "): an example is template + prefix +
	// target, the continuation scored is prefix + choice.
	Separator    *string  `json:"separator"`
	TargetPrefix *string  `json:"target_prefix"`
	Letters      []string `json:"letters"` // choice labels (default A, B, C, ...)
	// Choices, when set, are the same for every item (BoolQ's no/yes).
	Choices []string `json:"choices"`
}

func (l Language) sep() string {
	if l.Separator == nil {
		return "\n\n"
	}
	return *l.Separator
}

func (l Language) prefix() string {
	if l.TargetPrefix == nil {
		return " "
	}
	return *l.TargetPrefix
}

// letters returns the first n choice labels.
func (l Language) letters(n int) []string {
	out := make([]string, n)
	for i := range out {
		if i < len(l.Letters) {
			out[i] = l.Letters[i]
		} else {
			out[i] = string(rune('A' + i))
		}
	}
	return out
}

// ErrTask is wrapped by every error about a task file or task string.
var ErrTask = errors.New("task")

func taskErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrTask, fmt.Sprintf(format, a...))
}

// Parse reads a task file's JSON (unknown keys refused) and checks it;
// dir is the folder its data paths are relative to.
func Parse(data []byte, name, dir string) (*Task, error) {
	var t Task
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, taskErr("%s: %v", name, err)
	}
	t.dir = dir
	if err := t.check(); err != nil {
		return nil, taskErr("%s: %v", name, err)
	}
	sum := sha256.Sum256(data)
	t.hash = hex.EncodeToString(sum[:])[:16]
	return &t, nil
}

// Hash is a label of the task file's bytes (16 hex digits of SHA-256).
func (t *Task) Hash() string { return t.hash }

func (t *Task) check() error {
	switch {
	case t.Suite == "" || t.Name == "":
		return errors.New("suite and name are required")
	case strings.ContainsAny(t.Suite+t.Name, "|,"):
		return errors.New("suite and name must not contain | or ,")
	case len(t.Languages) == 0:
		return errors.New("no languages")
	case t.Fields.Gold == "":
		return errors.New("fields.gold is required")
	}
	if t.SplitField == "" {
		t.SplitField = "split"
	}
	if t.EvalSplit == "" {
		t.EvalSplit = "test"
	}
	if t.FewshotSplit == "" {
		t.FewshotSplit = "train"
	}
	if t.FewshotSplit == t.EvalSplit {
		return fmt.Errorf("fewshot_split %q is the evaluated split: an item could be its own example", t.FewshotSplit)
	}
	switch t.FewshotSelection {
	case "":
		t.FewshotSelection = "random"
	case "random", "balanced", "first":
	default:
		return fmt.Errorf("fewshot_selection %q: want random, balanced or first", t.FewshotSelection)
	}
	if t.Samples == 0 {
		t.Samples = 1
	}
	if t.Samples < 0 || t.MaxTokens < 0 || t.Temperature < 0 || t.K < 0 || t.MaxPromptChars < 0 {
		return errors.New("samples, max_tokens, temperature, k and max_prompt_chars must not be negative")
	}
	if t.K == 0 {
		t.K = t.Samples
	}
	if t.K > t.Samples {
		return fmt.Errorf("k %d is above samples %d", t.K, t.Samples)
	}
	if t.Kind == KindLoglik && t.Chat {
		return errors.New("mc_loglik scores prompt log-probabilities over /completions; chat is for the generative kinds")
	}
	ms, err := checkMetrics(t.Kind, t.Samples, t.Metrics)
	if err != nil {
		return err
	}
	t.Metrics = ms
	if t.Kind != KindGenerative && t.Samples != 1 {
		return errors.New("samples above 1 apply to generative tasks only")
	}
	if t.Kind != KindLoglik && t.MaxTokens == 0 {
		t.MaxTokens = 32
		if t.Kind == KindLetter {
			t.MaxTokens = 4
		}
	}
	if t.Extract == "" && t.Kind == KindLetter {
		t.Extract = `^\s*\(?([^\s().:]+)`
	}
	if t.Extract != "" {
		re, err := regexp.Compile(t.Extract)
		if err != nil {
			return fmt.Errorf("extract: %v", err)
		}
		t.extract = re
	}
	if t.Kind != KindGenerative && t.Fields.Choices == "" && len(t.Fields.ChoiceColumns) == 0 {
		for lang, l := range t.Languages {
			if len(l.Choices) == 0 {
				return fmt.Errorf("language %s: a multiple-choice task needs fields.choices, fields.choice_columns or the language's choices", lang)
			}
		}
	}
	for lang, l := range t.Languages {
		if l.Data == "" || l.Template == "" {
			return fmt.Errorf("language %s: data and template are required", lang)
		}
	}
	return nil
}

// checkMetrics returns the metrics a task of kind with samples samples
// per item reports when its file names named: each id (or alias) as the
// registry's id, in the order named, checked against the kind. A
// generative task has one match metric (exact_match unless it names
// loose_exact_match) that pass@k and maj@k count a sample correct by;
// it is reported first, added when the file names only pass@k or maj@k.
// Named none, a task reports its kind's metrics: acc and acc_norm;
// acc; exact_match, with pass@k and maj@k when samples > 1.
func checkMetrics(kind string, samples int, named []string) ([]string, error) {
	var allowed []string
	switch kind {
	case KindLoglik:
		allowed = []string{MetricAcc, MetricAccNorm}
	case KindLetter:
		allowed = []string{MetricAcc}
	case KindGenerative:
		allowed = append(slices.Clone(matchMetrics), MetricPassAtK, MetricMajAtK)
	default:
		return nil, fmt.Errorf("kind %q: want %s, %s or %s", kind, KindLoglik, KindLetter, KindGenerative)
	}
	if len(named) == 0 {
		named = allowed
		if kind == KindGenerative {
			named = []string{MetricExactMatch}
			if samples > 1 {
				named = append(named, MetricPassAtK, MetricMajAtK)
			}
		}
	}
	var out []string
	var match []string
	for _, id := range named {
		m, err := score.Find(id)
		if err != nil || !slices.Contains(allowed, m.ID) {
			return nil, fmt.Errorf("metric %q is not one of %s's (%s; the rules: evalbook task run --help)", id, kind, strings.Join(allowed, ", "))
		}
		if slices.Contains(out, m.ID) {
			return nil, fmt.Errorf("metric %q is named twice", id)
		}
		if slices.Contains(matchMetrics, m.ID) {
			match = append(match, m.ID)
		}
		out = append(out, m.ID)
	}
	if len(match) > 1 {
		return nil, fmt.Errorf("metrics name %s: a generative task has one match metric, which pass@k and maj@k use too; name one", strings.Join(match, " and "))
	}
	if kind == KindGenerative && len(match) == 0 {
		out = append([]string{MetricExactMatch}, out...)
	}
	return out, nil
}

// DataFile returns the path, in the catalog, of the task's data file in
// lang ("" for a language the task does not have): what LoadData reads.
func (t *Task) DataFile(lang string) string {
	l, ok := t.Languages[lang]
	if !ok {
		return ""
	}
	return path.Join(t.dir, l.Data)
}

// LanguageNames returns the task's languages, sorted.
func (t *Task) LanguageNames() []string {
	out := make([]string, 0, len(t.Languages))
	for l := range t.Languages {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// Catalog holds task files by suite and name.
type Catalog struct {
	fsys  fs.FS
	tasks map[string]*Task // "suite|name"
}

// LoadCatalog reads every *.json file under root in fsys as a task file;
// a task file larger than tabular.FileLimit() (1 GiB, --max-file-mib) is
// an error naming it, the limit and the flag.
func LoadCatalog(fsys fs.FS, root string) (*Catalog, error) {
	c := &Catalog{fsys: fsys, tasks: map[string]*Task{}}
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || path.Ext(p) != ".json" {
			return nil
		}
		data, err := tabular.ReadFS(fsys, p)
		if err != nil {
			return err
		}
		t, err := Parse(data, p, path.Dir(p))
		if err != nil {
			return err
		}
		key := t.Suite + "|" + t.Name
		if old, ok := c.tasks[key]; ok {
			return taskErr("%s: task %s is defined twice (also in %s)", p, key, old.dir)
		}
		c.tasks[key] = t
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Names returns "suite|name" of every task, sorted.
func (c *Catalog) Names() []string {
	out := make([]string, 0, len(c.tasks))
	for k := range c.tasks {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Spec is one parsed task string.
type Spec struct {
	Suite, Task, Language string
	Shots                 int
	Truncate              bool
}

// String writes the spec as a task string.
func (s Spec) String() string {
	t := "0"
	if s.Truncate {
		t = "1"
	}
	return s.Suite + "|" + s.Task + ":" + s.Language + "|" + strconv.Itoa(s.Shots) + "|" + t
}

// ParseSpecs parses a comma-separated list of task strings
// `suite|task:language|shots|truncate`. The language follows the last
// colon of the second part; shots is a whole number; truncate is 0 or 1
// (1: drop few-shot examples while the prompt is over the task's
// max_prompt_chars).
func ParseSpecs(s string) ([]Spec, error) {
	var out []Spec
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		f := strings.Split(part, "|")
		if len(f) != 4 {
			return nil, taskErr("task string %q: want suite|task:language|shots|truncate (4 parts separated by |), got %d part(s)", part, len(f))
		}
		i := strings.LastIndex(f[1], ":")
		if i <= 0 || i == len(f[1])-1 {
			return nil, taskErr("task string %q: the second part %q must be task:language, e.g. ARC-Easy:hindi", part, f[1])
		}
		shots, err := strconv.Atoi(f[2])
		if err != nil || shots < 0 {
			return nil, taskErr("task string %q: shots %q must be a whole number", part, f[2])
		}
		if f[3] != "0" && f[3] != "1" {
			return nil, taskErr("task string %q: truncate %q must be 0 or 1", part, f[3])
		}
		if f[0] == "" {
			return nil, taskErr("task string %q: no suite", part)
		}
		out = append(out, Spec{Suite: f[0], Task: f[1][:i], Language: strings.ToLower(f[1][i+1:]), Shots: shots, Truncate: f[3] == "1"})
	}
	if len(out) == 0 {
		return nil, taskErr("no task string in %q", s)
	}
	return out, nil
}

// Resolve finds a spec's task and checks its language.
func (c *Catalog) Resolve(s Spec) (*Task, error) {
	t, ok := c.tasks[s.Suite+"|"+s.Task]
	if !ok {
		return nil, taskErr("%s: no task %s|%s (known: %s)", s, s.Suite, s.Task, strings.Join(c.Names(), ", "))
	}
	if _, ok := t.Languages[s.Language]; !ok {
		return nil, taskErr("%s: task %s|%s has no language %q (it has %s)", s, s.Suite, s.Task, s.Language, strings.Join(t.LanguageNames(), ", "))
	}
	return t, nil
}

// Task returns the task "suite|name", or nil.
func (c *Catalog) Task(name string) *Task { return c.tasks[name] }
