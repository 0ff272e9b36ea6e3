package tasks

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// fewshotRNG is the generator of one item's few-shot draw: seeded by the
// run's seed, the task, the language and the item's id, so the draw is the
// same for every model, every run and every shard.
func fewshotRNG(seed int64, t *Task, lang, id string) *rand.Rand {
	h := sha256.Sum256([]byte("evalbook-fewshot\x00" + strconv.FormatInt(seed, 10) + "\x00" + t.Suite + "\x00" + t.Name + "\x00" + lang + "\x00" + id))
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(h[:8]), binary.LittleEndian.Uint64(h[8:16])))
}

// below returns a uniform integer in [0, n) by rejection, so that the draw
// depends only on the PCG stream, which is fixed by its algorithm.
func below(r *rand.Rand, n int) int {
	u := uint64(n)
	limit := ^uint64(0) - (^uint64(0) % u)
	for {
		if x := r.Uint64(); x < limit {
			return int(x % u)
		}
	}
}

func shuffle(r *rand.Rand, xs []int) {
	for i := len(xs) - 1; i > 0; i-- {
		j := below(r, i+1)
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// SelectFewshot returns the indices into pool of the n examples for item
// id: "first" takes the first n; "random" a seeded random n; "balanced"
// draws round-robin over the labels (each label's examples in a seeded
// order, the labels in a seeded order) and then shuffles the chosen. Fewer
// than n come back when the pool is smaller.
func SelectFewshot(pool []Item, n int, method string, seed int64, t *Task, lang, id string) []int {
	n = min(n, len(pool))
	if n == 0 {
		return nil
	}
	idx := make([]int, len(pool))
	for i := range idx {
		idx[i] = i
	}
	if method == "first" {
		return idx[:n]
	}
	r := fewshotRNG(seed, t, lang, id)
	if method != "balanced" {
		shuffle(r, idx)
		return idx[:n]
	}
	groups := map[string][]int{}
	for i, it := range pool {
		groups[it.Label] = append(groups[it.Label], i)
	}
	labels := make([]string, 0, len(groups))
	for l := range groups {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	order := make([]int, len(labels))
	for i := range order {
		order[i] = i
	}
	shuffle(r, order)
	for _, l := range labels {
		shuffle(r, groups[l])
	}
	var out []int
	for round := 0; len(out) < n; round++ {
		for _, o := range order {
			if g := groups[labels[o]]; round < len(g) && len(out) < n {
				out = append(out, g[round])
			}
		}
	}
	shuffle(r, out)
	return out
}

// render fills a template: {column} with the row's column, {choices} with
// the lettered choices one per line, {letters} with "A, B, C"; "{{" is
// a literal brace.
func render(tpl string, it *Item, letters []string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(tpl); {
		c := tpl[i]
		if c == '{' && i+1 < len(tpl) && tpl[i+1] == '{' {
			b.WriteByte('{')
			i += 2
			continue
		}
		if c == '}' && i+1 < len(tpl) && tpl[i+1] == '}' {
			b.WriteByte('}')
			i += 2
			continue
		}
		if c != '{' {
			b.WriteByte(c)
			i++
			continue
		}
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("template: unclosed { at byte %d", i)
		}
		key := tpl[i+1 : i+j]
		switch key {
		case "choices":
			for k, ch := range it.Choices {
				if k > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(letters[k] + ". " + ch)
			}
		case "letters":
			b.WriteString(strings.Join(letters[:len(it.Choices)], ", "))
		default:
			v, ok := it.Fields[key]
			if !ok {
				return "", fmt.Errorf("template: {%s} is not a column of the data", key)
			}
			b.WriteString(v)
		}
		i += j + 1
	}
	return b.String(), nil
}

// target is what follows an example's rendering in a few-shot prompt,
// after the target prefix: the gold choice's text (mc_loglik), its letter
// (mc_letter), the golden answer (generative).
func target(t *Task, it *Item, letters []string) string {
	switch t.Kind {
	case KindLoglik:
		return it.Choices[it.Gold]
	case KindLetter:
		return letters[it.Gold]
	}
	return it.Golden
}

// built is an item's prompt: the context (instruction, examples, the
// item), the few-shot example ids actually used, and for mc_loglik the
// continuations scored.
type built struct {
	context       string
	fewshot       []string
	continuations []string
}

func build(t *Task, lang string, spec Spec, d *Data, it *Item, seed int64) (built, error) {
	l := t.Languages[lang]
	letters := l.letters(max(len(it.Choices), 26))
	query, err := render(l.Template, it, letters)
	if err != nil {
		return built{}, err
	}
	var b built
	if t.Kind == KindLoglik {
		for _, ch := range it.Choices {
			b.continuations = append(b.continuations, l.prefix()+ch)
		}
	}
	picks := SelectFewshot(d.Fewshot, spec.Shots, t.FewshotSelection, seed, t, lang, it.ID)
	examples := make([]string, len(picks))
	for i, p := range picks {
		ex := &d.Fewshot[p]
		exLetters := l.letters(max(len(ex.Choices), 26))
		s, err := render(l.Template, ex, exLetters)
		if err != nil {
			return built{}, err
		}
		examples[i] = s + l.prefix() + target(t, ex, exLetters)
	}
	longest := 0
	for _, c := range b.continuations {
		longest = max(longest, utf8.RuneCountInString(c))
	}
	for {
		var sb strings.Builder
		if l.Instruction != "" {
			sb.WriteString(l.Instruction)
			sb.WriteString(l.sep())
		}
		for _, e := range examples {
			sb.WriteString(e)
			sb.WriteString(l.sep())
		}
		sb.WriteString(query)
		b.context = sb.String()
		if !spec.Truncate || t.MaxPromptChars == 0 || len(examples) == 0 || utf8.RuneCountInString(b.context)+longest <= t.MaxPromptChars {
			break
		}
		examples = examples[:len(examples)-1]
	}
	for _, p := range picks[:len(examples)] {
		b.fewshot = append(b.fewshot, d.Fewshot[p].ID)
	}
	return b, nil
}
