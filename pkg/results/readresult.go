package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ReadResult decodes a saved result (the JSON of `evalbook score --json`
// or `evalbook judge --json`), naming the file and, for a JSON
// syntax error, the line where it is: a score result, or a judge result
// (its score figures, with llm_judge beside the seed metrics, and its
// review table).
func ReadResult(name string, data []byte) (*Score, []Table, error) {
	var head struct {
		Kind   string          `json:"kind"`
		Score  json.RawMessage `json:"score"`
		Review *Table          `json:"review"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, nil, fmt.Errorf("%s: %s", name, jsonErr(data, err))
	}
	var tables []Table
	switch head.Kind {
	case "score":
	case "judge":
		if len(head.Score) == 0 {
			return nil, nil, fmt.Errorf("%s: a judge result without its score figures", name)
		}
		data = head.Score
		if head.Review != nil {
			tables = append(tables, *head.Review)
		}
	default:
		return nil, nil, fmt.Errorf("%s: a result of kind %q; evalbook report renders score results (from evalbook score --json) and judge results", name, head.Kind)
	}
	res, err := ReadScore(bytes.NewReader(data))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s", name, jsonErr(data, err))
	}
	return res, tables, nil
}

// JSONErrorAt says err, an error of decoding data as JSON, with the
// line and column where it is when err is a syntax or type error, e.g.
// "line 3, column 11: invalid character 'x' looking for beginning of
// value".
func JSONErrorAt(data []byte, err error) string { return jsonErr(data, err) }

// jsonErr adds the line and column to a JSON syntax error.
func jsonErr(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return err.Error()
	}
	// Offset counts the bytes read, the offending one included.
	off = max(off-1, 0)
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}

// KindOf returns the "kind" of a saved result document (every result's
// --json has one), and for an array of results (leaderboard's boards,
// one per metric) the kind every element shares, with array true; ""
// when the document names none. Elements of two kinds are an error, as
// is JSON that does not decode (its line and column named).
func KindOf(data []byte) (kind string, array bool, err error) {
	type head struct {
		Kind string `json:"kind"`
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var heads []head
		if err := json.Unmarshal(data, &heads); err != nil {
			return "", true, errors.New(JSONErrorAt(data, err))
		}
		if len(heads) == 0 {
			return "", true, nil
		}
		for _, h := range heads[1:] {
			if h.Kind != heads[0].Kind {
				return "", true, fmt.Errorf("an array of results of kinds %q and %q", heads[0].Kind, h.Kind)
			}
		}
		return heads[0].Kind, true, nil
	}
	var h head
	if err := json.Unmarshal(data, &h); err != nil {
		return "", false, errors.New(JSONErrorAt(data, err))
	}
	return h.Kind, false, nil
}
