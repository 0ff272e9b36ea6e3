package replay

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/leaderboard"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

func TestKind(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want, err string
	}{
		{"one result", `{"kind":"power","mode":"mde"}`, "power", ""},
		{"no kind", `{"mode":"mde"}`, "", ""},
		{"boards", ` [{"kind":"leaderboard"},{"kind":"leaderboard"}]`, "leaderboard", ""},
		{"empty array", `[]`, "", ""},
		{"array of another kind", `[{"kind":"mc"}]`, "", `saved: an array of results of kind "mc"; only leaderboard's boards come as an array`},
		{"array of two kinds", `[{"kind":"leaderboard"},{"kind":"mc"}]`, "", `saved: an array of results of kinds "leaderboard" and "mc"; report --from takes one result (or leaderboard's boards)`},
		{"not JSON", "{\n\"kind\": power}", "", "saved: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Kind("saved", []byte(tc.doc))
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("Kind: %v", err)
			case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
				t.Fatalf("Kind: error %v, want one starting %q", err, tc.err)
			case got != tc.want:
				t.Errorf("Kind = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestDecodeRoundTrip: a power result (from results.PlanPower) encoded,
// decoded and encoded again gives the same bytes, as report --from --json
// needs.
func TestDecodeRoundTrip(t *testing.T) {
	target := 0.75
	p, err := results.PlanPower(stats.PowerQuery{Baseline: 0.7, Target: &target, Alpha: 0.05, Power: 0.8})
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	kind, err := Kind("p.json", want)
	if err != nil || kind != "power" {
		t.Fatalf("Kind = %q, %v", kind, err)
	}
	r, err := Decode("p.json", kind, want)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.(*results.Power); !ok {
		t.Fatalf("Decode gives a %T, want *results.Power", r)
	}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("decoded and encoded again:\n%s\nwant\n%s", got, want)
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil || text.Len() == 0 {
		t.Errorf("WriteText: %d bytes, %v", text.Len(), err)
	}
}

func TestDecodeLeaderboard(t *testing.T) {
	for _, tc := range []struct {
		doc    string
		boards int
	}{
		{`{"kind":"leaderboard"}`, 1},
		{"\n[{\"kind\":\"leaderboard\"},{\"kind\":\"leaderboard\"}]", 2},
	} {
		r, err := Decode("b.json", "leaderboard", []byte(tc.doc))
		if err != nil {
			t.Fatalf("%s: %v", tc.doc, err)
		}
		if bs, ok := r.(leaderboard.Boards); !ok || len(bs) != tc.boards {
			t.Errorf("%s: Decode gives %T %v, want %d boards", tc.doc, r, r, tc.boards)
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, kind, doc, want string
	}{
		{"unknown field", "power", `{"kind":"power","bogus":1}`, `saved: a power result (power --json) that does not decode: `},
		{"unknown field, command of two words", "label_export", `{"kind":"label_export","bogus":1}`, `saved: a label_export result (label export --json) that does not decode: `},
		{"unknown kind", "nope", `{"kind":"nope"}`, `saved: a result of kind "nope"; evalbook report --from renders the --json of these kinds: aa, agree, `},
		{"no kind", "", `{}`, `saved: a document with no "kind"; `},
		{"score", "score", `{"kind":"score"}`, `saved: a result of kind "score"`},
		{"empty document", "leaderboard", ``, `saved: a leaderboard result (leaderboard --json) that does not decode: `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Decode("saved", tc.kind, []byte(tc.doc))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("Decode = %v, %v; want an error starting %q", r, err, tc.want)
			}
			if tc.name == "unknown field" && !strings.Contains(err.Error(), "bogus") {
				t.Errorf("the error does not name the field: %v", err)
			}
		})
	}
}

func TestKinds(t *testing.T) {
	ks := Kinds()
	if !slices.IsSorted(ks) {
		t.Errorf("Kinds is not sorted: %v", ks)
	}
	for _, k := range ks {
		score := slices.Contains(ScoreKinds, k)
		if Decodable(k) == score {
			t.Errorf("kind %q: Decodable %v, a score kind %v", k, Decodable(k), score)
		}
		if (Command(k) == "") != score {
			t.Errorf("kind %q: command %q", k, Command(k))
		}
	}
	if len(ks) != len(kinds)+len(ScoreKinds) {
		t.Errorf("Kinds has %d entries, want %d", len(ks), len(kinds)+len(ScoreKinds))
	}
	for kind, cmd := range map[string]string{"calibration": "calibrate", "import_check": "import --check", "runs_diff": "runs diff"} {
		if got := Command(kind); got != cmd {
			t.Errorf("Command(%q) = %q, want %q", kind, got, cmd)
		}
	}
}
