package results

import "testing"

func TestDisplayName(t *testing.T) {
	for in, want := range map[string]string{
		"":                                 "",
		"responses.csv":                    "responses.csv",
		"/tmp/x123/datasets/responses.csv": "responses.csv",
		"datasets/responses.csv":           "responses.csv",
		`C:\Users\me\run 7\hi_model.jsonl`: "hi_model.jsonl",
		"/home/me/runs/":                   "runs",
		"/":                                "/",
	} {
		if got := DisplayName(in); got != want {
			t.Errorf("DisplayName(%q) = %q, want %q", in, got, want)
		}
	}
}
