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
// ("a", ",b") differ; sumString hashes the same bytes given as strings
// alike.
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

func (k *keyHasher) sumString(fields []string) keyHash {
	for i := range k.h {
		k.h[i].Reset()
		for _, f := range fields {
			binary.LittleEndian.PutUint64(k.len[:], uint64(len(f)))
			k.h[i].Write(k.len[:])
			k.h[i].WriteString(f)
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
	p := NewPairing(opt.By != "")
	// The new file: an index from key to row, each row's outcome and group.
	src, err := openStream(newPath, opt)
	if err != nil {
		return nil, err
	}
	for {
		v, g, ok, err := src.next()
		if err != nil {
			src.close()
			return nil, err
		}
		if !ok {
			break
		}
		if p.AddNew(p.Key(src.fields...), v, g) != nil {
			src.close()
			return nil, errSlowPath
		}
	}
	src.close()
	if p.Seal() != nil {
		return nil, errSlowPath // no rows, or a key twice in new
	}

	// The old file, streamed against the index in its own order.
	if src, err = openStream(oldPath, opt); err != nil {
		return nil, err
	}
	defer src.close()
	show := func() string {
		parts := make([]string, len(src.fields))
		for i, f := range src.fields {
			parts[i] = string(f)
		}
		return strings.Join(parts, "/")
	}
	for {
		v, g, ok, err := src.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if p.AddOld(p.Key(src.fields...), v, g, show) != nil {
			return nil, errSlowPath // a key only in old, or twice in old, or in another group
		}
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
	c, err := p.Compare(opt)
	if err != nil {
		return nil, errSlowPath // a key only in new
	}
	return c, nil
}

// ErrNotPaired is matched by every error of a Pairing: a key twice in a
// version, a key in one version only, a case whose group differs, a
// version with no cases, too many cases. It says no more: the caller
// reads the versions whole to say what and where.
var ErrNotPaired = errors.New("compare: the versions do not pair")

// Pairing pairs two versions' 0/1 outcomes by key in bounded memory,
// whatever the order of the cases in each: every case of the new version
// is added first (AddNew) and kept as 128 bits of hash of its key, its
// outcome and its group (about 29 bytes); Seal sorts them; then every
// case of the old version, in its own order, is matched against them
// (AddOld), which keeps the two outcomes and the group of each and the
// key of a case only when it flipped, the one key the result shows.
// Compare then gives what Versions gives of the same cases in the old
// version's order. Files pairs CSV files with it; pkg/interop pairs
// harness outputs read a sample at a time.
type Pairing struct {
	hasher     *keyHasher
	grouped    bool
	groupIDs   map[string]int32
	groupNames []string
	idx        []pairEntry
	newV       []byte
	newG       []int32
	sealed     bool
	used       []bool
	old, new   []float64
	groups     []string
	flipAt     []int
	flipKeys   []string
}

type pairEntry struct {
	k   keyHash
	row int32
}

// PairKey is the hash of a case's key (Pairing.Key, Pairing.KeyString).
type PairKey = keyHash

// NewPairing is an empty pairing; grouped says every case has a group
// (Options.By) that must be the same in both versions.
func NewPairing(grouped bool) *Pairing {
	return &Pairing{hasher: newKeyHasher(), grouped: grouped, groupIDs: map[string]int32{}}
}

// Key hashes a case's key fields, each after its length, so ("a,b", "")
// and ("a", ",b") differ.
func (p *Pairing) Key(fields ...[]byte) PairKey { return p.hasher.sum(fields) }

// KeyString is Key of fields given as strings: the same hash for the
// same bytes.
func (p *Pairing) KeyString(fields ...string) PairKey { return p.hasher.sumString(fields) }

func (p *Pairing) intern(g []byte) int32 {
	if id, ok := p.groupIDs[string(g)]; ok {
		return id
	}
	id, name := int32(len(p.groupNames)), string(g) // one copy for both
	p.groupNames = append(p.groupNames, name)
	p.groupIDs[name] = id
	return id
}

// AddNew adds a case of the new version: its key, its outcome (0 or 1)
// and its group (ignored unless grouped).
func (p *Pairing) AddNew(k PairKey, outcome byte, group []byte) error {
	if p.sealed || outcome > 1 || len(p.newV) >= 1<<31-1 {
		return ErrNotPaired
	}
	p.idx = append(p.idx, pairEntry{k, int32(len(p.newV))})
	p.newV = append(p.newV, outcome)
	if p.grouped {
		p.newG = append(p.newG, p.intern(group))
	}
	return nil
}

func cmpKey(a, b keyHash) int {
	if c := cmp.Compare(a[0], b[0]); c != 0 {
		return c
	}
	return cmp.Compare(a[1], b[1])
}

// Seal ends the new version: an error when it has no case or a key twice.
func (p *Pairing) Seal() error {
	if len(p.newV) == 0 {
		return ErrNotPaired
	}
	slices.SortFunc(p.idx, func(a, b pairEntry) int { return cmpKey(a.k, b.k) })
	for i := 1; i < len(p.idx); i++ {
		if p.idx[i].k == p.idx[i-1].k {
			return ErrNotPaired
		}
	}
	p.sealed = true
	p.used = make([]bool, len(p.newV))
	p.old = make([]float64, 0, len(p.newV))
	p.new = make([]float64, 0, len(p.newV))
	if p.grouped {
		p.groups = make([]string, 0, len(p.newV))
	}
	return nil
}

// AddOld pairs a case of the old version with its twin in the new one;
// show gives the key as the result names it, asked only when the
// outcome flipped. An error when the key is not in the new version, was
// paired before, or its group differs.
func (p *Pairing) AddOld(k PairKey, outcome byte, group []byte, show func() string) error {
	if !p.sealed || outcome > 1 {
		return ErrNotPaired
	}
	i, found := slices.BinarySearchFunc(p.idx, k, func(e pairEntry, k keyHash) int { return cmpKey(e.k, k) })
	if !found {
		return ErrNotPaired
	}
	j := p.idx[i].row
	if p.used[j] {
		return ErrNotPaired
	}
	p.used[j] = true
	if p.grouped {
		id, ok := p.groupIDs[string(group)]
		if !ok || id != p.newG[j] {
			return ErrNotPaired
		}
		p.groups = append(p.groups, p.groupNames[id])
	}
	if outcome != p.newV[j] {
		p.flipAt = append(p.flipAt, len(p.old))
		p.flipKeys = append(p.flipKeys, show())
	}
	p.old = append(p.old, float64(outcome))
	p.new = append(p.new, float64(p.newV[j]))
	return nil
}

// Compare compares the paired cases, in the old version's order, as
// Versions does (opt names the versions, the metric and the grouping):
// an error when a case of the new version was not paired.
func (p *Pairing) Compare(opt Options) (*results.Comparison, error) {
	if !p.sealed || len(p.old) != len(p.newV) {
		return nil, ErrNotPaired
	}
	opt = opt.WithDefaults()
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if p.grouped && opt.By == "" {
		opt.By = "group"
	}
	if opt.OldName == "" {
		opt.OldName = "old"
	}
	if opt.NewName == "" {
		opt.NewName = "new"
	}
	p.idx, p.used = nil, nil // done with: let the statistics have the memory
	flipAt, flipKeys := p.flipAt, p.flipKeys
	return versionsKeyed(func(i int) string {
		k, _ := slices.BinarySearch(flipAt, i)
		return flipKeys[k]
	}, p.old, p.new, p.groups, opt), nil
}
