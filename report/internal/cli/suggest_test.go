package cli

import (
	"context"
	"flag"
	"io"
	"strings"
	"testing"
)

// Distances counted by hand: one edit each for a dropped, an added, a
// changed and a swapped letter; "kitten"/"sitting" is the textbook 3.
func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"score", "score", 0},
		{"scor", "score", 1},
		{"scoree", "score", 1},
		{"scare", "score", 1},
		{"scroe", "score", 1},
		{"kitten", "sitting", 3},
		{"", "abc", 3},
		{"हिन्दी", "हिंदी", 2}, // runes, not bytes: न् (2 runes) against ं (1): a change and a drop
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	commands := []string{"agree", "compare", "gate", "import", "runs", "score", "task"}
	for _, c := range []struct{ word, want string }{
		{"scroe", "score"},
		{"improt", "import"},
		{"compre", "compare"},
		{"gaet", "gate"},
		{"xyzzy", ""},       // nothing close
		{"sc", ""},          // too short to guess from
		{"comp", "compare"}, // a unique prefix
		{"score", ""},       // the word itself is no suggestion
	} {
		if got := suggest(c.word, commands); got != c.want {
			t.Errorf("suggest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

// A mistyped command, subcommand or flag is a usage error that names the
// closest one; a word close to nothing gets no guess.
func TestDidYouMean(t *testing.T) {
	var got seen
	a := testApp(t, &got, nil)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"onr"}, `unknown command "onr"; did you mean "one"?`},
		{[]string{"stord"}, `did you mean "stored"?`},
		{[]string{"pair", "c"}, `unknown subcommand "c" of pair (known: a, b); did you mean "pair a"?`},
		{[]string{"zzzzzz"}, `unknown command "zzzzzz" (see evalbook --help)`},
	} {
		err := a.Run(context.Background(), c.args, strings.NewReader(""), io.Discard, io.Discard)
		if ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want a usage error containing %q", c.args, err, c.want)
		}
	}
	declare := func(fs *flag.FlagSet) {
		fs.String("responses", "", "")
		fs.String("metrics", "", "")
		fs.Bool("json", false, "")
	}
	for _, c := range []struct {
		arg, want string
	}{
		{"--respones=x", "did you mean --responses?"},
		{"--jsno", "did you mean --json?"},
		{"--metrix=a", "did you mean --metrics?"}, // the flag, not its alias --metric
		{"--nothing-like-it", "(see evalbook cmd --help)"},
	} {
		err := parse(declare, c.arg)
		if ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a usage error containing %q", c.arg, err, c.want)
		}
		if strings.Contains(c.want, "see evalbook") && strings.Contains(err.Error(), "did you mean") {
			t.Errorf("%s: %v guesses where nothing is close", c.arg, err)
		}
	}
}

// --metric and --metrics are one flag wherever a command declares one of
// them: the alias sets the declared flag (so it counts as given, and a
// repeatable flag gets each value once). A command that declares both
// keeps them apart.
func TestMetricAliases(t *testing.T) {
	for _, c := range []struct {
		declared, given string
	}{
		{"metrics", "--metric"},
		{"metrics", "--metrics"},
		{"metric", "--metrics"},
		{"metric", "--metric"},
	} {
		e, _, _ := env(c.given, "exact_match")
		fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
		v := fs.String(c.declared, "default", "")
		if _, err := ParseFlags(e, fs, WordArgs); err != nil {
			t.Fatalf("%s declared, %s given: %v", c.declared, c.given, err)
		}
		given := false
		fs.Visit(func(f *flag.Flag) { given = given || f.Name == c.declared })
		if *v != "exact_match" || !given {
			t.Errorf("%s declared, %s given: value %q, counted as given %v", c.declared, c.given, *v, given)
		}
	}

	// A repeatable --metric (runs diff) given as --metrics twice.
	e, _, _ := env("--metrics", "a", "--metric", "b")
	fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
	var m MultiFlag
	fs.Var(&m, "metric", "")
	if _, err := ParseFlags(e, fs, WordArgs); err != nil || strings.Join(m, ",") != "a,b" {
		t.Errorf("repeatable: %v, %v; want a,b", m, err)
	}

	// Both declared: two flags, no alias between them.
	e, _, _ = env("--metric", "x", "--metrics", "y,z")
	fs = flag.NewFlagSet("cmd", flag.ContinueOnError)
	one, many := fs.String("metric", "", ""), fs.String("metrics", "", "")
	if _, err := ParseFlags(e, fs, WordArgs); err != nil || *one != "x" || *many != "y,z" {
		t.Errorf("both declared: metric %q metrics %q (%v)", *one, *many, err)
	}

	// The alias is listed in --help.
	e, out, _ := env("--help")
	fs = flag.NewFlagSet("cmd", flag.ContinueOnError)
	fs.String("metrics", "", "metric `ids`")
	fs.Usage = func() { fs.PrintDefaults() }
	if _, err := ParseFlags(e, fs, WordArgs); err != ErrHelp || !strings.Contains(out.String(), "the same as --metrics") {
		t.Errorf("help: %v\n%s", err, out)
	}
}
