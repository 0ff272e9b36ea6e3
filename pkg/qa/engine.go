package qa

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evalbook/evalbook/internal/fasttext"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// maxWarnLines caps the line numbers a warning lists.
const maxWarnLines = 20

// acc accumulates the figures of one group within one batch of rows, or
// over the whole file once batches are merged (in file order).
type acc struct {
	n, blank, emptyGolden int
	sum, sumsq            []float64 // per metric
	matching, golden      []int     // per metric (word_overlap only)
	agree                 [][4]int  // per binary metric pair: both, neither, only first, only second
	values                [][]float64
	clusters              []string
	// csum holds, for each corpus-level metric, its summed sufficient
	// statistics; crows keeps every row's statistics (in file order)
	// when a bootstrap interval needs them.
	csum  [][]float64
	crows [][]float64
}

func (e *engine) newAcc() *acc {
	a := &acc{
		sum:      make([]float64, len(e.metrics)),
		sumsq:    make([]float64, len(e.metrics)),
		matching: make([]int, len(e.metrics)),
		golden:   make([]int, len(e.metrics)),
		agree:    make([][4]int, len(e.pairs)),
	}
	if e.keepValues {
		a.values = make([][]float64, len(e.metrics))
	}
	a.csum = make([][]float64, len(e.metrics))
	a.crows = make([][]float64, len(e.metrics))
	for i, m := range e.metrics {
		if m.Corpus != nil {
			a.csum[i] = make([]float64, m.Corpus.NStats)
		}
	}
	return a
}

func (a *acc) merge(b *acc) {
	a.n += b.n
	a.blank += b.blank
	a.emptyGolden += b.emptyGolden
	for i := range a.sum {
		a.sum[i] += b.sum[i]
		a.sumsq[i] += b.sumsq[i]
		a.matching[i] += b.matching[i]
		a.golden[i] += b.golden[i]
	}
	for i := range a.agree {
		for j := range a.agree[i] {
			a.agree[i][j] += b.agree[i][j]
		}
	}
	for i := range a.values {
		a.values[i] = append(a.values[i], b.values[i]...)
	}
	a.clusters = append(a.clusters, b.clusters...)
	for i := range a.csum {
		for j := range a.csum[i] {
			a.csum[i][j] += b.csum[i][j]
		}
		a.crows[i] = append(a.crows[i], b.crows[i]...)
	}
}

// batchResult is what a worker returns for one batch.
type batchResult struct {
	seq      int
	combined *acc
	groups   []map[string]*acc // per grouping
	examples [][4][]results.Example
	warn     map[string]*results.Warning
	ids      *idBatch  // the rows' id keys, for the duplicate_ids warning
	rows     *rowBatch // the batch's scored rows, when rows are wanted
	out      *batchOut // the batch's verdict lines, when only the verdict file wants rows
	err      error
	done     func() // releases the batch's input once merged and written
}

// rowBatch holds the scored rows of one batch, in file order, until the
// merger hands them out: per row its scalars, and flat arrays of the
// fields, values and groups of every row (row i's fields are
// fields[i*len(header):], and so on). The fields alias the batch's
// input block, which is released only after the rows are handed out.
type rowBatch struct {
	recs   []rowRec
	fields []string
	values []float64
	groups []string
}

// batchOut holds the verdict file's lines of one batch, encoded by the
// worker that scored it (engine.encode): the merger writes them in file
// order without looking at the rows. A row whose record or field is
// longRecord bytes or more is kept as a row instead (longs, at its
// offset in buf) and written in place by the verdict writer, not copied.
type batchOut struct {
	buf   []byte
	longs []longRow
	cells int   // fields guarded against formulas
	lines []int // the first lines that had one
}

type longRow struct {
	at     int // offset in buf where the row goes
	row    results.Row
	fields []string // the fields and raw text it is written with (guardRow)
	raw    string
}

type rowRec struct {
	line            int
	raw             string // the record's CSV text as read, or "" (see verdictWriter)
	matching, total int
	blank, empty    bool
}

type engine struct {
	dups       *dupIDs // repeated ids, when the table has an id column
	file       string
	opt        *Options
	metrics    []*score.Metric
	pairs      [][2]int // indices of binary metric pairs
	keepValues bool
	lay        *layout

	combined *acc
	groups   []map[string]*acc
	examples [][4][]results.Example
	// full[p][k] is set once examples[p][k] holds opt.Examples: batches
	// are merged in file order, so a later batch's examples of that kind
	// would never be used, and workers no longer collect (copy) them.
	full    [][4]atomic.Bool
	warn    map[string]*results.Warning
	overlap int           // index of word_overlap in metrics, or -1
	slots   chan struct{} // see pipeline
	// keepRows is set when scored rows are wanted (Options.Verdicts or
	// Options.Rows): workers then keep each batch's rows, which the
	// merger hands in file order to the verdict writer and to Rows.
	keepRows bool
	schema   *results.RowSchema
	row      results.Row // handed to Options.Rows, reused
	vw       *verdictWriter
	rowFree  chan *rowBatch
	// encode is set when the verdict file is the only consumer of the
	// scored rows: workers then encode each batch's verdict lines
	// (batchOut) instead of keeping its rows, and the merger only writes
	// them. It spares a copy of every row's fields and moves the
	// encoding off the merger, which runs one at a time.
	encode  bool
	outFree chan *batchOut
	// fileLanguage is the language named by the file name
	// (<model>_<language>.csv), used when the file has no language column.
	fileLanguage string
}

func newEngine(file string, opt *Options) *engine {
	e := &engine{file: file, opt: opt, metrics: opt.Metrics, overlap: -1}
	var binary []int
	for i, m := range e.metrics {
		if !m.Graded {
			binary = append(binary, i)
		}
		if m.ID == "word_overlap" {
			e.overlap = i
		}
		if m.Graded && (opt.CI == "bootstrap" || opt.CI == "bca") {
			e.keepValues = true
		}
	}
	for i := 0; i < len(binary); i++ {
		for j := i + 1; j < len(binary); j++ {
			e.pairs = append(e.pairs, [2]int{binary[i], binary[j]})
		}
	}
	if opt.Cluster != "" {
		e.keepValues = true
	}
	e.warn = map[string]*results.Warning{}
	e.keepRows = opt.Verdicts != nil || opt.Rows != nil
	e.encode = opt.Verdicts != nil && opt.Rows == nil
	return e
}

// begin resolves the header; it runs before any batch.
func (e *engine) begin(header []string) error {
	lay, err := resolve(e.file, header, e.opt.Columns, e.opt.By, e.opt.Cluster)
	if err == nil && e.opt.KeepFailedRows {
		lay.errCol = -1
	}
	if err != nil {
		return err
	}
	e.lay = lay
	if lay.id >= 0 {
		e.dups = newDupIDs()
	}
	e.combined = e.newAcc()
	e.groups = make([]map[string]*acc, len(lay.byCols))
	for i := range e.groups {
		e.groups[i] = map[string]*acc{}
	}
	e.examples = make([][4][]results.Example, len(e.pairs))
	e.full = make([][4]atomic.Bool, len(e.pairs))
	if !e.keepRows {
		return nil
	}
	ids := make([]string, len(e.metrics))
	graded := make([]bool, len(e.metrics))
	for i, m := range e.metrics {
		ids[i], graded[i] = m.ID, m.Graded
	}
	e.schema = results.NewRowSchema(append([]string(nil), header...), ids, graded, e.overlap >= 0, append([]string(nil), lay.byNames...))
	e.row.Schema = e.schema
	if e.opt.Verdicts != nil {
		seen := map[string]bool{}
		for _, h := range e.schema.Header {
			if seen[h] {
				return &ParseError{File: e.file, Line: 1, Field: h, Err: errorf("the input already has a column named %q, which the verdict file adds; rename or drop it", h)}
			}
			seen[h] = true
		}
		e.vw = &verdictWriter{w: e.opt.Verdicts, schema: e.schema, raw: e.opt.RawCSV}
	}
	return nil
}

// worker holds one goroutine's scorers and scratch space.
type worker struct {
	lastIDs  int // the most id keys a batch of this worker held: the next batch's capacity
	lastRows int // the most rows a batch of this worker kept (rowBatch): a new one's capacity
	e        *engine
	scorers  []score.Scorer
	lowers   []score.LowerScorer    // lowers[i] != nil when scorers[i] takes lower-cased text
	langs    []score.LanguageScorer // langs[i] != nil when scorers[i] takes the row's language
	multi    []score.RefsScorer     // multi[i] != nil when scorers[i] takes several references
	refs     []string               // the row's references (Columns.References), nil without
	anyLow   bool
	// pair scores exact_substring (metric pairAt[0]) and word_overlap
	// (pairAt[1]) at once when a run has both (score.SeedPair), nil
	// otherwise.
	pair   *score.SeedPair
	pairAt [2]int
	// stable: the fields being scored stay valid after their batch (a
	// huge record's block, which is not recycled, or the strings of a
	// table reader), so keep need not copy a long one
	stable  bool
	gl, rl  []byte
	corpus  []score.CorpusStats // per metric, nil unless corpus-level
	cstats  []float64
	vals    []score.Verdict
	gbuf    []byte
	rbuf    []byte
	keybuf  []byte
	buckets []int       // per binary metric pair, this row's agreement bucket
	vrow    results.Row // the row being encoded (encodeRow), reused
	guard   []string    // scratch for a guarded record (guardRow)
	special []uint64    // the masks of the chunk being parsed (csvParser.special, high)
	high    []uint64
	// groups caches, per grouping, the accumulators of the current batch
	// by key: a few string comparisons instead of a map lookup per row,
	// since a grouping column usually has a handful of values.
	groups []groupCache
}

type groupCache struct {
	keys []string
	accs []*acc
}

// maxCachedGroups bounds each groupCache; further keys go to the map alone.
const maxCachedGroups = 16

func (e *engine) newWorker() *worker {
	w := &worker{e: e, vals: make([]score.Verdict, len(e.metrics)), buckets: make([]int, len(e.pairs))}
	for _, m := range e.metrics {
		s := m.New()
		w.scorers = append(w.scorers, s)
		ls, _ := s.(score.LowerScorer)
		w.lowers = append(w.lowers, ls)
		w.anyLow = w.anyLow || ls != nil
		lang, _ := s.(score.LanguageScorer)
		w.langs = append(w.langs, lang)
		var multi score.RefsScorer
		if e.lay.refs >= 0 && score.TakesReferences(m) {
			multi, _ = s.(score.RefsScorer)
		}
		w.multi = append(w.multi, multi)
		var cs score.CorpusStats
		if m.Corpus != nil {
			cs = m.Corpus.New()
		}
		w.corpus = append(w.corpus, cs)
	}
	sub, over := -1, -1
	for i, m := range e.metrics {
		if w.lowers[i] == nil || w.multi[i] != nil || w.corpus[i] != nil {
			continue
		}
		switch m.ID {
		case "exact_substring":
			sub = i
		case "word_overlap":
			over = i
		}
	}
	if sub >= 0 && over >= 0 {
		w.pair, w.pairAt = score.NewSeedPair(), [2]int{sub, over}
	}
	return w
}

func (w *worker) newBatch(seq int) *batchResult {
	e := w.e
	b := &batchResult{seq: seq, combined: e.newAcc(), groups: make([]map[string]*acc, len(e.lay.byCols)), examples: make([][4][]results.Example, len(e.pairs))}
	for i := range b.groups {
		b.groups[i] = map[string]*acc{}
	}
	switch {
	case e.encode:
		select {
		case b.out = <-e.outFree:
		default:
			// a block's verdict lines are its records and a few bytes a row
			b.out = &batchOut{buf: make([]byte, 0, blockSize+blockSize/4)}
		}
	case e.keepRows:
		select {
		case b.rows = <-e.rowFree:
		default:
			// as many rows as this worker's largest batch so far, so that
			// a new batch is not grown from nothing row by row
			n := w.lastRows
			b.rows = &rowBatch{recs: make([]rowRec, 0, n), fields: make([]string, 0, n*len(e.schema.Columns)),
				values: make([]float64, 0, n*len(e.metrics)), groups: make([]string, 0, n*len(e.lay.byCols))}
		}
	}
	if len(w.groups) != len(b.groups) {
		w.groups = make([]groupCache, len(b.groups))
	}
	for i := range w.groups {
		c := &w.groups[i]
		clear(c.accs) // let the previous batch's accumulators go
		c.keys, c.accs = c.keys[:0], c.accs[:0]
	}
	return b
}

// group returns the accumulator of group key of grouping g in batch b,
// creating it on first sight, and the key as stored (a copy that outlives
// the block key points into).
func (w *worker) group(b *batchResult, g int, key string) (*acc, string) {
	c := &w.groups[g]
	for i, k := range c.keys {
		// the first and last bytes tell most keys apart without a call
		// to compare the strings
		if len(k) == len(key) && (k == "" || k[0] == key[0] && k[len(k)-1] == key[len(key)-1]) && k == key {
			return c.accs[i], k
		}
	}
	a := b.groups[g][key]
	if a == nil {
		a = w.e.newAcc()
		key = strings.Clone(key)
		b.groups[g][key] = a
	}
	if len(c.keys) < maxCachedGroups {
		c.keys = append(c.keys, key)
		c.accs = append(c.accs, a)
	}
	return a, key
}

func (b *batchResult) warnLine(code string, line int) {
	if b.warn == nil {
		b.warn = map[string]*results.Warning{}
	}
	wr := b.warn[code]
	if wr == nil {
		wr = &results.Warning{Code: code}
		b.warn[code] = wr
	}
	wr.Count++
	if len(wr.Lines) < maxWarnLines {
		wr.Lines = append(wr.Lines, line)
	}
}

// row scores one record into b, keeping the scored row in b.rows when
// rows are wanted. raw is the record's CSV text, or "" to encode fields.
//
// It reports false, having recorded nothing, when the golden answer or
// the response is not valid UTF-8 and the row was asked to check
// (checkUTF8): the lower-casing pass checks them on the way.
func (w *worker) row(b *batchResult, fields []string, line int, raw string, checkUTF8 bool) bool {
	e := w.e
	lay := e.lay
	if lay.errCol >= 0 && strings.TrimSpace(fields[lay.errCol]) != "" {
		b.warnLine(CodeGenerationFailed, line) // no response to score (generate's failed row)
		return true
	}
	golden, response := fields[lay.answer], fields[lay.response]
	// A cell that an evalbook CSV writer guarded against formula injection
	// (generate --out writes responses so) is scored as it was written:
	// the guard is taken off for scoring, and the row keeps the text read.
	golden, response = unguard(golden), unguard(response)
	if lay.id >= 0 && fields[lay.id] != "" {
		w.noteID(b, fields, line)
	}
	golden, response, gl, rl, ok := w.prepare(b, golden, response, line, checkUTF8)
	if !ok {
		return false
	}
	blank := textnorm.IsBlank(response)
	emptyGolden := golden == ""
	if blank {
		b.warnLine(CodeBlankResponse, line)
	}
	if emptyGolden {
		b.warnLine(CodeEmptyGolden, line)
	} else if textnorm.HasOuterSpace(golden) {
		b.warnLine(CodeGoldenWhitespace, line)
	}
	w.refs = w.refs[:0]
	if lay.refs >= 0 {
		w.references(b, fields[lay.refs], golden, line)
	}
	cstats := w.corpusStats(golden, response)
	w.scoreMetrics(fields, golden, response, gl, rl, cstats)
	for p, pr := range e.pairs {
		w.buckets[p] = bucket(w.vals[pr[0]].Value, w.vals[pr[1]].Value)
	}
	w.addTo(b.combined, fields, blank, emptyGolden, cstats)
	firstGroup := ""
	rb := b.rows
	for g, cols := range lay.byCols {
		a, key := w.group(b, g, w.groupKey(fields, cols))
		if g == 0 {
			firstGroup = key
		}
		if rb != nil {
			rb.groups = append(rb.groups, key)
		}
		w.addTo(a, fields, blank, emptyGolden, cstats)
	}
	w.keepExamples(b, fields, line, firstGroup)
	if rb != nil {
		rr := rowRec{line: line, raw: raw, blank: blank, empty: emptyGolden}
		if e.overlap >= 0 {
			rr.matching, rr.total = w.vals[e.overlap].Matching, w.vals[e.overlap].Total
		}
		rb.recs = append(rb.recs, rr)
		w.lastRows = max(w.lastRows, len(rb.recs))
		rb.fields = append(rb.fields, fields...)
		for _, v := range w.vals {
			rb.values = append(rb.values, v.Value)
		}
	}
	if b.out != nil {
		w.encodeRow(b.out, fields, line, raw, blank, emptyGolden)
	}
	return true
}

// noteID records the row's id (with its model, when the table has a
// model column: one question answered by several models) for the
// duplicate-id check.
func (w *worker) noteID(b *batchResult, fields []string, line int) {
	lay := w.e.lay
	model := ""
	if lay.model >= 0 {
		model = fields[lay.model]
	}
	if b.ids == nil {
		b.ids = &idBatch{h: make([]uint64, 0, max(w.lastIDs, 256))}
	}
	b.ids.add(hashID(fields[lay.id], model), line)
	w.lastIDs = max(w.lastIDs, len(b.ids.h))
}

// prepare normalises the golden answer and the response by the run's
// profile and, for the metrics that work on lower-cased text, lowers
// them (gl, rl), warning of invisible characters and text not in NFC.
// ok is false, having recorded nothing, when checkUTF8 asks and either
// is not valid UTF-8.
func (w *worker) prepare(b *batchResult, golden, response string, line int, checkUTF8 bool) (g, r string, gl, rl []byte, ok bool) {
	e := w.e
	lowered := false
	switch {
	case e.opt.Profile == textnorm.None && w.anyLow:
		// Lower-case once for every metric that works on lower-cased
		// text, checking NFC and UTF-8 in the same pass, and for the
		// response the invisible characters (results.HasInvisible).
		// Text that lowering leaves as it is (most Indic text) is
		// scored in place (gl, rl are then views of the fields, only
		// read); other text is lowered into the worker's buffers.
		var gOK, rOK, gValid, rValid, invisible, gView, rView bool
		gl, gView, gOK, gValid, _ = fasttext.LowerScanView(w.gl, golden)
		rl, rView, rOK, rValid, invisible = fasttext.LowerScanView(w.rl, response)
		if !gView {
			w.gl = gl
		}
		if !rView {
			w.rl = rl
		}
		if invisible {
			b.warnLine(results.CodeBidiControls, line) // shown as marks in the HTML report
		}
		if checkUTF8 && !(gValid && rValid) {
			return "", "", nil, nil, false
		}
		lowered = true
		if !gOK || !rOK {
			b.warnLine(CodeNotNFC, line)
		}
	case e.opt.Profile == textnorm.None:
		if results.HasInvisible(response) {
			b.warnLine(results.CodeBidiControls, line)
		}
		if !textnorm.IsNFC(golden) || !textnorm.IsNFC(response) {
			b.warnLine(CodeNotNFC, line)
		}
	default:
		if results.HasInvisible(response) {
			b.warnLine(results.CodeBidiControls, line)
		}
		w.gbuf = e.opt.Profile.AppendApply(w.gbuf[:0], golden)
		w.rbuf = e.opt.Profile.AppendApply(w.rbuf[:0], response)
		golden, response = string(w.gbuf), string(w.rbuf)
	}
	if w.anyLow && !lowered {
		w.gl = textnorm.AppendLower(w.gl[:0], golden)
		w.rl = textnorm.AppendLower(w.rl[:0], response)
		gl, rl = w.gl, w.rl
	}
	return golden, response, gl, rl, true
}

// references parses the row's references cell into w.refs (the golden
// answer alone, with a warning, when the cell has none to read).
func (w *worker) references(b *batchResult, cell, golden string, line int) {
	e := w.e
	refs, err := score.ParseReferences(unguard(cell), e.opt.RefSeparator)
	if err != nil || len(refs) == 0 {
		b.warnLine(CodeBadReferences, line)
		refs = []string{golden}
	} else if e.opt.Profile != textnorm.None {
		for i, r := range refs {
			refs[i] = e.opt.Profile.Apply(r)
		}
	}
	w.refs = append(w.refs, refs...)
}

// corpusStats returns the sufficient statistics of each corpus-level
// metric for the row (nil when the run has none), computed once per row
// into w.cstats.
func (w *worker) corpusStats(golden, response string) [][]float64 {
	var cstats [][]float64
	for i, cs := range w.corpus {
		if cs == nil {
			continue
		}
		if cstats == nil {
			cstats = make([][]float64, len(w.corpus))
			w.cstats = w.cstats[:0]
		}
		start := len(w.cstats)
		if rs, ok := cs.(score.RefsStats); ok && w.multi[i] != nil {
			w.cstats = rs.AppendStatsRefs(w.cstats, w.refs, response)
		} else {
			w.cstats = cs.AppendStats(w.cstats, golden, response)
		}
		cstats[i] = w.cstats[start:]
	}
	return cstats
}

// scoreMetrics fills w.vals with every metric's verdict on the row: the
// two seed metrics together when the run has both (w.pair), a corpus
// metric whose sentence value is its corpus value of the one row, metrics
// on references, on lower-cased text, on the row's language, the rest on
// the text.
func (w *worker) scoreMetrics(fields []string, golden, response string, gl, rl []byte, cstats [][]float64) {
	e := w.e
	if w.pair != nil {
		w.vals[w.pairAt[0]], w.vals[w.pairAt[1]] = w.pair.ScoreLower(gl, rl)
	}
	for i, s := range w.scorers {
		switch m := e.metrics[i]; {
		case w.pair != nil && (i == w.pairAt[0] || i == w.pairAt[1]):
			// scored above
		case cstats != nil && cstats[i] != nil && m.Corpus.SentenceIsFinal:
			// The sentence value is the corpus value of this one row.
			w.vals[i] = score.Verdict{Value: m.Corpus.Final(cstats[i])}
		case w.multi[i] != nil:
			w.vals[i] = w.multi[i].ScoreRefs(w.refs, response)
		case w.lowers[i] != nil:
			w.vals[i] = w.lowers[i].ScoreLower(gl, rl)
		case w.langs[i] != nil:
			w.vals[i] = w.langs[i].ScoreLanguage(w.rowLanguage(fields), golden, response)
		default:
			w.vals[i] = s.Score(golden, response)
		}
	}
}

// addTo adds the row just scored (w.vals, w.buckets) to the accumulator
// a: counts, sums, agreement buckets, its cluster and corpus statistics.
func (w *worker) addTo(a *acc, fields []string, blank, emptyGolden bool, cstats [][]float64) {
	e := w.e
	a.n++
	if blank {
		a.blank++
	}
	if emptyGolden {
		a.emptyGolden++
	}
	for i, v := range w.vals {
		a.sum[i] += v.Value
		a.sumsq[i] += v.Value * v.Value
		a.matching[i] += v.Matching
		a.golden[i] += v.Total
		if a.values != nil {
			a.values[i] = append(a.values[i], v.Value)
		}
	}
	for p, k := range w.buckets {
		a.agree[p][k]++
	}
	if e.lay.cluster >= 0 {
		a.clusters = append(a.clusters, strings.Clone(fields[e.lay.cluster]))
	}
	for i, st := range cstats {
		for j, x := range st {
			a.csum[i][j] += x
		}
		if st != nil && (e.opt.CI == "bootstrap" || e.opt.CI == "bca") {
			a.crows[i] = append(a.crows[i], st...)
		}
	}
}

// keepExamples keeps the row as an example of each agreement bucket it
// falls in, while the bucket has fewer than Options.Examples.
func (w *worker) keepExamples(b *batchResult, fields []string, line int, firstGroup string) {
	e := w.e
	for p, k := range w.buckets {
		if len(b.examples[p][k]) < e.opt.Examples && !e.full[p][k].Load() {
			ex := results.Example{Line: line, Group: w.keep(firstGroup), Golden: w.keep(fields[e.lay.answer]), Response: w.keep(fields[e.lay.response])}
			if e.lay.id >= 0 {
				ex.ID = w.keep(fields[e.lay.id])
			}
			b.examples[p][k] = append(b.examples[p][k], ex)
		}
	}
}

// encodeRow appends the verdict line of the row just scored to out, as
// the verdict writer would write it (verdictWriter.add), or keeps the
// row in out.longs when it is too long to copy.
func (w *worker) encodeRow(out *batchOut, fields []string, line int, raw string, blank, emptyGolden bool) {
	e := w.e
	r := &w.vrow
	r.Schema, r.Line, r.Fields = e.schema, line, fields
	r.Values = r.Values[:0]
	for _, v := range w.vals {
		r.Values = append(r.Values, v.Value)
	}
	r.Matching, r.TotalGolden = 0, 0
	if e.overlap >= 0 {
		r.Matching, r.TotalGolden = w.vals[e.overlap].Matching, w.vals[e.overlap].Total
	}
	r.Blank, r.EmptyGolden = blank, emptyGolden
	fields, raw = guardRow(&w.guard, r, raw, e.vw.raw, &out.cells, &out.lines)
	// a field of a record read as text (raw) is no longer than the text
	if len(raw) >= longRecord || raw == "" && longField(fields) {
		// views of the block, which stays until the batch is written
		lr := longRow{at: len(out.buf), row: *r, fields: append([]string(nil), fields...), raw: raw}
		lr.row.Values = append([]float64(nil), r.Values...)
		lr.row.Fields = nil
		out.longs = append(out.longs, lr)
		return
	}
	out.buf = appendVerdict(out.buf, r, fields, raw)
}

// keep returns a string of the record being scored that outlives its
// batch: a copy, or, for a long string that stays valid (w.stable: a
// block that is not recycled, one huge record's), the string itself,
// which keeps the block alive instead of doubling the record.
func (w *worker) keep(s string) string {
	if w.stable && len(s) >= longRecord {
		return s
	}
	return strings.Clone(s)
}

// dropLong lets go the worker's buffers that a huge record grew, so
// that they do not stay allocated for the rest of the input.
func (w *worker) dropLong() {
	for _, b := range []*[]byte{&w.gl, &w.rl, &w.gbuf, &w.rbuf} {
		if cap(*b) > longRecord {
			*b = nil
		}
	}
	if cap(w.special) > 2*blockSize/64 {
		w.special, w.high = nil, nil // a huge record's masks
	}
}

// deliver hands the rows of b, in order, to the verdict writer and then
// to Options.Rows, through the one reused e.row, and gives b back.
func (e *engine) deliver(b *rowBatch) error {
	nf, nv, ng := len(e.schema.Columns), len(e.metrics), len(e.lay.byCols)
	r := &e.row
	for i := range b.recs {
		rr := &b.recs[i]
		r.Line = rr.line
		r.Fields = b.fields[i*nf : (i+1)*nf : (i+1)*nf]
		r.Values = b.values[i*nv : (i+1)*nv : (i+1)*nv]
		r.Groups = b.groups[i*ng : (i+1)*ng : (i+1)*ng]
		r.Matching, r.TotalGolden = rr.matching, rr.total
		r.Blank, r.EmptyGolden = rr.blank, rr.empty
		r.Extra = nil
		if e.vw != nil {
			e.vw.add(r, rr.raw)
		}
		if e.opt.Rows != nil {
			// The fields are views of a block that is recycled for
			// later input: give the caller strings of its own, so that
			// a string it keeps never changes, unless it copies what
			// it keeps.
			if !e.opt.RowsCopy {
				ownStrings(r.Fields)
				ownStrings(r.Groups)
			}
			if err := e.opt.Rows(r); err != nil {
				return err
			}
		}
	}
	*r = results.Row{Schema: e.schema} // hold no block past its release
	clear(b.fields)
	clear(b.groups)
	clear(b.recs)
	b.recs, b.fields, b.values, b.groups = b.recs[:0], b.fields[:0], b.values[:0], b.groups[:0]
	select {
	case e.rowFree <- b:
	default:
	}
	if e.vw != nil {
		return e.vw.flush()
	}
	return nil
}

// unguard returns s without the leading ' of tabular.GuardFormula when s
// is a guarded cell; other text, a leading ' included, is returned as it
// is.
func unguard(s string) string {
	if len(s) > 1 && s[0] == '\'' {
		return tabular.UnguardFormula(s)
	}
	return s
}

// ownStrings replaces the strings of ss by copies that share one new
// allocation.
func ownStrings(ss []string) {
	n := 0
	for _, x := range ss {
		n += len(x)
	}
	var b strings.Builder
	b.Grow(n)
	for _, x := range ss {
		b.WriteString(x)
	}
	all, off := b.String(), 0
	for i, x := range ss {
		ss[i] = all[off : off+len(x)]
		off += len(x)
	}
}

// verdictWriter writes the verdict file: it is one consumer of the
// scored rows, called in file order. A row read from CSV input is
// written with its record's text as read (raw), which keeps the input's
// own quoting byte for byte and costs one copy; other rows encode their
// fields as encoding/csv would.
//
// Unless raw is set, a field a spreadsheet would read as a formula
// (tabular.NeedsFormulaGuard) is written with a leading ': the fast
// path checks the first byte of each field, and only a record with a
// risky field is encoded again, guarded. cells counts the guarded
// fields and lines holds the first lines that had one.
type verdictWriter struct {
	w      io.Writer
	schema *results.RowSchema
	buf    []byte
	raw    bool
	cells  int
	lines  []int
	guard  []string
	err    error // of a write add made itself (a huge record), returned by flush
}

func (vw *verdictWriter) header() error {
	_, err := vw.w.Write(append(appendCSV(nil, vw.schema.Header), '\n'))
	return err
}

func (vw *verdictWriter) add(r *results.Row, raw string) {
	fields, raw := guardRow(&vw.guard, r, raw, vw.raw, &vw.cells, &vw.lines)
	vw.write(r, fields, raw)
}

// write adds r's verdict line with the given fields and raw text (see
// guardRow) to the buffer, or writes it out when it is long.
func (vw *verdictWriter) write(r *results.Row, fields []string, raw string) {
	b := vw.buf
	if len(raw) >= longRecord && vw.err == nil {
		// a huge record goes out as it is, not through a copy in buf
		_, vw.err = vw.w.Write(b)
		if vw.err == nil {
			_, vw.err = io.WriteString(vw.w, raw)
		}
		b = b[:0]
	} else if raw != "" {
		b = append(b, raw...)
	} else if longField(fields) && vw.err == nil {
		// likewise a huge field of a row read from JSONL: quoted on the
		// way out, not grown byte by byte in buf
		_, vw.err = vw.w.Write(b)
		if vw.err == nil {
			vw.err = writeCSV(vw.w, fields)
		}
		b = b[:0]
	} else {
		b = appendCSV(b, fields)
	}
	vw.buf = appendVerdictTail(b, r)
}

// guardRow returns the fields and the raw text r is written with:
// unless noGuard, a record with a field a spreadsheet would read as a
// formula is guarded (tabular.GuardRecord, into the scratch *guard) and
// then encoded again (raw ""), its guarded cells added to *cells and its
// line to *lines (up to maxWarnLines).
func guardRow(guard *[]string, r *results.Row, raw string, noGuard bool, cells *int, lines *[]int) ([]string, string) {
	fields := r.Fields
	if noGuard || !risky(fields) {
		return fields, raw
	}
	*guard = append((*guard)[:0], fields...)
	n := tabular.GuardRecord(*guard)
	if n == 0 {
		return fields, raw
	}
	*cells += n
	if len(*lines) < maxWarnLines {
		*lines = append(*lines, r.Line)
	}
	return *guard, ""
}

// appendVerdict appends r's verdict line to b: the record as read (raw)
// or its fields encoded, then the verdict columns (appendVerdictTail).
func appendVerdict(b []byte, r *results.Row, fields []string, raw string) []byte {
	if raw != "" {
		b = append(b, raw...)
	} else {
		b = appendCSV(b, fields)
	}
	return appendVerdictTail(b, r)
}

// appendVerdictTail appends the verdict columns of r and the line end.
func appendVerdictTail(b []byte, r *results.Row) []byte {
	for i, v := range r.Values {
		b = append(b, ',')
		b = appendValue(b, v, r.Schema.Graded[i])
	}
	if r.Schema.Words {
		b = append(b, ',')
		b = appendCount(b, r.Matching)
		b = append(b, ',')
		b = appendCount(b, r.TotalGolden)
	}
	return append(b, ',', bit(r.Blank), ',', bit(r.EmptyGolden), '\n')
}

// writeOut writes a batch's verdict lines (batchOut), its long rows
// through add, and gives the batch back.
func (e *engine) writeOut(o *batchOut) error {
	vw := e.vw
	vw.cells += o.cells
	for _, l := range o.lines {
		if len(vw.lines) < maxWarnLines {
			vw.lines = append(vw.lines, l)
		}
	}
	at := 0
	for i := range o.longs {
		lr := &o.longs[i]
		vw.buf = append(vw.buf, o.buf[at:lr.at]...)
		vw.write(&lr.row, lr.fields, lr.raw)
		at = lr.at
		*lr = longRow{}
	}
	var err error
	if len(o.longs) == 0 {
		// the usual batch: written as it is, not copied into vw.buf
		if err = vw.flush(); err == nil && len(o.buf) > 0 {
			_, err = vw.w.Write(o.buf)
		}
	} else {
		vw.buf = append(vw.buf, o.buf[at:]...)
		err = vw.flush()
	}
	o.buf, o.longs, o.cells, o.lines = o.buf[:0], o.longs[:0], 0, o.lines[:0]
	if cap(o.buf) > 4*blockSize {
		o.buf = nil // grown by a batch of long rows: let it go
	}
	select {
	case e.outFree <- o:
	default:
	}
	return err
}

// risky reports whether a field starts with a byte that may make it a
// formula (tabular.IsFormulaStart); most records have none.
func risky(fields []string) bool {
	for _, f := range fields {
		if f != "" && tabular.IsFormulaStart(f[0]) {
			return true
		}
	}
	return false
}

// flush writes what add collected (once per batch, as the batch's rows
// are handed out).
func (vw *verdictWriter) flush() error {
	if vw.err != nil {
		return vw.err
	}
	if len(vw.buf) == 0 {
		return nil
	}
	_, err := vw.w.Write(vw.buf)
	vw.buf = vw.buf[:0]
	return err
}

func (w *worker) groupKey(fields []string, cols []int) string {
	if len(cols) == 1 {
		return w.field(fields, cols[0])
	}
	w.keybuf = w.keybuf[:0]
	for i, c := range cols {
		if i > 0 {
			w.keybuf = append(w.keybuf, " / "...)
		}
		w.keybuf = append(w.keybuf, w.field(fields, c)...)
	}
	return string(w.keybuf)
}

// field returns a grouping column's value; the virtual language column
// takes the file's language, or the language of the golden answer's script.
func (w *worker) field(fields []string, c int) string {
	if c != virtualLanguage {
		return fields[c]
	}
	if w.e.fileLanguage != "" {
		return w.e.fileLanguage
	}
	lang, _ := textnorm.LanguageOfScript(textnorm.ScriptOf(fields[w.e.lay.answer]))
	if lang == "" {
		return "unknown"
	}
	return lang
}

// rowLanguage is the language a row is asked in, for the metrics that
// take it (score.LanguageScorer): the language column's value, else the
// file name's language, else "" (the metric then reads the golden
// answer's script, as field does for the grouping).
func (w *worker) rowLanguage(fields []string) string {
	if l := w.e.lay.language; l >= 0 {
		return fields[l]
	}
	return w.e.fileLanguage
}

// bucket maps two verdicts to both(0), neither(1), only first(2), only second(3).
func bucket(a, b float64) int {
	switch {
	case a == 1 && b == 1:
		return 0
	case a != 1 && b != 1:
		return 1
	case a == 1:
		return 2
	}
	return 3
}

func bit(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}

// appendCount appends the decimal form of n, as strconv.AppendInt does,
// with the one- and two-digit numbers that word counts nearly always
// are written directly.
func appendCount(dst []byte, n int) []byte {
	switch {
	case uint(n) < 10:
		return append(dst, byte('0'+n))
	case uint(n) < 100:
		return append(dst, byte('0'+n/10), byte('0'+n%10))
	}
	return strconv.AppendInt(dst, int64(n), 10)
}

func appendValue(dst []byte, v float64, graded bool) []byte {
	if !graded {
		return append(dst, bit(v == 1))
	}
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}

// longField reports whether one of fields is longRecord bytes or more.
func longField(fields []string) bool {
	for _, f := range fields {
		if len(f) >= longRecord {
			return true
		}
	}
	return false
}

// writeCSV writes what appendCSV appends, writing each field of
// longRecord bytes or more to w in place (its runs between quotes, each
// quote doubled) rather than through a copy.
func writeCSV(w io.Writer, fields []string) error {
	var short []byte
	for i, f := range fields {
		if i > 0 {
			short = append(short, ',')
		}
		if len(f) < longRecord {
			short = appendCSV(short, fields[i:i+1])
			continue
		}
		if !strings.ContainsAny(f, ",\"\r\n") && f[0] != ' ' && f[0] != '\t' {
			if _, err := w.Write(short); err != nil {
				return err
			}
			if _, err := io.WriteString(w, f); err != nil {
				return err
			}
			short = short[:0]
			continue
		}
		short = append(short, '"')
		for {
			q := strings.IndexByte(f, '"')
			if q < 0 {
				break
			}
			if _, err := w.Write(short); err != nil {
				return err
			}
			if _, err := io.WriteString(w, f[:q+1]); err != nil {
				return err
			}
			short, f = append(short[:0], '"'), f[q+1:]
		}
		if _, err := w.Write(short); err != nil {
			return err
		}
		if _, err := io.WriteString(w, f); err != nil {
			return err
		}
		short = append(short[:0], '"')
	}
	_, err := w.Write(short)
	return err
}

// appendCSV appends fields as one CSV record (no line ending), quoting as
// encoding/csv does.
func appendCSV(dst []byte, fields []string) []byte {
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		if f == "" || !strings.ContainsAny(f, ",\"\r\n") && f[0] != ' ' && f[0] != '\t' {
			dst = append(dst, f...)
			continue
		}
		dst = append(dst, '"')
		for j := 0; j < len(f); j++ {
			if f[j] == '"' {
				dst = append(dst, '"')
			}
			dst = append(dst, f[j])
		}
		dst = append(dst, '"')
	}
	return dst
}

// mergeBatch folds a batch into the engine's totals; batches arrive in file order.
func (e *engine) mergeBatch(b *batchResult) {
	e.combined.merge(b.combined)
	e.dups.addBatch(b.ids)
	for g, m := range b.groups {
		for k, a := range m {
			if t := e.groups[g][k]; t != nil {
				t.merge(a)
			} else {
				e.groups[g][k] = a
			}
		}
	}
	for p := range b.examples {
		for k := range b.examples[p] {
			room := e.opt.Examples - len(e.examples[p][k])
			if room > 0 {
				ex := b.examples[p][k]
				if len(ex) > room {
					ex = ex[:room]
				}
				e.examples[p][k] = append(e.examples[p][k], ex...)
			}
			if len(e.examples[p][k]) >= e.opt.Examples {
				e.full[p][k].Store(true)
			}
		}
	}
	for code, w := range b.warn {
		t := e.warn[code]
		if t == nil {
			e.warn[code] = w
			continue
		}
		t.Count += w.Count
		for _, l := range w.Lines {
			if len(t.Lines) < maxWarnLines {
				t.Lines = append(t.Lines, l)
			}
		}
	}
}

// pipeline runs produce (which sends batches to the work channel in
// order), scores them on opt.Workers goroutines, and merges and writes
// their results in sequence order.
func (e *engine) pipeline(ctx context.Context, produce func(ctx context.Context, work chan<- func(*worker) *batchResult) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	inflight := e.opt.Workers + 1
	// Every batch holds a slot from the moment its input is read until it
	// has been merged and written, so however the scheduler orders the
	// workers, at most cap(slots) blocks are in memory.
	e.slots = make(chan struct{}, 2*inflight+1)
	// A batch gives its slot back when the merger receives it, before
	// the batches ahead of it are merged: more than cap(slots) outputs
	// can be alive, and a free list that holds them all keeps a steady
	// stream from allocating new ones (for kept rows, a Parquet verdict
	// file's: 48 MB of allocation in 1,000,000 rows with a list of
	// cap(slots) and new batches grown from nothing, 7 MB with this and
	// newBatch's sizing).
	e.rowFree = make(chan *rowBatch, 2*cap(e.slots))
	e.outFree = make(chan *batchOut, 2*cap(e.slots))
	work := make(chan func(*worker) *batchResult, inflight)
	done := make(chan *batchResult, inflight)
	var wg sync.WaitGroup
	for i := 0; i < e.opt.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := e.newWorker()
			for job := range work {
				done <- job(w)
			}
		}()
	}
	var prodErr error
	go func() {
		prodErr = produce(ctx, work)
		close(work)
		wg.Wait()
		close(done)
	}()
	if e.vw != nil {
		if err := e.vw.header(); err != nil {
			cancel()
			for range done {
			}
			return err
		}
	}
	firstErr := e.merge(done, cancel)
	if firstErr != nil {
		return firstErr
	}
	if prodErr != nil {
		return prodErr
	}
	return ctx.Err()
}

// merge takes the scored batches as they come from done, merges and
// hands them out (rows to the consumer, verdict lines to the file) in
// file order, and returns the first error, after which it only drains
// done; it cancels the run on an error.
func (e *engine) merge(done <-chan *batchResult, cancel context.CancelFunc) error {
	pending := map[int]*batchResult{}
	next := 0
	var firstErr error
	for b := range done {
		<-e.slots
		if firstErr != nil {
			continue
		}
		pending[b.seq] = b
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if r.err != nil {
				// The rows before the bad record are handed out, so
				// that a consumer has every row up to the error.
				firstErr = r.err
				if r.rows != nil {
					if err := e.deliver(r.rows); err != nil {
						firstErr = err
					}
				}
				if r.out != nil {
					if err := e.writeOut(r.out); err != nil {
						firstErr = err
					}
				}
				cancel()
				break
			}
			e.mergeBatch(r)
			if r.rows != nil {
				if err := e.deliver(r.rows); err != nil {
					firstErr = err
					cancel()
					break
				}
			}
			if r.out != nil {
				if err := e.writeOut(r.out); err != nil {
					firstErr = err
					cancel()
					break
				}
			}
			if r.done != nil {
				r.done()
			}
		}
	}
	return firstErr
}

// acquire takes a batch slot, or reports false when ctx is done.
func (e *engine) acquire(ctx context.Context) bool {
	select {
	case e.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// runCSV is the fast path for CSV input.
func (e *engine) runCSV(ctx context.Context, r io.Reader) error {
	sp := &splitter{r: r, file: e.file, line: 1}
	first, err := sp.next()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return &ParseError{File: e.file, Err: ErrEmptyFile}
		}
		return err
	}
	header, rest, err := readHeader(e.file, first)
	if err != nil {
		return err
	}
	if err := e.begin(header); err != nil {
		return err
	}
	job := func(c *chunk) func(*worker) *batchResult {
		return func(w *worker) *batchResult { return e.csvChunk(ctx, w, c, header) }
	}
	return e.pipeline(ctx, func(ctx context.Context, work chan<- func(*worker) *batchResult) error {
		if !e.acquire(ctx) {
			return nil
		}
		c := rest
		for {
			select {
			case work <- job(c):
			case <-ctx.Done():
				return nil
			}
			if !e.acquire(ctx) {
				return nil
			}
			var err error
			c, err = sp.next()
			if err != nil {
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
		}
	})
}

// csvChunk parses and scores the records of chunk c on worker w into a
// batch: masks of the chunk's commas, quotes and line feeds first (not
// for a chunk holding a record of megabytes), then record by record,
// checking field counts, NULs and UTF-8.
func (e *engine) csvChunk(ctx context.Context, w *worker, c *chunk, header []string) *batchResult {
	b := w.newBatch(c.seq)
	b.done = c.release
	if ctx.Err() != nil {
		b.err = ctx.Err()
		return b
	}
	w.stable = c.outsized()
	defer w.dropLong()
	p := &csvParser{file: e.file, text: c.text, line: c.firstLine}
	if c.outsized() {
		// A record of megabytes: split by the general parser, with
		// no masks (a quarter of the text again, which set the
		// peak of a 50 MB field at 3.1x its size, not 2.1x).
		p.nomask = true
	} else {
		p.special, p.high = w.special, w.high
		p.mark()
		w.special, w.high = p.special, p.high
	}
	// UTF-8 is checked for the whole chunk at once where that is fast
	// (AVX2: 32 bytes at a time, ~18 GB/s); otherwise per record, the
	// golden answer and the response by the lower-casing pass when
	// there is one (which reads them anyway), the other fields here.
	// A chunk that fails is read again record by record, to say where.
	inRow := e.opt.Profile == textnorm.None && w.anyLow
	valid := (!inRow || fasttext.FastUTF8Block()) && fasttext.ValidUTF8Block(c.text)
	nul := strings.IndexByte(c.text, 0) >= 0 // a NUL is an error (issue 17); memchr over the chunk costs little
	for {
		rec, ok, err := p.parse()
		if err != nil {
			b.err = err
			return b
		}
		if !ok {
			return b
		}
		if nul {
			if err := nulInRecord(e.file, rec, header); err != nil {
				b.err = err
				return b
			}
		}
		if len(rec.fields) != len(header) {
			b.err = &ParseError{File: e.file, Line: rec.line, Err: errorf("%w: the record has %d fields, the header has %d (a field with a comma or line break must be quoted)", ErrFieldCount, len(rec.fields), len(header))}
			return b
		}
		if !valid {
			ok := true
			if inRow {
				for i, f := range rec.fields {
					// most of them are ASCII, which the masks tell at once
					if i != e.lay.answer && i != e.lay.response && !p.ascii(f) && !fasttext.ValidUTF8(f) {
						ok = false
						break
					}
				}
			} else {
				ok = fasttext.ValidUTF8(rec.raw)
			}
			if !ok || !w.row(b, rec.fields, rec.line, rec.raw, inRow) {
				b.err = badUTF8(e.file, rec, header)
				return b
			}
			continue
		}
		w.row(b, rec.fields, rec.line, rec.raw, false)
	}
}

// runSource scores records from a RowSource, in batches.
func (e *engine) runSource(ctx context.Context, src RowSource) error {
	header, err := src.Header()
	if err != nil {
		return err
	}
	if err := e.begin(header); err != nil {
		return err
	}
	_, stable := src.(*tableSource) // its fields are strings of their own (tabular.Reader)
	type rec struct {
		fields []string
		line   int
	}
	const batchRows = 2048
	seq := 0
	var repaired *results.Warning
	if s, ok := src.(*tableSource); ok {
		repaired = &s.repaired
		if s.format == "jsonl" {
			s.requireText(e.lay.readColumns())
		}
	} else if s, ok := src.(TextColumnsSource); ok {
		s.RequireText(e.lay.readColumns())
	}
	if repaired != nil {
		defer func() {
			if repaired.Count > 0 {
				w := *repaired
				w.Code = CodeRepairedUTF8
				e.warn[w.Code] = &w
			}
		}()
	}
	return e.pipeline(ctx, func(ctx context.Context, work chan<- func(*worker) *batchResult) error {
		for {
			if !e.acquire(ctx) {
				return nil
			}
			var recs []rec
			var end error
			for len(recs) < batchRows {
				f, line, err := src.Next()
				if err != nil {
					end = err
					break
				}
				if len(f) != len(header) {
					end = &ParseError{File: e.file, Line: line, Err: errorf("%w: the record has %d fields, the header has %d", ErrFieldCount, len(f), len(header))}
					break
				}
				if err := nulInFields(e.file, line, 0, f, header); err != nil {
					end = err // a workbook cell (CSV and JSONL sources check as they read)
					break
				}
				recs = append(recs, rec{f, line})
			}
			s := seq
			seq++
			job := func(w *worker) *batchResult {
				b := w.newBatch(s)
				w.stable = stable
				for _, r := range recs {
					w.row(b, r.fields, r.line, "", false) // the sources check UTF-8 as they read
				}
				return b
			}
			if len(recs) > 0 {
				select {
				case work <- job:
				case <-ctx.Done():
					return nil
				}
			} else {
				<-e.slots // nothing was sent for this slot
			}
			if end != nil {
				if errors.Is(end, io.EOF) {
					return nil
				}
				return end
			}
		}
	})
}
