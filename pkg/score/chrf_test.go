package score

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

// vector is one entry of testdata/gen_vectors.json, written by
// testdata/gen_vectors.py from published test suites; every expected
// number names its repository, commit, file and test.
type vector struct {
	Metric     string          `json:"metric"`
	Hyps       []string        `json:"hyps"`
	Refs       [][]string      `json:"refs"`
	Target     string          `json:"target"`
	Prediction string          `json:"prediction"`
	Options    vectorOptions   `json:"options"`
	Expected   json.RawMessage `json:"expected"`
	Scale      float64         `json:"scale"`
	Tolerance  float64         `json:"tolerance"`
	Source     struct {
		Repo, File, Test string
	} `json:"source"`
}

type vectorOptions struct {
	CharOrder      int     `json:"char_order"`
	WordOrder      int     `json:"word_order"`
	Beta           float64 `json:"beta"`
	EpsSmoothing   bool    `json:"eps_smoothing"`
	Whitespace     bool    `json:"whitespace"`
	Lowercase      bool    `json:"lowercase"`
	Tokenize       string  `json:"tokenize"`
	Smooth         string  `json:"smooth"`
	SmoothValue    float64 `json:"smooth_value"`
	EffectiveOrder bool    `json:"effective_order"`
	MaxOrder       int     `json:"max_order"`
	CaseSensitive  bool    `json:"case_sensitive"`
}

func loadVectors(t *testing.T) []vector {
	t.Helper()
	b, err := os.ReadFile("testdata/gen_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Vectors []vector }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Vectors) < 80 {
		t.Fatalf("only %d vectors in testdata/gen_vectors.json", len(doc.Vectors))
	}
	return doc.Vectors
}

// TestReferenceVectors checks every metric against the published figures
// in testdata/gen_vectors.json, each to its source's own tolerance
// (sacreBLEU's EPSILON, rouge-score's assertAlmostEqual places, or the
// printed precision), scaled to [0, 1].
func TestReferenceVectors(t *testing.T) {
	seen := map[string]int{}
	for i, v := range loadVectors(t) {
		name := fmt.Sprintf("%02d_%s/%s", i, v.Metric, v.Source.Test)
		seen[v.Metric]++
		t.Run(name, func(t *testing.T) {
			o := v.Options
			chrf := CHRFOptions{CharOrder: o.CharOrder, WordOrder: o.WordOrder, Beta: o.Beta,
				EpsSmoothing: o.EpsSmoothing, Whitespace: o.Whitespace, Lowercase: o.Lowercase}
			bleu := BLEUOptions{Tokenize: o.Tokenize, Smooth: o.Smooth, SmoothValue: o.SmoothValue,
				EffectiveOrder: o.EffectiveOrder, MaxOrder: o.MaxOrder, Lowercase: o.Lowercase}
			near := func(got, want, tol float64) {
				t.Helper()
				if math.Abs(got-want) > tol {
					t.Errorf("got %.10f, want %.10f (±%g) from %s %s", got, want, tol, v.Source.Repo, v.Source.File)
				}
			}
			scalar := func() float64 {
				var x float64
				if err := json.Unmarshal(v.Expected, &x); err != nil {
					t.Fatal(err)
				}
				return x
			}
			switch v.Metric {
			case "corpus_chrf":
				near(CorpusCHRF(v.Hyps, v.Refs, chrf), scalar()/v.Scale, v.Tolerance/v.Scale)
			case "sentence_chrf":
				near(SentenceCHRF(v.Hyps[0], v.Refs[0], chrf), scalar()/v.Scale, v.Tolerance/v.Scale)
			case "corpus_bleu":
				near(CorpusBLEU(v.Hyps, v.Refs, bleu).Score, scalar()/v.Scale, v.Tolerance/v.Scale)
			case "sentence_bleu":
				near(SentenceBLEU(v.Hyps[0], v.Refs[0], bleu).Score, scalar()/v.Scale, v.Tolerance/v.Scale)
			case "corpus_bleu_counts":
				var want struct{ Counts, Totals []float64 }
				if err := json.Unmarshal(v.Expected, &want); err != nil {
					t.Fatal(err)
				}
				s := CorpusBLEU(v.Hyps, v.Refs, bleu)
				if fmt.Sprint(s.Counts) != fmt.Sprint(want.Counts) || fmt.Sprint(s.Totals) != fmt.Sprint(want.Totals) {
					t.Errorf("counts %v totals %v, want %v %v", s.Counts, s.Totals, want.Counts, want.Totals)
				}
			case "corpus_ter":
				near(CorpusTER(v.Hyps, v.Refs, TEROptions{CaseSensitive: o.CaseSensitive}).Score, scalar()/v.Scale, v.Tolerance/v.Scale)
			case "rouge1", "rouge2", "rougeL":
				var want struct{ Precision, Recall, F float64 }
				if err := json.Unmarshal(v.Expected, &want); err != nil {
					t.Fatal(err)
				}
				var got PRF
				switch v.Metric {
				case "rouge1":
					got = RougeN(v.Target, v.Prediction, 1)
				case "rouge2":
					got = RougeN(v.Target, v.Prediction, 2)
				default:
					got = RougeL(v.Target, v.Prediction)
				}
				near(got.Precision, want.Precision, v.Tolerance)
				near(got.Recall, want.Recall, v.Tolerance)
				near(got.F, want.F, v.Tolerance)
			default:
				t.Fatalf("unknown vector metric %q", v.Metric)
			}
		})
	}
	for _, m := range []string{"corpus_chrf", "sentence_chrf", "corpus_bleu", "sentence_bleu", "corpus_ter", "rouge1", "rouge2", "rougeL"} {
		if seen[m] == 0 {
			t.Errorf("no reference vector for %s", m)
		}
	}
}

// TestTERVectorParts checks the edit counts and reference lengths that
// HF evaluate's TER docstring prints next to the scores.
func TestTERVectorParts(t *testing.T) {
	tp := []string{"does this sentence match??", "what about this sentence?", "What did the TER metric user say to the developer?"}
	tr := [][]string{{"does this sentence match", "wHaT aBoUt ThIs SeNtEnCe?", "Your jokes are..."},
		{"does this sentence match!?!", "wHaT aBoUt ThIs SeNtEnCe?", "...TERrible"}}
	s := CorpusTER(tp, tr, TEROptions{CaseSensitive: true})
	if s.Edits != 15 || s.RefLength != 10 {
		t.Errorf("edits %v, ref length %v; HF evaluate Example 1 prints 15 and 10.0", s.Edits, s.RefLength)
	}
	s = CorpusTER(tp[:2], [][]string{tr[0][:2], tr[1][:2]}, TEROptions{CaseSensitive: true})
	if s.Edits != 5 || s.RefLength != 8 {
		t.Errorf("edits %v, ref length %v; HF evaluate Example 2 prints 5 and 8.0", s.Edits, s.RefLength)
	}
}

// TestBLEUCompute checks the combination step alone on sacreBLEU's
// test_scoring and test_degenerate_statistics figures (test/test_bleu.py).
func TestBLEUCompute(t *testing.T) {
	stats := func(sys, ref float64, correct, total []float64) []float64 {
		return append(append([]float64{sys, ref}, correct...), total...)
	}
	b := newBLEU(BLEUOptions{Smooth: "none"})
	if got := b.compute(stats(11, 11, []float64{9, 7, 5, 3}, []float64{10, 8, 6, 4})).Score; math.Abs(got-0.8375922397) > 1e-8 {
		t.Errorf("test_scoring: got %.10f, want 0.8375922397", got)
	}
	degenerate := []struct {
		correct, total []float64
		sys, ref       float64
		floor          float64
	}{
		{[]float64{0, 0, 0, 0}, []float64{4, 4, 2, 1}, 0, 1, 0.0},
		{[]float64{0, 0, 0, 0}, []float64{10, 11, 12, 0}, 14, 10, 0.0},
		{[]float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}, 0, 0, 0.0},
		{[]float64{6, 5, 4, 0}, []float64{6, 5, 4, 3}, 6, 6, 0.0},
		{[]float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}, 0, 0, 0.1},
		{[]float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}, 1, 5, 0.01},
	}
	for i, d := range degenerate {
		// A floor of 0 is no smoothing: the zero precision stays zero.
		opt := BLEUOptions{Smooth: "floor", SmoothValue: d.floor}
		if d.floor == 0 {
			opt = BLEUOptions{Smooth: "none"}
		}
		if got := newBLEU(opt).compute(stats(d.sys, d.ref, d.correct, d.total)).Score; got != 0 {
			t.Errorf("test_degenerate_statistics case %d: got %v, want 0", i, got)
		}
	}
}

// identicalTexts are answers in English, Hindi, Bengali, Tamil and
// Telugu: one character, one word, several words, with the danda, with
// digits, with a zero-width non-joiner.
var identicalTexts = []string{
	"a", "Delhi", "Ruru Jataka", "The Narmada river valley, in India.",
	"क", "गंगा", "नई दिल्ली।", "सत्यमेव जयते॥", "हिन्दी", "१९४७ में",
	"ক", "বই", "নতুন দিল্লি।", "বঙ্গভঙ্গ ঘোষিত হয়েছিল ১৯০৫ সালে", "ক্\u200cষ",
	"சென்னை", "வணக்கம், உலகம்!", "తెలుగు భాష",
}

// generativeIDs are the metrics this file family registers.
var generativeIDs = []string{"chrf", "chrf_pp", "bleu", "bleu_indic", "rouge1", "rouge2", "rouge_l", "ter", "edit_similarity", "char_f1"}

// TestIdenticalStringsScoreOne: every generative metric gives 1 to a
// response identical to the golden answer, in every script, row by row
// and as a group value from summed statistics.
func TestIdenticalStringsScoreOne(t *testing.T) {
	for _, id := range generativeIDs {
		m, err := Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(id, func(t *testing.T) {
			s := m.New()
			var sums []float64
			for _, x := range identicalTexts {
				if v := s.Score(x, x).Value; v != 1 {
					t.Errorf("%s(%q, %q) = %v, want 1", id, x, x, v)
				}
				if m.Corpus != nil {
					st := m.Corpus.New().AppendStats(nil, x, x)
					if len(st) != m.Corpus.NStats {
						t.Fatalf("%d statistics, NStats says %d", len(st), m.Corpus.NStats)
					}
					if v := m.Corpus.Final(st); v != 1 {
						t.Errorf("corpus %s of one identical row %q = %v, want 1", id, x, v)
					}
					if sums == nil {
						sums = make([]float64, len(st))
					}
					for i := range st {
						sums[i] += st[i]
					}
				}
			}
			if m.Corpus != nil {
				if v := m.Corpus.Final(sums); v != 1 {
					t.Errorf("corpus %s over all identical rows = %v, want 1", id, v)
				}
			}
		})
	}
}

// TestCorpusMatchesExported: a registered corpus metric's summed
// statistics give the exported corpus function's value.
func TestCorpusMatchesExported(t *testing.T) {
	golden := []string{"नई दिल्ली", "Ruru Jataka", "বঙ্গভঙ্গ ঘোষিত হয়েছিল ১৯০৫ সালে", "the Narmada valley", "गंगा"}
	resp := []string{"नई दिल्ली।", "It is the Ruru Jataka.", "১৯০৫ সালে বঙ্গভঙ্গ", "Narmada", "यमुना"}
	want := map[string]float64{
		"chrf":       CorpusCHRF(resp, [][]string{golden}, CHRFOptions{}),
		"chrf_pp":    CorpusCHRF(resp, [][]string{golden}, CHRFOptions{WordOrder: 2}),
		"bleu":       CorpusBLEU(resp, [][]string{golden}, BLEUOptions{EffectiveOrder: true}).Score,
		"bleu_indic": CorpusBLEU(resp, [][]string{golden}, BLEUOptions{Tokenize: "indic", EffectiveOrder: true}).Score,
		"ter":        1 - CorpusTER(resp, [][]string{golden}, TEROptions{}).Score,
	}
	for id, w := range want {
		m, _ := Lookup(id)
		cs := m.Corpus.New()
		sums := make([]float64, m.Corpus.NStats)
		for i := range golden {
			for j, v := range cs.AppendStats(nil, golden[i], resp[i]) {
				sums[j] += v
			}
		}
		if got := m.Corpus.Final(sums); math.Abs(got-math.Max(0, w)) > 1e-12 {
			t.Errorf("%s: Final(summed stats) = %v, exported corpus function = %v", id, got, w)
		}
	}
	// bleu's corpus value is sacreBLEU's corpus_bleu when some response
	// has four tokens (here "It is the Ruru Jataka ." has six).
	if a, b := CorpusBLEU(resp, [][]string{golden}, BLEUOptions{}).Score, want["bleu"]; a != b {
		t.Errorf("effective order changed corpus BLEU: %v vs %v", a, b)
	}
}

// naiveCHRFStats transcribes sacreBLEU's statistics directly: Counters
// of substrings, per order.
func naiveCHRFStats(hyp, ref string, charOrder, wordOrder int) []float64 {
	// Decode each field on its own: Python strings are always valid, and
	// joining invalid UTF-8 bytes could make a code point neither side had.
	join := func(s string) []rune {
		var out []rune
		for _, f := range textnorm.Fields(s) {
			out = append(out, []rune(f)...)
		}
		return out
	}
	count := func(items []string) map[string]int {
		m := map[string]int{}
		for _, x := range items {
			m[x]++
		}
		return m
	}
	stat := func(h, r map[string]int) []float64 {
		nh, nr, nm := 0, 0, 0
		for g, c := range h {
			nh += c
			nm += min(c, r[g])
		}
		for _, c := range r {
			nr += c
		}
		if nr == 0 {
			nh = 0
		}
		return []float64{float64(nh), float64(nr), float64(nm)}
	}
	var out []float64
	hr, rr := join(hyp), join(ref)
	for n := 1; n <= charOrder; n++ {
		var hg, rg []string
		for i := 0; i+n <= len(hr); i++ {
			hg = append(hg, string(hr[i:i+n]))
		}
		for i := 0; i+n <= len(rr); i++ {
			rg = append(rg, string(rr[i:i+n]))
		}
		out = append(out, stat(count(hg), count(rg))...)
	}
	words := func(s string) []string {
		var out []string
		for _, w := range textnorm.Fields(s) {
			r := []rune(w)
			switch {
			case len(r) == 1:
				out = append(out, w)
			case strings.ContainsRune(textnorm.ASCIIPunctuation, r[len(r)-1]):
				out = append(out, string(r[:len(r)-1]), string(r[len(r)-1]))
			case strings.ContainsRune(textnorm.ASCIIPunctuation, r[0]):
				out = append(out, string(r[0]), string(r[1:]))
			default:
				out = append(out, w)
			}
		}
		return out
	}
	hw, rw := words(hyp), words(ref)
	for n := 1; n <= wordOrder; n++ {
		var hg, rg []string
		for i := 0; i+n <= len(hw); i++ {
			hg = append(hg, strings.Join(hw[i:i+n], " "))
		}
		for i := 0; i+n <= len(rw); i++ {
			rg = append(rg, strings.Join(rw[i:i+n], " "))
		}
		out = append(out, stat(count(hg), count(rg))...)
	}
	return out
}

// randomText draws short texts from a small alphabet of Latin and
// Devanagari letters, matras, spaces and punctuation, so that n-grams
// repeat and collide often.
func randomText(r *rand.Rand) string {
	alphabet := []string{"a", "b", "A", " ", " ", ".", ",", "(", ")", "क", "ि", "ा", "्", "।", "न", "1", "\u200c", "\t"}
	n := r.IntN(30)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// TestCHRFStatsOracle compares the n-gram index's statistics with the direct
// transcription on seeded random texts.
func TestCHRFStatsOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	c := newCHRF(CHRFOptions{WordOrder: 2})
	for i := 0; i < 3000; i++ {
		h, ref := randomText(r), randomText(r)
		got := c.stats(nil, h, ref)
		want := naiveCHRFStats(h, ref, 6, 2)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("stats(%q, %q) = %v, naive = %v", h, ref, got, want)
		}
	}
}

func ExampleCorpusCHRF() {
	// HF evaluate's chrf docstring, Example 1 (sacreBLEU prints 84.64214891738334).
	hyps := []string{"The relationship between cats and dogs is not exactly friendly.",
		"a good bookshop is just a genteel black hole that knows how to read."}
	refs := [][]string{{"The relationship between dogs and cats is not exactly friendly.",
		"A good bookshop is just a genteel Black Hole that knows how to read."}}
	fmt.Printf("chrF   %.6f\n", CorpusCHRF(hyps, refs, CHRFOptions{}))
	fmt.Printf("chrF++ %.6f\n", CorpusCHRF(hyps, refs, CHRFOptions{WordOrder: 2}))
	// Output:
	// chrF   0.846421
	// chrF++ 0.828726
}

// FuzzGenerative: on any pair of strings every generative metric stays
// in [0, 1] row by row and as a corpus value; a text scored against
// itself scores 1 once it has a letter or digit; chrF's statistics equal
// the direct transcription.
func FuzzGenerative(f *testing.F) {
	for _, s := range [][2]string{{"नई दिल्ली।", "नई दिल्ली"}, {"", ""}, {"a b c", "abc"}, {"(hi)", "hi"},
		{"d e f g h a b c", "a b c d e f g h"}, {"\xff", "\u200c"}, {"1990-2000", "3.14, 1,000"}, {"\xe300 \xdf!", "0 \xb5!"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, golden, response string) {
		hasWord := false
		for _, r := range golden {
			hasWord = hasWord || textnorm.IsWordRune(r)
		}
		for _, id := range generativeIDs {
			m, _ := Lookup(id)
			v := m.New().Score(golden, response).Value
			if !(v >= 0 && v <= 1) {
				t.Fatalf("%s(%q, %q) = %v", id, golden, response, v)
			}
			if hasWord {
				if s := m.New().Score(golden, golden).Value; s != 1 {
					t.Fatalf("%s(%q, itself) = %v, want 1", id, golden, s)
				}
			}
			if m.Corpus != nil {
				st := m.Corpus.New().AppendStats(nil, golden, response)
				if c := m.Corpus.Final(st); !(c >= 0 && c <= 1) || len(st) != m.Corpus.NStats {
					t.Fatalf("corpus %s = %v from %d stats", id, c, len(st))
				}
			}
		}
		// The transcription follows Python, whose strings are valid UTF-8
		// (pkg/qa rejects or repairs invalid input before scoring).
		if !utf8.ValidString(golden) || !utf8.ValidString(response) {
			return
		}
		if got, want := newCHRF(CHRFOptions{WordOrder: 2}).stats(nil, response, golden), naiveCHRFStats(response, golden, 6, 2); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("chrF stats %v, naive %v", got, want)
		}
	})
}

// sentencePairs makes n seeded golden/response pairs of 8 to 24 words in
// English, Hindi and Bengali, the response a noisy copy of the golden
// sentence (words dropped, replaced and added), about 60 to 180
// characters each.
func sentencePairs(n int) [][2]string {
	vocab := [][]string{
		strings.Fields("the river valley temple carved medallion golden deer railing north south ancient kingdom capital city built during century"),
		strings.Fields("भारत की राजधानी नई दिल्ली है यमुना नदी के किनारे बसी मंदिर प्राचीन राज्य सदी में बना गया था"),
		strings.Fields("বঙ্গভঙ্গ ঘোষিত হয়েছিল সালে লর্ড কার্জনের আমলে কলকাতা নদী মন্দির প্রাচীন রাজ্য শতাব্দীতে তৈরি"),
	}
	r := rand.New(rand.NewPCG(100000, 7))
	out := make([][2]string, n)
	for i := range out {
		v := vocab[i%len(vocab)]
		g := make([]string, 8+r.IntN(17))
		for j := range g {
			g[j] = v[r.IntN(len(v))]
		}
		var resp []string
		for _, w := range g {
			switch x := r.IntN(10); {
			case x == 0: // dropped
			case x == 1:
				resp = append(resp, v[r.IntN(len(v))])
			case x == 2:
				resp = append(resp, w, v[r.IntN(len(v))])
			default:
				resp = append(resp, w)
			}
		}
		out[i] = [2]string{strings.Join(g, " "), strings.Join(resp, " ")}
	}
	return out
}

// benchCorpus scores every pair at the sentence level and computes the
// corpus value from summed statistics, as pkg/qa does for a group.
func benchCorpus(b *testing.B, id string, pairs [][2]string) {
	m, err := Lookup(id)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := m.New()
		var sum float64
		var cs CorpusStats
		var sums, st []float64
		if m.Corpus != nil {
			cs = m.Corpus.New()
			sums = make([]float64, m.Corpus.NStats)
		}
		for _, p := range pairs {
			sum += s.Score(p[0], p[1]).Value
			if cs != nil {
				st = cs.AppendStats(st[:0], p[0], p[1])
				for j, v := range st {
					sums[j] += v
				}
			}
		}
		if sum <= 0 || (cs != nil && m.Corpus.Final(sums) <= 0) {
			b.Fatal("no score")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pairs)), "ns/pair")
}

// BenchmarkCHRF100k: chrF over 100,000 sentence pairs (one op), with
// sentence values and the corpus value. Run with -benchtime=3x.
func BenchmarkCHRF100k(b *testing.B) { benchCorpus(b, "chrf", sentencePairs(100000)) }

// BenchmarkCHRFPP100k: chrF++ likewise.
func BenchmarkCHRFPP100k(b *testing.B) { benchCorpus(b, "chrf_pp", sentencePairs(100000)) }

// BenchmarkBLEU100k: BLEU likewise.
func BenchmarkBLEU100k(b *testing.B) { benchCorpus(b, "bleu", sentencePairs(100000)) }

// BenchmarkTER100k: TER likewise.
func BenchmarkTER100k(b *testing.B) { benchCorpus(b, "ter", sentencePairs(100000)) }
