package main

import (
	"os"
	"strings"
	"testing"
)

// TestDocExamples runs every "$ evalbook ..." example in doc.go and checks
// that the output printed there is what the command prints (trailing
// spaces aside; the doc may stop before the end of the output).
func TestDocExamples(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	n := 0
	for i := 0; i < len(lines); i++ {
		cmd, ok := strings.CutPrefix(lines[i], "\t$ evalbook ")
		if !ok {
			continue
		}
		var want []string
		for j := i + 1; j < len(lines) && strings.HasPrefix(lines[j], "\t") || j < len(lines) && lines[j] == "" && j+1 < len(lines) && strings.HasPrefix(lines[j+1], "\t") && !strings.HasPrefix(lines[j+1], "\t$"); j++ {
			want = append(want, strings.TrimPrefix(lines[j], "\t"))
		}
		n++
		args := splitArgs(cmd)
		t.Run(cmd, func(t *testing.T) {
			out, errs, code := runCLI(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			got := strings.Split(out, "\n")
			for k, w := range want {
				if k >= len(got) {
					t.Fatalf("output has %d lines, the doc shows %d", len(got), len(want))
				}
				if strings.TrimRight(got[k], " ") != strings.TrimRight(w, " ") {
					t.Errorf("line %d:\n got %q\nwant %q", k+1, got[k], w)
				}
			}
		})
	}
	if n < 2 {
		t.Fatalf("found %d examples in doc.go", n)
	}
}

// splitArgs splits a command line on spaces, honouring double quotes.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, any := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
			any = true
		case r == ' ' && !quoted:
			if any {
				out = append(out, cur.String())
			}
			cur.Reset()
			any = false
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, cur.String())
	}
	return out
}
