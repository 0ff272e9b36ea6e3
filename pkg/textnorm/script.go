package textnorm

import (
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/fasttext"
	"golang.org/x/text/unicode/norm"
)

// A Script is a writing system that ScriptOf can recognise. The zero
// value, NoScript, means the text has no letters, or letters of no script
// listed here.
type Script string

// The scripts ScriptOf recognises: Latin and the nine major Indic scripts.
const (
	NoScript   Script = ""
	Latin      Script = "Latin"
	Devanagari Script = "Devanagari"
	Bengali    Script = "Bengali" // also written for Assamese
	Gurmukhi   Script = "Gurmukhi"
	Gujarati   Script = "Gujarati"
	Odia       Script = "Odia" // Unicode's name is Oriya
	Tamil      Script = "Tamil"
	Telugu     Script = "Telugu"
	Kannada    Script = "Kannada"
	Malayalam  Script = "Malayalam"
)

// Scripts lists the recognised scripts in the order ScriptOf breaks ties.
var Scripts = []Script{Latin, Devanagari, Bengali, Gurmukhi, Gujarati, Odia, Tamil, Telugu, Kannada, Malayalam}

var scriptTables = map[Script]*unicode.RangeTable{
	Latin: unicode.Latin, Devanagari: unicode.Devanagari, Bengali: unicode.Bengali,
	Gurmukhi: unicode.Gurmukhi, Gujarati: unicode.Gujarati, Odia: unicode.Oriya,
	Tamil: unicode.Tamil, Telugu: unicode.Telugu, Kannada: unicode.Kannada, Malayalam: unicode.Malayalam,
}

// indicBlock maps the 128-code-point blocks U+0900 to U+0D7F, one per
// Indic script, to their script, so that ScriptOf needs no table search
// for Indic text.
var indicBlock = [...]Script{Devanagari, Bengali, Gurmukhi, Gujarati, Odia, Tamil, Telugu, Kannada, Malayalam}

// scriptOfRune returns the script of a letter or combining mark r, or
// NoScript for anything else (digits, punctuation, danda, whitespace).
func scriptOfRune(r rune) Script {
	if r < utf8.RuneSelf {
		if 'a' <= r|0x20 && r|0x20 <= 'z' {
			return Latin
		}
		return NoScript
	}
	if !unicode.IsLetter(r) && !unicode.IsMark(r) {
		return NoScript
	}
	if r >= 0x0900 && r < 0x0D80 {
		s := indicBlock[(r-0x0900)>>7]
		if unicode.Is(scriptTables[s], r) {
			return s
		}
		return NoScript
	}
	if unicode.Is(unicode.Latin, r) {
		return Latin
	}
	// Vedic extensions and Devanagari Extended belong to Devanagari.
	if unicode.Is(unicode.Devanagari, r) {
		return Devanagari
	}
	return NoScript
}

// ScriptOf returns the script that most of the letters of s are written
// in, counting letters (\p{L}) and combining marks (\p{M}, the matras and
// the virama) of the recognised scripts. Digits, punctuation (the danda
// U+0964 is in the Common script) and whitespace do not count. A tie
// goes to the script listed first in Scripts; NoScript is returned when s
// has no letter of a recognised script.
//
// The script is not the language: Devanagari is Hindi, Marathi, Nepali
// or Sanskrit, Bengali script is Bengali or Assamese, and Latin is any
// number of languages. See LanguageOfScript.
func ScriptOf(s string) Script {
	var counts [16]int
	index := func(sc Script) int {
		for i, x := range Scripts {
			if x == sc {
				return i
			}
		}
		return -1
	}
	for _, r := range s {
		if sc := scriptOfRune(r); sc != NoScript {
			counts[index(sc)]++
		}
	}
	best, bestN := NoScript, 0
	for i, sc := range Scripts {
		if counts[i] > bestN {
			best, bestN = sc, counts[i]
		}
	}
	return best
}

// Languages lists the canonical language names LanguageFromFileName and
// ParseLanguage return, with their ISO 639-1 codes and usual script.
var Languages = []struct {
	Name   string
	Code   string
	Script Script
}{
	{"english", "en", Latin},
	{"hindi", "hi", Devanagari},
	{"marathi", "mr", Devanagari},
	{"nepali", "ne", Devanagari},
	{"sanskrit", "sa", Devanagari},
	{"bengali", "bn", Bengali},
	{"assamese", "as", Bengali},
	{"punjabi", "pa", Gurmukhi},
	{"gujarati", "gu", Gujarati},
	{"odia", "or", Odia},
	{"tamil", "ta", Tamil},
	{"telugu", "te", Telugu},
	{"kannada", "kn", Kannada},
	{"malayalam", "ml", Malayalam},
}

// languageAliases are other spellings users write for a language.
var languageAliases = map[string]string{
	"bangla": "bengali", "oriya": "odia", "panjabi": "punjabi", "eng": "english",
	"hin": "hindi", "ben": "bengali", "tam": "tamil", "tel": "telugu", "mar": "marathi",
	"kan": "kannada", "mal": "malayalam", "guj": "gujarati", "pan": "punjabi", "ori": "odia", "ory": "odia",
}

// ParseLanguage returns the canonical name of a language given by name,
// ISO 639-1 or 639-2/3 code or common alias, case-insensitively ("Hindi",
// "hi", "hin" and "HINDI" are all "hindi"; "bangla" is "bengali"). It
// reports false for anything else.
func ParseLanguage(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if a, ok := languageAliases[s]; ok {
		return a, true
	}
	for _, l := range Languages {
		if s == l.Name || s == l.Code {
			return l.Name, true
		}
	}
	return "", false
}

// LanguageFromFileName splits a per-language response file name of the
// form <model>_<language>.<ext> (the layout of per-language result
// directories) into the model and the canonical language name. The
// language is the part after the last underscore and must be one
// ParseLanguage knows, so model names may contain underscores
// ("llama_3_8b_hindi.csv" is model "llama_3_8b", language "hindi"). Any
// directory part is ignored. It reports false when the name has no
// underscore or the last part is not a language.
func LanguageFromFileName(name string) (model, language string, ok bool) {
	base := filepath.Base(name)
	if ext := filepath.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	i := strings.LastIndexByte(base, '_')
	if i <= 0 || i == len(base)-1 {
		return "", "", false
	}
	lang, ok := ParseLanguage(base[i+1:])
	if !ok {
		return "", "", false
	}
	return base[:i], lang, true
}

// LanguageOfScript names the language a text in script sc is taken to
// be in when nothing else says, and whether that guess is ambiguous:
// Devanagari gives "hindi" (ambiguous: also Marathi, Nepali, Sanskrit),
// Bengali gives "bengali" (ambiguous: also Assamese), Latin gives
// "english" (ambiguous), and each other Indic script its one major
// language (Gurmukhi "punjabi", Odia "odia", and so on). NoScript gives
// ("", true).
func LanguageOfScript(sc Script) (language string, ambiguous bool) {
	n := 0
	for _, l := range Languages {
		if l.Script == sc {
			if n == 0 {
				language = l.Name
			}
			n++
		}
	}
	if sc == Latin {
		return language, true
	}
	return language, n != 1
}

// Words returns the words of s: maximal runs of letters, combining marks
// and numbers ([\p{L}\p{M}\p{N}]+), so that vowel signs (matras) and the
// virama stay inside their word, and the danda, other punctuation,
// symbols and whitespace separate words. A zero-width joiner or non-joiner
// (U+200D, U+200C) between two word characters is part of the word (it
// is part of the spelling of some conjuncts and chillus); anywhere else it
// separates. Words does not change case or normalise: it returns
// substrings of s.
func Words(s string) []string {
	var out []string
	for _, sp := range fasttext.WordSpans(s, nil) {
		out = append(out, s[sp[0]:sp[1]])
	}
	return out
}

// IsWordRune reports whether r is a letter, a combining mark or a number:
// the characters Words keeps together.
func IsWordRune(r rune) bool {
	return fasttext.IsWordRune(r)
}

// UnifyNukta returns s with every nukta consonant spelled one way, so
// that the precomposed and the decomposed spellings compare equal. It is
// NFC, and NFC is enough, for two reasons that differ by letter:
//
//   - The nukta letters Unicode excludes from composition (Devanagari
//     क़ ख़ ग़ ज़ ड़ ढ़ फ़ य़, U+0958 to U+095F; Bengali ড় ঢ় য়, U+09DC,
//     U+09DD, U+09DF; Gurmukhi ਲ਼ ਸ਼ ਖ਼ ਗ਼ ਜ਼ ਫ਼; Odia ଡ଼ ଢ଼) are
//     decomposed by NFC into base consonant + nukta (U+093C, U+09BC, ...),
//     which is how most keyboards type them anyway.
//   - The others (Devanagari ऩ ऱ ऴ, U+0929, U+0931, U+0934) compose: NFC
//     turns न + nukta into U+0929.
//
// Either way both spellings of a letter meet in one form. The nukta
// itself is kept: ज़ (za) and ज (ja) are different letters. FoldNukta
// drops it, for data whose writers omit the nukta.
func UnifyNukta(s string) string {
	if isASCII(s) {
		return s
	}
	return norm.NFC.String(s)
}

// nuktas are the nukta signs of the Indic scripts.
var nuktas = [...]rune{0x093C, 0x09BC, 0x0A3C, 0x0ABC, 0x0B3C, 0x0C3C, 0x0CBC}

// FoldNukta returns s in NFD-then-NFC form with every nukta sign removed,
// so that ज़ becomes ज and ড় becomes ড. It is lossy (za and ja are
// different sounds) and meant for comparing with text whose writers often
// omit the nukta, as much Hindi typing does; it is never applied unless
// asked for.
func FoldNukta(s string) string {
	if isASCII(s) {
		return s
	}
	d := norm.NFD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		drop := false
		for _, n := range nuktas {
			if r == n {
				drop = true
				break
			}
		}
		if !drop {
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}

// ScriptOfRune returns the script of a letter or combining mark r among
// Scripts, or NoScript for a letter of another script and for anything
// that is not a letter or mark (digits, punctuation, the danda,
// whitespace). ScriptOf counts letters by it.
func ScriptOfRune(r rune) Script { return scriptOfRune(r) }

// ScriptOfLanguage returns the usual script of a language given as
// ParseLanguage takes it (a name, ISO code or alias: "hi", "Hindi" and
// "hin" are all Devanagari), and false for a language it does not know.
func ScriptOfLanguage(language string) (Script, bool) {
	name, ok := ParseLanguage(language)
	if !ok {
		return NoScript, false
	}
	for _, l := range Languages {
		if l.Name == name {
			return l.Script, true
		}
	}
	return NoScript, false
}
