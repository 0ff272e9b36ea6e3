package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSamplePairsShape checks the shipped pair set against the lesson's
// description (SPEC.md section 3): 30 pairs; by kind clear 6, verbose_tie 5,
// padded_wrong 5, cite 5, tie 4, self 5 (the slice sizes of the lesson's
// by-kind line); 2 Bengali pairs and 28 English (its by-language line).
func TestSamplePairsShape(t *testing.T) {
	pairs := loadPairs(t)
	if len(pairs) != 30 {
		t.Fatalf("%d pairs, want 30", len(pairs))
	}
	kinds, langs := map[string]int{}, map[string]int{}
	for _, p := range pairs {
		kinds[p.Kind]++
		langs[p.Lang]++
	}
	want := map[string]int{"clear": 6, "verbose_tie": 5, "padded_wrong": 5, "cite": 5, "tie": 4, "self": 5}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("kind %s: %d pairs, want %d", k, kinds[k], n)
		}
	}
	if langs["bn"] != 2 || langs["en"] != 28 || len(langs) != 2 {
		t.Errorf("languages %v, want bn 2, en 28", langs)
	}
}

// TestSamplePairsFollowGuidelines applies the four labelling rules
// mechanically (facts, then citations, otherwise tie) and checks that every
// final label agrees, that annotator 1 followed the rules throughout, and
// that each kind has the shape guidelines.md gives it.
func TestSamplePairsFollowGuidelines(t *testing.T) {
	for _, p := range loadPairs(t) {
		t.Run(p.ID, func(t *testing.T) {
			d := Dimensions(p)
			rule := d.Correctness
			if rule == LabelTie {
				rule = d.Evidence
			}
			if p.Final != rule {
				t.Errorf("final %s, the rules give %s (%+v)", p.Final, rule, d)
			}
			if p.Ann1 != p.Final {
				t.Errorf("ann1 %s differs from final %s", p.Ann1, p.Final)
			}
			fa, fb := factShare(p.A, p.Facts), factShare(p.B, p.Facts)
			ca, cb := Cited(p.A), Cited(p.B)
			wa, wb := Words(p.A), Words(p.B)
			switch p.Kind {
			case "clear", "padded_wrong":
				if fa == fb {
					t.Errorf("%s pair with equal fact shares %.2f", p.Kind, fa)
				}
				wrongLonger := (fa < fb) == (wa > wb)
				if p.Kind == "padded_wrong" && (!wrongLonger || max(wa, wb) < 3*min(wa, wb)) {
					t.Errorf("padded_wrong: the wrong answer must be the padded one (%d vs %d words)", wa, wb)
				}
			case "cite":
				if fa != 1 || fb != 1 || ca == cb {
					t.Errorf("cite pair needs all facts in both and one citation (facts %.2f %.2f, cited %v %v)", fa, fb, ca, cb)
				}
			case "self":
				oa, ob := ownStyle(p.A), ownStyle(p.B)
				if fa != 1 || fb != 1 || oa == ob || (oa && ca) || (ob && cb) || (oa && !cb) || (ob && !ca) {
					t.Errorf("self pair needs one uncited own-style answer and one cited plain answer")
				}
			case "verbose_tie":
				if fa != 1 || fb != 1 || ca != cb || float64(max(wa, wb)) < ConcisionRatio*float64(min(wa, wb)) {
					t.Errorf("verbose_tie pair needs equal facts and citations and one padded answer (%d vs %d words)", wa, wb)
				}
			case "tie":
				if fa != 1 || fb != 1 || ca != cb {
					t.Errorf("tie pair needs equal facts and citations")
				}
			}
			if bn := p.Lang == "bn"; isBangla(p.A) != bn || isBangla(p.B) != bn || isBangla(p.Question) != bn {
				t.Errorf("lang %s, but isBangla gives question %v, a %v, b %v", p.Lang, isBangla(p.Question), isBangla(p.A), isBangla(p.B))
			}
		})
	}
}

// TestAnnotatorAgreement reproduces the lesson's agreement figures between
// the two annotators (SPEC.md section 3): annotator 1 a 10, b 11, tie 9;
// annotator 2 a 13, b 12, tie 5; confusion rows a {a 10}, b {b 11},
// tie {a 3, b 1, tie 5}; observed 26/30 = 0.867, expected 307/900 = 0.341,
// kappa 0.798.
func TestAnnotatorAgreement(t *testing.T) {
	pairs := loadPairs(t)
	var ann1, ann2 []Label
	conf := map[Label]map[Label]int{LabelA: {}, LabelB: {}, LabelTie: {}}
	count1, count2 := map[Label]int{}, map[Label]int{}
	for _, p := range pairs {
		ann1, ann2 = append(ann1, p.Ann1), append(ann2, p.Ann2)
		conf[p.Ann1][p.Ann2]++
		count1[p.Ann1]++
		count2[p.Ann2]++
	}
	check := func(name string, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
	check("ann1 a", count1[LabelA], 10)
	check("ann1 b", count1[LabelB], 11)
	check("ann1 tie", count1[LabelTie], 9)
	check("ann2 a", count2[LabelA], 13)
	check("ann2 b", count2[LabelB], 12)
	check("ann2 tie", count2[LabelTie], 5)
	check("a->a", conf[LabelA][LabelA], 10)
	check("b->b", conf[LabelB][LabelB], 11)
	check("tie->a", conf[LabelTie][LabelA], 3)
	check("tie->b", conf[LabelTie][LabelB], 1)
	check("tie->tie", conf[LabelTie][LabelTie], 5)
	k, _ := kappa(ann1, ann2)
	// (26/30 - 307/900) / (1 - 307/900) = 473/593 = 0.7976...
	if math.Abs(k-473.0/593.0) > 1e-12 || round3(k) != 0.798 {
		t.Errorf("kappa = %v, want 473/593 = 0.798", k)
	}
	// The four disagreements are the guideline hole the lesson describes:
	// three verbose ties where annotator 2 took the shorter answer, one
	// tie pair where they preferred a wording.
	for _, p := range pairs {
		if p.Ann1 == p.Ann2 {
			continue
		}
		shorter := LabelA
		if Words(p.B) < Words(p.A) {
			shorter = LabelB
		}
		if !(p.Kind == "verbose_tie" && p.Ann2 == shorter) && p.Kind != "tie" {
			t.Errorf("%s: unexpected disagreement %s vs %s", p.ID, p.Ann1, p.Ann2)
		}
	}
}

func TestReadPairsErrors(t *testing.T) {
	good := `{"id":"x","question":"q","facts":["f"],"a":"A","b":"B","kind":"tie","lang":"en","ann1":"tie","ann2":"tie","final":"tie"}`
	// Key columns in good, counted by hand from its segments:
	// {"id":"x", (10 chars) "question":"q", (15) "facts":["f"], (14)
	// "a":"A", (8) "b":"B", (8) "kind":"tie", (13) "lang":"en", (12) ...
	// so "facts" opens at 26, "b" at 48, "kind" at 56, "lang" at 69,
	// then "ann1" (13 chars) at 81, "ann2" (13) at 94 and "final" at 107.
	tests := []struct {
		name, input, want string
	}{
		{"syntax", "{\"id\": \"x\",,}", "in.jsonl:1:12: invalid JSON"},
		{"unknown field", strings.Replace(good, `"lang"`, `"language"`, 1), `in.jsonl:1:69: unknown field "language"`},
		{"bad label", strings.Replace(good, `"final":"tie"`, `"final":"A"`, 1), `in.jsonl:1:107 (column "final"): pair "x": final is "A", want a, b or tie`},
		{"bad kind", strings.Replace(good, `"kind":"tie"`, `"kind":"verbose-tie"`, 1), `in.jsonl:1:56 (column "kind"): pair "x": kind "verbose-tie"`},
		// প্রশ্ন is 6 characters in 18 bytes, 5 characters more than q:
		// "kind" opens at character 56+5 = 61 (byte 73, which is what
		// this column was before it counted characters).
		{"bad kind after Bengali", strings.Replace(strings.Replace(good, `"kind":"tie"`, `"kind":"verbose-tie"`, 1), `"q"`, `"প্রশ্ন"`, 1), `in.jsonl:1:61 (column "kind"): pair "x": kind "verbose-tie"`},
		{"missing answer", strings.Replace(good, `"b":"B"`, `"b":""`, 1), `in.jsonl:1:48: pair "x": field "b" is missing or empty`},
		{"no facts", strings.Replace(good, `["f"]`, `[]`, 1), `in.jsonl:1:26: pair "x": field "facts" is missing or empty`},
		{"wrong type", strings.Replace(good, `["f"]`, `"f"`, 1), `in.jsonl:1:26: field "facts": want []string`},
		{"duplicate id", good + "\n\n" + good, `in.jsonl:3:2 (column "id"): duplicate pair id "x" (first on line 1)`},
		{"two values", good + " {}", "in.jsonl:1:"},
		{"empty", "\n\n", "in.jsonl: no pairs"},
		// "a" opens at 40, so its value's A is byte 45 and the bad byte 46;
		// "facts" opens at 26, so the fact's f is byte 36 and the bad byte 37.
		{"invalid UTF-8 in an answer", strings.Replace(good, `"a":"A"`, "\"a\":\"A\xff\"", 1), `in.jsonl:1:46 (column "a"): invalid UTF-8: first bad byte 0xFF`},
		{"invalid UTF-8 in a fact", strings.Replace(good, `["f"]`, "[\"f\xfe\"]", 1), `in.jsonl:1:37 (column "facts"): invalid UTF-8: first bad byte 0xFE`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadPairs(strings.NewReader(tt.input), "in.jsonl")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v, want prefix %q", err, tt.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error is %T, want *ParseError", err)
			}
			if strings.HasPrefix(tt.name, "invalid UTF-8") && !errors.Is(err, ErrInvalidUTF8) {
				t.Errorf("error %v is not ErrInvalidUTF8", err)
			}
		})
	}
	// A byte-order mark and CRLF line ends are accepted.
	if ps, err := ReadPairs(strings.NewReader("\ufeff"+good+"\r\n"), "in.jsonl"); err != nil || len(ps) != 1 {
		t.Errorf("BOM + CRLF: %v, %d pairs", err, len(ps))
	}
}

func TestLabelSetHash(t *testing.T) {
	pairs := loadPairs(t)
	h := LabelSetHash(pairs)
	if len(h) != 12 {
		t.Fatalf("hash %q, want 12 hex digits", h)
	}
	reversed := make([]Pair, len(pairs))
	for i, p := range pairs {
		reversed[len(pairs)-1-i] = p
	}
	if LabelSetHash(reversed) != h {
		t.Error("hash depends on the order of the pairs")
	}
	edits := map[string]func(p *Pair){
		"final":  func(p *Pair) { p.Final = LabelTie },
		"ann2":   func(p *Pair) { p.Ann2 = LabelB },
		"answer": func(p *Pair) { p.A += " " },
		"fact":   func(p *Pair) { p.Facts = append([]string(nil), "x") },
		"note":   func(p *Pair) { p.Note = "unsure" },
	}
	for name, edit := range edits {
		changed := append([]Pair(nil), pairs...)
		edit(&changed[len(changed)-1])
		if LabelSetHash(changed) == h {
			t.Errorf("editing %s does not change the hash", name)
		}
	}
	if LabelSetHash(pairs[:len(pairs)-1]) == h {
		t.Error("dropping a pair does not change the hash")
	}
}

// FuzzReadPairs checks that no input makes the reader panic, and that a
// set it accepts was valid UTF-8 (encoding/json would have put U+FFFD in
// place of bad bytes) and has unique ids, valid labels and kinds, and a
// stable hash.
func FuzzReadPairs(f *testing.F) {
	good := `{"id":"x","question":"q","facts":["f"],"a":"A","b":"B","kind":"tie","lang":"en","ann1":"tie","ann2":"a","final":"tie"}`
	for _, s := range []string{good, good + "\n" + strings.Replace(good, `"x"`, `"y"`, 1), "\ufeff" + good + "\r\n", `{"id":1}`, "{", "", "\n\n", strings.Replace(good, `"tie"`, `"TIE"`, 1), strings.Replace(good, `"q"`, "\"q\xff\"", 1)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		pairs, err := ReadPairs(strings.NewReader(input), "f.jsonl")
		if err != nil {
			return
		}
		if !utf8.ValidString(input) {
			t.Fatalf("accepted input that is not valid UTF-8: %q", input)
		}
		ids := map[string]bool{}
		for _, p := range pairs {
			if ids[p.ID] || !p.Final.valid() || !p.Ann1.valid() || !p.Ann2.valid() || !contains(Kinds, p.Kind) || len(p.Facts) == 0 {
				t.Fatalf("accepted an invalid pair %+v", p)
			}
			ids[p.ID] = true
		}
		// The hash names the set, not its order or its encoding: the
		// pairs reversed, and the pairs written back as JSON Lines and read
		// again, have the same hash (and the reread pairs are equal).
		h := LabelSetHash(pairs)
		if len(h) != 12 || strings.Trim(h, "0123456789abcdef") != "" {
			t.Fatalf("hash %q is not 12 lower-case hex digits", h)
		}
		reversed := slices.Clone(pairs)
		slices.Reverse(reversed)
		if got := LabelSetHash(reversed); got != h {
			t.Fatalf("hash %s of the reversed set differs from %s", got, h)
		}
		var buf bytes.Buffer
		for _, p := range pairs {
			b, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			buf.Write(append(b, '\n'))
		}
		again, err := ReadPairs(&buf, "again.jsonl")
		if err != nil {
			t.Fatalf("rereading the pairs written back: %v", err)
		}
		if !reflect.DeepEqual(again, pairs) || LabelSetHash(again) != h {
			t.Fatalf("written back and reread: %+v (hash %s), want %+v (hash %s)", again, LabelSetHash(again), pairs, h)
		}
	})
}
