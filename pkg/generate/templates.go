package generate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

// Templates is a prompt file: one template per language plus "default",
// the format of datasets/leaderboard/generate_prompts.json.
type Templates struct {
	Version   string              `json:"version"`
	Note      string              `json:"note,omitempty"`
	Templates map[string]Template `json:"templates"`
	// FileHash is the first 12 hex digits of SHA-256 over the bytes
	// ReadTemplates read: the prompt hash a stored generate run records.
	FileHash string `json:"-"`
}

// A Template is a system message and a user message holding {question}.
type Template struct {
	System string `json:"system"`
	User   string `json:"user"`
}

// Hash is the first 12 hex digits of SHA-256 over the version and the
// template: any change to a word is a new prompt (and a new cache key).
func (t Template) Hash(version string) string {
	h := sha256.Sum256([]byte(version + "\x00" + t.System + "\x00" + t.User))
	return hex.EncodeToString(h[:])[:12]
}

// For returns the template of a language, or the "default" one and false
// when the language has none.
func (t *Templates) For(language string) (Template, bool) {
	if tp, ok := t.Templates[language]; ok {
		return tp, true
	}
	return t.Templates["default"], false
}

// ReadTemplates reads a prompt file (JSON, no unknown fields) named name
// in errors. It needs a "default" template, every user message must hold
// {question}, and every other key must be a language textnorm knows; the
// keys are normalised to textnorm's names ("hi" becomes "hindi").
func ReadTemplates(data []byte, name string) (*Templates, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var t Templates
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if _, ok := t.Templates["default"]; !ok {
		return nil, fmt.Errorf("%s: no \"default\" template", name)
	}
	keys := make([]string, 0, len(t.Templates))
	for k := range t.Templates {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	norm := map[string]Template{}
	for _, k := range keys {
		v := t.Templates[k]
		if !strings.Contains(v.User, "{question}") {
			return nil, fmt.Errorf("%s: template %q has no {question} in its user message", name, k)
		}
		if k != "default" {
			l, ok := textnorm.ParseLanguage(k)
			if !ok {
				return nil, fmt.Errorf("%s: template %q is not a language evalbook knows", name, k)
			}
			k = l
		}
		norm[k] = v
	}
	t.Templates = norm
	sum := sha256.Sum256(data)
	t.FileHash = hex.EncodeToString(sum[:])[:12]
	return &t, nil
}
