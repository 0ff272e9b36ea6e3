package score

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/fasttext"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

func init() {
	Register(&Metric{
		ID:     "bleu",
		Name:   "BLEU",
		Graded: true,
		Rule: "BLEU (Papineni et al. 2002) as sacreBLEU 2.x computes it, with the 13a tokeniser of mteval-v13a: " +
			"case-sensitive; modified n-gram precisions of orders 1 to 4 combined by their geometric mean, times the brevity " +
			"penalty exp(1 − r/c) when the response (c tokens) is shorter than the golden answer (r tokens). A row's value " +
			"is sentence BLEU as sacreBLEU's sentence_bleu: 'exp' smoothing (an order with no match gets precision " +
			"1/(2^k·total) for its k-th zero) and effective order (orders the response is too short for are left out). " +
			"A group's value is corpus BLEU from the summed statistics ('exp' smoothing; orders with no n-gram in the " +
			"whole group are left out, which changes nothing once any response has 4 tokens). On [0, 1] (sacreBLEU / 100).",
		FalsePositives: "Word overlap is not correctness: a fluent response reusing the golden answer's words in a " +
			"different claim scores well.",
		FalseNegatives: "Short answers are harsh: one wrong word in a two-word answer halves the unigram precision and can " +
			"zero the bigram. The 13a tokeniser does not split the danda (।) off a word, so \"दिल्ली।\" and \"दिल्ली\" differ; " +
			"use bleu_indic or --normalize indic for Indic text.",
		Blank:  "A blank response has no n-grams and scores 0; identical strings with at least one token score 1.",
		Source: "sacreBLEU 2.6.0 (github.com/mjpost/sacrebleu): sentence_bleu and corpus_bleu, tokenize='13a', smooth_method='exp'",
		New:    func() Scorer { return &bleuScorer{b: newBLEU(BLEUOptions{EffectiveOrder: true})} },
		Corpus: bleuCorpus(BLEUOptions{}),
	})
	Register(&Metric{
		ID:     "bleu_indic",
		Name:   "BLEU (Indic tokenisation)",
		Graded: true,
		Rule: "BLEU exactly as the bleu metric, but text is first put in NFC and tokenised for Indic scripts: words are " +
			"runs of letters, combining marks (matras, virama) and numbers (a zero-width joiner or non-joiner inside a word " +
			"stays in it; a '.' or ',' between two digits too), and every other non-space character, including the danda " +
			"। and double danda ॥ and all Unicode punctuation and symbols, is a token of its own.",
		FalsePositives: "As bleu.",
		FalseNegatives: "As bleu, except that the danda and other punctuation no longer stick to words.",
		Blank:          "As bleu.",
		Source:         "evalbook; BLEU statistics and smoothing as sacreBLEU 2.6.0",
		New:            func() Scorer { return &bleuScorer{b: newBLEU(BLEUOptions{Tokenize: "indic", EffectiveOrder: true})} },
		Corpus:         bleuCorpus(BLEUOptions{Tokenize: "indic"}),
	})
}

// BLEUOptions configures BLEU. The zero value is sacreBLEU's corpus_bleu
// default: 13a tokenisation, case-sensitive, 'exp' smoothing, maximum
// order 4, no effective order.
type BLEUOptions struct {
	// Tokenize is "13a" (the default), "indic" (NFC, then words of
	// letters, marks and numbers, and every punctuation or symbol
	// character a token) or "none" (split on whitespace only).
	Tokenize string
	// Lowercase lower-cases both sides first (as Python's str.lower).
	Lowercase bool
	// Smooth is "exp" (the default), "none", "floor" or "add-k" (Chen and
	// Cherry 2014, methods 3, 0, 1 and 2).
	Smooth string
	// SmoothValue is the floor or k; 0 means the method's default (0.1
	// for floor, 1 for add-k).
	SmoothValue float64
	// EffectiveOrder leaves out the orders the hypotheses have no n-gram
	// of (sacreBLEU's use_effective_order; on for sentence BLEU).
	EffectiveOrder bool
	// MaxOrder is the highest n-gram order, 1 to 6 (0 means 4).
	MaxOrder int
}

// Validate reports options BLEU cannot use: MaxOrder outside 0..6, a
// Tokenize other than "", "13a", "indic" or "none", a Smooth other than
// "", "exp", "none", "floor" or "add-k", or a SmoothValue that is
// negative, NaN or infinite. The error wraps ErrOptions. CorpusBLEU and
// SentenceBLEU panic with this error on such options: options are set by
// the program, so check them with Validate where they come from input.
func (o BLEUOptions) Validate() error {
	switch {
	case o.MaxOrder < 0 || o.MaxOrder > 6:
		return fmt.Errorf("%w: BLEU MaxOrder %d; want 1 to 6 (0 for 4)", ErrOptions, o.MaxOrder)
	case o.Tokenize != "" && o.Tokenize != "13a" && o.Tokenize != "indic" && o.Tokenize != "none":
		return fmt.Errorf("%w: BLEU tokenizer %q; want 13a, indic or none", ErrOptions, o.Tokenize)
	case o.Smooth != "" && o.Smooth != "exp" && o.Smooth != "none" && o.Smooth != "floor" && o.Smooth != "add-k":
		return fmt.Errorf("%w: BLEU smoothing method %q; want exp, none, floor or add-k", ErrOptions, o.Smooth)
	case o.SmoothValue < 0 || math.IsNaN(o.SmoothValue) || math.IsInf(o.SmoothValue, 0):
		return fmt.Errorf("%w: BLEU SmoothValue %v; want a positive number (0 for the method's default)", ErrOptions, o.SmoothValue)
	}
	return nil
}

func (o BLEUOptions) fill() BLEUOptions {
	if err := o.Validate(); err != nil {
		panic(err)
	}
	if o.Tokenize == "" {
		o.Tokenize = "13a"
	}
	if o.Smooth == "" {
		o.Smooth = "exp"
	}
	if o.MaxOrder == 0 {
		o.MaxOrder = 4
	}
	if o.SmoothValue == 0 {
		switch o.Smooth {
		case "floor":
			o.SmoothValue = 0.1
		case "add-k":
			o.SmoothValue = 1
		}
	}
	return o
}

// BLEUScore is BLEU with the figures it is computed from.
type BLEUScore struct {
	Score      float64   // on [0, 1]
	Counts     []float64 // clipped matching n-grams per order (after add-k)
	Totals     []float64 // hypothesis n-grams per order (after add-k)
	Precisions []float64 // per order, on [0, 1], after smoothing
	BP         float64   // brevity penalty
	SysLen     int       // hypothesis tokens
	RefLen     int       // reference tokens (closest reference per sentence)
}

// CorpusBLEU returns BLEU of the hypotheses against the references
// (refs[k][i] is the k-th reference of hyps[i], sacreBLEU's layout).
// Per sentence, n-gram counts are clipped by the most any one reference
// has, and the reference length is that of the reference closest in
// length (the shorter on ties). Over the corpus, with c = Σ hypothesis
// tokens and r = Σ reference lengths,
//
//	p_n = Σ clipped matches_n / Σ hypothesis n-grams_n
//	BP = 1 if c ≥ r, else exp(1 − r/c) (0 if c = 0)
//	BLEU = BP · exp( (1/N) Σ_{n≤N} log p_n )
//
// with smoothing for the orders with no match and N the maximum order,
// or the effective order. A sentence with no references has reference
// length 0 and no matches. It panics if a reference stream's length
// differs from len(hyps), or on options that BLEUOptions.Validate
// rejects.
func CorpusBLEU(hyps []string, refs [][]string, opt BLEUOptions) BLEUScore {
	b := newBLEU(opt)
	sums := make([]float64, 2+2*b.opt.MaxOrder)
	var st []float64
	for i, h := range hyps {
		st = b.stats(st[:0], h, refColumn(refs, i, len(hyps)))
		for j, v := range st {
			sums[j] += v
		}
	}
	return b.compute(sums)
}

// SentenceBLEU returns BLEU of one hypothesis against its references:
// CorpusBLEU of a corpus of one. sacreBLEU's sentence_bleu is this with
// EffectiveOrder set. With no references the score is 0. It panics on
// options that BLEUOptions.Validate rejects.
func SentenceBLEU(hyp string, refs []string, opt BLEUOptions) BLEUScore {
	b := newBLEU(opt)
	return b.compute(b.stats(nil, hyp, refs))
}

func bleuCorpus(opt BLEUOptions) *CorpusDef {
	// The group value uses effective order: identical with sacreBLEU's
	// corpus_bleu whenever some hypothesis has MaxOrder tokens, and not 0
	// for a group of one-word answers.
	opt.EffectiveOrder = true
	b := newBLEU(opt)
	return &CorpusDef{
		NStats: 2 + 2*b.opt.MaxOrder,
		New:    func() CorpusStats { return newBLEU(opt) },
		Final:  func(s []float64) float64 { return b.compute(s).Score },
	}
}

type bleuScorer struct {
	b  *bleu
	st []float64
}

func (s *bleuScorer) Score(golden, response string) Verdict {
	s.st = s.b.AppendStats(s.st[:0], golden, response)
	return Verdict{Value: s.b.compute(s.st).Score}
}

type bleu struct {
	opt      BLEUOptions
	ht, rt   []string
	ids      wordIDs
	hid, rid []uint32
	idx      gramIndex
	tmp      []int32
	touched  []int32
}

func newBLEU(opt BLEUOptions) *bleu { return &bleu{opt: opt.fill()} }

// AppendStats appends [sys_len, ref_len, correct_1..N, total_1..N].
func (b *bleu) AppendStats(dst []float64, golden, response string) []float64 {
	return b.stats(dst, response, []string{golden})
}

func (b *bleu) tokens(dst []string, s string) []string {
	if b.opt.Lowercase {
		s = textnorm.Lower(s)
	}
	s = strings.TrimRightFunc(s, textnorm.IsSpace)
	switch b.opt.Tokenize {
	case "13a":
		return appendFields(dst, tokenize13a(s))
	case "indic":
		return indicTokens(dst, textnorm.UnifyNukta(s))
	}
	return appendFields(dst, s)
}

// appendFields appends the whitespace-separated fields of s (Python's
// str.split()).
func appendFields(dst []string, s string) []string {
	start := -1
	for i := 0; i < len(s); {
		c := s[i]
		n := 1
		space := false
		if c < utf8.RuneSelf {
			space = textnorm.IsSpace(rune(c))
		} else if fasttext.MaybeSpaceLead(c) {
			var r rune
			r, n = utf8.DecodeRuneInString(s[i:])
			space = textnorm.IsSpace(r)
		}
		if space {
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += n
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

func (b *bleu) stats(dst []float64, hyp string, refs []string) []float64 {
	N := b.opt.MaxOrder
	b.ht = b.tokens(b.ht[:0], hyp)
	b.ids.reset()
	b.hid = b.ids.appendIDs(b.hid[:0], b.ht)
	refLen, bestDiff := 0, -1
	for _, r := range refs {
		b.rt = b.tokens(b.rt[:0], r)
		b.rid = b.ids.appendIDs(b.rid[:0], b.rt)
		// The closest reference length, the shorter on ties.
		d := abs(len(b.ht) - len(b.rt))
		if bestDiff < 0 || d < bestDiff || d == bestDiff && len(b.rt) < refLen {
			bestDiff, refLen = d, len(b.rt)
		}
	}
	correct := make([]float64, N)
	total := make([]float64, N)
	for n := 1; n <= N; n++ {
		total[n-1] = float64(max(len(b.hid)-n+1, 0))
	}
	if len(refs) == 1 {
		// b.rid holds the one reference's ids.
		b.idx.reset(len(b.rid) * N)
		b.idx.countRef(b.rid, N)
	} else {
		b.countRefs(refs)
	}
	b.idx.matchHyp(b.hid, N, correct)
	dst = append(dst, float64(len(b.ht)), float64(refLen))
	dst = append(dst, correct...)
	return append(dst, total...)
}

// countRefs leaves in the index, for each n-gram, the largest count it
// has in any one reference: hypothesis n-grams are clipped by it.
func (b *bleu) countRefs(refs []string) {
	N := b.opt.MaxOrder
	b.idx.reset(64 * N)
	for _, r := range refs {
		b.rt = b.tokens(b.rt[:0], r)
		b.rid = b.ids.appendIDs(b.rid[:0], b.rt)
		// Count this reference alone in tmp, then raise the kept maximum.
		b.touched = b.touched[:0]
		for i := range b.rid {
			p := int32(-1)
			for n := 1; n <= N && i+n <= len(b.rid); n++ {
				p = b.idx.add(p, b.rid[i+n-1])
				for int(p) >= len(b.tmp) {
					b.tmp = append(b.tmp, 0)
				}
				if b.tmp[p] == 0 {
					b.touched = append(b.touched, p)
				}
				b.tmp[p]++
			}
		}
		for _, p := range b.touched {
			b.idx.cnt[p] = max(b.idx.cnt[p], b.tmp[p])
			b.tmp[p] = 0
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// compute turns (summed) statistics into BLEU, as sacreBLEU's compute_bleu.
func (b *bleu) compute(st []float64) BLEUScore {
	N := b.opt.MaxOrder
	sys, ref := st[0], st[1]
	correct := append([]float64(nil), st[2:2+N]...)
	total := append([]float64(nil), st[2+N:2+2*N]...)
	s := BLEUScore{Counts: correct, Totals: total, Precisions: make([]float64, N), BP: 1, SysLen: int(sys), RefLen: int(ref)}
	if sys < ref {
		s.BP = 0
		if sys > 0 {
			s.BP = math.Exp(1 - ref/sys)
		}
	}
	anyMatch := false
	for _, c := range correct {
		anyMatch = anyMatch || c != 0
	}
	if !anyMatch {
		return s
	}
	smoothExp := 1.0
	eff := N
	for n := 1; n <= N; n++ {
		if b.opt.Smooth == "add-k" && n > 1 {
			correct[n-1] += b.opt.SmoothValue
			total[n-1] += b.opt.SmoothValue
		}
		if total[n-1] == 0 {
			break
		}
		if b.opt.EffectiveOrder {
			eff = n
		}
		if correct[n-1] == 0 {
			switch b.opt.Smooth {
			case "exp":
				smoothExp *= 2
				s.Precisions[n-1] = 1 / (smoothExp * total[n-1])
			case "floor":
				s.Precisions[n-1] = b.opt.SmoothValue / total[n-1]
			}
		} else {
			s.Precisions[n-1] = correct[n-1] / total[n-1]
		}
	}
	// sacreBLEU floors log(0) at −9999999999 on its 0..100 scale, which
	// makes the score 0; so does a precision of 0 here.
	sum := 0.0
	for _, p := range s.Precisions[:eff] {
		if p == 0 {
			return s
		}
		sum += math.Log(p)
	}
	s.Score = s.BP * math.Exp(sum/float64(eff))
	return s
}

// tokenize13a is the tokeniser of mteval-v13a.pl as sacreBLEU implements
// it: drop "<skipped>", join hyphenated line breaks, unescape four XML
// entities, then put spaces around ASCII punctuation other than the
// apostrophe, hyphen, full stop and comma; around a full stop or comma
// unless a digit is on the side that keeps it in a number; and after a
// hyphen that follows a digit. Whitespace is collapsed by the caller.
func tokenize13a(s string) string {
	s = strings.ReplaceAll(s, "<skipped>", "")
	s = strings.ReplaceAll(s, "-\n", "")
	s = strings.ReplaceAll(s, "\n", " ")
	if strings.Contains(s, "&") {
		s = strings.ReplaceAll(s, "&quot;", "\"")
		s = strings.ReplaceAll(s, "&amp;", "&")
		s = strings.ReplaceAll(s, "&lt;", "<")
		s = strings.ReplaceAll(s, "&gt;", ">")
	}
	line := make([]byte, 0, len(s)+len(s)/2+2)
	line = append(line, ' ')
	line = append(line, s...)
	line = append(line, ' ')
	// Step 1: space around every ASCII punctuation character except ' , - .
	out := make([]byte, 0, len(line)+16)
	for _, c := range []byte(line) {
		if is13aPunct(c) {
			out = append(out, ' ', c, ' ')
		} else {
			out = append(out, c)
		}
	}
	// Steps 2 to 4 are left-to-right, non-overlapping substitutions, as
	// Python's re.sub makes them; every character they test is ASCII, so
	// scanning bytes gives the same result as scanning code points.
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
	isPC := func(c byte) bool { return c == '.' || c == ',' }
	// ([^0-9])([.,]) -> \1 \2 space
	line, out = out, line[:0]
	for i := 0; i < len(line); i++ {
		if i+1 < len(line) && !isDigit(line[i]) && isPC(line[i+1]) {
			out = append(out, line[i], ' ', line[i+1], ' ')
			i++
			continue
		}
		out = append(out, line[i])
	}
	// ([.,])([^0-9]) -> space \1 space \2
	line, out = out, line[:0]
	for i := 0; i < len(line); i++ {
		if i+1 < len(line) && isPC(line[i]) && !isDigit(line[i+1]) {
			out = append(out, ' ', line[i], ' ', line[i+1])
			i++
			continue
		}
		out = append(out, line[i])
	}
	// ([0-9])(-) -> \1 space \2 space
	line, out = out, line[:0]
	for i := 0; i < len(line); i++ {
		if i+1 < len(line) && isDigit(line[i]) && line[i+1] == '-' {
			out = append(out, line[i], ' ', '-', ' ')
			i++
			continue
		}
		out = append(out, line[i])
	}
	return string(out)
}

// is13aPunct is the character class [{-~[-` -&(-+:-@/] of mteval-v13a:
// ASCII punctuation and space, without ' , - . and the digits.
func is13aPunct(c byte) bool {
	switch {
	case c >= '{' && c <= '~', c >= '[' && c <= '`', c >= ' ' && c <= '&',
		c >= '(' && c <= '+', c >= ':' && c <= '@', c == '/':
		return true
	}
	return false
}

// indicTokens appends the tokens of s under the Indic tokenisation: runs
// of letters, marks and numbers (textnorm.IsWordRune, with joiners inside
// a word and a '.' or ',' between two digits kept), and every other
// non-space character as a token of its own.
func indicTokens(dst []string, s string) []string {
	start := -1
	flush := func(i int) {
		if start >= 0 {
			dst = append(dst, s[start:i])
			start = -1
		}
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case textnorm.IsWordRune(r):
			if start < 0 {
				start = i
			}
		case (r == 0x200C || r == 0x200D) && start >= 0 && i+n < len(s) && nextIsWord(s[i+n:]):
			// joiner inside a word
		case (r == '.' || r == ',') && start >= 0 && i > 0 && i+n < len(s) && prevIsDigit(s[:i]) && nextIsDigit(s[i+n:]):
			// decimal point or thousands separator inside a number
		case textnorm.IsSpace(r):
			flush(i)
		default:
			flush(i)
			dst = append(dst, s[i:i+n])
		}
		i += n
	}
	flush(len(s))
	return dst
}

func nextIsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return textnorm.IsWordRune(r)
}

func nextIsDigit(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsDigit(r)
}

func prevIsDigit(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsDigit(r)
}
