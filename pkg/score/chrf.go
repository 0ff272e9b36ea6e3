package score

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/fasttext"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

func init() {
	Register(&Metric{
		ID:     "chrf",
		Name:   "chrF",
		Graded: true,
		Rule: "Character n-gram F-score (Popović 2015) as sacreBLEU 2.x computes it by default: whitespace is removed, " +
			"character n-grams of orders 1 to 6 are counted on both sides, and for each order precision and recall are the " +
			"clipped matches over the response's and the golden answer's n-grams; precision and recall are averaged over the " +
			"orders both sides have (effective order) and combined as F_β = (1+β²)PR/(β²P+R) with β = 2, so recall weighs " +
			"four times as much as precision. Case-sensitive; no tokenisation. Reported on [0, 1] (sacreBLEU's score / 100). " +
			"A group's value is corpus chrF from statistics summed over its rows, not the mean of row values.",
		FalsePositives: "Sharing many character n-grams is not agreeing: a response that repeats the golden answer's words " +
			"in a different claim, or a long response that contains them, scores high (recall dominates).",
		FalseNegatives: "Synonyms and transliterations share few n-grams; an answer in another script scores near 0.",
		Blank: "A blank response or golden answer has no n-grams and scores 0 (as sacreBLEU); identical strings with at least " +
			"one non-space character score 1.",
		Source: "sacreBLEU 2.6.0 (github.com/mjpost/sacrebleu) CHRF(char_order=6, word_order=0, beta=2); Popović (2015)",
		New:    func() Scorer { return &chrfScorer{c: newCHRF(CHRFOptions{})} },
		Corpus: chrfCorpus(CHRFOptions{}),
	})
	Register(&Metric{
		ID:     "chrf_pp",
		Name:   "chrF++",
		Graded: true,
		Rule: "chrF with word unigrams and bigrams added to the six character orders (Popović 2017), as sacreBLEU's " +
			"CHRF(word_order=2): words are whitespace-separated tokens with one ASCII punctuation character split off the " +
			"end (or else the start) of each token of two or more characters; all eight orders are averaged. β = 2, " +
			"case-sensitive, on [0, 1]. A group's value is corpus chrF++.",
		FalsePositives: "As chrf.",
		FalseNegatives: "As chrf, and word n-grams punish inflection more than character n-grams do.",
		Blank:          "A blank response or golden answer scores 0 (as sacreBLEU).",
		Source:         "sacreBLEU 2.6.0 CHRF(char_order=6, word_order=2, beta=2); Popović (2017)",
		New:            func() Scorer { return &chrfScorer{c: newCHRF(CHRFOptions{WordOrder: 2})} },
		Corpus:         chrfCorpus(CHRFOptions{WordOrder: 2}),
	})
}

// CHRFOptions configures chrF. The zero value is sacreBLEU's default
// chrF: six character orders, no word n-grams, β = 2, whitespace
// removed, effective-order averaging, case-sensitive.
type CHRFOptions struct {
	CharOrder int     // character n-gram orders 1..CharOrder (0 means 6; at most 6)
	WordOrder int     // word n-gram orders 1..WordOrder (0 for chrF, 2 for chrF++; at most 2)
	Beta      float64 // weight of recall (0 means 2)
	// Whitespace keeps spaces inside character n-grams (sacreBLEU
	// whitespace=True); by default all whitespace is removed first.
	Whitespace bool
	// EpsSmoothing averages F-scores over all orders with an epsilon for
	// empty ones (chrF++.py, NLTK, Moses); by default precision and recall
	// are averaged over the orders present on both sides (sacreBLEU).
	EpsSmoothing bool
	// Lowercase lower-cases both sides first (as Python's str.lower).
	Lowercase bool
}

// Validate reports options chrF cannot use: CharOrder outside 0..6,
// WordOrder outside 0..2, or a Beta that is negative, NaN or infinite (0
// means the default 2). The error wraps ErrOptions. CorpusCHRF,
// SentenceCHRF and NStats panic with this error on such options: options
// are set by the program, so check them with Validate where they come
// from input.
func (o CHRFOptions) Validate() error {
	switch {
	case o.CharOrder < 0 || o.CharOrder > 6:
		return fmt.Errorf("%w: chrF CharOrder %d; want 1 to 6 (0 for 6)", ErrOptions, o.CharOrder)
	case o.WordOrder < 0 || o.WordOrder > 2:
		return fmt.Errorf("%w: chrF WordOrder %d; want 0 to 2", ErrOptions, o.WordOrder)
	case o.Beta < 0 || math.IsNaN(o.Beta) || math.IsInf(o.Beta, 0):
		return fmt.Errorf("%w: chrF Beta %v; want a positive number (0 for 2)", ErrOptions, o.Beta)
	}
	return nil
}

func (o CHRFOptions) fill() CHRFOptions {
	if err := o.Validate(); err != nil {
		panic(err)
	}
	if o.CharOrder == 0 {
		o.CharOrder = 6
	}
	if o.Beta == 0 {
		o.Beta = 2
	}
	return o
}

// NStats is the number of sufficient statistics a sentence contributes:
// hypothesis, reference and matching n-gram counts per order. It panics
// on options that Validate rejects.
func (o CHRFOptions) NStats() int {
	o = o.fill()
	return 3 * (o.CharOrder + o.WordOrder)
}

// CorpusCHRF returns chrF (on [0, 1]) of the hypotheses against the
// references. refs holds one stream per reference set, each as long as
// hyps (sacreBLEU's layout): refs[k][i] is the k-th reference of hyps[i].
// With several references, each sentence keeps the statistics of the
// reference it scores best against. The corpus value is computed from the
// statistics summed over sentences:
//
//	for each order n: P_n = Σ match_n / Σ hyp_n,  R_n = Σ match_n / Σ ref_n
//	P, R = means of P_n, R_n over the orders with Σ hyp_n > 0 and Σ ref_n > 0
//	chrF = (1+β²)·P·R / (β²·P + R)
//
// A sentence with no references scores as one whose reference is empty
// (0). It panics if a reference stream's length differs from len(hyps),
// or on options that CHRFOptions.Validate rejects.
func CorpusCHRF(hyps []string, refs [][]string, opt CHRFOptions) float64 {
	c := newCHRF(opt)
	sums := make([]float64, c.opt.NStats())
	var st []float64
	for i, h := range hyps {
		st = c.bestStats(st[:0], h, refColumn(refs, i, len(hyps)))
		for j, v := range st {
			sums[j] += v
		}
	}
	return c.final(sums)
}

// SentenceCHRF returns chrF (on [0, 1]) of one hypothesis against its
// references: CorpusCHRF of a corpus of one. With no references it
// returns 0, as SentenceBLEU does. It panics on options that
// CHRFOptions.Validate rejects.
func SentenceCHRF(hyp string, refs []string, opt CHRFOptions) float64 {
	c := newCHRF(opt)
	return c.final(c.bestStats(nil, hyp, refs))
}

// refColumn returns the references of sentence i from reference streams.
func refColumn(refs [][]string, i, n int) []string {
	col := make([]string, len(refs))
	for k, s := range refs {
		if len(s) != n {
			panic("score: reference stream length differs from the number of hypotheses")
		}
		col[k] = s[i]
	}
	return col
}

func chrfCorpus(opt CHRFOptions) *CorpusDef {
	return &CorpusDef{
		NStats: opt.NStats(),
		New:    func() CorpusStats { return newCHRF(opt) },
		Final:  newCHRF(opt).final,
		// A sentence's chrF is the corpus chrF of that one sentence.
		SentenceIsFinal: true,
	}
}

type chrfScorer struct {
	c  *chrf
	st []float64
}

func (s *chrfScorer) Score(golden, response string) Verdict {
	s.st = s.c.AppendStats(s.st[:0], golden, response)
	return Verdict{Value: s.c.final(s.st)}
}

// chrf computes chrF statistics, reusing its buffers between sentences.
type chrf struct {
	opt      CHRFOptions
	hr, rr   []uint32 // code points
	idx      gramIndex
	ids      wordIDs
	hw, rw   []string
	hid, rid []uint32
	match    [8]float64
	tmp      []float64
}

func newCHRF(opt CHRFOptions) *chrf { return &chrf{opt: opt.fill()} }

// AppendStats appends the statistics of response against one golden answer.
func (c *chrf) AppendStats(dst []float64, golden, response string) []float64 {
	return c.stats(dst, response, golden)
}

// bestStats appends the statistics of hyp against the reference it
// scores best against (the first one on ties, as sacreBLEU).
func (c *chrf) bestStats(dst []float64, hyp string, refs []string) []float64 {
	if len(refs) == 0 {
		// No reference: no n-gram on the reference side, so no order
		// counts (the stats of an empty reference).
		return c.stats(dst, hyp, "")
	}
	if len(refs) == 1 {
		return c.stats(dst, hyp, refs[0])
	}
	best := -1.0
	start := len(dst)
	for _, r := range refs {
		c.tmp = c.stats(c.tmp[:0], hyp, r)
		if f := c.final(c.tmp); f > best {
			best = f
			dst = append(dst[:start], c.tmp...)
		}
	}
	return dst
}

func (c *chrf) prep(s string) string {
	if c.opt.Lowercase {
		return textnorm.Lower(s)
	}
	return s
}

// stats appends [hyp_n, ref_n, match_n] for every order, character orders
// first. An order for which the reference has no n-gram reports 0
// hypothesis n-grams, as sacreBLEU does.
func (c *chrf) stats(dst []float64, hyp, ref string) []float64 {
	hyp, ref = c.prep(hyp), c.prep(ref)
	c.hr = appendChars(c.hr[:0], hyp, c.opt.Whitespace)
	c.rr = appendChars(c.rr[:0], ref, c.opt.Whitespace)
	N := c.opt.CharOrder
	match := c.match[:N]
	clear(match)
	c.idx.reset(len(c.rr) * N)
	c.idx.countRef(c.rr, N)
	c.idx.matchHyp(c.hr, N, match)
	for n := 1; n <= N; n++ {
		dst = appendOrder(dst, len(c.hr)-n+1, len(c.rr)-n+1, match[n-1])
	}
	if c.opt.WordOrder == 0 {
		return dst
	}
	c.hw = chrfWords(c.hw[:0], hyp)
	c.rw = chrfWords(c.rw[:0], ref)
	c.ids.reset()
	c.hid = c.ids.appendIDs(c.hid[:0], c.hw)
	c.rid = c.ids.appendIDs(c.rid[:0], c.rw)
	W := c.opt.WordOrder
	match = c.match[:W]
	clear(match)
	c.idx.reset(len(c.rid) * W)
	c.idx.countRef(c.rid, W)
	c.idx.matchHyp(c.hid, W, match)
	for n := 1; n <= W; n++ {
		dst = appendOrder(dst, len(c.hid)-n+1, len(c.rid)-n+1, match[n-1])
	}
	return dst
}

func appendOrder(dst []float64, nh, nr int, m float64) []float64 {
	nh, nr = max(nh, 0), max(nr, 0)
	if nr == 0 {
		nh = 0
	}
	return append(dst, float64(nh), float64(nr), m)
}

// final computes chrF on [0, 1] from (summed) statistics.
func (c *chrf) final(st []float64) float64 {
	const eps = 1e-16
	orders := c.opt.CharOrder + c.opt.WordOrder
	factor := c.opt.Beta * c.opt.Beta
	var score, avgP, avgR float64
	eff := 0
	for i := 0; i < orders; i++ {
		nh, nr, nm := st[3*i], st[3*i+1], st[3*i+2]
		p, r := eps, eps
		if nh > 0 {
			p = nm / nh
		}
		if nr > 0 {
			r = nm / nr
		}
		if d := factor*p + r; d > 0 {
			score += (1 + factor) * p * r / d
		} else {
			score += eps
		}
		if nh > 0 && nr > 0 {
			avgP += p
			avgR += r
			eff++
		}
	}
	if c.opt.EpsSmoothing {
		return score / float64(orders)
	}
	if eff == 0 {
		return 0
	}
	avgP /= float64(eff)
	avgR /= float64(eff)
	if avgP+avgR == 0 {
		return 0
	}
	return (1 + factor) * avgP * avgR / (factor*avgP + avgR)
}

// appendChars appends the code points of s, leaving out Python
// whitespace unless keepSpace is set.
func appendChars[T rune | uint32](dst []T, s string, keepSpace bool) []T {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if keepSpace || !textnorm.IsSpace(rune(c)) {
				dst = append(dst, T(c))
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if keepSpace || !fasttext.MaybeSpaceLead(c) || !textnorm.IsSpace(r) {
			dst = append(dst, T(r))
		}
		i += n
	}
	return dst
}

// chrfWords splits s on whitespace and separates one ASCII punctuation
// character from the end, or else the start, of each token longer than
// one code point (sacreBLEU's chrF++ word splitting; "(hi)" becomes "(hi"
// and ")").
func chrfWords(dst []string, s string) []string {
	for _, w := range textnorm.Fields(s) {
		if len(w) == 1 || utf8.RuneCountInString(w) == 1 {
			dst = append(dst, w)
			continue
		}
		switch {
		case textnorm.IsASCIIPunct(w[len(w)-1]):
			dst = append(dst, w[:len(w)-1], w[len(w)-1:])
		case textnorm.IsASCIIPunct(w[0]):
			dst = append(dst, w[:1], w[1:])
		default:
			dst = append(dst, w)
		}
	}
	return dst
}

// gramIndex numbers the n-grams of one sentence pair as nodes of a
// trie: an n-gram is its (n−1)-gram prefix's node plus one symbol (a code
// point or a word id), looked up in an open-addressing table keyed by
// that pair, so every n-gram up to any order is one 64-bit key and the
// counts live in a dense slice indexed by node. Identity is exact. The
// table is emptied in O(1) between sentences by bumping a generation.
type gramIndex struct {
	keys  []uint64 // (parent+1)<<32 | symbol
	nodes []int32
	gen   []uint32
	cur   uint32
	mask  uint64
	cnt   []int32 // per node: reference count not yet matched
	n     int32   // nodes in use
}

// reset empties the index and makes room for about n nodes.
func (x *gramIndex) reset(n int) {
	size := 64
	for size < 2*n {
		size <<= 1
	}
	if size > len(x.keys) {
		x.keys = make([]uint64, size)
		x.nodes = make([]int32, size)
		x.gen = make([]uint32, size)
		x.cur = 0
	}
	x.mask = uint64(len(x.keys) - 1)
	x.cur++
	if x.cur == 0 { // wrapped: forget every generation
		clear(x.gen)
		x.cur = 1
	}
	x.n = 0
	x.cnt = x.cnt[:0]
}

// find returns the node of parent extended by sym, or −1.
func (x *gramIndex) find(parent int32, sym uint32) int32 {
	k := uint64(parent+1)<<32 | uint64(sym)
	for i := x.hash(k); ; i = (i + 1) & x.mask {
		if x.gen[i] != x.cur {
			return -1
		}
		if x.keys[i] == k {
			return x.nodes[i]
		}
	}
}

// add returns the node of parent extended by sym, making it if needed.
func (x *gramIndex) add(parent int32, sym uint32) int32 {
	k := uint64(parent+1)<<32 | uint64(sym)
	i := x.hash(k)
	for ; x.gen[i] == x.cur; i = (i + 1) & x.mask {
		if x.keys[i] == k {
			return x.nodes[i]
		}
	}
	if int(x.n)*2 >= len(x.keys) { // keep the load under one half
		x.grow()
		return x.add(parent, sym)
	}
	id := x.n
	x.n++
	x.gen[i], x.keys[i], x.nodes[i] = x.cur, k, id
	x.cnt = append(x.cnt, 0)
	return id
}

func (x *gramIndex) hash(k uint64) uint64 {
	k *= 0x9E3779B97F4A7C15
	return (k ^ k>>29) & x.mask
}

// grow doubles the table, keeping its entries.
func (x *gramIndex) grow() {
	keys, nodes, gen, cur := x.keys, x.nodes, x.gen, x.cur
	size := 2 * len(keys)
	x.keys, x.nodes, x.gen = make([]uint64, size), make([]int32, size), make([]uint32, size)
	x.mask, x.cur = uint64(size-1), 1
	for i, g := range gen {
		if g != cur {
			continue
		}
		j := x.hash(keys[i])
		for x.gen[j] == x.cur {
			j = (j + 1) & x.mask
		}
		x.gen[j], x.keys[j], x.nodes[j] = x.cur, keys[i], nodes[i]
	}
}

// countRef adds every n-gram of orders 1..maxN of the reference symbols
// to the index, counting each occurrence.
func (x *gramIndex) countRef(sym []uint32, maxN int) {
	for i := range sym {
		p := int32(-1)
		for n := 1; n <= maxN && i+n <= len(sym); n++ {
			p = x.add(p, sym[i+n-1])
			x.cnt[p]++
		}
	}
}

// matchHyp counts, per order, the hypothesis n-grams matched by a
// reference n-gram not matched before (so each n-gram matches at most as
// often as the reference has it: the clipped count Σ min(c_hyp, c_ref)).
// An n-gram absent from the reference ends the search for longer ones
// from the same start.
func (x *gramIndex) matchHyp(sym []uint32, maxN int, match []float64) {
	for i := range sym {
		p := int32(-1)
		for n := 1; n <= maxN && i+n <= len(sym); n++ {
			if p = x.find(p, sym[i+n-1]); p < 0 {
				break
			}
			if x.cnt[p] > 0 {
				x.cnt[p]--
				match[n-1]++
			}
		}
	}
}

// wordIDs numbers the distinct words of one sentence pair.
type wordIDs struct {
	m map[string]uint32
}

func (w *wordIDs) reset() {
	if w.m == nil {
		w.m = make(map[string]uint32)
	} else {
		clear(w.m)
	}
}

func (w *wordIDs) id(s string) uint32 {
	if id, ok := w.m[s]; ok {
		return id
	}
	id := uint32(len(w.m))
	w.m[s] = id
	return id
}

func (w *wordIDs) appendIDs(dst []uint32, words []string) []uint32 {
	for _, s := range words {
		dst = append(dst, w.id(s))
	}
	return dst
}
