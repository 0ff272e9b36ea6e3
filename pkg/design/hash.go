package design

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
)

// HashLen is the number of hex characters in a dataset hash.
const HashLen = 12

// Hash returns the dataset's content label: the first 12 hex characters of
//
//	SHA-256( sort(line(c) for c in cases) joined by "\n" )
//
// where line(c) is the case as one line of JSON with its fields in a fixed
// order (id, question, task, set, lang, expect, doc_ids, facts, why) and
// absent lists written as []. Sorting the lines makes the hash independent
// of the order of the cases; any change to any field, including the order
// of doc_ids or facts inside a case, a changed space or a different Unicode
// normal form of the same text, changes it. Duplicate records count as many
// times as they occur.
func Hash(cases []Case) string {
	lines := make([][]byte, len(cases))
	for i := range cases {
		lines[i] = canonicalLine(&cases[i])
	}
	sort.Slice(lines, func(i, j int) bool { return bytes.Compare(lines[i], lines[j]) < 0 })
	h := sha256.New()
	for i, l := range lines {
		if i > 0 {
			h.Write([]byte{'\n'})
		}
		h.Write(l)
	}
	return hex.EncodeToString(h.Sum(nil))[:HashLen]
}

func canonicalLine(c *Case) []byte {
	nonNil := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	// A struct, not a map, fixes the field order.
	rec := struct {
		ID       string   `json:"id"`
		Question string   `json:"question"`
		Task     string   `json:"task"`
		Set      string   `json:"set"`
		Lang     string   `json:"lang"`
		Expect   string   `json:"expect"`
		DocIDs   []string `json:"doc_ids"`
		Facts    []string `json:"facts"`
		Why      string   `json:"why"`
	}{c.ID, c.Question, c.Task, c.Set, c.Lang, c.Expect, nonNil(c.DocIDs), nonNil(c.Facts), c.Why}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(rec) // strings and string slices always encode
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
}
