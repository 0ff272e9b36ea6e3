package results

import "testing"

func TestInvisible(t *testing.T) {
	// "abc", RLO, "fed", PDF: a reader sees "abcdef". Two controls.
	s := "abc\u202Efed\u202C"
	if n := CountInvisible(s); n != 2 {
		t.Errorf("count %d, want 2", n)
	}
	if got := ShowInvisible(s); got != "abc<U+202E>fed<U+202C>" {
		t.Errorf("shown %q", got)
	}
	// One of each kind named in the code: LRE..RLO (5), LRI..PDI (4),
	// LRM, RLM, ALM, ZWSP, BOM, a C0 and a C1 control: 16.
	all := "\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C\u200B\uFEFF\x07\u0085"
	if n := CountInvisible(all); n != 16 {
		t.Errorf("count %d, want 16", n)
	}
	// Hindi with ZWJ/ZWNJ, tab and line breaks, and a soft hyphen's
	// neighbour é: none of it is a control.
	if n := CountInvisible("क्\u200Dष\u200Cज\tतेरा\r\né"); n != 0 {
		t.Errorf("Indic text counted %d", n)
	}
	w := BidiRowsWarning(2, []int{3, 9}, "the response")
	if w.Code != "bidi_controls" || w.Count != 2 || w.Message[:42] != "2 rows hold bidi or invisible control char" {
		t.Errorf("rows warning %+v", w)
	}
}
