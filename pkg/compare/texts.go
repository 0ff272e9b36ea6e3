package compare

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// TextColumns names the columns Texts reads: the question, the golden
// answer and the response. A file without one of them leaves that text
// empty.
type TextColumns struct {
	Question, Answer, Response string
}

// DefaultTextColumns are the names of a verdict file of evalbook score.
var DefaultTextColumns = TextColumns{Question: "question", Answer: "answer", Response: "response"}

// MaxCaseText is the most characters of one text Texts keeps; a longer
// one is cut and says how much more the file holds.
const MaxCaseText = 2000

// Texts reads the texts of the cases res found changed (res.Better and
// res.Worse) from the two CSV files it compared, oldPath and newPath,
// and sets res.Changed: each case's question and golden answer (the old
// file's, else the new file's) and both responses. Each file is read
// once more, a row at a time, keeping only those cases' texts, so the
// memory is that of the flips, not of the files. The pairing is not
// redone: a case is found by its key as res shows it (the key columns'
// values, trimmed, joined by "/").
func Texts(oldPath, newPath string, key []string, cols TextColumns, res *results.Comparison) error {
	want := make(map[string]bool, len(res.Better)+len(res.Worse))
	for _, k := range res.Better {
		want[k] = true
	}
	for _, k := range res.Worse {
		want[k] = true
	}
	if len(want) == 0 {
		return nil
	}
	got := make(map[string]results.CaseTexts, len(want))
	for side, path := range []string{oldPath, newPath} {
		if err := readTexts(path, key, cols, want, func(k, q, a, r string) {
			t := got[k]
			if t.Question == "" {
				t.Question = q
			}
			if t.Answer == "" {
				t.Answer = a
			}
			if side == 0 {
				t.OldResponse = r
			} else {
				t.NewResponse = r
			}
			got[k] = t
		}); err != nil {
			return err
		}
	}
	res.Changed = got
	return nil
}

// readTexts calls found with the key and texts of each row of path
// whose key is in want.
func readTexts(path string, key []string, cols TextColumns, want map[string]bool, found func(k, q, a, r string)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rd, err := tabular.Open(f, path, "csv")
	if err != nil {
		return err
	}
	header := slices.Clone(rd.Header())
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
	}
	var kc []int
	for _, c := range key {
		i := slices.Index(header, c)
		if i < 0 {
			return fmt.Errorf("%s: no key column %q (the header has %s)", path, c, tabular.QuoteList(header))
		}
		kc = append(kc, i)
	}
	tc := [3]int{slices.Index(header, cols.Question), slices.Index(header, cols.Answer), slices.Index(header, cols.Response)}
	parts := make([]string, len(kc))
	for rd.ScanBytes() {
		for i, c := range kc {
			parts[i] = string(bytes.TrimSpace(rd.Bytes(c)))
		}
		k := strings.Join(parts, "/")
		if !want[k] {
			continue
		}
		var t [3]string
		for i, c := range tc {
			if c >= 0 {
				t[i] = clipText(string(rd.Bytes(c)))
			}
		}
		found(k, t[0], t[1], t[2])
	}
	return rd.Err()
}

// clipText keeps the first MaxCaseText characters of s and says how
// many more there are.
func clipText(s string) string {
	if len(s) <= MaxCaseText || utf8.RuneCountInString(s) <= MaxCaseText {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxCaseText {
			return s[:i] + fmt.Sprintf(" … (%s more characters in the file)", results.Commas(int64(utf8.RuneCountInString(s[i:]))))
		}
		n++
	}
	return s
}
