package mc

import "testing"

func TestLetterIndex(t *testing.T) {
	cases := []struct {
		in   string
		want int
		ok   bool
	}{
		{"A", 0, true}, {"b", 1, true}, {"(C)", 2, true}, {"D.", 3, true}, {" [E] ", 4, true},
		{"Answer: B", 1, true}, {"option c", 2, true}, {"1", 0, true}, {"4", 3, true},
		{"०", 0, false}, {"२", 1, true}, {"৩", 2, true}, // Devanagari 2, Bengali 3
		// Devanagari consonants, vowels and the Hindi अ ब स द series.
		{"क", 0, true}, {"ख", 1, true}, {"ग", 2, true}, {"घ", 3, true},
		{"अ", 0, true}, {"आ", 1, true}, {"ब", 1, true}, {"स", 2, true}, {"द", 3, true},
		{"(ग)", 2, true}, {"उत्तर: ख", 1, true},
		// Bengali.
		{"ক", 0, true}, {"খ", 1, true}, {"গ", 2, true}, {"ঘ", 3, true}, {"উত্তর: গ", 2, true},
		// Tamil, Telugu, Kannada, Malayalam, Gujarati, Gurmukhi, Odia.
		{"அ", 0, true}, {"ஆ", 1, true}, {"இ", 2, true}, {"ஈ", 3, true},
		{"అ", 0, true}, {"ఈ", 3, true}, {"ಕ", 0, true}, {"ಘ", 3, true},
		{"എ", 0, true}, {"ബി", 1, true}, {"സി", 2, true}, {"ഡി", 3, true}, {"ക", 0, true},
		{"ક", 0, true}, {"ઘ", 3, true}, {"ੳ", 0, true}, {"ਅ", 1, true}, {"ੲ", 2, true}, {"ਸ", 3, true},
		{"କ", 0, true}, {"ଘ", 3, true},
		{"", 0, false}, {"AB", 0, false}, {"I think it is B", 0, false}, {"नमस्ते", 0, false}, {"0", 0, false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, ok := LetterIndex(c.in)
			if ok != c.ok || ok && got != c.want {
				t.Errorf("LetterIndex(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
			}
		})
	}
}

// No label may mean two positions across the series (letterIndex panics
// at start-up if one did); check the Hindi and Marathi overlap explicitly.
func TestLetterSeriesConsistent(t *testing.T) {
	for _, s := range letterSeries {
		for i, l := range s {
			if got, ok := LetterIndex(l); !ok || got != i {
				t.Errorf("%q is at position %d of its series but LetterIndex gives %d, %v", l, i, got, ok)
			}
		}
	}
	if i, _ := LetterIndex("क"); i != 0 {
		t.Errorf("क = %d; the documented reading is the first option", i)
	}
}

func TestLetter(t *testing.T) {
	if Letter(0) != "A" || Letter(3) != "D" || Letter(25) != "Z" || Letter(26) != "27" {
		t.Errorf("Letter: %q %q %q %q", Letter(0), Letter(3), Letter(25), Letter(26))
	}
}
