package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A ".." that follows a symbolic link is taken where the kernel takes
// it: from the link's target, not lexically. With l a link to a/b, the
// output l/../input.csv is a/input.csv, the input (lexically it would be
// input.csv beside l, another file). TestOutputGuardEveryCommand's
// "dotdot" case goes through a real folder, where both readings agree;
// this one tells a guard that cleans the path as text from one that
// asks the file system. The decoy at the lexical place shows which
// file the command would have written.
func TestOutputGuardDotDotAfterLink(t *testing.T) {
	for _, tc := range []struct {
		name string
		args func(in, out string) []string
		in   string // how the refusal names the input
	}{
		{"score --xlsx", func(in, out string) []string { return []string{"score", "--responses", in, "--xlsx", out} }, "--responses"},
		{"score --html", func(in, out string) []string { return []string{"score", "--responses", in, "--html", out} }, "--responses"},
		{"import --out", func(in, out string) []string { return []string{"import", in, "--out", out} }, "argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join("a", "b"), filepath.Join(dir, "l")); err != nil {
				t.Fatal(err)
			}
			in := filepath.Join(dir, "a", "input.csv")
			body := []byte("id,question,answer,response\n1,q,a,a\n")
			decoy := filepath.Join(dir, "input.csv")
			for _, p := range []string{in, decoy} {
				if err := os.WriteFile(p, body, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out := dir + "/l/../input.csv"
			if filepath.Clean(out) != decoy {
				t.Fatalf("lexically %s is %s, want the decoy %s", out, filepath.Clean(out), decoy)
			}
			before := fingerprint(t, in)
			args := tc.args(in, out)
			_, stderr, code := runCLI(t, args...)
			if code != 2 || !strings.Contains(stderr, "is the input") || !strings.Contains(stderr, tc.in) {
				t.Errorf("%q: exit %d, %s; want exit 2 naming %s", args, code, stderr, tc.in)
			}
			if fingerprint(t, in) != before {
				t.Errorf("%q: the input changed", args)
			}
		})
	}
}
