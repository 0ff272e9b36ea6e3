package tasks

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// A task's data file is kept in memory, so it is bounded as every file
// read whole is: at most tabular.FileLimit() bytes (1 GiB unless
// --max-file-mib or tabular.MaxFile changed it), and each record at most
// tabular.RecordLimit() (--max-field-mib). A larger file is an error
// naming it, the limit and the flag.

// Item is one row of a task's data in one language.
type Item struct {
	ID      string            `json:"id"`
	Line    int               `json:"line"`
	Fields  map[string]string `json:"-"`
	Choices []string          `json:"choices,omitempty"`
	// Gold is the index of the right choice (multiple choice), -1 for a
	// generative item, whose golden answer is Golden.
	Gold   int    `json:"gold"`
	Golden string `json:"golden,omitempty"`
	Label  string `json:"-"`
}

// Data is a task's rows in one language, split.
type Data struct {
	File    string // the data file's path in the catalog
	Eval    []Item // the evaluated split, in file order
	Fewshot []Item // the few-shot source split, in file order
}

// LoadData reads the data of task t in lang from the catalog.
func (c *Catalog) LoadData(t *Task, lang string) (*Data, error) {
	l, ok := t.Languages[lang]
	if !ok {
		return nil, taskErr("%s|%s has no language %q", t.Suite, t.Name, lang)
	}
	p := path.Join(t.dir, l.Data)
	f, err := c.fsys.Open(p)
	if err != nil {
		return nil, fmt.Errorf("task %s|%s (%s): %w", t.Suite, t.Name, lang, err)
	}
	defer f.Close()
	return readData(f, p, t, l)
}

// limited reads at most max bytes of r, then fails with
// tabular.FileLimitError.
type limited struct {
	r   io.Reader
	n   int64
	max int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.n <= 0 {
		var probe [1]byte
		switch n, err := io.ReadFull(l.r, probe[:]); {
		case n > 0:
			return 0, tabular.FileLimitError(l.max) // the Reader adds the file and line
		case err == io.EOF:
			return 0, io.EOF // exactly at the limit
		default:
			return 0, err
		}
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}

func readData(f fs.File, name string, t *Task, l Language) (*Data, error) {
	r, err := tabular.NewReader(&limited{r: f, n: tabular.FileLimit(), max: tabular.FileLimit()}, name, tabular.Options{})
	if err != nil {
		return nil, err
	}
	cols, err := dataColumnsOf(r, name, t)
	if err != nil {
		return nil, err
	}
	d := &Data{File: name}
	seen := map[string]int{}
	header := r.Header()
	for r.Scan() {
		rec := r.Record()
		it := Item{Line: rec.Line, Gold: -1, Fields: make(map[string]string, len(header))}
		for i, h := range header {
			it.Fields[h] = rec.Fields[i]
		}
		if cols.id >= 0 {
			it.ID = rec.Fields[cols.id]
		}
		if it.ID == "" {
			it.ID = "line-" + strconv.Itoa(rec.Line)
		}
		if first, dup := seen[it.ID]; dup {
			return nil, r.Errorf(max(cols.id, 0), "id %q is also on line %d: ids must be unique (they seed the few-shot draw and key the details)", it.ID, first)
		}
		seen[it.ID] = rec.Line
		if err := cols.item(r, rec.Fields, t, l, &it); err != nil {
			return nil, err
		}
		switch rec.Fields[cols.split] {
		case t.EvalSplit:
			d.Eval = append(d.Eval, it)
		case t.FewshotSplit:
			d.Fewshot = append(d.Fewshot, it)
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if len(d.Eval) == 0 {
		return nil, &tabular.ParseError{File: name, Err: fmt.Errorf("no row of split %q in column %q", t.EvalSplit, t.SplitField)}
	}
	return d, nil
}

// dataColumns are the indices of a task's columns in its data file (-1:
// absent).
type dataColumns struct {
	split, gold, id, choices, label int
	choiceCols                      []int
}

// dataColumnsOf finds the task's columns in the data file's header; a
// column the task names and the file lacks is an error naming the
// columns there are.
func dataColumnsOf(r *tabular.Reader, name string, t *Task) (dataColumns, error) {
	need := func(field, n string) (int, error) {
		i := r.Index(n)
		if i < 0 {
			return -1, &tabular.ParseError{File: name, Line: 1, Err: fmt.Errorf("no %s column %q (columns: %s)", field, n, strings.Join(r.Header(), ", "))}
		}
		return i, nil
	}
	c := dataColumns{choices: -1}
	var err error
	if c.split, err = need("split", t.SplitField); err != nil {
		return c, err
	}
	if c.gold, err = need("gold", t.Fields.Gold); err != nil {
		return c, err
	}
	idName := t.Fields.ID
	if idName == "" {
		idName = "id"
	}
	c.id = r.Index(idName)
	if t.Fields.ID != "" && c.id < 0 {
		return c, &tabular.ParseError{File: name, Line: 1, Err: fmt.Errorf("no id column %q", idName)}
	}
	if t.Fields.Choices != "" {
		if c.choices, err = need("choices", t.Fields.Choices); err != nil {
			return c, err
		}
	}
	for _, col := range t.Fields.ChoiceColumns {
		i, err := need("choice", col)
		if err != nil {
			return c, err
		}
		c.choiceCols = append(c.choiceCols, i)
	}
	c.label = c.gold
	if t.Fields.Label != "" {
		if c.label, err = need("label", t.Fields.Label); err != nil {
			return c, err
		}
	}
	return c, nil
}

// item fills it's choices (the language's, a JSON array column, or
// choice columns), label and gold (the golden text of a generative task,
// else the index of the gold choice) from one record.
func (c dataColumns) item(r *tabular.Reader, fields []string, t *Task, l Language, it *Item) error {
	switch {
	case len(l.Choices) > 0:
		it.Choices = l.Choices
	case c.choices >= 0:
		if err := json.Unmarshal([]byte(fields[c.choices]), &it.Choices); err != nil {
			return r.Errorf(c.choices, "choices must be a JSON array of strings: %v", err)
		}
	default:
		for _, col := range c.choiceCols {
			if v := fields[col]; v != "" {
				it.Choices = append(it.Choices, v)
			}
		}
	}
	g := fields[c.gold]
	it.Label = fields[c.label]
	if t.Kind == KindGenerative {
		it.Golden = g
		return nil
	}
	if len(it.Choices) < 2 {
		return r.Errorf(max(c.choices, 0), "a multiple-choice item needs at least 2 choices, has %d", len(it.Choices))
	}
	idx, ok := goldIndex(g, it.Choices, l.letters(len(it.Choices)), t.Fields.GoldMap)
	if !ok {
		return r.Errorf(c.gold, "gold %q is not a choice index (0-%d), a letter (%s) or a choice's text", g, len(it.Choices)-1, strings.Join(l.letters(len(it.Choices)), ", "))
	}
	it.Gold = idx
	return nil
}

func goldIndex(g string, choices, letters []string, m map[string]int) (int, bool) {
	g = strings.TrimSpace(g)
	if m != nil {
		i, ok := m[g]
		return i, ok && i >= 0 && i < len(choices)
	}
	if i, err := strconv.Atoi(g); err == nil {
		return i, i >= 0 && i < len(choices)
	}
	for i, l := range letters {
		if g == l {
			return i, true
		}
	}
	for i, c := range choices {
		if g == c {
			return i, true
		}
	}
	return 0, false
}
