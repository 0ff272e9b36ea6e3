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
	col := func(n string) int { return r.Index(n) }
	need := func(field, n string) (int, error) {
		i := col(n)
		if i < 0 {
			return -1, &tabular.ParseError{File: name, Line: 1, Err: fmt.Errorf("no %s column %q (columns: %s)", field, n, strings.Join(r.Header(), ", "))}
		}
		return i, nil
	}
	split, err := need("split", t.SplitField)
	if err != nil {
		return nil, err
	}
	gold, err := need("gold", t.Fields.Gold)
	if err != nil {
		return nil, err
	}
	idName := t.Fields.ID
	if idName == "" {
		idName = "id"
	}
	id := col(idName)
	if t.Fields.ID != "" && id < 0 {
		return nil, &tabular.ParseError{File: name, Line: 1, Err: fmt.Errorf("no id column %q", idName)}
	}
	choices := -1
	if t.Fields.Choices != "" {
		if choices, err = need("choices", t.Fields.Choices); err != nil {
			return nil, err
		}
	}
	var choiceCols []int
	for _, c := range t.Fields.ChoiceColumns {
		i, err := need("choice", c)
		if err != nil {
			return nil, err
		}
		choiceCols = append(choiceCols, i)
	}
	label := gold
	if t.Fields.Label != "" {
		if label, err = need("label", t.Fields.Label); err != nil {
			return nil, err
		}
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
		if id >= 0 {
			it.ID = rec.Fields[id]
		}
		if it.ID == "" {
			it.ID = "line-" + strconv.Itoa(rec.Line)
		}
		if first, dup := seen[it.ID]; dup {
			return nil, r.Errorf(max(id, 0), "id %q is also on line %d: ids must be unique (they seed the few-shot draw and key the details)", it.ID, first)
		}
		seen[it.ID] = rec.Line
		switch {
		case len(l.Choices) > 0:
			it.Choices = l.Choices
		case choices >= 0:
			if err := json.Unmarshal([]byte(rec.Fields[choices]), &it.Choices); err != nil {
				return nil, r.Errorf(choices, "choices must be a JSON array of strings: %v", err)
			}
		default:
			for _, c := range choiceCols {
				if v := rec.Fields[c]; v != "" {
					it.Choices = append(it.Choices, v)
				}
			}
		}
		g := rec.Fields[gold]
		it.Label = rec.Fields[label]
		if t.Kind == KindGenerative {
			it.Golden = g
		} else {
			if len(it.Choices) < 2 {
				return nil, r.Errorf(max(choices, 0), "a multiple-choice item needs at least 2 choices, has %d", len(it.Choices))
			}
			idx, ok := goldIndex(g, it.Choices, l.letters(len(it.Choices)), t.Fields.GoldMap)
			if !ok {
				return nil, r.Errorf(gold, "gold %q is not a choice index (0-%d), a letter (%s) or a choice's text", g, len(it.Choices)-1, strings.Join(l.letters(len(it.Choices)), ", "))
			}
			it.Gold = idx
		}
		switch rec.Fields[split] {
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
