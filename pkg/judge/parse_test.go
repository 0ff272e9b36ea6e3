package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

func TestParsePairwise(t *testing.T) {
	tests := []struct {
		name, reply string
		want        Winner
		reason      string // rejection reason, "" when accepted
	}{
		{"contract", `{"winner": "second", "reason": "cites a source"}`, Second, ""},
		{"no reason", `{"winner":"tie"}`, Tie, ""},
		{"reason first", `{"reason": "same facts", "winner": "first"}`, First, ""},
		{"white space", " \n {\"winner\": \"first\"}\n\n", First, ""},
		{"fenced json", "```json\n{\"winner\": \"first\", \"reason\": \"x\"}\n```", First, ""},
		{"fenced plain", "```\n{\"winner\": \"second\"}\n```", Second, ""},
		{"fenced JSON upper", "```JSON\n{\"winner\": \"tie\"}\n```", Tie, ""},
		{"prose", "The second one is better.", "", ReasonNotJSON},
		{"empty", "   ", "", ReasonEmpty},
		{"prose before", `Verdict: {"winner": "first"}`, "", ReasonNotJSON},
		{"prose after", `{"winner": "first"} because it is longer`, "", ReasonTrailing},
		{"two objects", `{"winner": "first"}{"winner": "second"}`, "", ReasonTrailing},
		{"fence with prose", "Here you go:\n```json\n{\"winner\": \"first\"}\n```", "", ReasonNotJSON},
		{"fence other language", "```python\n{\"winner\": \"first\"}\n```", "", ReasonNotJSON},
		{"two fences", "```\n{\"winner\": \"first\"}\n```\n```\n{}\n```", "", ReasonNotJSON},
		{"capitalised value", `{"winner": "First"}`, "", ReasonBadValue},
		{"label instead", `{"winner": "a"}`, "", ReasonBadValue},
		{"number", `{"winner": 1}`, "", ReasonBadValue},
		{"null", `{"winner": null}`, "", ReasonBadValue},
		{"missing", `{"reason": "both fine"}`, "", ReasonMissing},
		{"extra field", `{"winner": "tie", "confidence": 0.9}`, "", ReasonUnknownField},
		{"capitalised key", `{"Winner": "tie"}`, "", ReasonUnknownField},
		{"duplicate", `{"winner": "first", "winner": "second"}`, "", ReasonDuplicate},
		{"reason not string", `{"winner": "first", "reason": ["x"]}`, "", ReasonBadReason},
		{"array", `["first"]`, "", ReasonNotJSON},
		{"truncated", `{"winner": "fir`, "", ReasonNotJSON},
		{"bare word", `first`, "", ReasonNotJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, _, err := ParsePairwise(tt.reply)
			if tt.reason == "" {
				if err != nil || w != tt.want {
					t.Fatalf("ParsePairwise = %q, %v; want %q", w, err, tt.want)
				}
				return
			}
			var re *ReplyError
			if !errors.As(err, &re) || re.Reason != tt.reason {
				t.Fatalf("ParsePairwise = %q, %v; want rejection %q", w, err, tt.reason)
			}
			if w != "" {
				t.Errorf("a rejected reply returned winner %q", w)
			}
		})
	}
}

func TestParseReference(t *testing.T) {
	tests := []struct {
		reply   string
		correct bool
		reason  string
	}{
		{`{"verdict": "correct", "reason": "same year"}`, true, ""},
		{`{"verdict": "incorrect"}`, false, ""},
		{"```json\n{\"verdict\": \"correct\"}\n```", true, ""},
		{`{"verdict": "partially correct"}`, false, ReasonBadValue},
		{`{"winner": "first"}`, false, ReasonUnknownField},
		{`Correct.`, false, ReasonNotJSON},
		{`{"verdict": "correct", "score": 1}`, false, ReasonUnknownField},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			ok, _, err := ParseReference(tt.reply)
			var re *ReplyError
			switch {
			case tt.reason == "" && (err != nil || ok != tt.correct):
				t.Errorf("ParseReference = %v, %v; want %v", ok, err, tt.correct)
			case tt.reason != "" && (!errors.As(err, &re) || re.Reason != tt.reason):
				t.Errorf("ParseReference error %v, want %q", err, tt.reason)
			}
		})
	}
}

// FuzzParsePairwise checks that no reply makes the parser panic, that an
// accepted reply carries one of the three winners, and that the canonical
// form of an accepted verdict parses to the same verdict.
func FuzzParsePairwise(f *testing.F) {
	for _, s := range []string{
		`{"winner": "second", "reason": "cites a source"}`, "The second one is better.",
		"```json\n{\"winner\": \"tie\"}\n```", `{"winner": "first", "winner": "second"}`,
		`{"winner": "first"} trailing`, `{"reason": "x"}`, "", "```\n```", `{"winner":"tie","reason":"\u00e9"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		w, reason, err := ParsePairwise(reply)
		if err != nil {
			var re *ReplyError
			if !errors.As(err, &re) {
				t.Fatalf("error %T is not a *ReplyError", err)
			}
			return
		}
		if w != First && w != Second && w != Tie {
			t.Fatalf("accepted winner %q", w)
		}
		canon, _ := json.Marshal(map[string]string{"winner": string(w), "reason": reason})
		w2, reason2, err := ParsePairwise(string(canon))
		if err != nil || w2 != w || reason2 != reason {
			t.Fatalf("canonical form %s parses to %q %q %v", canon, w2, reason2, err)
		}
	})
}

func ExampleParsePairwise() {
	for _, reply := range []string{`{"winner": "second", "reason": "cites a source"}`, "The second one is better."} {
		w, _, err := ParsePairwise(reply)
		if err != nil {
			fmt.Println("rejected:", err)
			continue
		}
		fmt.Println(w)
	}
	// Output:
	// second
	// rejected: judge reply rejected: not a JSON object
}
