package score

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/internal/fasttext"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// benchRows mixes English, Hindi and Bengali rows of typical lengths.
var benchRows = [][2]string{
	{"Ruru Jataka", "The medallion at Bharhut shows the Ruru Jataka, the tale of the golden deer."},
	{"Narmada valley", "The Narmada River valley, a rift valley between the Vindhya and Satpura ranges."},
	{"नई दिल्ली", "भारत की राजधानी नई दिल्ली है, जो यमुना के किनारे बसी है।"},
	{"১৯০৫", "বঙ্গভঙ্গ ঘোষিত হয়েছিল ১৯০৫ সালে, লর্ড কার্জনের আমলে।"},
	{"", "No answer found."},
}

// BenchmarkMetrics scores the mixed rows under every registered metric;
// ns/op is per row.
func BenchmarkMetrics(b *testing.B) {
	for _, id := range IDs() {
		m, _ := Lookup(id)
		b.Run(id, func(b *testing.B) {
			s := m.New()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r := benchRows[i%len(benchRows)]
				s.Score(r[0], r[1])
			}
		})
	}
}

// BenchmarkIndex compares index with bytes.Index on the golden words of
// the benchmark rows searched in their responses.
func BenchmarkIndex(b *testing.B) {
	var pairs [][2][]byte
	for _, r := range benchRows {
		for _, w := range strings.Fields(r[0]) {
			pairs = append(pairs, [2][]byte{[]byte(r[1]), []byte(w)})
		}
	}
	for _, f := range []struct {
		name string
		fn   func(s, sep []byte) int
	}{{"bytes.Index", bytes.Index}, {"index", index}} {
		b.Run(f.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for _, p := range pairs {
					f.fn(p[0], p[1])
				}
			}
		})
	}
}

// seedRow is one generated row of a seed-protocol response file.
type seedRow struct{ question, answer, response string }

// seedRows generates n rows shaped like the 1M-row benchmark file of
// issue 29 (scripts/bench-score.sh): half English, a quarter each Hindi
// and Bengali; golden answers of one word (70%), two (20%) or three;
// responses of a template naming the golden answer (60%) or another
// answer, between filler words. On average a question has 77 bytes, a
// golden answer 18 and a response 97 (the file: 71, 17 and 90). Indic
// text is runs of three-byte characters with single spaces, a danda at
// the end of a sentence, some ASCII commas.
func seedRows(n int) []seedRow {
	type lang struct{ answers, fillers, questions, templates []string }
	langs := []lang{{
		answers:   strings.Fields("Mumbai kabaddi Chola tabla Hampi cricket Raman Gupta Thar Akbar copper cholera Tagore hydrogen Chennai Ganges malaria sitar Brahmaputra hockey"),
		fillers:   strings.Fields("island ruled empire that cup known player built caused during bank instrument capital state river gas won dynasty planet desert"),
		questions: strings.Fields("What was is the Which When did How many Who Name Where festival empire island country official north poet ocean"),
		templates: []string{"It is %s, according to most sources.", "I believe the correct answer is %s, which is widely documented.",
			"The answer is %s.", "Based on the question, the answer would be %s.", "%s is the most likely answer here, though some texts disagree."},
	}, {
		answers:   strings.Fields("लोहा अकबर टैगोर प्रेमचंद गंगा मुंबई ब्रह्मपुत्र हम्पी सितार बृहस्पति क्रिकेट हॉकी एवरेस्ट नालंदा अशोक हाइड्रोजन चोल तांबा तबला इंसुलिन"),
		fillers:   strings.Fields("राजधानी उपन्यास रोग वह आविष्कार पर्वत बाद दौरान और शासन शरीर तत्व बड़ी रेगिस्तान देश पहला नृत्य नेटवर्क प्रसिद्ध महासागर"),
		questions: strings.Fields("है कौन कब हुआ कहाँ किसने किस सा कितने था क्या राष्ट्रीय बाद रिकॉर्ड खिलाड़ी टीका मंदिर सबसे वह कारण"),
		templates: []string{"उत्तर है %s।", "प्रश्न के अनुसार उत्तर %s होगा।", "मेरे विचार से सही उत्तर %s है।", "%s सबसे संभावित उत्तर है, हालाँकि कुछ स्रोत असहमत हैं।"},
	}, {
		answers:   strings.Fields("বৃহস্পতি হাম্পি আকবর দিল্লি বঙ্কিমচন্দ্র কোনারক চেন্নাই হাইড্রোজেন গুপ্ত তবলা বসু রমন ব্রহ্মপুত্র রবীন্দ্রনাথ ম্যালেরিয়া নালন্দা লোহা সুন্দরবন মুম্বাই টাকা"),
		fillers:   strings.Fields("মৌল রোগ মরুভূমি টিকা পশ্চিম জাতীয় প্রাচীন বড় সংগীত মুদ্রা পর্বত গ্রহ মন্দির দল কারণ শরীর বাদ্যযন্ত্র কাপ দক্ষিণ দ্বীপ"),
		questions: strings.Fields("কে কোনটি কোন কী কোথায় কতগুলি ছিলেন কবে দল শাসন প্রথম শহর শ্রেণী খেলোয়াড় মন্দির সংগীত দেশ এবং মানুষের পর্বত"),
		templates: []string{"উত্তর হল %s।", "প্রশ্ন অনুযায়ী উত্তর হবে %s।", "আমার মতে সঠিক উত্তর %s।", "%s সম্ভবত সঠিক উত্তর, যদিও কিছু সূত্র ভিন্নমত পোষণ করে।"},
	}}
	rng := rand.New(rand.NewPCG(29, 1))
	pick := func(ws []string, k int) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = ws[rng.IntN(len(ws))]
		}
		return out
	}
	rows := make([]seedRow, n)
	for i := range rows {
		l := langs[0]
		if d := rng.IntN(4); d >= 2 {
			l = langs[d-1]
		}
		k := 1
		if d := rng.IntN(10); d >= 9 {
			k = 3
		} else if d >= 7 {
			k = 2
		}
		answer := strings.Join(pick(l.answers, k), " ")
		named := answer
		if rng.IntN(10) >= 6 {
			named = pick(l.answers, 1)[0]
		}
		resp := strings.Join(pick(l.fillers, rng.IntN(3)), " ") + " " +
			fmt.Sprintf(l.templates[rng.IntN(len(l.templates))], named) + " " +
			strings.Join(pick(l.fillers, rng.IntN(3)), " ")
		q := strings.Join(pick(l.questions, 6+rng.IntN(5)), " ") + "?"
		rows[i] = seedRow{q, answer, strings.TrimSpace(resp)}
	}
	return rows
}

// BenchmarkSeedRows runs the per-row text work of `evalbook score
// --metrics exact_substring,word_overlap` on generated rows (seedRows):
// lower-casing and checking the golden answer and the response
// (fasttext.LowerScanView), validating the question (fasttext.ValidUTF8),
// and both verdicts (SeedPair), apart and together; ns/op is per row.
func BenchmarkSeedRows(b *testing.B) {
	rows := seedRows(4096)
	lowered := make([][2][]byte, len(rows))
	for i, r := range rows {
		lowered[i] = [2][]byte{textnorm.AppendLower(nil, r.answer), textnorm.AppendLower(nil, r.response)}
	}
	var gbuf, rbuf []byte
	lower := func(r seedRow) ([]byte, []byte) {
		gl, gView, _, _, _ := fasttext.LowerScanView(gbuf, r.answer)
		rl, rView, _, _, _ := fasttext.LowerScanView(rbuf, r.response)
		if !gView {
			gbuf = gl
		}
		if !rView {
			rbuf = rl
		}
		return gl, rl
	}
	pair := NewSeedPair()
	b.Run("lower", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			lower(rows[i%len(rows)])
		}
	})
	b.Run("valid", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if !fasttext.ValidUTF8(rows[i%len(rows)].question) {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("pair", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			l := lowered[i%len(lowered)]
			pair.ScoreLower(l[0], l[1])
		}
	})
	b.Run("row", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			r := rows[i%len(rows)]
			fasttext.ValidUTF8(r.question)
			pair.ScoreLower(lower(r))
		}
	})
}
