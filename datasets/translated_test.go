package datasets

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// The translated set is what notebook 08 says it is: 20 Hindi rows with
// the header its doc comment gives, unique ids, every cell in NFC, no
// cell blank, the language column hi and the source columns in Latin
// letters (English).
func TestTranslatedHindi(t *testing.T) {
	recs, err := csv.NewReader(bytes.NewReader(TranslatedHindi)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", TranslatedHindiName, err)
	}
	want := "id,source_question,source_answer,question,answer,Domain,response,language,model"
	if got := strings.Join(recs[0], ","); got != want {
		t.Fatalf("%s: header %q, want %q", TranslatedHindiName, got, want)
	}
	if len(recs) != 21 {
		t.Fatalf("%s: %d rows, want 20", TranslatedHindiName, len(recs)-1)
	}
	ids := map[string]bool{}
	for i, r := range recs[1:] {
		line := i + 2
		if ids[r[0]] {
			t.Errorf("%s line %d: id %s repeated", TranslatedHindiName, line, r[0])
		}
		ids[r[0]] = true
		for j, cell := range r {
			if strings.TrimSpace(cell) == "" {
				t.Errorf("%s line %d: column %s is blank", TranslatedHindiName, line, recs[0][j])
			}
			if !norm.NFC.IsNormalString(cell) {
				t.Errorf("%s line %d: column %s is not NFC", TranslatedHindiName, line, recs[0][j])
			}
		}
		if r[7] != "hi" {
			t.Errorf("%s line %d: language %q, want hi", TranslatedHindiName, line, r[7])
		}
		for _, c := range r[1] + r[2] {
			if c >= 0x0900 && c <= 0x097F {
				t.Errorf("%s line %d: the English source holds Devanagari %q", TranslatedHindiName, line, c)
				break
			}
		}
	}
}
