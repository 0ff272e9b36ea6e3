package datasets

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// respRow is one parsed row of Responses.
type respRow struct {
	line                         int // line of the record's start in the file
	id, question, answer, domain string
	response, language, model    string
}

// respHeader is the header README.md documents.
var respHeader = []string{"id", "question", "answer", "Domain", "response", "language", "model"}

func respParse(t *testing.T) []respRow {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(Responses))
	header, err := r.Read()
	if err != nil {
		t.Fatalf("%s: %v", ResponsesName, err)
	}
	if strings.Join(header, ",") != strings.Join(respHeader, ",") {
		t.Fatalf("%s: header = %q, want %q", ResponsesName, header, respHeader)
	}
	var rows []respRow
	for {
		f, err := r.Read()
		if err == io.EOF {
			return rows
		}
		if err != nil {
			t.Fatalf("%s: %v", ResponsesName, err)
		}
		line, _ := r.FieldPos(0)
		rows = append(rows, respRow{line: line, id: f[0], question: f[1], answer: f[2], domain: f[3],
			response: f[4], language: f[5], model: f[6]})
	}
}

func respIndex(rows []respRow) map[[2]string]respRow {
	m := make(map[[2]string]respRow, len(rows))
	for _, r := range rows {
		m[[2]string{r.id, r.model}] = r
	}
	return m
}

// respPunct is Python's string.punctuation, the characters the seed's word
// overlap strips from token ends.
const respPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// respExact is the seed-000 exact substring rule, answer.lower() in
// response.lower(), with a blank response scoring false (issue 2).
// strings.ToLower equals Python's str.lower on this file because
// TestResponsesFile checks it holds neither U+0130 nor a capital sigma.
func respExact(golden, resp string) bool {
	if strings.TrimSpace(resp) == "" {
		return false
	}
	return strings.Contains(strings.ToLower(resp), strings.ToLower(golden))
}

func respWords(s string, extraPunct string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(s)) {
		m[strings.Trim(w, respPunct+extraPunct)] = true
	}
	return m
}

// respOverlap is the seed-000 word overlap rule: lower-case, split on
// whitespace, strip ASCII punctuation from token ends, compare as sets.
// extraPunct adds characters to strip (the danda check uses it).
// strings.Fields equals Python's str.split on this file because it holds no
// U+001C-U+001F (checked in TestResponsesFile).
func respOverlap(golden, resp, extraPunct string) (ok bool, matching, total int) {
	g, r := respWords(golden, extraPunct), respWords(resp, extraPunct)
	for w := range g {
		if r[w] {
			matching++
		}
	}
	blank := strings.TrimSpace(resp) == ""
	return !blank && matching == len(g), matching, len(g)
}

func TestResponsesFile(t *testing.T) {
	if !utf8.Valid(Responses) {
		t.Fatalf("%s is not valid UTF-8", ResponsesName)
	}
	if bytes.HasPrefix(Responses, []byte("\xef\xbb\xbf")) {
		t.Errorf("%s starts with a BOM", ResponsesName)
	}
	if bytes.ContainsRune(Responses, '\r') {
		t.Errorf("%s has a CR; README says LF line ends", ResponsesName)
	}
	for _, c := range []rune{'\u0130', 'Σ', '\x1c', '\x1d', '\x1e', '\x1f', '\u0085', '\u00a0', '\u2028', '\u2029'} {
		if bytes.ContainsRune(Responses, c) {
			t.Errorf("%s contains %U, where Go's ToLower/Fields and Python's lower/split differ", ResponsesName, c)
		}
	}
	rows := respParse(t)
	for _, r := range rows {
		for _, f := range []string{r.id, r.question, r.answer, r.domain, r.response, r.language, r.model} {
			if !utf8.ValidString(f) {
				t.Errorf("row %d: invalid UTF-8", r.line)
			}
		}
	}
}

func TestResponsesShape(t *testing.T) {
	rows := respParse(t)
	if len(rows) < 240 {
		t.Fatalf("%d rows, want at least 240", len(rows))
	}
	domainOf := map[string]string{"art": "Art", "hist": "History", "geo": "Geography", "sci": "Science",
		"civ": "Civics", "food": "Food", "help": "Support"}

	// Counts README.md states.
	wantLang := map[string]int{"en": 126, "hi": 88, "bn": 70}
	wantDomain := map[string]int{"Art": 40, "History": 48, "Geography": 44, "Science": 40, "Civics": 40, "Food": 34, "Support": 38}
	wantModel := map[string]int{"kestrel-7b": 142, "tern-13b": 142}
	gotLang, gotDomain, gotModel := map[string]int{}, map[string]int{}, map[string]int{}
	for _, r := range rows {
		gotLang[r.language]++
		gotDomain[r.domain]++
		gotModel[r.model]++
	}
	for _, c := range []struct {
		name      string
		got, want map[string]int
	}{{"language", gotLang, wantLang}, {"Domain", gotDomain, wantDomain}, {"model", gotModel, wantModel}} {
		t.Run(c.name, func(t *testing.T) {
			if fmt.Sprint(c.got) != fmt.Sprint(c.want) { // fmt prints maps sorted by key
				t.Errorf("rows per %s = %v, want %v", c.name, c.got, c.want)
			}
		})
	}

	t.Run("id-model-unique", func(t *testing.T) {
		seen := map[[2]string]int{}
		for _, r := range rows {
			k := [2]string{r.id, r.model}
			if prev, ok := seen[k]; ok {
				t.Errorf("row %d: (%s, %s) repeats row %d", r.line, r.id, r.model, prev)
			}
			seen[k] = r.line
		}
	})

	t.Run("each-question-once-per-model", func(t *testing.T) {
		byID := map[string][]respRow{}
		for _, r := range rows {
			byID[r.id] = append(byID[r.id], r)
		}
		ids := make([]string, 0, len(byID))
		for id := range byID {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			rs := byID[id]
			if len(rs) != 2 || rs[0].model == rs[1].model {
				t.Errorf("%s: %d rows, want one per model", id, len(rs))
				continue
			}
			a, b := rs[0], rs[1]
			if a.question != b.question || a.answer != b.answer || a.domain != b.domain || a.language != b.language {
				t.Errorf("%s: rows %d and %d differ outside response and model", id, a.line, b.line)
			}
			parts := strings.Split(id, "-")
			if len(parts) != 3 || domainOf[parts[0]] != a.domain || parts[1] != a.language {
				t.Errorf("%s: id does not match Domain %q and language %q", id, a.domain, a.language)
			}
			if strings.TrimSpace(a.question) == "" {
				t.Errorf("%s: empty question", id)
			}
		}
	})

	t.Run("empty-golden", func(t *testing.T) {
		var got []string
		for _, r := range rows {
			if r.answer == "" {
				got = append(got, r.id+"/"+r.model)
			}
		}
		want := []string{"help-en-010/kestrel-7b", "help-en-010/tern-13b"}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("empty golden answers %v, want %v", got, want)
		}
	})

	t.Run("blank-responses", func(t *testing.T) {
		empty, space := map[string]int{}, map[string]int{}
		for _, r := range rows {
			switch {
			case r.response == "":
				empty[r.model]++
			case strings.TrimSpace(r.response) == "":
				space[r.model]++
			}
		}
		// README: kestrel-7b 2 empty + 2 whitespace-only, tern-13b 1 + 2.
		if empty["kestrel-7b"] != 2 || space["kestrel-7b"] != 2 || empty["tern-13b"] != 1 || space["tern-13b"] != 2 {
			t.Errorf("blank responses: empty %v, whitespace-only %v", empty, space)
		}
	})
}

func TestResponsesProbes(t *testing.T) {
	rows := respParse(t)
	has := func(name string, pred func(respRow) bool) {
		t.Helper()
		t.Run(name, func(t *testing.T) {
			for _, r := range rows {
				if pred(r) {
					return
				}
			}
			t.Errorf("no row with %s", name)
		})
	}
	for _, p := range []string{"=", "+", "-", "@"} {
		has("response starting with "+p, func(r respRow) bool { return strings.HasPrefix(r.response, p) })
	}
	has("script tag", func(r respRow) bool { return strings.Contains(r.response, "<script>alert(1)</script>") })
	has("newline, comma and double quote", func(r respRow) bool {
		return strings.TrimSpace(r.response) != "" && strings.ContainsAny(r.response, "\n") &&
			strings.Contains(r.response, ",") && strings.Contains(r.response, `"`)
	})
	has("NFD-only response whose NFC form holds the golden answer", func(r respRow) bool {
		return r.answer != "" && !norm.NFC.IsNormalString(r.response) &&
			!respExact(r.answer, r.response) && respExact(r.answer, norm.NFC.String(r.response))
	})
	has("precomposed nukta golden answer matched only after NFC", func(r respRow) bool {
		return strings.ContainsRune(r.answer, '\u0958') && !respExact(r.answer, r.response) &&
			respExact(norm.NFC.String(r.answer), norm.NFC.String(r.response))
	})
	has("golden answer with trailing whitespace", func(r respRow) bool {
		return r.answer != strings.TrimRight(r.answer, " ")
	})
	has("ZWJ or ZWNJ inside a response", func(r respRow) bool { return strings.ContainsAny(r.response, "\u200c\u200d") })
	has("Devanagari digits", func(r respRow) bool { return strings.ContainsAny(r.response, "०१२३४५६७८९") })
	has("Bengali digits", func(r respRow) bool {
		return strings.ContainsAny(r.answer+r.response, "০১২৩৪৫৬৭৮৯")
	})

	// Any text that is not NFC is there on purpose and named in Behaviours.
	t.Run("non-NFC text is listed", func(t *testing.T) {
		named := map[[2]string]bool{}
		for _, b := range Behaviours {
			named[[2]string{b.ID, b.Model}] = true
		}
		for _, r := range rows {
			for _, f := range []string{r.question, r.answer, r.response} {
				if !norm.NFC.IsNormalString(f) && !named[[2]string{r.id, r.model}] {
					t.Errorf("row %d (%s, %s): non-NFC text not named in Behaviours", r.line, r.id, r.model)
				}
			}
		}
	})
}

// TestResponsesBehaviours checks every row of Behaviours against the file and
// the hand-derived verdicts against the seed rules above.
func TestResponsesBehaviours(t *testing.T) {
	idx := respIndex(respParse(t))
	kinds := map[string]int{}
	seen := map[[3]string]bool{}
	for _, b := range Behaviours {
		kinds[b.Kind]++
		t.Run(b.Kind+"/"+b.ID+"/"+b.Model, func(t *testing.T) {
			k3 := [3]string{b.ID, b.Model, b.Kind}
			if seen[k3] {
				t.Errorf("listed twice")
			}
			seen[k3] = true
			r, ok := idx[[2]string{b.ID, b.Model}]
			if !ok {
				t.Fatalf("no such row in %s", ResponsesName)
			}
			if b.Note == "" {
				t.Errorf("empty note")
			}
			if e := respExact(r.answer, r.response); e != b.ExactSubstring {
				t.Errorf("exact_substring: table says %v, seed rule gives %v (golden %q, response %q)", b.ExactSubstring, e, r.answer, r.response)
			}
			o, m, n := respOverlap(r.answer, r.response, "")
			if o != b.WordOverlap || m != b.MatchingWords || n != b.TotalGoldenWords {
				t.Errorf("word_overlap: table says %v %d/%d, seed rule gives %v %d/%d (golden %q, response %q)",
					b.WordOverlap, b.MatchingWords, b.TotalGoldenWords, o, m, n, r.answer, r.response)
			}
			respCheckKind(t, b.Kind, r)
		})
	}
	for _, k := range BehaviourKinds {
		if kinds[k] == 0 {
			t.Errorf("kind %q has no row", k)
		}
		delete(kinds, k)
	}
	for k := range kinds {
		t.Errorf("kind %q is not in BehaviourKinds", k)
	}
}

// respFoldDigits maps Devanagari and Bengali digits to ASCII.
var respFoldDigits = strings.NewReplacer(
	"०", "0", "१", "1", "२", "2", "३", "3", "४", "4", "५", "5", "६", "6", "७", "7", "८", "8", "९", "9",
	"০", "0", "১", "1", "২", "2", "৩", "3", "৪", "4", "৫", "5", "৬", "6", "৭", "7", "৮", "8", "৯", "9",
)

var respDropJoiners = strings.NewReplacer("\u200c", "", "\u200d", "")

// respCheckKind asserts what makes a row an example of its kind, beyond the
// verdicts: for the Indic kinds, that the fix SPEC.md section 5 names (NFC,
// digit folding, danda stripping, joiner removal) turns a miss into a match.
func respCheckKind(t *testing.T, kind string, r respRow) {
	t.Helper()
	blank := strings.TrimSpace(r.response) == ""
	switch kind {
	case "blank":
		if !blank {
			t.Errorf("response %q is not blank", r.response)
		}
	case "empty_golden":
		if r.answer != "" {
			t.Errorf("golden %q is not empty", r.answer)
		}
	case "trailing_space_golden":
		if !strings.HasSuffix(r.answer, " ") {
			t.Errorf("golden %q has no trailing space", r.answer)
		}
		if !respExact(strings.TrimSpace(r.answer), r.response) {
			t.Errorf("stripped golden %q should be in %q", strings.TrimSpace(r.answer), r.response)
		}
	case "case":
		if strings.Contains(r.response, r.answer) || !respExact(r.answer, r.response) {
			t.Errorf("golden %q should match %q only case-insensitively", r.answer, r.response)
		}
	case "nfd":
		a, s := norm.NFC.String(r.answer), norm.NFC.String(r.response)
		if norm.NFC.IsNormalString(r.answer) && norm.NFC.IsNormalString(r.response) {
			t.Errorf("neither side is out of NFC")
		}
		if e, _, _ := respOverlap(a, s, ""); !respExact(a, s) || !e {
			t.Errorf("after NFC, golden %+q should match response %+q under both rules", a, s)
		}
	case "indic_digits":
		a, s := respFoldDigits.Replace(r.answer), respFoldDigits.Replace(r.response)
		if a == r.answer && s == r.response {
			t.Errorf("no Indic digits in golden or response")
		}
		if !respExact(a, s) {
			t.Errorf("after digit folding, golden %q should be in %q", a, s)
		}
	case "danda":
		if !strings.ContainsAny(r.response, "।॥") {
			t.Errorf("no danda in %q", r.response)
		}
		if o, _, _ := respOverlap(r.answer, r.response, "।॥"); !o {
			t.Errorf("with danda stripped at token edges, word overlap should pass")
		}
	case "zwj":
		a, s := respDropJoiners.Replace(r.answer), respDropJoiners.Replace(r.response)
		if a == r.answer && s == r.response {
			t.Errorf("no ZWJ/ZWNJ in golden or response")
		}
		if !respExact(a, s) {
			t.Errorf("without joiners, golden %+q should be in %+q", a, s)
		}
	case "formula":
		if r.response == "" || !strings.ContainsRune("=+-@", rune(r.response[0])) {
			t.Errorf("response %q does not start with = + - @", r.response)
		}
	case "script_tag":
		if !strings.Contains(r.response, "<script>") {
			t.Errorf("no script tag")
		}
	case "multiline":
		if !strings.Contains(r.response, "\n") || !strings.Contains(r.response, ",") || !strings.Contains(r.response, `"`) {
			t.Errorf("response %q lacks a newline, comma or quote", r.response)
		}
	case "negated_mention", "word_boundary_fp", "different_claim", "wrong", "paraphrase", "partial",
		"verbatim", "reordered", "inflected", "inserted":
		if blank {
			t.Errorf("blank response")
		}
	default:
		t.Errorf("unknown kind %q", kind)
	}
}

// TestResponsesAccuracy checks the accuracy figures README.md quotes. They
// were counted with respExact and respOverlap, the seed rules above, whose
// verdicts TestResponsesBehaviours checks against hand-derived ones.
func TestResponsesAccuracy(t *testing.T) {
	type key struct{ model, domain string }
	type count struct{ n, exact, overlap int }
	got := map[key]count{}
	for _, r := range respParse(t) {
		o, _, _ := respOverlap(r.answer, r.response, "")
		for _, k := range []key{{r.model, ""}, {r.model, r.domain}} {
			c := got[k]
			c.n++
			if respExact(r.answer, r.response) {
				c.exact++
			}
			if o {
				c.overlap++
			}
			got[k] = c
		}
	}
	want := map[key]count{
		{"kestrel-7b", ""}: {142, 90, 90}, {"tern-13b", ""}: {142, 97, 94},
		{"kestrel-7b", "Art"}: {20, 13, 9}, {"tern-13b", "Art"}: {20, 16, 12},
		{"kestrel-7b", "Civics"}: {20, 12, 13}, {"tern-13b", "Civics"}: {20, 16, 14},
		{"kestrel-7b", "Food"}: {17, 10, 12}, {"tern-13b", "Food"}: {17, 11, 11},
		{"kestrel-7b", "Geography"}: {22, 13, 15}, {"tern-13b", "Geography"}: {22, 15, 15},
		{"kestrel-7b", "History"}: {24, 13, 14}, {"tern-13b", "History"}: {24, 16, 18},
		{"kestrel-7b", "Science"}: {20, 13, 12}, {"tern-13b", "Science"}: {20, 13, 12},
		{"kestrel-7b", "Support"}: {19, 16, 15}, {"tern-13b", "Support"}: {19, 10, 12},
	}
	if len(got) != len(want) {
		t.Errorf("%d (model, domain) groups, want %d", len(got), len(want))
	}
	for k, w := range want {
		name := k.model + "/" + k.domain
		if k.domain == "" {
			name = k.model + "/combined"
		}
		t.Run(name, func(t *testing.T) {
			if g := got[k]; g != w {
				t.Errorf("n/exact/overlap = %d/%d/%d, README says %d/%d/%d", g.n, g.exact, g.overlap, w.n, w.exact, w.overlap)
			}
		})
	}
}
