package store

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Row chunks hold ChunkRows rows each, as JSON arrays in TEXT columns: a
// run of a million rows is a few hundred inserts, and the sqlite3 shell
// still reads them (json_each; the views sample and outcome).
const ChunkRows = 4096

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\ufffd"...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendValue appends a verdict: null for NaN (no verdict), else the
// shortest decimal.
func appendValue(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return append(b, "null"...)
	case v == 0:
		return append(b, '0')
	case v == 1:
		return append(b, '1')
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// parseNumbers parses a JSON array of numbers and nulls (null -> NaN),
// appending to dst. It accepts only what the package writes.
func parseNumbers(dst []float64, s string) ([]float64, error) {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '[' {
		return dst, fmt.Errorf("chunk: want a JSON array")
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == ']' {
		return dst, nil
	}
	for {
		j := i
		for j < len(s) && s[j] != ',' && s[j] != ']' && s[j] != ' ' {
			j++
		}
		tok := s[i:j]
		switch tok {
		case "null":
			dst = append(dst, math.NaN())
		case "0":
			dst = append(dst, 0)
		case "1":
			dst = append(dst, 1)
		default:
			x, err := strconv.ParseFloat(tok, 64)
			if err != nil {
				return dst, fmt.Errorf("chunk: bad number %q", tok)
			}
			dst = append(dst, x)
		}
		i = skipSpace(s, j)
		if i >= len(s) {
			return dst, fmt.Errorf("chunk: unterminated array")
		}
		if s[i] == ']' {
			return dst, nil
		}
		i = skipSpace(s, i+1) // the comma
	}
}

// parseInts parses a JSON array of small non-negative integers.
func parseInts(dst []int32, s string) ([]int32, error) {
	xs, err := parseNumbers(nil, s)
	if err != nil {
		return dst, err
	}
	for _, x := range xs {
		if x != math.Trunc(x) || x < 0 || x > math.MaxInt32 {
			return dst, fmt.Errorf("chunk: bad code %v", x)
		}
		dst = append(dst, int32(x))
	}
	return dst, nil
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	return i
}

// parseStrings parses a JSON array of strings, appending to dst; strings
// without escapes are cut from s without decoding, others go through
// encoding/json.
func parseStrings(dst []string, s string) ([]string, error) {
	if strings.IndexByte(s, '\\') >= 0 {
		var out []string
		if err := json.Unmarshal([]byte(s), &out); err != nil {
			return dst, err
		}
		return append(dst, out...), nil
	}
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '[' {
		return dst, fmt.Errorf("chunk: want a JSON array")
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == ']' {
		return dst, nil
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return dst, fmt.Errorf("chunk: want a string at offset %d", i)
		}
		j := strings.IndexByte(s[i+1:], '"')
		if j < 0 {
			return dst, fmt.Errorf("chunk: unterminated string")
		}
		dst = append(dst, s[i+1:i+1+j])
		i = skipSpace(s, i+j+2)
		if i >= len(s) {
			return dst, fmt.Errorf("chunk: unterminated array")
		}
		if s[i] == ']' {
			return dst, nil
		}
		if s[i] != ',' {
			return dst, fmt.Errorf("chunk: want a comma at offset %d", i)
		}
		i = skipSpace(s, i+1)
	}
}
