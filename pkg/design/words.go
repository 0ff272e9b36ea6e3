package design

import (
	"cmp"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

// FunctionWords are dropped before word-set Jaccard and before character
// n-grams, so that two questions do not look alike merely because both say
// "do I have to" or "আমার ... কি". They are articles, pronouns, auxiliary
// and modal verbs, prepositions and postpositions, conjunctions, the yes/no
// question particles (Bengali কি, Hindi क्या) and the pieces that splitting
// English contractions leaves (s, t, ll, ...), in English, Bengali and Hindi,
// written here in NFC.
//
// Question words (how, what, when, কী, কখন, कब ...) and negations (not, no,
// না, नहीं) are deliberately NOT in the list: they change what is asked. With
// this list "How many days do I have to send a bike back?" and "How long do I
// have to return a new bike?" keep {how, many, days, send, bike, back} and
// {how, long, return, new, bike}: 2 shared of 9, Jaccard 0.22.
var FunctionWords = sortedCopy([]string{
	// English
	"a", "an", "the", "and", "or", "but", "if", "of", "to", "in", "on", "at", "by", "for", "from",
	"with", "about", "as", "into", "onto", "than", "then", "is", "are", "was", "were", "be", "been",
	"being", "am", "do", "does", "did", "have", "has", "had", "i", "me", "my", "mine", "we", "us",
	"our", "you", "your", "yours", "he", "him", "his", "she", "her", "it", "its", "they", "them",
	"their", "this", "that", "these", "those", "there", "here", "can", "could", "will", "would",
	"shall", "should", "may", "might", "must", "so", "too", "very", "just", "also", "any", "some",
	"s", "t", "d", "ll", "re", "ve", "m",
	// Bengali
	"আমি", "আমার", "আমাকে", "আমরা", "আমাদের", "তুমি", "তোমার", "আপনি", "আপনার", "আপনাকে", "সে",
	"তার", "তা", "এটা", "এটি", "ওটা", "এই", "ওই", "সেই", "যে", "যা", "এবং", "ও", "আর", "বা", "কি",
	"তো", "হয়", "হবে", "ছিল", "আছে", "থেকে", "জন্য", "দিয়ে", "সাথে", "সঙ্গে", "মধ্যে", "কোনো",
	"একটা", "একটি",
	// Hindi
	"का", "की", "के", "को", "में", "से", "पर", "है", "हैं", "था", "थी", "थे", "हो", "होता", "होती",
	"और", "या", "मैं", "मेरा", "मेरी", "मेरे", "हम", "हमारा", "आप", "आपका", "आपकी", "आपके", "यह",
	"वह", "ये", "वे", "इस", "उस", "क्या", "तो", "भी", "ने", "एक", "कोई", "लिए",
})

var functionWordSet = func() map[string]bool {
	m := make(map[string]bool, len(FunctionWords))
	for _, w := range FunctionWords {
		m[textnorm.NFC.Apply(w)] = true
	}
	return m
}()

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// Words splits s into lower-cased words after NFC, removal of zero-width
// joiners and folding of Indic digits to ASCII. A word is a maximal run of
// letters, combining marks and digits ([\p{L}\p{M}\p{N}]+), so vowel signs
// and the virama stay inside Bengali and Hindi words; everything else
// (spaces, punctuation, the danda) separates words.
func Words(s string) []string {
	s = textnorm.Lower(textnorm.Indic.Apply(s))
	return textnorm.Words(s) // the Indic profile has already removed joiners
}

// ContentWords returns Words(s) without the FunctionWords, in order of
// first appearance, each once.
func ContentWords(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range Words(s) {
		if !functionWordSet[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// Jaccard is the word-set similarity of two texts:
//
//	J(a, b) = |A ∩ B| / |A ∪ B|
//
// where A and B are the sets of ContentWords. It is 0 when either set is
// empty. It catches copies and near-copies; a reworded question with the
// same meaning ("send back" for "return") scores low and passes unnoticed.
func Jaccard(a, b string) float64 {
	return jaccardSorted(sortedSet(ContentWords(a)), sortedSet(ContentWords(b)))
}

func sortedSet(words []string) []string {
	out := append([]string(nil), words...)
	sort.Strings(out)
	return out
}

// jaccardSorted computes |A ∩ B| / |A ∪ B| for sorted sets without
// duplicates (words, or MinHash shingle hashes); 0 when either is empty.
func jaccardSorted[T cmp.Ordered](a, b []T) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	i, j, inter := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// DefaultNGram is the character n-gram length of CharNGramSimilarity.
const DefaultNGram = 3

// CharNGrams returns the set of character n-grams (n runes) of the text
//
//	" " + join(ContentWords(s), " ") + " "
//
// as sorted keys. For n <= 3 a key packs the n code points exactly (21 bits
// each); for longer n it is a 64-bit FNV-1a hash of them.
func CharNGrams(s string, n int) []uint64 {
	if n < 1 {
		n = DefaultNGram
	}
	cw := ContentWords(s)
	if len(cw) == 0 {
		return nil
	}
	rs := []rune(" " + strings.Join(cw, " ") + " ")
	if len(rs) < n {
		return nil
	}
	keys := make([]uint64, 0, len(rs)-n+1)
	for i := 0; i+n <= len(rs); i++ {
		keys = append(keys, gramKey(rs[i:i+n]))
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return uniqueUint(keys)
}

func gramKey(g []rune) uint64 {
	if len(g) <= 3 {
		var k uint64
		for _, r := range g {
			k = k<<21 | uint64(r)
		}
		return k
	}
	h := uint64(14695981039346656037)
	for _, r := range g {
		for s := 0; s < 32; s += 8 {
			h ^= uint64(byte(r >> s))
			h *= 1099511628211
		}
	}
	return h
}

func uniqueUint(s []uint64) []uint64 {
	if len(s) == 0 {
		return s
	}
	w := 1
	for i := 1; i < len(s); i++ {
		if s[i] != s[w-1] {
			s[w] = s[i]
			w++
		}
	}
	return s[:w]
}

// CharNGramSimilarity is the Jaccard similarity of the character n-gram
// sets of two texts (see CharNGrams; n below 1 means DefaultNGram):
//
//	C(a, b) = |G(a) ∩ G(b)| / |G(a) ∪ G(b)|
//
// Because an inflected word keeps most of its n-grams ("bike" and "bikes"
// share " bi", "bik", "ike" of six), it catches inflected and lightly
// reworded copies that word-set Jaccard misses, in Bengali and Hindi as
// well as English. It is 0 when either text has no content words.
func CharNGramSimilarity(a, b string, n int) float64 {
	return jaccardSorted(CharNGrams(a, n), CharNGrams(b, n))
}
