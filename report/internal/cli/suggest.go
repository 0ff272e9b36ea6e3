package cli

import (
	"flag"
	"strings"
)

// editDistance is the optimal-string-alignment distance between a and b:
// insertions, deletions, substitutions and swaps of two neighbours each
// cost 1, counted in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// suggest returns the candidate closest to word, or "" when none is close:
// within an edit distance of 1 for words of up to 4 runes, 2 up to 8 and
// 3 beyond; failing that, the one candidate word is a prefix of (at least
// 3 runes typed). Ties go to the candidate listed first.
func suggest(word string, candidates []string) string {
	n := len([]rune(word))
	limit := 1
	switch {
	case n > 8:
		limit = 3
	case n > 4:
		limit = 2
	}
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == word {
			continue
		}
		if d := editDistance(strings.ToLower(word), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" || n < 3 {
		return best
	}
	var prefixed []string
	for _, c := range candidates {
		if c != word && strings.HasPrefix(c, word) {
			prefixed = append(prefixed, c)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	return ""
}

// undefinedFlag is the prefix of the flag package's error for a flag the
// set does not define.
const undefinedFlag = "flag provided but not defined: "

// flagSuggestion returns "; did you mean --X?" when err is the flag
// package's error for an undefined flag and fs defines a flag close to it.
func flagSuggestion(fs *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), undefinedFlag)
	if !ok {
		return ""
	}
	name = strings.TrimLeft(name, "-")
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if _, alias := f.Value.(*aliasValue); !alias {
			names = append(names, f.Name)
		}
	})
	if s := suggest(name, names); s != "" {
		return "; did you mean --" + s + "?"
	}
	return ""
}

// aliasValue is a flag that sets another flag of the same set: --metric
// for --metrics and the reverse. Setting it sets the flag it stands for,
// so fs.Visit sees that flag as given and a repeatable flag collects each
// value once.
type aliasValue struct {
	fs     *flag.FlagSet
	target string
}

func (a *aliasValue) String() string {
	if a == nil || a.fs == nil {
		return ""
	}
	return a.fs.Lookup(a.target).Value.String()
}

func (a *aliasValue) Set(s string) error { return a.fs.Set(a.target, s) }

// IsBoolFlag lets an alias of a boolean flag take no value.
func (a *aliasValue) IsBoolFlag() bool {
	b, ok := a.fs.Lookup(a.target).Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// flagAliases are pairs of spellings one command line may use for the
// same flag: a command that declares one gets the other as an alias,
// unless it declares both (then they mean different things).
var flagAliases = [][2]string{{"metric", "metrics"}}

// addAliases declares, on fs, the other spelling of each flag of
// flagAliases that fs has one spelling of.
func addAliases(fs *flag.FlagSet) {
	for _, pair := range flagAliases {
		for i, name := range pair {
			other := pair[1-i]
			if fs.Lookup(name) != nil && fs.Lookup(other) == nil {
				fs.Var(&aliasValue{fs: fs, target: name}, other, "the same as --"+name)
				break
			}
		}
	}
}
