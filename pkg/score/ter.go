package score

import (
	"math"
	"strings"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

func init() {
	Register(&Metric{
		ID:     "ter",
		Name:   "1 − TER (higher is better)",
		Graded: true,
		Rule: "Translation edit rate (Snover et al. 2006) as sacreBLEU 2.x computes it with its defaults (Tercom's " +
			"algorithm: lower-cased, split on whitespace, no other tokenisation): TER = (word insertions + deletions + " +
			"substitutions + shifts of word runs) / golden-answer words, the number of edits found by Tercom's greedy " +
			"shift search and beam edit distance. Because every verdict in evalbook is higher-is-better on [0, 1], the " +
			"value reported under this id is 1 − TER floored at 0: identical text scores 1 and a response needing as many " +
			"edits as the golden answer has words (or more) scores 0. The raw TER is score.CorpusTER's Score. " +
			"A group's value is 1 − corpus TER, with TER = Σ edits / Σ golden words.",
		FalsePositives: "Few edits is not the same as right: one substituted word (a wrong year, a negation) costs one edit.",
		FalseNegatives: "A correct answer wrapped in prose needs many insertions and scores low; anything past as many " +
			"edits as golden words is floored at 0.",
		Blank: "A blank response against a non-empty golden answer scores 0; both blank scores 1 (TER 0, as sacreBLEU " +
			"defines it); a non-blank response against a blank golden answer scores 0.",
		Source: "sacreBLEU 2.6.0 (github.com/mjpost/sacrebleu) TER() defaults; Tercom (github.com/jhclark/tercom)",
		New:    func() Scorer { return &terScorer{t: newTER(TEROptions{})} },
		Corpus: &CorpusDef{
			NStats: 2,
			New:    func() CorpusStats { return newTER(TEROptions{}) },
			Final:  func(s []float64) float64 { return math.Max(0, 1-terRate(s[0], s[1])) },
			// A sentence's TER is the corpus TER of that one sentence.
			SentenceIsFinal: true,
		},
	})
}

// TEROptions configures TER. The zero value is sacreBLEU's default:
// case-insensitive, no normalisation, punctuation kept.
type TEROptions struct {
	// CaseSensitive keeps case; by default both sides are lower-cased
	// (Python's str.lower).
	CaseSensitive bool
}

// TERScore is translation edit rate with its parts.
type TERScore struct {
	Score     float64 // Edits / RefLength: 0 is perfect, and it can exceed 1
	Edits     float64 // insertions, deletions, substitutions and shifts
	RefLength float64 // reference words (the mean over references, per sentence)
}

// CorpusTER returns TER of the hypotheses against the references
// (refs[k][i] is the k-th reference of hyps[i]): per sentence the fewest
// edits against any reference and the mean reference length, then
//
//	TER = Σ edits / Σ reference length
//
// (1 if the references are empty and some hypothesis is not, 0 if all are
// empty). Lower is better. It panics if a reference stream's length
// differs from len(hyps).
func CorpusTER(hyps []string, refs [][]string, opt TEROptions) TERScore {
	t := newTER(opt)
	var edits, length float64
	for i, h := range hyps {
		e, l := t.sentence(h, refColumn(refs, i, len(hyps)))
		edits += e
		length += l
	}
	return TERScore{Score: terRate(edits, length), Edits: edits, RefLength: length}
}

// SentenceTER returns TER of one hypothesis against its references.
func SentenceTER(hyp string, refs []string, opt TEROptions) TERScore {
	e, l := newTER(opt).sentence(hyp, refs)
	return TERScore{Score: terRate(e, l), Edits: e, RefLength: l}
}

func terRate(edits, length float64) float64 {
	switch {
	case length > 0:
		return edits / length
	case edits > 0:
		return 1
	}
	return 0
}

type terScorer struct{ t *ter }

func (s *terScorer) Score(golden, response string) Verdict {
	e, l := s.t.sentence(response, []string{golden})
	return Verdict{Value: math.Max(0, 1-terRate(e, l))}
}

type ter struct {
	opt      TEROptions
	ids      wordIDs
	hw, rw   []string
	hid, rid []int32
	ed       terEditDistance
}

func newTER(opt TEROptions) *ter { return &ter{opt: opt} }

// AppendStats appends [edits, golden words].
func (t *ter) AppendStats(dst []float64, golden, response string) []float64 {
	e, l := t.sentence(response, []string{golden})
	return append(dst, e, l)
}

func (t *ter) words(dst []string, s string) []string {
	s = strings.TrimRightFunc(s, textnorm.IsSpace)
	if !t.opt.CaseSensitive {
		s = textnorm.Lower(s)
	}
	return appendFields(dst, s)
}

// sentence returns the fewest edits over the references and the mean
// reference length.
func (t *ter) sentence(hyp string, refs []string) (edits, refLen float64) {
	t.ids.reset()
	t.hw = t.words(t.hw[:0], hyp)
	t.hid = t.hid[:0]
	for _, w := range t.hw {
		t.hid = append(t.hid, int32(t.ids.id(w)))
	}
	best := math.Inf(1)
	total := 0
	for _, r := range refs {
		t.rw = t.words(t.rw[:0], r)
		t.rid = t.rid[:0]
		for _, w := range t.rw {
			t.rid = append(t.rid, int32(t.ids.id(w)))
		}
		e := t.edits(t.hid, t.rid)
		total += len(t.rid)
		best = math.Min(best, float64(e))
	}
	if len(refs) == 0 {
		return float64(len(t.hid)), 0
	}
	return best, float64(total) / float64(len(refs))
}

// Limits of Tercom's shift search, as sacreBLEU keeps them.
const (
	terMaxShiftSize       = 10
	terMaxShiftDist       = 50
	terBeamWidth          = 25
	terMaxShiftCandidates = 1000
)

// edits returns the number of edits (shifts plus edit distance) that turn
// hyp into ref: Tercom's greedy search applies, while it lowers the edit
// distance, the best shift of a run of words (up to terMaxShiftSize) that
// also occurs in the reference, ranked by the gain, then the longer run,
// then the earlier run, then the earlier target; the search gives up after
// terMaxShiftCandidates candidate shifts in all.
func (t *ter) edits(hyp, ref []int32) int {
	if len(ref) == 0 {
		return len(hyp)
	}
	ed := &t.ed
	ed.init(ref, len(hyp))
	words := append([]int32(nil), hyp...)
	shifts, checked := 0, 0
	for {
		gain, next, c := t.bestShift(words, ref, checked)
		checked = c
		if checked >= terMaxShiftCandidates || gain <= 0 {
			break
		}
		shifts++
		words = next
	}
	d, _ := ed.distance(words)
	return shifts + d
}

// bestShift returns the gain of the best shift of words, the shifted
// words, and the running count of candidates checked.
func (t *ter) bestShift(words, ref []int32, checked int) (int, []int32, int) {
	ed := &t.ed
	pre, trace := ed.distance(words)
	// Alignment of reference positions to hypothesis positions, from the
	// trace read as rewriting the reference into the hypothesis.
	align := make([]int, len(ref))
	hypErr := make([]bool, 0, len(words))
	refErr := make([]bool, 0, len(ref))
	ph, pr := -1, -1
	for _, op := range trace {
		switch op {
		case opNop, opSub:
			ph++
			pr++
			align[pr] = ph
			hypErr = append(hypErr, op == opSub)
			refErr = append(refErr, op == opSub)
		case opDel: // a hypothesis word with no reference word
			ph++
			hypErr = append(hypErr, true)
		case opIns: // a reference word missing from the hypothesis
			pr++
			align[pr] = ph
			refErr = append(refErr, true)
		}
	}
	type cand struct {
		gain, length, start, target int
		words                       []int32
	}
	var best *cand
	better := func(c cand) bool {
		if best == nil {
			return true
		}
		if c.gain != best.gain {
			return c.gain > best.gain
		}
		if c.length != best.length {
			return c.length > best.length
		}
		if c.start != best.start {
			return c.start < best.start
		}
		return c.target < best.target
	}
	buf := make([]int32, len(words))
	for sh := 0; sh < len(words); sh++ {
		for sr := 0; sr < len(ref); sr++ {
			if abs(sr-sh) > terMaxShiftDist {
				continue
			}
			for length := 1; length <= terMaxShiftSize && sh+length <= len(words) && sr+length <= len(ref) &&
				words[sh+length-1] == ref[sr+length-1]; length++ {
				if !anyTrue(hypErr[sh:sh+length]) || !anyTrue(refErr[sr:sr+length]) {
					continue
				}
				if sh <= align[sr] && align[sr] < sh+length {
					continue
				}
				prev := -1
				for off := -1; off < length; off++ {
					idx := 0
					if sr+off >= 0 {
						idx = align[sr+off] + 1
					}
					if idx == prev {
						continue
					}
					prev = idx
					shifted := performShift(buf, words, sh, length, idx)
					d, _ := ed.distance(shifted)
					checked++
					c := cand{gain: pre - d, length: length, start: sh, target: idx}
					if better(c) {
						c.words = append([]int32(nil), shifted...)
						best = &c
					}
				}
				if checked >= terMaxShiftCandidates {
					goto done
				}
			}
		}
	}
done:
	if best == nil {
		return 0, words, checked
	}
	return best.gain, best.words, checked
}

func anyTrue(b []bool) bool {
	for _, x := range b {
		if x {
			return true
		}
	}
	return false
}

func commonPrefix(a, b []int32) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// performShift writes into dst the words with the run [start,
// start+length) moved so that it begins before position target of the
// original (sacreBLEU's _perform_shift, whose slices Python clamps to the
// list: a target inside the run moves it past the words that follow).
func performShift(dst, w []int32, start, length, target int) []int32 {
	cut := func(a, b int) []int32 { // w[a:b] with Python's clamping
		a, b = min(max(a, 0), len(w)), min(max(b, 0), len(w))
		if a > b {
			return nil
		}
		return w[a:b]
	}
	dst = dst[:0]
	switch {
	case target < start:
		dst = append(dst, cut(0, target)...)
		dst = append(dst, cut(start, start+length)...)
		dst = append(dst, cut(target, start)...)
		dst = append(dst, cut(start+length, len(w))...)
	case target > start+length:
		dst = append(dst, cut(0, start)...)
		dst = append(dst, cut(start+length, target)...)
		dst = append(dst, cut(start, start+length)...)
		dst = append(dst, cut(target, len(w))...)
	default:
		dst = append(dst, cut(0, start)...)
		dst = append(dst, cut(start+length, length+target)...)
		dst = append(dst, cut(start, start+length)...)
		dst = append(dst, cut(length+target, len(w))...)
	}
	return dst
}

// Edit operations, named for rewriting the hypothesis into the reference
// as the matrix is filled; bestShift reads them the other way round.
const (
	opNop byte = ' '
	opSub byte = 's'
	opIns byte = 'i' // take a reference word: the hypothesis lacks it
	opDel byte = 'd' // drop a hypothesis word
)

const terInf = math.MaxInt32 / 2

// terEditDistance is the beam-limited Levenshtein distance of Tercom
// between hypotheses and one fixed reference: row i of the matrix is
// computed only within terBeamWidth of the "pseudo-diagonal"
// j = ⌊i·len(ref)/len(hyp)⌋ (all of the last row). On equal costs a match
// or substitution is preferred, then dropping a hypothesis word, then
// taking a reference word, which fixes the trace and so the alignment.
type terEditDistance struct {
	ref   []int32
	cost  [][]int32
	op    [][]byte
	rowsW []int32 // the words whose rows are in cost and op
	trace []byte
}

// init prepares the matrix for a reference and hypotheses of n words
// (shifts keep the length).
func (e *terEditDistance) init(ref []int32, n int) {
	e.ref = ref
	m := len(ref) + 1
	if cap(e.cost) < n+1 {
		e.cost = make([][]int32, n+1)
		e.op = make([][]byte, n+1)
	}
	e.cost, e.op = e.cost[:n+1], e.op[:n+1]
	for i := range e.cost {
		if cap(e.cost[i]) < m {
			e.cost[i] = make([]int32, m)
			e.op[i] = make([]byte, m)
		}
		e.cost[i], e.op[i] = e.cost[i][:m], e.op[i][:m]
	}
	for j := 0; j < m; j++ {
		e.cost[0][j], e.op[0][j] = int32(j), opIns
	}
	e.rowsW = e.rowsW[:0]
}

// distance returns the edit distance of h (of the length given to init)
// to the reference and the trace of operations, valid until the next
// call. Row i of the matrix depends only on the first i words of h, so
// the rows of the previous call's words are kept for their common prefix
// with h (sacreBLEU caches rows by prefix for the same reason).
func (e *terEditDistance) distance(h []int32) (int, []byte) {
	n, m := len(h), len(e.ref)
	from := commonPrefix(e.rowsW, h)
	e.rowsW = append(e.rowsW[:0], h...)
	ratio := 1.0
	if n > 0 {
		ratio = float64(m) / float64(n)
	}
	beam := terBeamWidth
	if float64(terBeamWidth) < ratio/2 {
		beam = int(math.Ceil(ratio/2 + terBeamWidth))
	}
	for i := from + 1; i <= n; i++ {
		diag := int(math.Floor(float64(i) * ratio))
		lo, hi := max(0, diag-beam), min(m+1, diag+beam)
		if i == n {
			hi = m + 1
		}
		c, o, pc := e.cost[i], e.op[i], e.cost[i-1]
		for j := range c {
			c[j], o[j] = terInf, 'x'
		}
		for j := lo; j < hi; j++ {
			if j == 0 {
				c[0], o[0] = pc[0]+1, opDel
				continue
			}
			best, bop := pc[j-1]+1, opSub
			if h[i-1] == e.ref[j-1] {
				best, bop = pc[j-1], opNop
			}
			if v := pc[j] + 1; v < best {
				best, bop = v, opDel
			}
			if v := c[j-1] + 1; v < best {
				best, bop = v, opIns
			}
			c[j], o[j] = best, bop
		}
	}
	// Read the trace back from the last cell.
	e.trace = e.trace[:0]
	for i, j := n, m; i > 0 || j > 0; {
		op := e.op[i][j]
		e.trace = append(e.trace, op)
		switch op {
		case opNop, opSub:
			i--
			j--
		case opIns:
			j--
		case opDel:
			i--
		default:
			// Outside the beam: cannot happen on a path of finite cost.
			panic("score: TER trace left the beam")
		}
	}
	for a, b := 0, len(e.trace)-1; a < b; a, b = a+1, b-1 {
		e.trace[a], e.trace[b] = e.trace[b], e.trace[a]
	}
	return int(e.cost[n][m]), e.trace
}
