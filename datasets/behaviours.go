package datasets

// Behaviour names one row of Responses that shows a scoring behaviour of the
// seed protocols (SPEC.md sections 1 and 5), with the verdicts a correct
// implementation must give it. Scorer tests can range over Behaviours,
// look each row up by (ID, Model) and compare.
//
// The expected fields are hand-derived for the two seed-000 protocols with
// no normalisation (--normalize none):
//
//	exact_substring: lower(answer) is a substring of lower(response)
//	word_overlap:    set(words(answer)) ⊆ set(words(response)), where
//	                 words = lower, split on whitespace, strip ASCII
//	                 punctuation from each token's ends
//
// with a blank response (empty after trimming) scoring false under both.
// MatchingWords and TotalGoldenWords are word overlap's partial credit
// (golden words found, distinct golden words).
type Behaviour struct {
	ID    string // the id column (question id)
	Model string // the model column
	Kind  string // one of BehaviourKinds
	Note  string // golden, response and the reason for the verdicts

	ExactSubstring   bool
	WordOverlap      bool
	MatchingWords    int
	TotalGoldenWords int
}

// BehaviourKinds lists every Kind used in Behaviours, each with at least one
// row:
//
//	verbatim              golden phrase inside prose, same characters
//	case                  differs only in letter case
//	reordered             golden words present in another order
//	inflected             a longer or shorter form of a golden word
//	inserted              extra words inside the golden phrase
//	negated_mention       response names the golden answer to reject it
//	word_boundary_fp      short golden answer found inside another word
//	different_claim       golden words present in a different, wrong claim
//	trailing_space_golden golden answer ends with a space
//	blank                 empty or whitespace-only response
//	wrong                 a plainly wrong answer
//	paraphrase            a right answer worded so both metrics miss it
//	partial               a terse answer with only some golden words
//	nfd                   same text in different Unicode normal forms
//	danda                 Indic full stop glued to the last word
//	indic_digits          Devanagari or Bengali digits against ASCII ones
//	zwj                   zero-width joiner or non-joiner inside a word
//	empty_golden          the golden answer is empty
//	formula               response starts with = + - or @
//	script_tag            response contains an HTML script element
//	multiline             response with a newline, commas and quotes
var BehaviourKinds = []string{
	"verbatim", "case", "reordered", "inflected", "inserted",
	"negated_mention", "word_boundary_fp", "different_claim",
	"trailing_space_golden", "blank", "wrong", "paraphrase", "partial",
	"nfd", "danda", "indic_digits", "zwj", "empty_golden", "formula",
	"script_tag", "multiline",
}

const (
	respKestrel = "kestrel-7b"
	respTern    = "tern-13b"
)

// Behaviours is the table of named rows. Notes write code points as U+XXXX
// where the characters alone would not show the difference.
var Behaviours = []Behaviour{
	// verbatim
	{ID: "art-en-001", Model: respTern, Kind: "verbatim", ExactSubstring: true, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "golden 'Ruru Jataka' inside a sentence: prose around it is irrelevant; 'jataka,' strips to 'jataka'"},
	{ID: "art-en-001", Model: respKestrel, Kind: "verbatim", ExactSubstring: true, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "response is exactly the golden 'Ruru Jataka'"},
	{ID: "geo-hi-001", Model: respTern, Kind: "verbatim", ExactSubstring: true, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden 'गंगोत्री' inside a Devanagari sentence"},
	{ID: "hist-bn-005", Model: respTern, Kind: "verbatim", ExactSubstring: true, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "golden 'হরপ্রসাদ শাস্ত্রী' opens a Bengali sentence"},
	{ID: "food-bn-001", Model: respTern, Kind: "verbatim", ExactSubstring: true, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden and response both spell ঝালমুড়ি with precomposed U+09DC (not NFC): the same code points match raw"},
	{ID: "help-bn-003", Model: respKestrel, Kind: "verbatim", ExactSubstring: true, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden and response both spell র\u200d্যাম with ZWJ (U+09B0 U+200D U+09CD U+09AF ...): identical, so both pass"},

	// case
	{ID: "hist-en-008", Model: respKestrel, Kind: "case", ExactSubstring: true, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden 'Lothal', response 'LOTHAL': both protocols lower-case"},
	{ID: "art-en-007", Model: respTern, Kind: "case", ExactSubstring: true, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden 'Ajanta', response 'AJANTA, Cave 1'"},
	{ID: "help-en-008", Model: respKestrel, Kind: "case", ExactSubstring: true, WordOverlap: true, MatchingWords: 3, TotalGoldenWords: 3,
		Note: "golden 'HyperText Markup Language', response 'Hypertext Markup Language'"},
	{ID: "sci-hi-001", Model: respTern, Kind: "case", ExactSubstring: true, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden 'H2O', response 'पानी का सूत्र h2o है।': Latin case folds inside Hindi text"},

	// reordered
	{ID: "geo-en-001", Model: respKestrel, Kind: "reordered", ExactSubstring: false, WordOverlap: true, MatchingWords: 3, TotalGoldenWords: 3,
		Note: "golden 'Bhagirathi and Alaknanda', response 'Alaknanda and Bhagirathi': order matters only to exact substring"},
	{ID: "civ-en-002", Model: respTern, Kind: "reordered", ExactSubstring: false, WordOverlap: true, MatchingWords: 3, TotalGoldenWords: 3,
		Note: "golden '26 January 1950', response 'January 26, 1950': '26,' and '1950,' strip to the golden tokens"},
	{ID: "geo-hi-004", Model: respKestrel, Kind: "reordered", ExactSubstring: false, WordOverlap: true, MatchingWords: 3, TotalGoldenWords: 3,
		Note: "golden 'अलकनंदा और भागीरथी', response 'भागीरथी और अलकनंदा'"},
	{ID: "food-bn-002", Model: respKestrel, Kind: "reordered", ExactSubstring: false, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "golden 'সর্ষে ইলিশ', response 'ইলিশ সর্ষে'"},
	{ID: "help-bn-001", Model: respTern, Kind: "reordered", ExactSubstring: false, WordOverlap: true, MatchingWords: 4, TotalGoldenWords: 4,
		Note: "golden 'পাওয়ার আর ভলিউম ডাউন', response 'ভলিউম ডাউন আর পাওয়ার বোতাম ...'"},

	// inflected
	{ID: "art-en-002", Model: respKestrel, Kind: "inflected", ExactSubstring: true, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'amalak', response 'Amalaka': substring of a longer word passes exact, whole-token overlap fails"},
	{ID: "art-en-002", Model: respTern, Kind: "inflected", ExactSubstring: true, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'amalak', response '... the amalaka, a ribbed stone disc ...'"},
	{ID: "art-en-003", Model: respKestrel, Kind: "inflected", ExactSubstring: false, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'Deula', response 'deul': the shorter form fails both (the reverse direction of amalak/Amalaka)"},
	{ID: "art-en-004", Model: respTern, Kind: "inflected", ExactSubstring: false, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'mithuna', response '... mithun figures ...': shorter form fails both"},
	{ID: "art-en-006", Model: respKestrel, Kind: "inflected", ExactSubstring: true, WordOverlap: false, MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden 'scroll painting', response 'Scroll paintings (patachitra)': plural passes exact only"},
	{ID: "art-en-009", Model: respKestrel, Kind: "inflected", ExactSubstring: true, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'Dipankar', response 'Dipankara Buddha'"},
	{ID: "sci-en-006", Model: respKestrel, Kind: "inflected", ExactSubstring: false, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'mitochondria', response 'Mitochondrion': singular differs inside the word, both fail"},
	{ID: "art-hi-005", Model: respTern, Kind: "inflected", ExactSubstring: true, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'चंदेल', response 'इन्हें चंदेलों ने ...': oblique plural contains the stem, exact only"},
	{ID: "hist-hi-007", Model: respTern, Kind: "inflected", ExactSubstring: false, WordOverlap: false, MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden 'लाल किला', response '... लाल किले का ...': oblique 'किले' changes the vowel, so the phrase is no longer a substring"},
	{ID: "geo-hi-003", Model: respTern, Kind: "inflected", ExactSubstring: false, WordOverlap: false, MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden 'अरावली पहाड़ियाँ', response '... अरावली पहाड़ियों की ...': oblique plural breaks both"},
	{ID: "food-hi-005", Model: respTern, Kind: "inflected", ExactSubstring: false, WordOverlap: false, MatchingWords: 2, TotalGoldenWords: 3,
		Note: "golden 'सरसों का साग', response 'सरसों के साग के साथ।': 'का' becomes 'के'"},
	{ID: "art-bn-002", Model: respKestrel, Kind: "inflected", ExactSubstring: true, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'পোড়ামাটি', response 'পোড়ামাটির ইট': genitive suffix, exact only"},
	{ID: "art-bn-003", Model: respTern, Kind: "inflected", ExactSubstring: true, WordOverlap: false, MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden 'রবীন্দ্রনাথ ঠাকুর', response 'রবীন্দ্রনাথ ঠাকুরের হাতে ...'"},
	{ID: "geo-bn-001", Model: respTern, Kind: "inflected", ExactSubstring: true, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'সুন্দরবন', response 'সুন্দরবনের অরণ্য, ...'"},
	{ID: "geo-bn-002", Model: respKestrel, Kind: "inflected", ExactSubstring: false, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'বঙ্গোপসাগরে' (locative), response 'বঙ্গোপসাগর': an inflected golden answer fails a bare response"},

	// inserted
	{ID: "geo-en-006", Model: respTern, Kind: "inserted", ExactSubstring: false, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "golden 'Narmada valley', response 'The Narmada River valley, ...': an inserted word breaks contiguity; the answer is right"},
	{ID: "geo-en-004", Model: respTern, Kind: "inserted", ExactSubstring: false, WordOverlap: true, MatchingWords: 3, TotalGoldenWords: 3,
		Note: "golden 'Kaziranga National Park', response 'Kaziranga, a national park in ...'"},
	{ID: "food-en-001", Model: respTern, Kind: "inserted", ExactSubstring: false, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "golden 'urad dal', response 'Black gram (urad) dal, ...': '(urad)' strips to 'urad'"},
	{ID: "art-en-008", Model: respTern, Kind: "inserted", ExactSubstring: false, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "golden 'Rashtrakuta dynasty', response '... the Rashtrakuta king Krishna I of that dynasty ...': right answer, words apart"},
	{ID: "hist-hi-009", Model: respTern, Kind: "inserted", ExactSubstring: false, WordOverlap: true, MatchingWords: 3, TotalGoldenWords: 3,
		Note: "golden 'सिंधु घाटी सभ्यता', response 'ये सिंधु नदी घाटी की सभ्यता ...'"},
	{ID: "food-bn-004", Model: respTern, Kind: "inserted", ExactSubstring: false, WordOverlap: true, MatchingWords: 3, TotalGoldenWords: 3,
		Note: "golden 'জলে ভেজানো ভাত', response 'আগের রাতের ভাত জলে ভেজানো থাকে, ...'"},

	// negated_mention
	{ID: "hist-en-005", Model: respTern, Kind: "negated_mention", ExactSubstring: true, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden 'Akbar', response 'Many guides say Akbar, but that is not right: it was Jahangir.': wrong, yet both pass"},
	{ID: "civ-hi-007", Model: respTern, Kind: "negated_mention", ExactSubstring: true, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "golden 'जवाहरलाल नेहरू', response 'उत्तर जवाहरलाल नेहरू नहीं है; ... सरदार पटेल थे।': wrong, both pass"},
	{ID: "civ-bn-005", Model: respTern, Kind: "negated_mention", ExactSubstring: true, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "golden 'রাজেন্দ্র প্রসাদ', response 'রাজেন্দ্র প্রসাদ নন, ... রাধাকৃষ্ণন।': wrong, both pass"},

	// word_boundary_fp
	{ID: "geo-en-009", Model: respTern, Kind: "word_boundary_fp", ExactSubstring: true, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'No', response 'Yes, it is known to cross ...': 'no' inside 'known' passes exact; the answer is wrong"},
	{ID: "civ-en-004", Model: respTern, Kind: "word_boundary_fp", ExactSubstring: true, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'No', response 'Yes, nothing in the rules ...': 'no' inside 'nothing'"},

	// different_claim
	{ID: "hist-en-001", Model: respTern, Kind: "different_claim", ExactSubstring: false, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "golden 'Chandragupta Maurya', response 'Ashoka Maurya, grandson of Chandragupta, founded ...': wrong, overlap passes"},
	{ID: "hist-hi-002", Model: respTern, Kind: "different_claim", ExactSubstring: false, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "golden 'चंद्रगुप्त मौर्य', response 'बिंदुसार मौर्य ने; चंद्रगुप्त उनके पिता थे।': wrong, overlap passes"},
	{ID: "geo-en-003", Model: respTern, Kind: "different_claim", ExactSubstring: false, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "golden 'Western Ghats', response '... in the Eastern, not the Western, Ghats.': wrong, overlap passes"},

	// trailing_space_golden
	{ID: "hist-en-010", Model: respKestrel, Kind: "trailing_space_golden", ExactSubstring: false, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden 'Bombay ' (trailing space), response 'Bombay': golden is not stripped"},
	{ID: "hist-en-010", Model: respTern, Kind: "trailing_space_golden", ExactSubstring: false, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden 'Bombay ', response 'Bombay, at ...': a comma, not a space, follows the word"},
	{ID: "food-en-006", Model: respKestrel, Kind: "trailing_space_golden", ExactSubstring: false, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden 'naan ', response 'Naan'"},
	{ID: "food-en-006", Model: respTern, Kind: "trailing_space_golden", ExactSubstring: true, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden 'naan ', response 'Naan or, ...': a space happens to follow, so exact passes"},
	{ID: "sci-hi-002", Model: respKestrel, Kind: "trailing_space_golden", ExactSubstring: false, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden 'ऑक्सीजन ', response 'ऑक्सीजन'"},
	{ID: "civ-bn-003", Model: respKestrel, Kind: "trailing_space_golden", ExactSubstring: false, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden 'কলকাতা ', response 'কলকাতা'"},
	{ID: "civ-bn-003", Model: respTern, Kind: "trailing_space_golden", ExactSubstring: true, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "golden 'কলকাতা ', response 'কলকাতা শহরে।': a space follows"},

	// blank
	{ID: "hist-hi-008", Model: respKestrel, Kind: "blank", MatchingWords: 0, TotalGoldenWords: 2,
		Note: "response is the empty string"},
	{ID: "help-bn-004", Model: respKestrel, Kind: "blank", MatchingWords: 0, TotalGoldenWords: 3,
		Note: "response is the empty string"},
	{ID: "civ-en-008", Model: respKestrel, Kind: "blank", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "response is two spaces"},
	{ID: "food-hi-004", Model: respKestrel, Kind: "blank", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "response is a single newline"},
	{ID: "geo-hi-006", Model: respTern, Kind: "blank", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "response is the empty string"},
	{ID: "help-en-003", Model: respTern, Kind: "blank", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "response is space, newline, space"},
	{ID: "food-bn-003", Model: respTern, Kind: "blank", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "response is three spaces"},

	// wrong
	{ID: "hist-en-003", Model: respKestrel, Kind: "wrong", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'Calcutta', response 'Delhi'"},
	{ID: "geo-en-005", Model: respTern, Kind: "wrong", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'Kanyakumari', response 'Indira Point, ...' (not on the mainland)"},
	{ID: "civ-en-005", Model: respTern, Kind: "wrong", MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden 'Rajya Sabha', response '... is the Lok Sabha, ...': shares 'sabha', 1/2"},
	{ID: "food-en-003", Model: respKestrel, Kind: "wrong", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'saffron', response 'Turmeric'"},
	{ID: "hist-hi-003", Model: respTern, Kind: "wrong", MatchingWords: 0, TotalGoldenWords: 2,
		Note: "golden 'क़ुतुबुद्दीन ऐबक' (U+0958), response names Iltutmish, who finished the tower"},
	{ID: "geo-hi-007", Model: respKestrel, Kind: "wrong", MatchingWords: 0, TotalGoldenWords: 2,
		Note: "golden 'अरुणाचल प्रदेश', response 'असम'"},
	{ID: "art-bn-004", Model: respTern, Kind: "wrong", MatchingWords: 0, TotalGoldenWords: 2,
		Note: "golden 'সত্যজিৎ রায়' (U+09DF), response 'ঋত্বিক ঘটক'"},
	{ID: "sci-bn-005", Model: respTern, Kind: "wrong", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'হিমোগ্লোবিন', response 'মায়োগ্লোবিন'"},

	// paraphrase and partial: right (or half right) answers both metrics miss
	{ID: "sci-en-002", Model: respTern, Kind: "paraphrase", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden '-40', response 'They meet at minus forty degrees.': numbers in words"},
	{ID: "food-en-002", Model: respTern, Kind: "paraphrase", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'rasgulla', response 'Rosogolla, ...': another transliteration"},
	{ID: "hist-en-006", Model: respKestrel, Kind: "paraphrase", MatchingWords: 2, TotalGoldenWords: 3,
		Note: "golden 'Indus Valley Civilisation', response 'Indus Valley Civilization': spelling variant"},
	{ID: "help-en-001", Model: respTern, Kind: "paraphrase", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'Ctrl+Shift+Esc' (one token), response 'Press Ctrl + Shift + Esc together.'"},
	{ID: "civ-bn-004", Model: respTern, Kind: "paraphrase", MatchingWords: 0, TotalGoldenWords: 2,
		Note: "golden '৫ বছর', response 'সাধারণত পাঁচ বছর।': the number in words, and 'বছর।' keeps its danda"},
	{ID: "geo-en-004", Model: respKestrel, Kind: "partial", MatchingWords: 1, TotalGoldenWords: 3,
		Note: "golden 'Kaziranga National Park', response 'Kaziranga': every golden word is required"},
	{ID: "art-en-005", Model: respKestrel, Kind: "partial", MatchingWords: 2, TotalGoldenWords: 3,
		Note: "golden 'Raja Ravi Varma', response 'Ravi Varma'"},

	// nfd
	{ID: "art-en-010", Model: respKestrel, Kind: "nfd", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'papier-mâché' (NFC), response in NFD (a U+0302, e U+0301): fails raw; equal after NFC"},
	{ID: "hist-hi-003", Model: respKestrel, Kind: "nfd", MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden starts with precomposed क़ U+0958, response with क U+0915 + nukta U+093C; NFC maps U+0958 to the pair (a composition exclusion), so they match after NFC"},
	{ID: "art-bn-004", Model: respKestrel, Kind: "nfd", MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden 'রায়' with precomposed য় U+09DF, response with য U+09AF + nukta U+09BC; equal after NFC"},
	{ID: "food-bn-001", Model: respKestrel, Kind: "nfd", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden ঝালমুড়ি with precomposed ড় U+09DC, response with ড U+09A1 + nukta U+09BC; equal after NFC"},
	{ID: "sci-bn-003", Model: respKestrel, Kind: "nfd", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'ক্রেস্কোগ্রাফ' with ো U+09CB, response with U+09C7 U+09BE (NFD); NFC composes the pair, so they match after NFC"},

	// danda
	{ID: "geo-hi-002", Model: respTern, Kind: "danda", ExactSubstring: true, WordOverlap: false, MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden 'नई दिल्ली', response 'नई दिल्ली।': danda U+0964 is not ASCII punctuation, so the token stays 'दिल्ली।'"},
	{ID: "civ-hi-005", Model: respTern, Kind: "danda", ExactSubstring: true, WordOverlap: false, MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden 'अनुच्छेद 17', response 'अनुच्छेद 17।': token '17।'"},
	{ID: "hist-bn-003", Model: respTern, Kind: "danda", ExactSubstring: true, WordOverlap: false, MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden 'বঙ্কিমচন্দ্র চট্টোপাধ্যায়', response ends '... বঙ্কিমচন্দ্র চট্টোপাধ্যায়।'"},
	{ID: "sci-bn-001", Model: respTern, Kind: "danda", ExactSubstring: true, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'H2O', response 'জলের সংকেত H2O।': token 'h2o।'"},
	{ID: "civ-bn-002", Model: respTern, Kind: "danda", ExactSubstring: true, WordOverlap: false, MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden '১৮ বছর', response '১৮ বছর।'"},

	// indic_digits
	{ID: "hist-hi-001", Model: respTern, Kind: "indic_digits", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden '1947', response 'भारत को १९४७ में ...': same year, Devanagari digits"},
	{ID: "hist-hi-005", Model: respKestrel, Kind: "indic_digits", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden '1930', response '१९३०'"},
	{ID: "sci-hi-005", Model: respTern, Kind: "indic_digits", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden '206', response '... २०६ हड्डियाँ ...'"},
	{ID: "civ-hi-001", Model: respTern, Kind: "indic_digits", MatchingWords: 1, TotalGoldenWords: 3,
		Note: "golden '26 जनवरी 1950', response '२६ जनवरी १९५० को।'"},
	{ID: "hist-bn-001", Model: respKestrel, Kind: "indic_digits", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden '১৯০৫' (Bengali digits), response '1905' (ASCII): the other direction"},
	{ID: "sci-bn-004", Model: respKestrel, Kind: "indic_digits", MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden '৩ লক্ষ', response '3 লক্ষ'"},
	{ID: "civ-bn-002", Model: respKestrel, Kind: "indic_digits", MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden '১৮ বছর', response '18 বছর'"},

	// zwj
	{ID: "sci-hi-004", Model: respKestrel, Kind: "zwj", MatchingWords: 1, TotalGoldenWords: 2,
		Note: "golden 'विक्रम साराभाई', response has ZWJ U+200D after the virama in 'विक्\u200dरम'"},
	{ID: "geo-bn-006", Model: respKestrel, Kind: "zwj", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden 'ব্রহ্মপুত্র', response has ZWNJ U+200C between 'ব্রহ্ম' and 'পুত্র'"},
	{ID: "help-bn-003", Model: respTern, Kind: "zwj", MatchingWords: 0, TotalGoldenWords: 1,
		Note: "golden র\u200d্যাম has ZWJ (the usual spelling), response 'র্যাম,' has none"},

	// empty_golden
	{ID: "help-en-010", Model: respKestrel, Kind: "empty_golden", ExactSubstring: true, WordOverlap: true, MatchingWords: 0, TotalGoldenWords: 0,
		Note: "golden '', response 'No answer found.': the empty string is in everything and the empty set is a subset of everything"},
	{ID: "help-en-010", Model: respTern, Kind: "empty_golden", ExactSubstring: true, WordOverlap: true, MatchingWords: 0, TotalGoldenWords: 0,
		Note: "golden '', response 'Call 020-5550-0199 ...': an invented number, still 'correct' under both"},

	// formula
	{ID: "sci-en-002", Model: respKestrel, Kind: "formula", ExactSubstring: true, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "response '-40' (golden '-40' too): both tokens strip to '40'"},
	{ID: "sci-en-007", Model: respKestrel, Kind: "formula", ExactSubstring: true, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "response '=7*8=56', golden '56': one token '7*8=56' after stripping '='"},
	{ID: "help-en-005", Model: respKestrel, Kind: "formula", ExactSubstring: true, WordOverlap: true, MatchingWords: 1, TotalGoldenWords: 1,
		Note: "response '+91', golden '+91'"},
	{ID: "help-en-006", Model: respKestrel, Kind: "formula", ExactSubstring: true, WordOverlap: false, MatchingWords: 0, TotalGoldenWords: 1,
		Note: "response '=SUM(A1:A10)', golden 'SUM': one token 'sum(a1:a10'"},
	{ID: "help-en-007", Model: respKestrel, Kind: "formula", MatchingWords: 0, TotalGoldenWords: 2,
		Note: "response '@support can reset it for you', golden 'Forgot password'"},
	{ID: "help-hi-003", Model: respKestrel, Kind: "formula", ExactSubstring: true, WordOverlap: true, MatchingWords: 2, TotalGoldenWords: 2,
		Note: "response starts with '- ' (a list dash), golden 'पासवर्ड रीसेट'"},

	// script_tag
	{ID: "help-en-008", Model: respTern, Kind: "script_tag", ExactSubstring: true, WordOverlap: true, MatchingWords: 3, TotalGoldenWords: 3,
		Note: "response contains '<script>alert(1)</script>'; must be escaped in HTML reports"},

	// multiline
	{ID: "help-en-009", Model: respTern, Kind: "multiline", ExactSubstring: false, WordOverlap: true, MatchingWords: 3, TotalGoldenWords: 3,
		Note: "response 'First, \"restart\" the modem,\\nthen the router ...': newline, commas and quotes; golden 'restart the router'"},
}
