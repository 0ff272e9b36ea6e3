package score

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Each expected token list applies mteval-v13a's four substitutions by
// hand (see tokenize13a's comment), in order, to " " + s + " ".
func TestTokenize13a(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
	}{
		{"comma and exclamation", "Hello, world!", []string{"Hello", ",", "world", "!"}},
		{"numbers keep . and ,", "3.14 and 1,000", []string{"3.14", "and", "1,000"}},
		{"final full stop", "end.", []string{"end", "."}},
		{"dash after a digit", "1990-2000", []string{"1990", "-", "2000"}},
		{"hyphenated word", "well-known", []string{"well-known"}},
		{"apostrophe kept", "wasn't", []string{"wasn't"}},
		{"entity", "A&amp;B", []string{"A", "&", "B"}},
		{"full stop between letters", "a.b", []string{"a", ".", "b"}},
		{"currency", "$5.00", []string{"$", "5.00"}},
		{"brackets around hindi", "(हिन्दी)", []string{"(", "हिन्दी", ")"}},
		// 13a does not know the danda: it stays on the word.
		{"danda stays attached", "नई दिल्ली।", []string{"नई", "दिल्ली।"}},
		{"hyphenated line break", "line one-\nline two", []string{"line", "oneline", "two"}},
		{"skipped marker", "<skipped>text", []string{"text"}},
		{"trailing whitespace", "word \t\n", []string{"word"}},
	}
	b := newBLEU(BLEUOptions{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := b.tokens(nil, c.in); !slices.Equal(got, c.want) {
				t.Errorf("13a(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestIndicTokens(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
	}{
		{"danda split off", "नई दिल्ली।", []string{"नई", "दिल्ली", "।"}},
		{"double danda", "सत्यमेव जयते॥", []string{"सत्यमेव", "जयते", "॥"}},
		{"bengali danda", "নতুন দিল্লি।", []string{"নতুন", "দিল্লি", "।"}},
		{"matras and virama stay", "हिन्दी", []string{"हिन्दी"}},
		{"decimal in devanagari digits", "३.१४ और 1,000", []string{"३.१४", "और", "1,000"}},
		{"comma before a digit with no word", ",5", []string{",", "5"}},
		{"brackets", "(हिन्दी)", []string{"(", "हिन्दी", ")"}},
		{"zwnj inside a word", "ক্\u200cষ", []string{"ক্\u200cষ"}},
		{"apostrophe is punctuation", "Delhi's", []string{"Delhi", "'", "s"}},
		{"symbol", "₹500", []string{"₹", "500"}},
		{"dash", "a—b", []string{"a", "—", "b"}},
		{"nfc first", "\u095Bरूर", []string{"\u091C\u093Cरूर"}},
	}
	b := newBLEU(BLEUOptions{Tokenize: "indic"})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := b.tokens(nil, c.in); !slices.Equal(got, c.want) {
				t.Errorf("indic(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// The danda costs 13a a unigram and a bigram; the Indic tokeniser only a
// brevity penalty. Hand computation:
//
//	13a:   hyp [नई दिल्ली] ref [नई दिल्ली।]: p1 = 1/2, p2 = 0/1 → exp smoothing 1/(2·1);
//	       BP = 1 (2 = 2); BLEU = √(½·½) = 0.5
//	indic: hyp [नई दिल्ली] ref [नई दिल्ली ।]: p1 = 2/2, p2 = 1/1; BP = exp(1 − 3/2);
//	       BLEU = e^{−0.5} = 0.6065306597
func TestBLEUDanda(t *testing.T) {
	check := func(id string, want float64) {
		t.Helper()
		m, _ := Lookup(id)
		if got := m.New().Score("नई दिल्ली।", "नई दिल्ली").Value; math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %.10f, want %.10f", id, got, want)
		}
	}
	check("bleu", 0.5)
	check("bleu_indic", math.Exp(-0.5))
}

// naiveBLEUCounts counts n-grams with string keys, one reference.
func naiveBLEUCounts(hyp, ref []string, n int) (correct, total []float64) {
	correct, total = make([]float64, n), make([]float64, n)
	refc := map[string]int{}
	for k := 1; k <= n; k++ {
		for i := 0; i+k <= len(ref); i++ {
			refc[strings.Join(ref[i:i+k], "\x00")]++
		}
	}
	for k := 1; k <= n; k++ {
		for i := 0; i+k <= len(hyp); i++ {
			g := strings.Join(hyp[i:i+k], "\x00")
			total[k-1]++
			if refc[g] > 0 {
				refc[g]--
				correct[k-1]++
			}
		}
	}
	return
}

// TestBLEUCountsOracle: the n-gram index's clipped counts equal a direct
// count with string keys, for every maximum order.
func TestBLEUCountsOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 13))
	words := []string{"a", "b", "c", "नई", "दिल्ली", ".", ","}
	sent := func() string {
		var s []string
		for i := r.IntN(14); i > 0; i-- {
			s = append(s, words[r.IntN(len(words))])
		}
		return strings.Join(s, " ")
	}
	for order := 1; order <= 6; order++ {
		b := newBLEU(BLEUOptions{MaxOrder: order, Tokenize: "none"})
		for i := 0; i < 500; i++ {
			h, ref := sent(), sent()
			st := b.stats(nil, h, []string{ref})
			c, tot := naiveBLEUCounts(b.tokens(nil, h), b.tokens(nil, ref), order)
			if !slices.Equal(st[2:2+order], c) || !slices.Equal(st[2+order:], tot) {
				t.Fatalf("order %d, %q vs %q: fast %v, naive %v %v", order, h, ref, st, c, tot)
			}
		}
	}
}

// TestBLEUClosestReference: with several references, the brevity
// penalty uses the reference closest in length, the shorter on a tie
// (sacreBLEU's _get_closest_ref_len).
func TestBLEUClosestReference(t *testing.T) {
	s := SentenceBLEU("a b c", []string{"a b", "a b c d"}, BLEUOptions{Tokenize: "none"})
	if s.RefLen != 2 {
		t.Errorf("tie between lengths 2 and 4 for a 3-token hypothesis: RefLen %d, want 2", s.RefLen)
	}
	s = SentenceBLEU("a b c", []string{"a", "a b c d"}, BLEUOptions{Tokenize: "none"})
	if s.RefLen != 4 {
		t.Errorf("RefLen %d, want 4 (distance 1 beats 2)", s.RefLen)
	}
}

func ExampleSentenceBLEU() {
	// sacreBLEU test/test_sentence_bleu.py: sentence_bleu with 'exp'
	// smoothing and effective order gives 8.493 on its 0..100 scale.
	ref := "producţia de zahăr brut se exprimă în zahăr alb;"
	sys := "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
	fmt.Printf("%.5f\n", SentenceBLEU(sys, []string{ref}, BLEUOptions{EffectiveOrder: true}).Score)
	// Output: 0.08493
}

func ExampleCorpusBLEU() {
	// sacreBLEU test/test_bleu.py: two reference streams, 48.530827. The
	// lengths by hand (13a splits the final full stops): hypotheses
	// 6 + 4 + 7 = 17 tokens; closest references 6 ("The dog bit the man ."),
	// 5 (both are 5 for "It wasn't surprising ."), 7 ("The man had bitten
	// the dog .") = 18; BP = exp(1 − 18/17) = 0.943.
	refs := [][]string{
		{"The dog bit the man.", "It was not unexpected.", "The man bit him first."},
		{"The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."},
	}
	hyps := []string{"The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."}
	s := CorpusBLEU(hyps, refs, BLEUOptions{})
	fmt.Printf("BLEU %.6f, BP %.3f, hyp %d tokens, ref %d tokens\n", s.Score, s.BP, s.SysLen, s.RefLen)
	// Output: BLEU 0.485308, BP 0.943, hyp 17 tokens, ref 18 tokens
}
