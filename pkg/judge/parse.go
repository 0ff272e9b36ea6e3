package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// A ReplyError says why a judge's reply is not a verdict. Reason is a
// short fixed phrase, suitable for counting replies by reason.
type ReplyError struct {
	Reason string
}

func (e *ReplyError) Error() string { return "judge reply rejected: " + e.Reason }

// Reasons a reply is rejected.
const (
	ReasonEmpty        = "empty reply"
	ReasonNotJSON      = "not a JSON object"
	ReasonTrailing     = "text outside the JSON object"
	ReasonDuplicate    = "a field occurs twice"
	ReasonUnknownField = "a field outside the contract"
	ReasonMissing      = "the verdict field is missing"
	ReasonBadValue     = "the verdict is not one of the allowed values"
	ReasonBadReason    = "reason is not a string"
)

// ParsePairwise parses a pairwise judge's reply. Only the contract is a
// verdict: one JSON object with "winner" set to "first", "second" or
// "tie" (lower case) and optionally "reason", a string, and nothing else.
// Surrounding white space is allowed, and so is one Markdown code fence
// around the whole object (``` or ```json). Anything else, "The second
// one is better." included, is rejected with a *ReplyError; a reply is
// never guessed at.
func ParsePairwise(reply string) (winner Winner, reason string, err error) {
	v, reason, err := parseContract(reply, "winner")
	if err != nil {
		return "", "", err
	}
	switch w := Winner(v); w {
	case First, Second, Tie:
		return w, reason, nil
	}
	return "", "", &ReplyError{ReasonBadValue}
}

// ParseReference parses a reference judge's reply under the same rules as
// ParsePairwise, with the contract
// {"verdict": "correct"|"incorrect", "reason": "..."}.
func ParseReference(reply string) (correct bool, reason string, err error) {
	v, reason, err := parseContract(reply, "verdict")
	if err != nil {
		return false, "", err
	}
	switch v {
	case "correct":
		return true, reason, nil
	case "incorrect":
		return false, reason, nil
	}
	return false, "", &ReplyError{ReasonBadValue}
}

// parseContract returns the string value of field and the optional reason
// from a reply that is exactly {field: string, reason?: string}.
func parseContract(reply, field string) (value, reason string, err error) {
	s := strings.TrimSpace(reply)
	if s == "" {
		return "", "", &ReplyError{ReasonEmpty}
	}
	s = unfence(s)
	if !strings.HasPrefix(s, "{") {
		return "", "", &ReplyError{ReasonNotJSON}
	}
	dec := json.NewDecoder(strings.NewReader(s))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", "", &ReplyError{ReasonNotJSON}
	}
	seen := map[string]bool{}
	var haveValue bool
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return "", "", &ReplyError{ReasonNotJSON}
		}
		key, _ := t.(string)
		if seen[key] {
			return "", "", &ReplyError{ReasonDuplicate}
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return "", "", &ReplyError{ReasonNotJSON}
		}
		var str string
		isString := len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &str) == nil
		switch key {
		case field:
			if !isString {
				return "", "", &ReplyError{ReasonBadValue}
			}
			value, haveValue = str, true
		case "reason":
			if !isString {
				return "", "", &ReplyError{ReasonBadReason}
			}
			reason = str
		default:
			return "", "", &ReplyError{ReasonUnknownField}
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return "", "", &ReplyError{ReasonNotJSON}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return "", "", &ReplyError{ReasonTrailing}
	}
	// The decoder accepts some white space the check above cannot see
	// after the object; anything left must be white space.
	if rest := s[dec.InputOffset():]; len(bytes.TrimSpace([]byte(rest))) != 0 {
		return "", "", &ReplyError{ReasonTrailing}
	}
	if !haveValue {
		return "", "", &ReplyError{ReasonMissing}
	}
	return value, reason, nil
}

// unfence removes one Markdown code fence around the whole of s (its
// opening line ``` or ```json, its closing line ```); any other s is
// returned unchanged, so text around a fence is still rejected.
func unfence(s string) string {
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s
	}
	first, body, ok := strings.Cut(s, "\n")
	if !ok {
		return s
	}
	if lang := strings.TrimSpace(strings.TrimPrefix(first, "```")); lang != "" && !strings.EqualFold(lang, "json") {
		return s
	}
	body = strings.TrimSuffix(body, "```")
	if strings.Contains(body, "```") {
		return s
	}
	return strings.TrimSpace(body)
}
