package main

// lang is one language's material for synthetic rows: words that fill
// questions and responses, question openers, and the sentence frames a
// model wraps an answer in. The word lists are ordinary vocabulary written
// for this generator; the rows they make are not meant to be true.
type lang struct {
	code    string   // value of the language column
	weight  int      // share of rows, out of the weights' sum
	openers []string // first words of a question
	words   []string // general vocabulary for questions, fillers and wrong answers
	names   []string // answer-like words (names, places, things)
	frames  []frame  // how a response embeds the answer
	blanks  []string // what a blank response looks like

	// Word counts, chosen so rows are as long in bytes as the sample set's
	// (Devanagari and Bengali take three bytes a letter in UTF-8).
	qWords  [2]int // question length after the opener, in words (min, max)
	fillMax int    // at most this many filler words before and after the answer
}

// frame surrounds an answer: before + answer + after.
type frame struct{ before, after string }

var domains = []string{"Science", "History", "Geography", "Health", "Sports", "Technology", "Literature", "Economics"}

var models = []string{"kestrel-7b", "heron-13b", "osprey-70b"}

var languages = []lang{
	{
		code:    "en",
		weight:  2,
		openers: []string{"What is", "Which", "Who was", "Where is", "When did", "How many", "Name the", "What was"},
		words: []string{
			"river", "largest", "capital", "first", "known", "city", "state", "famous", "ancient", "empire",
			"scientist", "discovered", "element", "planet", "orbit", "ocean", "mountain", "range", "highest", "country",
			"written", "novel", "poet", "century", "language", "official", "currency", "bank", "national", "park",
			"disease", "caused", "by", "vaccine", "organ", "human", "body", "team", "won", "cup",
			"tournament", "player", "record", "invented", "computer", "network", "protocol", "called", "built", "temple",
			"dynasty", "king", "ruled", "from", "the", "of", "in", "and", "which", "that",
			"its", "for", "during", "after", "before", "north", "south", "east", "west", "coast",
			"island", "desert", "forest", "festival", "dance", "classical", "music", "instrument", "metal", "gas",
		},
		names: []string{
			"Ganges", "Brahmaputra", "Everest", "Kanchenjunga", "Delhi", "Kolkata", "Mumbai", "Chennai", "Ashoka", "Akbar",
			"Raman", "Bose", "Tagore", "Premchand", "hydrogen", "oxygen", "iron", "copper", "Jupiter", "Saturn",
			"cricket", "hockey", "kabaddi", "rupee", "taka", "insulin", "malaria", "cholera", "Thar", "Sundarbans",
			"Kathakali", "Bharatanatyam", "sitar", "tabla", "Konark", "Hampi", "Nalanda", "Maurya", "Gupta", "Chola",
		},
		frames: []frame{
			{"The answer is ", "."},
			{"", "."},
			{"It is ", ", according to most sources."},
			{"I believe the correct answer is ", ", which is widely documented."},
			{"Based on the question, the answer would be ", "."},
			{"", " is the most likely answer here, though some texts disagree."},
		},
		blanks:  []string{"", " ", "  "},
		qWords:  [2]int{4, 10},
		fillMax: 4,
	},
	{
		code:    "hi",
		weight:  1,
		openers: []string{"क्या है", "कौन सा", "कौन था", "कहाँ है", "कब हुआ", "कितने", "किसने", "किस"},
		words: []string{
			"नदी", "सबसे", "बड़ी", "राजधानी", "पहला", "प्रसिद्ध", "शहर", "राज्य", "प्राचीन", "साम्राज्य",
			"वैज्ञानिक", "खोज", "तत्व", "ग्रह", "कक्षा", "महासागर", "पर्वत", "श्रृंखला", "ऊँचा", "देश",
			"लिखा", "उपन्यास", "कवि", "शताब्दी", "भाषा", "आधिकारिक", "मुद्रा", "बैंक", "राष्ट्रीय", "उद्यान",
			"रोग", "कारण", "टीका", "अंग", "मानव", "शरीर", "टीम", "जीता", "कप", "खिलाड़ी",
			"रिकॉर्ड", "आविष्कार", "कंप्यूटर", "नेटवर्क", "मंदिर", "राजवंश", "राजा", "शासन", "से", "का",
			"की", "के", "में", "और", "जो", "यह", "वह", "दौरान", "बाद", "पहले",
			"उत्तर", "दक्षिण", "पूर्व", "पश्चिम", "तट", "द्वीप", "रेगिस्तान", "जंगल", "त्योहार", "नृत्य",
		},
		names: []string{
			"गंगा", "ब्रह्मपुत्र", "एवरेस्ट", "कंचनजंगा", "दिल्ली", "कोलकाता", "मुंबई", "चेन्नई", "अशोक", "अकबर",
			"रमन", "बोस", "टैगोर", "प्रेमचंद", "हाइड्रोजन", "ऑक्सीजन", "लोहा", "तांबा", "बृहस्पति", "शनि",
			"क्रिकेट", "हॉकी", "कबड्डी", "रुपया", "इंसुलिन", "मलेरिया", "थार", "सुंदरबन", "सितार", "तबला",
			"कोणार्क", "हम्पी", "नालंदा", "मौर्य", "गुप्त", "चोल",
		},
		frames: []frame{
			{"उत्तर है ", "।"},
			{"", "।"},
			{"मेरे विचार से सही उत्तर ", " है।"},
			{"प्रश्न के अनुसार उत्तर ", " होगा।"},
			{"", " सबसे संभावित उत्तर है, हालाँकि कुछ स्रोत असहमत हैं।"},
		},
		blanks:  []string{"", " "},
		qWords:  [2]int{2, 7},
		fillMax: 2,
	},
	{
		code:    "bn",
		weight:  1,
		openers: []string{"কী", "কোন", "কে ছিলেন", "কোথায়", "কবে", "কতগুলি", "কে", "কোনটি"},
		words: []string{
			"নদী", "সবচেয়ে", "বড়", "রাজধানী", "প্রথম", "বিখ্যাত", "শহর", "রাজ্য", "প্রাচীন", "সাম্রাজ্য",
			"বিজ্ঞানী", "আবিষ্কার", "মৌল", "গ্রহ", "কক্ষপথ", "মহাসাগর", "পর্বত", "শ্রেণী", "উঁচু", "দেশ",
			"লেখা", "উপন্যাস", "কবি", "শতাব্দী", "ভাষা", "সরকারি", "মুদ্রা", "ব্যাংক", "জাতীয়", "উদ্যান",
			"রোগ", "কারণ", "টিকা", "অঙ্গ", "মানুষের", "শরীর", "দল", "জিতেছে", "কাপ", "খেলোয়াড়",
			"রেকর্ড", "উদ্ভাবন", "কম্পিউটার", "নেটওয়ার্ক", "মন্দির", "রাজবংশ", "রাজা", "শাসন", "থেকে", "এর",
			"এবং", "যে", "এই", "সেই", "সময়", "পরে", "আগে", "উত্তর", "দক্ষিণ", "পূর্ব",
			"পশ্চিম", "উপকূল", "দ্বীপ", "মরুভূমি", "বন", "উৎসব", "নৃত্য", "সংগীত", "বাদ্যযন্ত্র", "ধাতু",
		},
		names: []string{
			"গঙ্গা", "ব্রহ্মপুত্র", "এভারেস্ট", "কাঞ্চনজঙ্ঘা", "দিল্লি", "কলকাতা", "মুম্বাই", "চেন্নাই", "অশোক", "আকবর",
			"রমন", "বসু", "রবীন্দ্রনাথ", "বঙ্কিমচন্দ্র", "হাইড্রোজেন", "অক্সিজেন", "লোহা", "তামা", "বৃহস্পতি", "শনি",
			"ক্রিকেট", "হকি", "কাবাডি", "টাকা", "ইনসুলিন", "ম্যালেরিয়া", "থর", "সুন্দরবন", "সেতার", "তবলা",
			"কোনারক", "হাম্পি", "নালন্দা", "মৌর্য", "গুপ্ত", "চোল",
		},
		frames: []frame{
			{"উত্তর হল ", "।"},
			{"", "।"},
			{"আমার মতে সঠিক উত্তর ", "।"},
			{"প্রশ্ন অনুযায়ী উত্তর হবে ", "।"},
			{"", " সম্ভবত সঠিক উত্তর, যদিও কিছু সূত্র ভিন্নমত পোষণ করে।"},
		},
		blanks:  []string{"", " "},
		qWords:  [2]int{2, 7},
		fillMax: 2,
	},
}
