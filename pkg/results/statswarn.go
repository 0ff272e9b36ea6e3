package results

import (
	"fmt"
	"sort"

	"github.com/evalbook/evalbook/pkg/stats"
)

// FromStats returns the warnings of one interval as result warnings:
// each keeps its stats code and message, prefixed with subject and ": "
// when subject is not empty (the metric the interval belongs to), and
// counts 1. Callers pass the messages on and do not reword them.
func FromStats(subject string, ws []stats.Warning) []Warning {
	out := make([]Warning, 0, len(ws))
	for _, w := range ws {
		out = append(out, Warning{Code: w.Code, Message: prefixed(subject, w.Message), Count: 1})
	}
	return out
}

// IntervalWarnings tallies the warnings of many intervals, one per group
// or cell, so that a result lists each distinct warning once with the
// number of intervals that gave it. The zero value is ready to use.
type IntervalWarnings struct {
	count map[warnKey]int
}

type warnKey struct{ code, message string }

// Add records the warnings of one interval of subject (a metric id, or ""
// for none).
func (t *IntervalWarnings) Add(subject string, ws []stats.Warning) {
	if t.count == nil {
		t.count = map[warnKey]int{}
	}
	for _, w := range ws {
		t.count[warnKey{w.Code, prefixed(subject, w.Message)}]++
	}
}

// Warnings returns one Warning per distinct (subject, code, message),
// sorted by subject and message, with Count the number of intervals that
// gave it. When one is not empty the message ends with that count and
// noun, as " (1 cell)" or " (3 cells)" (one is the singular noun, many
// the plural).
func (t *IntervalWarnings) Warnings(one, many string) []Warning {
	keys := make([]warnKey, 0, len(t.count))
	for k := range t.count {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].message != keys[j].message {
			return keys[i].message < keys[j].message
		}
		return keys[i].code < keys[j].code
	})
	out := make([]Warning, 0, len(keys))
	for _, k := range keys {
		n := t.count[k]
		w := Warning{Code: k.code, Message: k.message, Count: n}
		if one != "" {
			noun := many
			if n == 1 {
				noun = one
			}
			w.Message = fmt.Sprintf("%s (%d %s)", w.Message, n, noun)
		}
		out = append(out, w)
	}
	return out
}

func prefixed(subject, msg string) string {
	if subject == "" {
		return msg
	}
	return subject + ": " + msg
}
