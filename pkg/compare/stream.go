package compare

// Pairing two files in bounded memory. Files reads the new file first and
// keeps, per row, 128 bits of hash of its key, its 0/1 outcome and its
// group, then streams the old file against that index, keeping its
// outcomes and the keys of the cases that flipped: some tens of bytes a
// row whatever the rows hold, and the two files need not list their keys
// in the same order. A file with anything wrong (a missing column, an
// empty or repeated key, a key in one file only, a value not 0 or 1, a
// group that changed) is read again whole by readTable, whose errors name
// every place, so the errors are those of Read.

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"hash/maphash"
	"os"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// errSlowPath says the files must be read whole to say what is wrong.
var errSlowPath = errors.New("compare: read the tables whole for the error")

// keyHash is 128 bits of hash of a row's key (two seeds of hash/maphash;
// two distinct keys collide with odds of 2^-128).
type keyHash [2]uint64

type keyHasher struct {
	h   [2]maphash.Hash
	len [8]byte
}

func newKeyHasher() *keyHasher {
	var k keyHasher
	k.h[0].SetSeed(standInSeeds[0])
	k.h[1].SetSeed(standInSeeds[1])
	return &k
}

// sum hashes the key fields, each after its length, so ("a,b", "") and
// ("a", ",b") differ.
func (k *keyHasher) sum(fields [][]byte) keyHash {
	for i := range k.h {
		k.h[i].Reset()
		for _, f := range fields {
			binary.LittleEndian.PutUint64(k.len[:], uint64(len(f)))
			k.h[i].Write(k.len[:])
			k.h[i].Write(f)
		}
	}
	return keyHash{k.h[0].Sum64(), k.h[1].Sum64()}
}

// streamSource reads one file's key, metric and group columns a row at a
// time, trimmed as readTable trims them.
type streamSource struct {
	f      *os.File
	rd     *tabular.Reader
	header []string
	key    []int
	metric int
	by     int
	fields [][]byte
}

func openStream(path string, opt Options) (*streamSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errSlowPath
	}
	rd, err := tabular.Open(f, path, "csv")
	if err != nil {
		f.Close()
		return nil, errSlowPath
	}
	s := &streamSource{f: f, rd: rd, header: slices.Clone(rd.Header()), by: -1, metric: -1}
	for i := range s.header {
		s.header[i] = strings.TrimSpace(s.header[i])
	}
	for _, c := range opt.Key {
		i := slices.Index(s.header, c)
		if i < 0 {
			f.Close()
			return nil, errSlowPath
		}
		s.key = append(s.key, i)
	}
	if opt.Metric != "" {
		if s.metric = slices.Index(s.header, opt.Metric); s.metric < 0 {
			f.Close()
			return nil, errSlowPath
		}
	}
	if opt.By != "" {
		if s.by = slices.Index(s.header, opt.By); s.by < 0 {
			f.Close()
			return nil, errSlowPath
		}
	}
	s.fields = make([][]byte, len(s.key))
	return s, nil
}

func (s *streamSource) close() { s.f.Close() }

// next reads a row: its key fields (s.fields, valid until the next
// call), its outcome and its group; ok false at the end, err
// errSlowPath for a row compare refuses.
func (s *streamSource) next() (outcome byte, group []byte, ok bool, err error) {
	if !s.rd.ScanBytes() {
		if s.rd.Err() != nil {
			return 0, nil, false, errSlowPath
		}
		return 0, nil, false, nil
	}
	for i, c := range s.key {
		if s.fields[i] = bytes.TrimSpace(s.rd.Bytes(c)); len(s.fields[i]) == 0 {
			return 0, nil, false, errSlowPath
		}
	}
	v, good := zeroOneBytes(bytes.TrimSpace(s.rd.Bytes(s.metric)))
	if !good {
		return 0, nil, false, errSlowPath
	}
	if s.by >= 0 {
		group = bytes.TrimSpace(s.rd.Bytes(s.by))
	}
	return v, group, true, nil
}

func zeroOneBytes(b []byte) (byte, bool) {
	switch string(b) {
	case "0":
		return 0, true
	case "1":
		return 1, true
	}
	v, ok := zeroOne(string(b))
	return byte(v), ok
}

// pickMetricStream is pickMetric over two files read a row at a time:
// the one column besides the key and group columns that holds only 0
// and 1 in every row of both.
func pickMetricStream(oldPath, newPath string, opt Options) (string, error) {
	var binaryCols [2]map[string]bool
	var headers [2][]string
	for fi, path := range []string{oldPath, newPath} {
		f, err := os.Open(path)
		if err != nil {
			return "", errSlowPath
		}
		rd, err := tabular.Open(f, path, "csv")
		if err != nil {
			f.Close()
			return "", errSlowPath
		}
		h := slices.Clone(rd.Header())
		for i := range h {
			h[i] = strings.TrimSpace(h[i])
		}
		cols := []int{}
		for i, name := range h {
			if slices.Index(h, name) == i && name != "" {
				cols = append(cols, i)
			}
		}
		alive := slices.Clone(cols)
		rows := 0
		for rd.ScanBytes() {
			rows++
			alive = slices.DeleteFunc(alive, func(c int) bool {
				_, ok := zeroOneBytes(bytes.TrimSpace(rd.Bytes(c)))
				return !ok
			})
		}
		err = rd.Err()
		f.Close()
		if err != nil || rows == 0 {
			return "", errSlowPath
		}
		binaryCols[fi] = map[string]bool{}
		for _, c := range alive {
			binaryCols[fi][h[c]] = true
		}
		headers[fi] = h
	}
	var cands []string
	for _, name := range headers[0] {
		if slices.Contains(opt.Key, name) || name == opt.By || name == "" || slices.Contains(cands, name) {
			continue
		}
		if binaryCols[0][name] && binaryCols[1][name] {
			cands = append(cands, name)
		}
	}
	if len(cands) != 1 {
		return "", errSlowPath // pickMetric words it
	}
	return cands[0], nil
}

// filesStream is Files in bounded memory, or errSlowPath.
func filesStream(oldPath, newPath string, opt Options) (*results.Comparison, error) {
	opt = opt.WithDefaults()
	if opt.Metric == "" {
		m, err := pickMetricStream(oldPath, newPath, opt)
		if err != nil {
			return nil, err
		}
		opt.Metric = m
	}
	hasher := newKeyHasher()
	groupIDs := map[string]int32{}
	var groupNames []string
	intern := func(g []byte) int32 {
		if id, ok := groupIDs[string(g)]; ok {
			return id
		}
		id, name := int32(len(groupNames)), string(g) // one copy for both
		groupNames = append(groupNames, name)
		groupIDs[name] = id
		return id
	}

	// The new file: an index from key to row, each row's outcome and group.
	src, err := openStream(newPath, opt)
	if err != nil {
		return nil, err
	}
	// A sorted slice, not a map: 24 bytes a row.
	type entry struct {
		k   keyHash
		row int32
	}
	var idx []entry
	var newV []byte
	var newG []int32
	for {
		v, g, ok, err := src.next()
		if err != nil {
			src.close()
			return nil, err
		}
		if !ok {
			break
		}
		if len(newV) >= 1<<31-1 {
			src.close()
			return nil, errSlowPath
		}
		idx = append(idx, entry{hasher.sum(src.fields), int32(len(newV))})
		newV = append(newV, v)
		if src.by >= 0 {
			newG = append(newG, intern(g))
		}
	}
	src.close()
	if len(newV) == 0 {
		return nil, errSlowPath
	}
	cmpKey := func(a, b keyHash) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	}
	slices.SortFunc(idx, func(a, b entry) int { return cmpKey(a.k, b.k) })
	for i := 1; i < len(idx); i++ {
		if idx[i].k == idx[i-1].k {
			return nil, errSlowPath // a key twice in new
		}
	}
	lookup := func(k keyHash) (int32, bool) {
		i, found := slices.BinarySearchFunc(idx, k, func(e entry, k keyHash) int { return cmpKey(e.k, k) })
		if !found {
			return 0, false
		}
		return idx[i].row, true
	}

	// The old file, streamed against the index in its own order.
	if src, err = openStream(oldPath, opt); err != nil {
		return nil, err
	}
	defer src.close()
	used := make([]bool, len(newV))
	o := make([]float64, 0, len(newV))
	nw := make([]float64, 0, len(newV))
	var groups []string
	if opt.By != "" {
		groups = make([]string, 0, len(newV))
	}
	// The keys of the cases that flipped, in the old file's order: the
	// only keys the result shows.
	var flipAt []int
	var flipKeys []string
	for {
		v, g, ok, err := src.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		j, found := lookup(hasher.sum(src.fields))
		if !found || used[j] {
			return nil, errSlowPath // a key only in old, or twice in old
		}
		used[j] = true
		if opt.By != "" {
			id, ok := groupIDs[string(g)]
			if !ok || id != newG[j] {
				return nil, errSlowPath
			}
			groups = append(groups, groupNames[id])
		}
		if v != newV[j] {
			parts := make([]string, len(src.fields))
			for i, f := range src.fields {
				parts[i] = string(f)
			}
			flipAt = append(flipAt, len(o))
			flipKeys = append(flipKeys, strings.Join(parts, "/"))
		}
		o = append(o, float64(v))
		nw = append(nw, float64(newV[j]))
	}
	if len(o) != len(newV) {
		return nil, errSlowPath // a key only in new
	}
	oldName, newName := results.DisplayName(oldPath), results.DisplayName(newPath)
	if oldName == newName {
		oldName, newName = oldPath, newPath
	}
	if opt.OldName == "" {
		opt.OldName = oldName
	}
	if opt.NewName == "" {
		opt.NewName = newName
	}
	idx = nil // the index is done with: let the statistics have the memory
	return versionsKeyed(func(i int) string {
		k, _ := slices.BinarySearch(flipAt, i)
		return flipKeys[k]
	}, o, nw, groups, opt), nil
}
