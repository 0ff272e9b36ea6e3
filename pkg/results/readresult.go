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
