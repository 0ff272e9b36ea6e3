// Package jury aggregates the labels several raters (people or model
// judges) gave the same items: by majority vote, or by the model of Dawid
// and Skene (1979), which weighs each rater by its estimated error rates
// (stats.DawidSkene). It gives each item's label and posterior, each
// rater's confusion matrix and accuracy, the class marginals, and the
// fit's log-likelihood and iterations.
//
// Labels come in long form, one row per label: item, rater, label. A
// rater may label an item more than once (each label counts). A label
// that is empty or "error" (any case) means the rater failed on the item:
// it is left out of that item and counted, never taken as a wrong label.
package jury

import (
	"fmt"
	"io"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// MaxLabels bounds how many labels ReadLabels accepts.
const MaxLabels = 10_000_000

// Column names of a label file; ItemColumns and RaterColumns list the
// accepted names in order of preference.
var (
	ItemColumns  = []string{"item", "item_id", "id"}
	RaterColumns = []string{"rater", "judge", "annotator"}
)

// ColLabel is the label column.
const ColLabel = "label"

// ErrorLabel is the label (any case) that marks a failed rating, like an
// empty one.
const ErrorLabel = "error"

// Label is one rater's label of one item; Errored when the label was
// empty or "error". Line is where it was read.
type Label struct {
	Item    string `json:"item"`
	Rater   string `json:"rater"`
	Label   string `json:"label"`
	Errored bool   `json:"errored,omitempty"`
	Line    int    `json:"line"`
}

// Labels is a label file as read.
type Labels struct {
	Source string
	Labels []Label
}

// ReadLabels reads labels from CSV or JSONL (by name's extension) with an
// item column (item, item_id or id), a rater column (rater, judge or
// annotator) and label. Every error is a *tabular.ParseError naming the
// file, line and field: a missing column, an empty item or rater, invalid
// UTF-8, more than MaxLabels rows, no label at all.
func ReadLabels(r io.Reader, name string) (*Labels, error) {
	rd, err := tabular.NewReader(r, name, tabular.Options{})
	if err != nil {
		return nil, err
	}
	find := func(names []string, what string) (int, error) {
		return rd.Column(names, what, "a label file needs item, rater and label, one row per label")
	}
	ii, err := find(ItemColumns, "item")
	if err != nil {
		return nil, err
	}
	ir, err := find(RaterColumns, "rater")
	if err != nil {
		return nil, err
	}
	il, err := find([]string{ColLabel}, "label")
	if err != nil {
		return nil, err
	}
	out := &Labels{Source: name}
	for rd.Scan() {
		rec := rd.Record()
		if len(out.Labels) == MaxLabels {
			return nil, &tabular.ParseError{File: name, Line: rec.Line, Err: fmt.Errorf("more than %d labels; split the file", MaxLabels)}
		}
		l := Label{Item: strings.TrimSpace(rec.Fields[ii]), Rater: strings.TrimSpace(rec.Fields[ir]), Label: strings.TrimSpace(rec.Fields[il]), Line: rec.Line}
		if l.Item == "" {
			return nil, rd.Errorf(ii, "empty item id")
		}
		if l.Rater == "" {
			return nil, rd.Errorf(ir, "empty rater name")
		}
		if l.Label == "" || strings.EqualFold(l.Label, ErrorLabel) {
			l.Errored, l.Label = true, ""
		}
		out.Labels = append(out.Labels, l)
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	if len(out.Labels) == 0 {
		return nil, &tabular.ParseError{File: name, Line: 1, Err: fmt.Errorf("no labels")}
	}
	return out, nil
}
