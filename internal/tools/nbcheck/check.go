package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// options selects the optional checks.
type options struct {
	requireRich bool   // fail when no output has an image/* or text/html representation
	maxLines    int    // fail a code cell longer than this (0: no limit)
	against     string // fail when outputs differ from this committed notebook's ("": no comparison)
	unmarked    bool   // fail a figure in markdown that no {{cell-id: text}} or {{=text}} marker covers
}

// summary counts what a passing notebook contained, for the "ok" line.
type summary struct {
	executed int // code cells with an execution_count
	rich     int // outputs carrying image/* or text/html
}

// notebook is the part of nbformat 4 that the checks read.
type notebook struct {
	NBFormat *int   `json:"nbformat"`
	Cells    []cell `json:"cells"`
}

type cell struct {
	ID             string    `json:"id"`
	CellType       string    `json:"cell_type"`
	Source         multiline `json:"source"`
	ExecutionCount *int      `json:"execution_count"`
	Outputs        []output  `json:"outputs"`
	Meta           cellMeta  `json:"metadata"`
}

type output struct {
	OutputType string                     `json:"output_type"`
	Name       string                     `json:"name"` // stream: "stdout" or "stderr"
	Text       multiline                  `json:"text"`
	Data       map[string]json.RawMessage `json:"data"`
	EName      string                     `json:"ename"`
	EValue     string                     `json:"evalue"`
}

// multiline is nbformat's text field: either one string or a list of
// strings that are concatenated (each usually ending in "\n").
type multiline string

func (m *multiline) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*m = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*m = multiline(s)
		return nil
	}
	var parts []string
	if err := json.Unmarshal(b, &parts); err != nil {
		return errors.New("text field is neither a string nor a list of strings")
	}
	*m = multiline(strings.Join(parts, ""))
	return nil
}

// exitLine matches what GoNB (through os/exec) prints on stderr when a cell
// program ends badly: "exit status 2", "signal: killed", optionally preceded
// by the "^C" a terminal echoes on interrupt.
var exitLine = regexp.MustCompile(`^(\^C)?(exit status \d+|signal: .+)$`)

// checkFile reads and checks one executed notebook. The error is for a file
// that cannot be read or is not an nbformat 4 notebook.
func checkFile(path string, opts options) (summary, []string, error) {
	nb, err := readNotebook(path)
	if err != nil {
		return summary{}, nil, err
	}
	sum, problems := check(nb, opts)
	if opts.maxLines > 0 {
		problems = append(problems, checkLength(nb, opts.maxLines)...)
	}
	problems = append(problems, checkQuotes(nb)...)
	if opts.unmarked {
		problems = append(problems, unmarkedFigures(nb)...)
	}
	if opts.against != "" {
		committed, err := readNotebook(opts.against)
		if err != nil {
			return sum, nil, fmt.Errorf("-against %s: %v", opts.against, err)
		}
		problems = append(problems, compareOutputs(nb, committed, opts.against)...)
	}
	return sum, problems, nil
}

// readNotebook reads an nbformat 4 notebook.
func readNotebook(path string) (*notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, fmt.Errorf("not a notebook: %v", err)
	}
	if nb.NBFormat == nil || *nb.NBFormat != 4 {
		return nil, errors.New("not an nbformat 4 notebook (missing or different \"nbformat\")")
	}
	return &nb, nil
}

// check returns one message per problem found in nb, in cell order.
func check(nb *notebook, opts options) (summary, []string) {
	var sum summary
	var problems []string
	for i := range nb.Cells {
		c := &nb.Cells[i]
		if c.CellType != "code" {
			continue
		}
		where := cellLabel(i, c)
		if c.ExecutionCount != nil {
			sum.executed++
		} else if strings.TrimSpace(string(c.Source)) != "" {
			problems = append(problems, where+": not executed (no execution_count)")
		}
		// Stream outputs may be split at any point, so join a cell's
		// stderr before splitting it into lines.
		var stderr strings.Builder
		for _, o := range c.Outputs {
			switch o.OutputType {
			case "error":
				problems = append(problems, fmt.Sprintf("%s: error output: %s: %s", where, o.EName, firstLine(o.EValue)))
			case "stream":
				if o.Name == "stderr" {
					stderr.WriteString(string(o.Text))
				}
			case "display_data", "execute_result", "update_display_data":
				if isRich(o.Data) {
					sum.rich++
				}
			}
		}
		for _, line := range strings.Split(stderr.String(), "\n") {
			line = strings.TrimRight(line, "\r")
			if exitLine.MatchString(line) {
				problems = append(problems, fmt.Sprintf("%s: stderr: %s", where, line))
			}
		}
	}
	if opts.requireRich && sum.rich == 0 {
		problems = append(problems, "no image or HTML output in any cell (-require-rich)")
	}
	return sum, problems
}

// isRich reports whether a MIME bundle has an image or HTML representation.
func isRich(data map[string]json.RawMessage) bool {
	for mime := range data {
		if mime == "text/html" || strings.HasPrefix(mime, "image/") {
			return true
		}
	}
	return false
}

// cellLabel names a cell for a human: its 1-based position, its id, and
// the start of its first non-blank source line.
func cellLabel(i int, c *cell) string {
	label := fmt.Sprintf("cell %d", i+1)
	if c.ID != "" {
		label += " [" + c.ID + "]"
	}
	if head := firstLine(string(c.Source)); head != "" {
		if r := []rune(head); len(r) > 40 {
			head = string(r[:40]) + "..."
		}
		label += fmt.Sprintf(" %q", head)
	}
	return label
}

func firstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}
