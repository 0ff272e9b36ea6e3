package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/evalbook/evalbook/pkg/results"
)

// Key kinds: how a run's rows are paired with another run's.
const (
	// KeyID: by the value of the id column, present, non-empty and
	// unique in every row.
	KeyID = "id"
	// KeyRow: by row number (0-based position), when the rows have no
	// usable id (no id column, an empty id, or a repeated one: the run
	// then carries the warning CodeNoSampleID).
	KeyRow = "row"
)

// Warning codes the store gives.
const (
	// CodeNoSampleID: the rows have no usable sample id, so they are
	// keyed (and later paired) by row number.
	CodeNoSampleID = "no_sample_id"
	// CodeNotComparable: the two runs differ in dataset, prompt or
	// normaliser; they were paired only because that was asked for.
	CodeNotComparable = "not_comparable"
	// CodeGroupMismatch: paired rows fall in different groups in the two
	// runs; the baseline's group is used.
	CodeGroupMismatch = "group_mismatch"
	// CodeFewFlips: fewer than stats.McNemarMinFlips rows changed; the
	// normal approximations are rough (quote the sign test).
	CodeFewFlips = results.CodeFewFlips
	// CodeNoVerdict: rows without a verdict in either run (a failed call,
	// a judge's invalid reply) are left out of the paired figures.
	CodeNoVerdict = "no_verdict"
	// CodeUnpaired: rows present in only one of the two runs.
	CodeUnpaired = "unpaired"
)

// Columns names the input columns whose text a run keeps; empty names
// take the defaults (id, question, answer, response).
type Columns struct {
	ID, Question, Answer, Response string
}

func (c Columns) withDefaults() Columns {
	def := func(s, d string) string {
		if s == "" {
			return d
		}
		return s
	}
	return Columns{def(c.ID, "id"), def(c.Question, "question"), def(c.Answer, "answer"), def(c.Response, "response")}
}

// Run is one stored run: what was run, its group figures, and (when
// recording) its rows.
type Run struct {
	// ID is the store's number for the run, set by Record.
	ID      int64     `json:"id"`
	Created time.Time `json:"time"`
	// Tool is "evalbook <version>"; Command the command that made the
	// run (score, mc, judge, generate, import).
	Tool    string `json:"tool"`
	Command string `json:"command"`
	Title   string `json:"title,omitempty"`
	// DatasetPath and DatasetFileHash name the file read (its bytes'
	// hash, which differs between two models' response files);
	// DatasetHash is the hash of the dataset's content, the sample ids,
	// questions and golden answers (Record computes it: the first 12 hex
	// digits of SHA-256 over the rows; independent of row order when
	// rows are keyed by id), which two comparable runs share.
	DatasetPath     string `json:"dataset_path,omitempty"`
	DatasetFileHash string `json:"dataset_file_hash,omitempty"`
	DatasetHash     string `json:"dataset_hash"`
	// Settings is the run's settings as JSON (results.Settings for a score).
	Settings json.RawMessage `json:"settings,omitempty"`
	Model    string          `json:"model,omitempty"`
	// PromptHash and JudgePromptHash identify the generation and judge
	// prompts (empty: none); Normalizer the answer normalisation.
	PromptHash      string `json:"prompt_hash,omitempty"`
	JudgePromptHash string `json:"judge_prompt_hash,omitempty"`
	Normalizer      string `json:"normalizer,omitempty"`
	// TokensIn, TokensOut and Cost are nil when unknown (never 0 for unknown).
	TokensIn  *int64   `json:"tokens_in"`
	TokensOut *int64   `json:"tokens_out"`
	Cost      *float64 `json:"cost"`
	// KeyKind is KeyID or KeyRow; Rows the number of rows.
	KeyKind   string            `json:"key_kind"`
	Rows      int               `json:"rows"`
	Metrics   []Metric          `json:"metrics"`
	Groupings []string          `json:"groupings,omitempty"`
	Groups    []GroupScore      `json:"groups,omitempty"`
	Warnings  []results.Warning `json:"warnings"`

	// Columns names the text columns kept from the rows (Record only).
	Columns Columns `json:"-"`
	// Source gives the rows to record (Record only).
	Source results.Rows `json:"-"`
}

// Metric is one metric of a run.
type Metric struct {
	ID     string `json:"id"`
	Graded bool   `json:"graded"`
}

// GroupScore is one metric's figures over one group, as the run reported
// them (By and Group empty for all rows). N counts the group's rows that
// carry the metric (fewer than the group's rows when some samples lack
// it), the n behind Accuracy and its interval.
type GroupScore struct {
	By          string  `json:"by,omitempty"`
	Group       string  `json:"group,omitempty"`
	Metric      string  `json:"metric"`
	N           int     `json:"n"`
	Blank       int     `json:"blank"`
	EmptyGolden int     `json:"empty_golden"`
	Correct     float64 `json:"correct"`
	Accuracy    float64 `json:"accuracy"`
	CILow       float64 `json:"ci_low"`
	CIHigh      float64 `json:"ci_high"`
}

// FromScore returns the run of a score result and its rows (the rows
// pkg/qa streams through qa.Options.Rows, collected in a
// results.RowTable, or a results.VerdictReader): dataset, settings,
// normaliser and every group's figures come from s. Set Model,
// PromptHash, tokens and cost on the result when the command knows them.
func FromScore(command string, s *results.Score, rows results.Rows) (Run, error) {
	settings, err := json.Marshal(s.Settings)
	if err != nil {
		return Run{}, err
	}
	r := Run{
		Tool: s.Tool, Command: command, Title: s.Title,
		DatasetPath: s.Dataset.Path, DatasetFileHash: s.Dataset.Hash,
		Settings: settings, Normalizer: s.Settings.Normalize, Source: rows, Model: s.Model,
	}
	if s.Created != nil {
		r.Created = *s.Created
	}
	for _, m := range s.Metrics {
		r.Metrics = append(r.Metrics, Metric{ID: m.ID, Graded: m.Graded})
	}
	add := func(g results.Group) {
		ids := make([]string, 0, len(g.Metrics))
		for id := range g.Metrics {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			m := g.Metrics[id]
			n := g.N
			if m.N > 0 { // fewer rows than the group's carry this metric (a harness metric some samples lack)
				n = m.N
			}
			r.Groups = append(r.Groups, GroupScore{By: g.By, Group: g.Group, Metric: id, N: n, Blank: g.Blank,
				EmptyGolden: g.EmptyGolden, Correct: m.Correct, Accuracy: m.Accuracy, CILow: m.CILow, CIHigh: m.CIHigh})
		}
	}
	add(s.Combined)
	for _, g := range s.Groups {
		add(g)
	}
	return r, nil
}

// Record stores run and its rows (run.Source, read to the end) in one
// transaction and returns the run's id: a failure or a killed process
// leaves no trace of the run. Record fills in Created (now, when zero),
// KeyKind, Rows and DatasetHash from the rows; run.Metrics, when empty,
// come from the rows' schema, and must otherwise name metrics the rows
// carry. It is Begin, Add for every row, then Commit.
func (s *Store) Record(ctx context.Context, run Run) (int64, error) {
	if run.Source == nil {
		return 0, errors.New("store: Record: the run has no rows (Source is nil)")
	}
	rec := s.Begin(ctx, run.Metrics, run.Columns)
	for row, err := range run.Source.All() {
		if err != nil {
			rec.Abort()
			return 0, err
		}
		if err := rec.Add(row); err != nil {
			rec.Abort()
			return 0, err
		}
	}
	return rec.Commit(run)
}

// A Recording is a run being recorded row by row, for a producer that
// pushes rows (qa.Options.Rows takes Add). Its transaction begins at the
// first Add (or at Commit) and holds the store's write lock until Commit
// or Abort: other recorders wait (up to BusyTimeout), readers do not.
type Recording struct {
	s       *Store
	ctx     context.Context
	tx      *sql.Tx
	w       *chunkWriter
	id      int64
	metrics []Metric
	cols    Columns
	err     error
	done    bool
}

// Begin starts a recording of the given metrics (nil: all the rows
// carry) whose text columns are cols.
func (s *Store) Begin(ctx context.Context, metrics []Metric, cols Columns) *Recording {
	return &Recording{s: s, ctx: ctx, metrics: metrics, cols: cols}
}

func (r *Recording) start() error {
	if r.tx != nil || r.err != nil {
		return r.err
	}
	tx, err := r.s.db.BeginTx(r.ctx, nil)
	if err != nil {
		r.err = err
		return err
	}
	r.tx = tx
	res, err := tx.ExecContext(r.ctx, `INSERT INTO run (created, tool, command, dataset_hash, key_kind, rows) VALUES ('', '', '', '', '', 0)`)
	if err == nil {
		r.id, err = res.LastInsertId()
	}
	if err == nil {
		r.w, err = newChunkWriter(r.ctx, tx, r.id, r.metrics, r.cols)
	}
	r.err = err
	return err
}

// Add records one row; the row may be reused by its producer afterwards.
// It returns nil or the first error of the recording (then only Abort
// is left).
func (r *Recording) Add(row *results.Row) error {
	if r.done {
		return errors.New("store: Add after Commit or Abort")
	}
	if err := r.start(); err != nil {
		return err
	}
	if err := r.w.add(row); err != nil {
		r.err = err
	}
	return r.err
}

// Abort drops everything recorded so far.
func (r *Recording) Abort() {
	if r.done {
		return
	}
	r.done = true
	if r.w != nil {
		r.w.close()
	}
	if r.tx != nil {
		r.tx.Rollback()
	}
}

// Commit stores run (its Source is not read: the rows are the ones
// added) with the rows added, in the recording's one transaction, and
// returns the run's id.
func (r *Recording) Commit(run Run) (id int64, err error) {
	if r.done {
		return 0, errors.New("store: Commit after Commit or Abort")
	}
	defer func() {
		if err != nil {
			r.Abort()
			err = fmt.Errorf("store %s: recording: %w", r.s.path, err)
		}
		r.done = true
	}()
	if run.Command == "" {
		return 0, errors.New("the run has no command")
	}
	if err := r.start(); err != nil {
		return 0, err
	}
	if err := r.w.flush(); err != nil {
		return 0, err
	}
	r.w.close()
	if run.Created.IsZero() {
		run.Created = time.Now()
	}
	if len(run.Settings) == 0 {
		run.Settings = json.RawMessage("{}")
	}
	r.w.finish(&run)
	warnings, err := json.Marshal(run.Warnings)
	if err != nil {
		return 0, err
	}
	tx, id := r.tx, r.id
	if _, err := tx.ExecContext(r.ctx, `UPDATE run SET created = ?, tool = ?, command = ?, title = ?, dataset_path = ?, dataset_file_hash = ?,
		dataset_hash = ?, settings = ?, model = ?, prompt_hash = ?, judge_prompt_hash = ?, normalizer = ?, tokens_in = ?, tokens_out = ?,
		cost = ?, key_kind = ?, rows = ?, warnings = ? WHERE id = ?`,
		run.Created.UTC().Format(time.RFC3339Nano), run.Tool, run.Command, run.Title, run.DatasetPath, run.DatasetFileHash,
		run.DatasetHash, string(run.Settings), run.Model, run.PromptHash, run.JudgePromptHash, run.Normalizer,
		nullInt(run.TokensIn), nullInt(run.TokensOut), nullFloat(run.Cost), run.KeyKind, run.Rows, string(warnings), id); err != nil {
		return 0, err
	}
	for i, m := range run.Metrics {
		if _, err := tx.ExecContext(r.ctx, `INSERT INTO metric VALUES (?, ?, ?, ?)`, id, i, m.ID, m.Graded); err != nil {
			return 0, err
		}
	}
	for i, by := range run.Groupings {
		labels, _ := json.Marshal(r.w.labels[i])
		if _, err := tx.ExecContext(r.ctx, `INSERT INTO grouping VALUES (?, ?, ?, ?)`, id, i, by, string(labels)); err != nil {
			return 0, err
		}
	}
	for _, g := range run.Groups {
		if _, err := tx.ExecContext(r.ctx, `INSERT INTO group_score VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, g.By, g.Group, g.Metric, g.N, g.Blank, g.EmptyGolden, g.Correct, g.Accuracy, g.CILow, g.CIHigh); err != nil {
			return 0, fmt.Errorf("group %q/%q metric %s: %w", g.By, g.Group, g.Metric, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return id, nil
}

func nullInt(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func nullFloat(p *float64) any {
	if p == nil || math.IsNaN(*p) {
		return nil
	}
	return *p
}

// chunkWriter buffers rows into chunks and inserts them.
type chunkWriter struct {
	ctx             context.Context
	id              int64
	cols            Columns
	schema          *results.RowSchema
	metricIdx       []int // index in Row.Values of each run metric
	rowStmt, valStm *sql.Stmt
	texts           *textWriter // the chunk's texts, each kept once
	wantMetrics     []Metric

	first, n                     int
	ids, lines, flags, q, a, rsp []byte
	groups                       [][]byte
	vals                         [][]byte
	labels                       [][]string
	codes                        []map[string]int
	colID, colQ, colA, colR      int
	colModel                     int // the "model" column, -1 when none

	idHashes     []uint64 // maphash of each id, checked for repeats at the end
	modelHashes  []uint64 // maphash of each model and id, when there is a model column
	models       map[string]bool
	emptyIDLine  int  // the line of the first row with an empty id, or 0
	repeats      int  // rows whose id repeats an earlier row's
	acrossModels bool // the ids repeat, but not within one model
	idOK         bool
	multiset     [2]uint64
	seq          hash.Hash
	buf          []byte
	total        int
	seed         maphash.Seed
}

func newChunkWriter(ctx context.Context, tx *sql.Tx, id int64, metrics []Metric, cols Columns) (*chunkWriter, error) {
	rs, err := tx.PrepareContext(ctx, `INSERT INTO chunk VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	vs, err := tx.PrepareContext(ctx, `INSERT INTO outcome_chunk VALUES (?, ?, ?, ?)`)
	if err != nil {
		rs.Close()
		return nil, err
	}
	tw, err := newTextWriter(ctx, tx)
	if err != nil {
		rs.Close()
		vs.Close()
		return nil, err
	}
	return &chunkWriter{ctx: ctx, id: id, cols: cols.withDefaults(), rowStmt: rs, valStm: vs, texts: tw,
		wantMetrics: metrics, idOK: true, seq: sha256.New(), seed: maphash.MakeSeed()}, nil
}

func (w *chunkWriter) close() {
	w.rowStmt.Close()
	w.valStm.Close()
	w.texts.close()
}

func (w *chunkWriter) setSchema(s *results.RowSchema) error {
	w.schema = s
	if len(w.wantMetrics) == 0 {
		for i, m := range s.Metrics {
			w.wantMetrics = append(w.wantMetrics, Metric{ID: m, Graded: s.Graded[i]})
		}
	}
	for _, m := range w.wantMetrics {
		i := slices.Index(s.Metrics, m.ID)
		if i < 0 {
			return fmt.Errorf("metric %q is not in the rows (they have %v)", m.ID, s.Metrics)
		}
		w.metricIdx = append(w.metricIdx, i)
	}
	w.vals = make([][]byte, len(w.metricIdx))
	w.groups = make([][]byte, len(s.Groupings))
	w.labels = make([][]string, len(s.Groupings))
	w.codes = make([]map[string]int, len(s.Groupings))
	for i := range w.codes {
		w.codes[i] = map[string]int{}
	}
	w.colID = slices.Index(s.Columns, w.cols.ID)
	w.colQ = slices.Index(s.Columns, w.cols.Question)
	w.colA = slices.Index(s.Columns, w.cols.Answer)
	w.colR = slices.Index(s.Columns, w.cols.Response)
	w.colModel = slices.Index(s.Columns, "model")
	if w.colModel >= 0 {
		w.models = map[string]bool{}
	}
	if w.colID < 0 {
		w.idOK = false
	}
	return nil
}

// countRepeats sorts hashes and returns how many repeat an earlier one.
// Two different ids share a 64-bit hash with probability below n²/2⁶⁵
// (3·10⁻⁸ for a million rows), which would only make the run keyed by row.
func countRepeats(hashes []uint64) int {
	slices.Sort(hashes)
	n := 0
	for i := 1; i < len(hashes); i++ {
		if hashes[i] == hashes[i-1] {
			n++
		}
	}
	return n
}

// noIDMessage is the no_sample_id warning's text: why the rows have no
// usable sample id (no id column, an empty id, or ids that repeat: across
// the models of one file, as in the built-in sample, or within one), and
// what to do to pair by id.
func (w *chunkWriter) noIDMessage() string {
	const keyed = "the rows are keyed, and paired with other runs, by row number"
	switch {
	case w.colID < 0:
		return fmt.Sprintf("there is no %q column, so %s; add an id column to pair runs by sample", w.cols.ID, keyed)
	case w.emptyIDLine > 0:
		return fmt.Sprintf("the %q column is empty at line %d, so %s; give every row an id to pair runs by sample", w.cols.ID, w.emptyIDLine, keyed)
	case w.acrossModels:
		return fmt.Sprintf("the %q values repeat across the %d models of the \"model\" column (%d of %d rows reuse an id: each model answered the same questions), so %s; "+
			"record one run per model, or make the ids unique, to pair by id", w.cols.ID, len(w.models), w.repeats, w.total, keyed)
	default:
		return fmt.Sprintf("%d of %d rows repeat an earlier %q value, so %s; make the ids unique to pair runs by sample", w.repeats, w.total, w.cols.ID, keyed)
	}
}

func field(r *results.Row, i int) string {
	if i < 0 || i >= len(r.Fields) {
		return ""
	}
	return r.Fields[i]
}

func (w *chunkWriter) add(r *results.Row) error {
	if w.schema == nil {
		if err := w.setSchema(r.Schema); err != nil {
			return err
		}
	} else if r.Schema != w.schema && !slices.Equal(r.Schema.Metrics, w.schema.Metrics) {
		return fmt.Errorf("row at line %d has metrics %v, earlier rows %v", r.Line, r.Schema.Metrics, w.schema.Metrics)
	}
	sep := func(b []byte) []byte {
		if w.n == 0 {
			return append(b[:0], '[')
		}
		return append(b, ',')
	}
	id, q, a := field(r, w.colID), field(r, w.colQ), field(r, w.colA)
	if w.idOK {
		if id == "" {
			w.idOK, w.idHashes, w.modelHashes, w.emptyIDLine = false, nil, nil, r.Line
		} else {
			w.idHashes = append(w.idHashes, maphash.String(w.seed, id))
			if w.colModel >= 0 {
				m := field(r, w.colModel)
				w.modelHashes = append(w.modelHashes, maphash.String(w.seed, m+"\x00"+id))
				if len(w.models) < 1000 {
					w.models[m] = true
				}
			}
		}
	}
	// The content hash: a sum of per-row hashes (order-free, for id
	// keys) and a running hash in row order (for row keys).
	w.buf = appendJSONString(w.buf[:0], id)
	w.buf = appendJSONString(w.buf, q)
	w.buf = appendJSONString(w.buf, a)
	h := sha256.Sum256(w.buf)
	w.multiset[0] += binary.LittleEndian.Uint64(h[:8])
	w.multiset[1] += binary.LittleEndian.Uint64(h[8:16])
	w.seq.Write(w.buf[len(appendJSONString(nil, id)):])

	w.ids = appendJSONString(sep(w.ids), id)
	w.lines = strconv.AppendInt(sep(w.lines), int64(r.Line), 10)
	f := 0
	if r.Blank {
		f |= 1
	}
	if r.EmptyGolden {
		f |= 2
	}
	w.flags = strconv.AppendInt(sep(w.flags), int64(f), 10)
	w.q = appendJSONString(sep(w.q), q)
	w.a = appendJSONString(sep(w.a), a)
	w.rsp = appendJSONString(sep(w.rsp), field(r, w.colR))
	for g := range w.groups {
		label := ""
		if g < len(r.Groups) {
			label = r.Groups[g]
		}
		c, ok := w.codes[g][label]
		if !ok {
			c = len(w.labels[g])
			w.codes[g][label] = c
			w.labels[g] = append(w.labels[g], label)
		}
		w.groups[g] = strconv.AppendInt(sep(w.groups[g]), int64(c), 10)
	}
	for k, i := range w.metricIdx {
		w.vals[k] = appendValue(sep(w.vals[k]), r.Values[i])
	}
	w.n++
	w.total++
	if w.n == ChunkRows {
		return w.flush()
	}
	return nil
}

func (w *chunkWriter) flush() error {
	if w.n == 0 {
		return nil
	}
	groups := append(w.buf[:0], '[')
	for g := range w.groups {
		if g > 0 {
			groups = append(groups, ',')
		}
		groups = append(append(groups, w.groups[g]...), ']')
	}
	groups = append(groups, ']')
	w.buf = groups
	end := func(b []byte) string { return string(append(b, ']')) }
	args := []any{w.id, w.first, w.n}
	for _, t := range []string{end(w.ids), end(w.lines), end(w.flags), string(groups), end(w.q), end(w.a), end(w.rsp)} {
		id, err := w.texts.id(t)
		if err != nil {
			return err
		}
		args = append(args, id)
	}
	if _, err := w.rowStmt.ExecContext(w.ctx, args...); err != nil {
		return err
	}
	for k := range w.vals {
		if _, err := w.valStm.ExecContext(w.ctx, w.id, k, w.first, end(w.vals[k])); err != nil {
			return err
		}
	}
	w.first += w.n
	w.n = 0
	return nil
}

func (w *chunkWriter) finish(run *Run) {
	run.Rows = w.total
	if w.schema == nil {
		w.idOK = false
	} else {
		run.Metrics = w.wantMetrics
		run.Groupings = w.schema.Groupings
	}
	if run.Metrics == nil {
		run.Metrics = []Metric{}
	}
	if w.idOK {
		// A repeated id repeats its 64-bit hash; two different ids share
		// one with probability below n²/2⁶⁵ (3·10⁻⁸ for a million rows),
		// which would only make the run keyed by row.
		w.repeats = countRepeats(w.idHashes)
		w.idOK = w.repeats == 0
		if !w.idOK && w.modelHashes != nil && countRepeats(w.modelHashes) == 0 {
			w.acrossModels = true
		}
		w.idHashes, w.modelHashes = nil, nil
	}
	var sum []byte
	if w.idOK {
		run.KeyKind = KeyID
		sum = binary.LittleEndian.AppendUint64(nil, w.multiset[0])
		sum = binary.LittleEndian.AppendUint64(sum, w.multiset[1])
		h := sha256.Sum256(append([]byte("id-keyed\x00"), sum...))
		sum = h[:]
	} else {
		run.KeyKind = KeyRow
		sum = w.seq.Sum(nil)
		if w.total > 0 {
			run.Warnings = append(run.Warnings, results.Warning{Code: CodeNoSampleID, Count: w.total,
				Message: w.noIDMessage()})
		}
	}
	run.DatasetHash = hex.EncodeToString(sum)[:12]
}
