package score

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

func scoreOne(t *testing.T, id, golden, response string) Verdict {
	t.Helper()
	m, err := Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return m.New().Score(golden, response)
}

// Every row of seed 000's exact-substring table (SPEC.md section 1).
func TestExactSubstringSeedTable(t *testing.T) {
	cases := []struct {
		name, golden, response string
		want                   float64
	}{
		{"prose around it", "Ruru Jataka", "The answer is the Ruru Jataka, depicted at Bharhut.", 1},
		{"case-insensitive", "ruru jataka", "RURU JATAKA", 1},
		{"devanagari", "गंगा", "गंगा नदी", 1},
		{"order matters", "Ruru Jataka", "Jataka Ruru", 0},
		{"must be contiguous", "Narmada valley", "the Narmada river valley", 0},
		{"golden not stripped", "Delhi ", "Delhi", 0},
		{"inside a longer word", "amalak", "Amalaka", 1},
		{"no word boundary (false positive)", "No", "There is **no** such temple", 1},
		{"mention is not assertion (false positive)", "Delhi", "Delhi is not the answer; it's Mumbai", 1},
		// The seed's "exact only" rows: inflections caught by the substring.
		{"deul/Deula", "deul", "Deula", 1},
		{"mithun/Mithuna", "mithun", "Mithuna", 1},
		{"Dipankar", "Dipankar", "Dipankara Buddha", 1},
		{"scroll painting", "scroll painting", "Scroll paintings", 1},
		{"Narmada River valley", "Narmada valley", "Narmada River valley", 0},
		// Caveats.
		{"empty golden scores correct", "", "anything at all", 1},
		{"blank response scores 0", "", "   ", 0},
		{"NFC vs NFD differ", "\u0958", "\u0915\u093c", 0},
		{"python lower of dotted I", "i\u0307stanbul", "İSTANBUL", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := scoreOne(t, "exact_substring", c.golden, c.response); got.Value != c.want {
				t.Errorf("exact_substring(%q, %q) = %v, want %v", c.golden, c.response, got.Value, c.want)
			}
		})
	}
}

// Every row of seed 000's word-overlap table, with its counts.
func TestWordOverlapSeedTable(t *testing.T) {
	cases := []struct {
		name, golden, response string
		want                   float64
		matching, total        int
	}{
		{"order irrelevant", "Narmada valley", "valley Narmada", 1, 2, 2},
		{"insertions free", "Narmada valley", "the Narmada river valley in India", 1, 2, 2},
		{"every golden word required", "Narmada valley", "Narmada", 0, 1, 2},
		{"duplicates collapse", "1947 to 1947", "it was 1947", 0, 1, 2},
		{"whole tokens, no stemming", "Amalaka", "amalak", 0, 0, 1},
		{"different claim (false positive)", "Chola ideals", "Chola and Hoysala ideals", 1, 2, 2},
		{"punctuation stripped", "Delhi", "It is delhi.", 1, 1, 1},
		{"markdown stripped", "No", "There is **no** such temple", 1, 1, 1},
		{"amalak/Amalaka misses", "amalak", "Amalaka", 0, 0, 1},
		{"danda kept (ASCII punctuation only)", "दिल्ली", "नई दिल्ली।", 0, 0, 1},
		{"trailing space tolerated", "Delhi ", "Delhi", 1, 1, 1},
		{"empty golden scores correct", "", "whatever", 1, 0, 0},
		{"blank response scores 0", "Delhi", " \t", 0, 0, 1},
		{"punctuation-only token is an empty word", "1990 - 1995", "from 1990 to 1995", 0, 2, 3},
		{"punctuation-only token matched by one", "1990 - 1995", "1990 – 1995 (...)", 1, 3, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := scoreOne(t, "word_overlap", c.golden, c.response)
			if got.Value != c.want || got.Matching != c.matching || got.Total != c.total {
				t.Errorf("word_overlap(%q, %q) = %v %d/%d, want %v %d/%d",
					c.golden, c.response, got.Value, got.Matching, got.Total, c.want, c.matching, c.total)
			}
		})
	}
}

// Seed 002: exact match with and without an answer in the source.
func TestExactMatchSeed002(t *testing.T) {
	truth := "Google was founded on September 4, 1998, by American computer scientists Larry Page and Sergey Brin while they were PhD students at Stanford University in California."
	cases := []struct {
		name, truth, pred string
		want              float64
	}{
		{"1a empty prediction", truth, "", 0},
		{"1b identical", truth, truth, 1},
		{"1c drops the end", truth, "Google was founded on September 4, 1998, by American computer scientists Larry Page and Sergey Brin.", 0},
		{"2a no answer, empty prediction", "", "", 1},
		{"2b no answer, some text", "", "Google and YouTube are the two most visited websites worldwide followed by Facebook and Twitter.", 0},
		{"2c no answer, says so", "", "No answer found.", 0},
		{"case matters", "Delhi", "delhi", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := scoreOne(t, "exact_match", c.truth, c.pred); got.Value != c.want {
				t.Errorf("exact_match = %v, want %v", got.Value, c.want)
			}
		})
	}
}

func TestSQuADNormalize(t *testing.T) {
	// Hand-applied normalize_answer of the SQuAD v2.0 evaluation script.
	check := func(in, want string) {
		t.Helper()
		if got := SQuADNormalize(in); got != want {
			t.Errorf("SQuADNormalize(%q) = %q, want %q", in, got, want)
		}
	}
	check("The Ruru Jataka.", "ruru jataka")
	check("  an   Apple, a day ", "apple day")
	check("Theory of the atom", "theory of atom") // "the" inside "theory" is not a word
	check("U.S.A.", "usa")
	check("rock-'n'-roll", "rocknroll")
	check("नई दिल्ली।", "नई दिल्ली।") // danda is not ASCII punctuation
	check("A", "")
	check("", "")
	check("the_end", "theend") // "_" is in string.punctuation, removed before articles
}

func TestSQuADScores(t *testing.T) {
	cases := []struct {
		name, golden, response string
		em, f1                 float64
	}{
		{"normalised equal", "The Ruru Jataka", "ruru jataka.", 1, 1},
		// gold [narmada valley], pred [narmada river valley]: common 2, p=2/3, r=1, F1=0.8.
		{"insertion", "Narmada valley", "the Narmada river valley", 0, 0.8},
		// gold [1947 to 1947] (3 tokens), pred [it was 1947]: common 1, p=1/3, r=1/3, F1=1/3.
		{"multiset counts", "1947 to 1947", "it was 1947", 0, 1.0 / 3},
		{"no overlap", "Delhi", "Mumbai", 0, 0},
		{"both empty (v2 no-answer)", "", "", 1, 1},
		{"gold empty, pred not", "", "No answer found.", 0, 0},
		{"pred empty, gold not", "Delhi", "", 0, 0},
		{"only articles on both sides", "the", "a", 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			em := scoreOne(t, "squad_em", c.golden, c.response).Value
			qem := scoreOne(t, "quasi_exact_match", c.golden, c.response).Value
			f1 := scoreOne(t, "squad_f1", c.golden, c.response).Value
			if em != c.em || qem != c.em {
				t.Errorf("squad_em = %v, quasi = %v, want %v", em, qem, c.em)
			}
			if math.Abs(f1-c.f1) > 1e-12 {
				t.Errorf("squad_f1 = %v, want %v", f1, c.f1)
			}
		})
	}
}

func TestPrefixExactMatch(t *testing.T) {
	check := func(golden, response string, want float64) {
		t.Helper()
		if got := scoreOne(t, "prefix_exact_match", golden, response).Value; got != want {
			t.Errorf("prefix_exact_match(%q, %q) = %v, want %v", golden, response, got, want)
		}
	}
	check("Delhi", "  Delhi, the capital", 1)
	check(" Delhi ", "Delhi", 1)
	check("Delhi", "The answer is Delhi", 0)
	check("Delhi", "delhi", 0)
	check("", "", 1)
	check("Delhi", "   ", 0)
}

func TestRegistry(t *testing.T) {
	want := []string{"exact_substring", "word_overlap", "exact_match", "squad_em", "squad_f1", "quasi_exact_match", "prefix_exact_match"}
	got := IDs()
	for _, id := range want {
		m, err := Lookup(id)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", id, err)
		}
		if m.Rule == "" || m.FalsePositives == "" || m.FalseNegatives == "" || m.Blank == "" || m.Source == "" {
			t.Errorf("%s is missing documentation", id)
		}
	}
	if len(got) < len(want) {
		t.Errorf("IDs() = %v", got)
	}
	if _, err := Lookup("bleurt"); err == nil || !strings.Contains(err.Error(), "exact_substring") {
		t.Errorf("Lookup(unknown) error = %v; want it to list known ids", err)
	}
	if _, err := ParseList("exact_match,exact_match"); err == nil {
		t.Error("ParseList accepted a duplicate")
	}
	if ms, err := ParseList(" exact_match , squad_f1 "); err != nil || len(ms) != 2 || !ms[1].Graded {
		t.Errorf("ParseList = %v, %v", ms, err)
	}
	if _, err := ParseList(" , "); err == nil {
		t.Error("ParseList accepted an empty list")
	}
}

// The scorers keep scratch buffers; reusing one across rows must not leak
// state from a previous row.
func TestScorerReuse(t *testing.T) {
	for _, id := range IDs() {
		m, _ := Lookup(id)
		s := m.New()
		rows := [][2]string{{"Narmada valley", "valley of the Narmada, a long answer with many words"}, {"No", "no"}, {"", ""}, {"गंगा", "गंगा नदी"}}
		for _, r := range rows {
			a := s.Score(r[0], r[1])
			b := m.New().Score(r[0], r[1])
			if a != b {
				t.Errorf("%s: reused scorer gave %+v, fresh gave %+v on %q", id, a, b, r)
			}
		}
	}
}

func FuzzMetrics(f *testing.F) {
	for _, s := range [][2]string{{"Narmada valley", "the Narmada river valley"}, {"", ""}, {"नई दिल्ली।", "नई दिल्ली"}, {"ΣΑΣ", "σας"}, {"a an the", "the"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, golden, response string) {
		for _, id := range IDs() {
			m, _ := Lookup(id)
			v := m.New().Score(golden, response)
			if v.Value < 0 || v.Value > 1 || math.IsNaN(v.Value) {
				t.Fatalf("%s(%q, %q) = %v, outside [0,1]", id, golden, response, v.Value)
			}
			if ls, ok := m.New().(LowerScorer); ok {
				lv := ls.ScoreLower(textnorm.AppendLower(nil, golden), textnorm.AppendLower(nil, response))
				if lv != v {
					t.Fatalf("%s: ScoreLower = %+v, Score = %+v on %q, %q", id, lv, v, golden, response)
				}
			}
			if !m.Graded && v.Value != 0 && v.Value != 1 {
				t.Fatalf("%s is binary but gave %v", id, v.Value)
			}
		}
		if scoreOne(t, "squad_em", golden, response).Value == 1 && scoreOne(t, "squad_f1", golden, response).Value != 1 {
			t.Fatalf("squad_em = 1 but squad_f1 < 1 on %q, %q", golden, response)
		}
		if golden == response && scoreOne(t, "exact_match", golden, response).Value != 1 {
			t.Fatal("identical strings fail exact_match")
		}
		w := scoreOne(t, "word_overlap", golden, response)
		if ref := naiveOverlap(golden, response); ref != w {
			t.Fatalf("word_overlap(%q, %q) = %+v, the naive Python transcription gives %+v", golden, response, w, ref)
		}
		if sub := strings.Contains(textnorm.Lower(response), textnorm.Lower(golden)) && !textnorm.IsBlank(response); (scoreOne(t, "exact_substring", golden, response).Value == 1) != sub {
			t.Fatalf("exact_substring disagrees with the naive transcription on %q, %q", golden, response)
		}
		if w.Matching > w.Total || (w.Value == 1) != (w.Matching == w.Total && !textnorm.IsBlank(response)) {
			t.Fatalf("word_overlap inconsistent: %+v on %q, %q", w, golden, response)
		}
	})
}

// naiveOverlap transcribes the seed's Python one-liner directly:
// set(w.strip(punct) for w in s.lower().split()).
func naiveOverlap(golden, response string) Verdict {
	set := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range textnorm.Fields(textnorm.Lower(s)) {
			m[textnorm.StripASCIIPunct(w)] = true
		}
		return m
	}
	g, r := set(golden), set(response)
	v := Verdict{Total: len(g)}
	if textnorm.IsBlank(response) {
		return v
	}
	for w := range g {
		if r[w] {
			v.Matching++
		}
	}
	if v.Matching == v.Total {
		v.Value = 1
	}
	return v
}

// A metric that declares SentenceIsFinal must give, for every row, the
// same sentence value from Score as from Final of the row's statistics.
func TestSentenceIsFinal(t *testing.T) {
	rows := append([][2]string{{"", ""}, {"Delhi", ""}, {"", "Delhi"}, {"नई दिल्ली", "नई दिल्ली।"}, {"the cat sat", "a cat sat down"}}, benchRows...)
	n := 0
	for _, id := range IDs() {
		m, _ := Lookup(id)
		if m.Corpus == nil || !m.Corpus.SentenceIsFinal {
			continue
		}
		n++
		for _, r := range rows {
			st := m.Corpus.New().AppendStats(nil, r[0], r[1])
			if a, b := m.New().Score(r[0], r[1]).Value, m.Corpus.Final(st); math.Abs(a-b) > 1e-12 {
				t.Errorf("%s(%q, %q): Score %v, Final of its statistics %v", id, r[0], r[1], a, b)
			}
		}
	}
	if n == 0 {
		t.Error("no metric declares SentenceIsFinal")
	}
}

// FuzzIndex holds index to bytes.Index, whose result it must always give.
func FuzzIndex(f *testing.F) {
	f.Add([]byte("भारत की राजधानी नई दिल्ली है"), []byte("दिल्ली"))
	f.Add([]byte("বঙ্গভঙ্গ ১৯০৫ ১৯০৫"), []byte("১৯০৫"))
	f.Add([]byte("ab\xe0\xa4"), []byte("\xe0\xa4"))
	f.Add([]byte("no match here"), []byte("é"))
	f.Fuzz(func(t *testing.T, s, sep []byte) {
		if got, want := index(s, sep), bytes.Index(s, sep); got != want {
			t.Fatalf("index(%q, %q) = %d, bytes.Index says %d", s, sep, got, want)
		}
	})
}

// TestIndexExhaustive compares index with bytes.Index for every text of
// up to 6 bytes and every needle of 2 or 3 bytes over an alphabet of the
// bytes that matter to it: a lead byte 0xE0, the continuation bytes 0xA4
// and 0x95 (क is E0 A4 95), and 'a'.
func TestIndexExhaustive(t *testing.T) {
	alphabet := []byte{0xE0, 0xA4, 0x95, 'a'}
	var all func(n int) [][]byte
	all = func(n int) [][]byte {
		if n == 0 {
			return [][]byte{{}}
		}
		var out [][]byte
		for _, p := range all(n - 1) {
			for _, c := range alphabet {
				out = append(out, append(append([]byte(nil), p...), c))
			}
		}
		return out
	}
	var texts, needles [][]byte
	for n := 0; n <= 6; n++ {
		texts = append(texts, all(n)...)
	}
	needles = append(all(2), all(3)...)
	for _, s := range texts {
		for _, sep := range needles {
			if got, want := index(s, sep), bytes.Index(s, sep); got != want {
				t.Fatalf("index(% x, % x) = %d, bytes.Index says %d", s, sep, got, want)
			}
		}
	}
}

// TestIndexLongTexts compares index with bytes.Index on texts of every
// length up to 48 bytes built from Indic and Latin words, spaces and
// single bytes, with needles of 1 to 13 bytes cut from the text itself
// (so that they occur, often more than once, at every offset and near
// the end) and drawn from the same parts (so that they often do not).
// TestIndexExhaustive stops at six bytes of text.
func TestIndexLongTexts(t *testing.T) {
	parts := []string{"क", "কা", "नदी", "a", "ab", "no", " ", ".", "\xe0", "\xa4", "\x95", "\x01"}
	rng := rand.New(rand.NewPCG(90, 8))
	checks := 0
	for n := range 49 {
		for range 400 {
			var s []byte
			for len(s) < n {
				s = append(s, parts[rng.IntN(len(parts))]...)
			}
			s = s[:n]
			var seps [][]byte
			for range 4 {
				l := 1 + rng.IntN(13)
				if l <= n {
					at := rng.IntN(n - l + 1)
					seps = append(seps, s[at:at+l])
				}
				var sep []byte
				for len(sep) < l {
					sep = append(sep, parts[rng.IntN(len(parts))]...)
				}
				seps = append(seps, sep[:l])
			}
			for _, sep := range seps {
				if got, want := index(s, sep), bytes.Index(s, sep); got != want {
					t.Fatalf("index(%q, %q) = %d, bytes.Index says %d", s, sep, got, want)
				}
				checks++
			}
		}
	}
	if checks < 49*400*4 {
		t.Fatalf("only %d comparisons", checks)
	}
}
