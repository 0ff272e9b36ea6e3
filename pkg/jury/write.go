package jury

import (
	"io"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// WriteCSV writes the labels as a label file ReadLabels reads back: a
// header item, rater, label and one row per label, in order; an errored
// label is written as an empty cell. Cells that a spreadsheet would take
// as a formula are guarded unless opt.Raw (tabular.CSVWriter); it returns
// how many were.
func (ls *Labels) WriteCSV(w io.Writer, opt tabular.CSVOptions) (guarded int, err error) {
	cw := tabular.NewCSVWriter(w, opt)
	cw.Write([]string{ItemColumns[0], RaterColumns[0], ColLabel})
	for _, l := range ls.Labels {
		label := l.Label
		if l.Errored {
			label = ""
		}
		cw.Write([]string{l.Item, l.Rater, label})
	}
	cw.Flush()
	return cw.Guarded(), cw.Error()
}
