package qa

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// WarnDuplicateIDs is the code of the warning for ids that more than
// one row carries. Score's rows need not have ids, so a repeat is a
// warning (compare and agree, which pair rows by id, refuse it).
const WarnDuplicateIDs = "duplicate_ids"

// dupIDs finds ids that more than one row carries. add may be called
// from the scoring workers in any order of lines; warning reports the
// repeats as if read in file order: for each repeated id its first line,
// and the lines of the later rows. Long ids are kept as their SHA-256,
// so a 50 MB id costs 32 bytes here.
type dupIDs struct {
	mu    sync.Mutex
	first map[string]int   // id key -> smallest line seen
	lines map[string][]int // id key -> every line, for repeated ids
	shown map[string]string
	count int // rows whose id another row has before them
}

func newDupIDs() *dupIDs {
	return &dupIDs{first: map[string]int{}, lines: map[string][]int{}, shown: map[string]string{}}
}

// add notes that the row on line carries id; an empty id is no id. A
// nil *dupIDs (a table without an id column) notes nothing.
func (d *dupIDs) add(id string, line int) {
	if d == nil || id == "" {
		return
	}
	var k string
	if len(id) <= sha256.Size*2 {
		k = id
	} else {
		s := sha256.Sum256([]byte(id))
		k = string(s[:])
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	f, seen := d.first[k]
	if !seen {
		d.first[strings.Clone(k)] = line
		return
	}
	if _, ok := d.lines[k]; !ok {
		d.lines[k] = []int{f}
		d.shown[k] = tabular.Quote(id)
	}
	d.count++
	if len(d.lines[k]) <= maxWarnLines {
		d.lines[k] = append(d.lines[k], line)
	}
	d.first[k] = min(f, line)
}

// warning returns the duplicate_ids warning, or nil when every id is
// distinct: Count is the rows whose id an earlier row has, Lines the
// first maxWarnLines of them, and the message names up to three ids
// with their lines.
func (d *dupIDs) warning() *results.Warning {
	if d == nil || len(d.lines) == 0 {
		return nil
	}
	type rep struct {
		shown string
		lines []int
	}
	reps := make([]rep, 0, len(d.lines))
	w := &results.Warning{Code: WarnDuplicateIDs}
	for k, ls := range d.lines {
		slices.Sort(ls)
		reps = append(reps, rep{d.shown[k], ls})
		w.Lines = append(w.Lines, ls[1:]...)
	}
	w.Count = d.count // every repeat, beyond the lines kept
	slices.Sort(w.Lines)
	if len(w.Lines) > maxWarnLines {
		w.Lines = w.Lines[:maxWarnLines]
	}
	slices.SortFunc(reps, func(a, b rep) int { return a.lines[0] - b.lines[0] })
	var ex []string
	for i, r := range reps {
		if i == 3 {
			ex = append(ex, fmt.Sprintf("and %d more", len(reps)-3))
			break
		}
		ex = append(ex, fmt.Sprintf("id %s on lines %s", r.shown, joinInts(r.lines)))
	}
	w.Message = fmt.Sprintf("%d %s an id an earlier row has (%s); rows are scored as they are, but a join or a comparison on id would pair them wrongly",
		w.Count, plural(w.Count, "row repeats", "rows repeat"), strings.Join(ex, "; "))
	return w
}

func joinInts(ls []int) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = fmt.Sprint(l)
	}
	return strings.Join(s, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
