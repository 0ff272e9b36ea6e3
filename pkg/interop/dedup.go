package interop

import (
	"errors"
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
	"sync"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// dedup finds samples read twice in one Read: the same model, task,
// sample id, epoch and metric names (lm-eval writes a line per document
// and filter, and its filter is in the metric names, so two filters of a
// document are two samples; the same doc_id twice under one filter is a
// duplicate). It keeps a 128-bit hash of each key and where it was read,
// so a million samples cost some tens of megabytes, not their text.
type dedup struct {
	mu    sync.Mutex
	seeds [2]maphash.Seed
	seen  map[[2]uint64]place
	files []string
	index map[string]int32
	drop  bool
	// firstDropped names the first sample left out, for the warning.
	firstDropped string
}

type place struct {
	file int32
	line int32
}

func newDedup(drop bool) *dedup {
	return &dedup{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, seen: map[[2]uint64]place{}, index: map[string]int32{}, drop: drop}
}

func (d *dedup) key(s *Sample) [2]uint64 {
	var out [2]uint64
	for i, seed := range d.seeds {
		var h maphash.Hash
		h.SetSeed(seed)
		for _, f := range [...]string{s.Model, s.Task, s.SampleID} {
			h.WriteString(f)
			h.WriteByte(0)
		}
		h.WriteString(strconv.Itoa(s.Epoch))
		for _, m := range s.Metrics {
			h.WriteByte(0)
			h.WriteString(m.Name)
		}
		out[i] = h.Sum64()
	}
	return out
}

// check records s and reports whether it is a duplicate to drop; a
// duplicate without drop is an error naming both places (the earlier
// first, whatever order parallel readers met them in). A nil dedup
// checks nothing.
func (d *dedup) check(s *Sample) (drop bool, err error) {
	if d == nil {
		return false, nil
	}
	k := d.key(s)
	d.mu.Lock()
	defer d.mu.Unlock()
	fi, ok := d.index[s.File]
	if !ok {
		fi = int32(len(d.files))
		d.files = append(d.files, s.File)
		d.index[s.File] = fi
	}
	here := place{fi, int32(s.Line)}
	prev, dup := d.seen[k]
	if !dup {
		d.seen[k] = here
		return false, nil
	}
	if d.drop {
		if d.firstDropped == "" {
			d.firstDropped = fmt.Sprintf("sample %q of %s at %s", s.SampleID, s.Task, d.where(here))
		}
		return true, nil
	}
	a, b := prev, here
	if d.files[b.file] < d.files[a.file] || b.file == a.file && b.line < a.line {
		a, b = b, a
	}
	who := ""
	if s.Model != "" {
		who = " (model " + s.Model + ")"
	}
	if s.Epoch > 0 {
		who += fmt.Sprintf(" epoch %d", s.Epoch)
	}
	file, line := recordAt(d.files[b.file], int(b.line))
	return false, &tabular.ParseError{File: file, Line: line, Err: fmt.Errorf("%w: sample %q of task %s%s is also at %s: a harness writes each sample once, and a duplicate would be counted twice; remove one, or give --drop-duplicates (Options.DropDuplicates) to keep the first and count the rest as dropped",
		ErrDuplicate, s.SampleID, s.Task, who, d.where(a))}
}

// ErrDuplicate is matched by the error for a sample read twice.
var ErrDuplicate = errors.New("duplicated sample")

func (d *dedup) where(p place) string {
	file, line := recordAt(d.files[p.file], int(p.line))
	if line > 0 {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

// recordAt names a sample's place for a message: a JSONL file by its
// line; a JSON document or ZIP member by its record number (Sample.Line
// counts records there, not lines), in the file name.
func recordAt(file string, line int) (string, int) {
	if line <= 0 || strings.HasSuffix(file, ".jsonl") || strings.HasSuffix(file, ".parquet") {
		return file, line
	}
	if strings.HasSuffix(file, "]") { // a ZIP member: one sample each
		return file, 0
	}
	return fmt.Sprintf("%s (record %d)", file, line), 0
}
