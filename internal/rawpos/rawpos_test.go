package rawpos

import (
	"bytes"
	"testing"
)

func TestJSONKeyAt(t *testing.T) {
	line := []byte(`{"a": "x", "b": {"c": [1, "yy"]}, "d": 2, "e": "` + "\xff" + `"}`)
	for _, c := range []struct {
		name string
		off  int
		want string
	}{
		{"in the first value", bytes.IndexByte(line, 'x'), "a"},
		{"in a nested array", bytes.Index(line, []byte("yy")), "b"},
		{"in a key", bytes.IndexByte(line, 'd'), "d"},
		{"a bad byte in a value", bytes.IndexByte(line, 0xff), "e"},
		{"past the object", len(line), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := JSONKeyAt(line, c.off); got != c.want {
				t.Errorf("JSONKeyAt(%d) = %q, want %q", c.off, got, c.want)
			}
		})
	}
	if got := JSONKeyAt([]byte(`[1, 2]`), 1); got != "" {
		t.Errorf("an array has no keys, got %q", got)
	}
}

func TestInvalidUTF8(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"", -1},
		{"plain", -1},
		{"হিন্দি", -1},
		{"ab\xffc", 2},
		{"ক\xe0\xa6", 3},        // a truncated sequence after one Bengali letter (3 bytes)
		{"\xed\xa0\x80", 0},     // a UTF-16 surrogate encoded in UTF-8
		{"\xc0\xaf", 0},         // an overlong encoding of '/'
		{"ok\U0001F600\xfe", 6}, // after a four-byte rune
	} {
		if got := InvalidUTF8([]byte(c.in)); got != c.want {
			t.Errorf("InvalidUTF8(%+q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// TestCSVBadByte: the character column of a bad byte in a CSV field.
// Line 2 of the data is `2,भारत की,` then 0xFF: before the bad byte come
// "2", ",", the 7 characters of भारत की and "," (10 characters), so the
// column is 11, where the field starts at byte column 1+1+19+1 = 22
// (भारत की is 19 bytes).
func TestCSVBadByte(t *testing.T) {
	data := []byte("id,q,x\n2,भारत की,\xff1\n")
	line, col, ok := CSVBadByte(data, 2, 22, 0xff)
	if !ok || line != 2 || col != 11 {
		t.Errorf("CSVBadByte = %d:%d %v, want 2:11", line, col, ok)
	}
	if _, _, ok := CSVBadByte(data, 2, 22, 0xfe); ok {
		t.Error("a different bad byte than the field's must not be placed")
	}
	if _, _, ok := CSVBadByte(data, 9, 1, 0xff); ok {
		t.Error("a line past the data must not be placed")
	}
}
