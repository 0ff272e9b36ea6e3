"""Writes the sample leaderboard response files <model>_<language>.csv.

24 general-knowledge questions (four domains of six), written for this
project in English, Hindi, Bengali, Tamil and Telugu, answered by three
fictional models. Each model's behaviour on each row is drawn from a seeded
generator with per-model, per-language probabilities, so the files are
reproducible: python3 gen_responses.py. The golden answers are correct; the
wrong answers are other questions' answers in the same language.
"""
import csv
import random

# Questions 1-6 are geography, 7 (the Pink City) culture, 8-14 history,
# 15-20 science and 21-24 culture.
DOMAINS = ["Geography"] * 6 + ["Culture"] + ["History"] * 7 + ["Science"] * 6 + ["Culture"] * 4

QA = {
    "english": [
        ("What is the capital of India?", "New Delhi"),
        ("Which is the longest river in India?", "Ganga"),
        ("Kolkata is the capital of which state?", "West Bengal"),
        ("Which is the highest mountain peak in India?", "Kangchenjunga"),
        ("Which desert lies in Rajasthan?", "Thar"),
        ("Which ocean lies to the south of India?", "Indian Ocean"),
        ("Which city is called the Pink City?", "Jaipur"),
        ("In which year did India become independent?", "1947"),
        ("Who was the first Prime Minister of India?", "Jawaharlal Nehru"),
        ("Who wrote the national anthem of India?", "Rabindranath Tagore"),
        ("Which emperor built the Taj Mahal?", "Shah Jahan"),
        ("Which Mauryan emperor spread Buddhism after the Kalinga war?", "Ashoka"),
        ("In which year was the Partition of Bengal announced?", "1905"),
        ("Who is called the Father of the Nation in India?", "Mahatma Gandhi"),
        ("Which gas do plants take in for photosynthesis?", "Carbon dioxide"),
        ("What is the chemical formula of water?", "H2O"),
        ("Which planet is called the Red Planet?", "Mars"),
        ("At sea level, water boils at how many degrees Celsius?", "100"),
        ("Which organ pumps blood through the body?", "Heart"),
        ("Who was the first Indian in space?", "Rakesh Sharma"),
        ("Which festival is called the festival of lights?", "Diwali"),
        ("Which classical dance comes from Tamil Nadu?", "Bharatanatyam"),
        ("In which city is the Golden Temple?", "Amritsar"),
        ("What is the national animal of India?", "Tiger"),
    ],
    "hindi": [
        ("भारत की राजधानी क्या है?", "नई दिल्ली"),
        ("भारत की सबसे लंबी नदी कौन-सी है?", "गंगा"),
        ("कोलकाता किस राज्य की राजधानी है?", "पश्चिम बंगाल"),
        ("भारत की सबसे ऊँची पर्वत चोटी कौन-सी है?", "कंचनजंगा"),
        ("राजस्थान में कौन-सा मरुस्थल है?", "थार"),
        ("भारत के दक्षिण में कौन-सा महासागर है?", "हिंद महासागर"),
        ("किस शहर को गुलाबी नगर कहा जाता है?", "जयपुर"),
        ("भारत किस वर्ष स्वतंत्र हुआ?", "१९४७"),
        ("भारत के पहले प्रधानमंत्री कौन थे?", "जवाहरलाल नेहरू"),
        ("भारत का राष्ट्रगान किसने लिखा?", "रवींद्रनाथ टैगोर"),
        ("ताजमहल किस सम्राट ने बनवाया?", "शाहजहाँ"),
        ("कलिंग युद्ध के बाद किस मौर्य सम्राट ने बौद्ध धर्म का प्रसार किया?", "अशोक"),
        ("बंग-भंग की घोषणा किस वर्ष हुई?", "१९०५"),
        ("भारत में राष्ट्रपिता किसे कहा जाता है?", "महात्मा गांधी"),
        ("प्रकाश संश्लेषण के लिए पौधे कौन-सी गैस लेते हैं?", "कार्बन डाइऑक्साइड"),
        ("पानी का रासायनिक सूत्र क्या है?", "H2O"),
        ("किस ग्रह को लाल ग्रह कहा जाता है?", "मंगल"),
        ("समुद्र तल पर पानी कितने डिग्री सेल्सियस पर उबलता है?", "१००"),
        ("शरीर में रक्त कौन-सा अंग पंप करता है?", "हृदय"),
        ("अंतरिक्ष में जाने वाले पहले भारतीय कौन थे?", "राकेश शर्मा"),
        ("किस त्योहार को रोशनी का त्योहार कहा जाता है?", "दीवाली"),
        ("कौन-सा शास्त्रीय नृत्य तमिलनाडु से है?", "भरतनाट्यम"),
        ("स्वर्ण मंदिर किस शहर में है?", "अमृतसर"),
        ("भारत का राष्ट्रीय पशु क्या है?", "बाघ"),
    ],
    "bengali": [
        ("ভারতের রাজধানী কী?", "নতুন দিল্লি"),
        ("ভারতের দীর্ঘতম নদী কোনটি?", "গঙ্গা"),
        ("কলকাতা কোন রাজ্যের রাজধানী?", "পশ্চিমবঙ্গ"),
        ("ভারতের সর্বোচ্চ পর্বতশৃঙ্গ কোনটি?", "কাঞ্চনজঙ্ঘা"),
        ("রাজস্থানে কোন মরুভূমি অবস্থিত?", "থর"),
        ("ভারতের দক্ষিণে কোন মহাসাগর অবস্থিত?", "ভারত মহাসাগর"),
        ("কোন শহরকে গোলাপি শহর বলা হয়?", "জয়পুর"),
        ("ভারত কোন সালে স্বাধীন হয়?", "১৯৪৭"),
        ("ভারতের প্রথম প্রধানমন্ত্রী কে ছিলেন?", "জওহরলাল নেহরু"),
        ("ভারতের জাতীয় সংগীত কে লিখেছেন?", "রবীন্দ্রনাথ ঠাকুর"),
        ("কোন সম্রাট তাজমহল নির্মাণ করেন?", "শাহজাহান"),
        ("কলিঙ্গ যুদ্ধের পর কোন মৌর্য সম্রাট বৌদ্ধধর্ম প্রচার করেন?", "অশোক"),
        ("বঙ্গভঙ্গ কোন সালে ঘোষিত হয়?", "১৯০৫"),
        ("ভারতে জাতির জনক কাকে বলা হয়?", "মহাত্মা গান্ধী"),
        ("সালোকসংশ্লেষণের জন্য উদ্ভিদ কোন গ্যাস গ্রহণ করে?", "কার্বন ডাই অক্সাইড"),
        ("জলের রাসায়নিক সংকেত কী?", "H2O"),
        ("কোন গ্রহকে লাল গ্রহ বলা হয়?", "মঙ্গল"),
        ("সমুদ্রপৃষ্ঠে জল কত ডিগ্রি সেলসিয়াসে ফোটে?", "১০০"),
        ("কোন অঙ্গ শরীরে রক্ত পাম্প করে?", "হৃৎপিণ্ড"),
        ("মহাকাশে যাওয়া প্রথম ভারতীয় কে?", "রাকেশ শর্মা"),
        ("কোন উৎসবকে আলোর উৎসব বলা হয়?", "দীপাবলি"),
        ("কোন শাস্ত্রীয় নৃত্য তামিলনাড়ু থেকে এসেছে?", "ভরতনাট্যম"),
        ("স্বর্ণমন্দির কোন শহরে অবস্থিত?", "অমৃতসর"),
        ("ভারতের জাতীয় পশু কী?", "বাঘ"),
    ],
    "tamil": [
        ("இந்தியாவின் தலைநகரம் எது?", "புது தில்லி"),
        ("இந்தியாவின் மிக நீளமான ஆறு எது?", "கங்கை"),
        ("கொல்கத்தா எந்த மாநிலத்தின் தலைநகரம்?", "மேற்கு வங்காளம்"),
        ("இந்தியாவின் மிக உயர்ந்த மலைச் சிகரம் எது?", "கஞ்சன்ஜங்கா"),
        ("ராஜஸ்தானில் உள்ள பாலைவனம் எது?", "தார்"),
        ("இந்தியாவின் தெற்கே உள்ள பெருங்கடல் எது?", "இந்தியப் பெருங்கடல்"),
        ("இளஞ்சிவப்பு நகரம் என்று அழைக்கப்படும் நகரம் எது?", "ஜெய்ப்பூர்"),
        ("இந்தியா எந்த ஆண்டு சுதந்திரம் பெற்றது?", "1947"),
        ("இந்தியாவின் முதல் பிரதமர் யார்?", "ஜவஹர்லால் நேரு"),
        ("இந்தியாவின் தேசிய கீதத்தை எழுதியவர் யார்?", "ரவீந்திரநாத் தாகூர்"),
        ("தாஜ்மஹாலைக் கட்டிய பேரரசர் யார்?", "ஷாஜகான்"),
        ("கலிங்கப் போருக்குப் பின் பௌத்தத்தைப் பரப்பிய மௌரியப் பேரரசர் யார்?", "அசோகர்"),
        ("வங்கப் பிரிவினை எந்த ஆண்டு அறிவிக்கப்பட்டது?", "1905"),
        ("இந்தியாவின் தேசத் தந்தை என்று அழைக்கப்படுபவர் யார்?", "மகாத்மா காந்தி"),
        ("ஒளிச்சேர்க்கைக்குத் தாவரங்கள் எடுத்துக்கொள்ளும் வாயு எது?", "கார்பன் டை ஆக்சைடு"),
        ("நீரின் வேதியியல் வாய்பாடு என்ன?", "H2O"),
        ("சிவப்பு கிரகம் என்று அழைக்கப்படுவது எது?", "செவ்வாய்"),
        ("கடல் மட்டத்தில் நீர் எத்தனை டிகிரி செல்சியஸில் கொதிக்கும்?", "100"),
        ("உடலில் இரத்தத்தை உந்தித் தள்ளும் உறுப்பு எது?", "இதயம்"),
        ("விண்வெளிக்குச் சென்ற முதல் இந்தியர் யார்?", "ராகேஷ் சர்மா"),
        ("ஒளியின் திருவிழா என்று அழைக்கப்படும் பண்டிகை எது?", "தீபாவளி"),
        ("தமிழ்நாட்டின் பாரம்பரிய நடனம் எது?", "பரதநாட்டியம்"),
        ("பொற்கோயில் எந்த நகரத்தில் உள்ளது?", "அமிர்தசரஸ்"),
        ("இந்தியாவின் தேசிய விலங்கு எது?", "புலி"),
    ],
    "telugu": [
        ("భారతదేశ రాజధాని ఏది?", "న్యూఢిల్లీ"),
        ("భారతదేశంలో అతి పొడవైన నది ఏది?", "గంగ"),
        ("కోల్‌కతా ఏ రాష్ట్రానికి రాజధాని?", "పశ్చిమ బెంగాల్"),
        ("భారతదేశంలో ఎత్తైన పర్వత శిఖరం ఏది?", "కాంచనజంగా"),
        ("రాజస్థాన్‌లో ఉన్న ఎడారి ఏది?", "థార్"),
        ("భారతదేశానికి దక్షిణాన ఉన్న మహాసముద్రం ఏది?", "హిందూ మహాసముద్రం"),
        ("గులాబీ నగరం అని ఏ నగరాన్ని అంటారు?", "జైపూర్"),
        ("భారతదేశానికి ఏ సంవత్సరంలో స్వాతంత్ర్యం వచ్చింది?", "1947"),
        ("భారతదేశ మొదటి ప్రధానమంత్రి ఎవరు?", "జవహర్‌లాల్ నెహ్రూ"),
        ("భారత జాతీయ గీతాన్ని ఎవరు రాశారు?", "రవీంద్రనాథ్ ఠాగూర్"),
        ("తాజ్ మహల్‌ను నిర్మించిన చక్రవర్తి ఎవరు?", "షాజహాన్"),
        ("కళింగ యుద్ధం తర్వాత బౌద్ధమతాన్ని వ్యాప్తి చేసిన మౌర్య చక్రవర్తి ఎవరు?", "అశోకుడు"),
        ("బెంగాల్ విభజన ఏ సంవత్సరంలో ప్రకటించబడింది?", "1905"),
        ("భారత జాతిపిత అని ఎవరిని పిలుస్తారు?", "మహాత్మా గాంధీ"),
        ("కిరణజన్య సంయోగక్రియకు మొక్కలు ఏ వాయువును తీసుకుంటాయి?", "కార్బన్ డయాక్సైడ్"),
        ("నీటి రసాయన సూత్రం ఏమిటి?", "H2O"),
        ("ఎర్ర గ్రహం అని దేనిని పిలుస్తారు?", "అంగారకుడు"),
        ("సముద్ర మట్టం వద్ద నీరు ఎన్ని డిగ్రీల సెల్సియస్ వద్ద మరుగుతుంది?", "100"),
        ("శరీరంలో రక్తాన్ని పంప్ చేసే అవయవం ఏది?", "గుండె"),
        ("అంతరిక్షంలోకి వెళ్ళిన మొదటి భారతీయుడు ఎవరు?", "రాకేష్ శర్మ"),
        ("దీపాల పండుగ అని ఏ పండుగను అంటారు?", "దీపావళి"),
        ("తమిళనాడుకు చెందిన శాస్త్రీయ నృత్యం ఏది?", "భరతనాట్యం"),
        ("స్వర్ణ దేవాలయం ఏ నగరంలో ఉంది?", "అమృత్‌సర్"),
        ("భారతదేశ జాతీయ జంతువు ఏది?", "పులి"),
    ],
}

# Spelling variants a model may write instead of the golden form: they
# are right, but exact substring misses them (a scorer's false negative).
VARIANTS = {
    ("hindi", 10): "शाहजहां",        # anusvara for chandrabindu
    ("hindi", 20): "दिवाली",          # short i
    ("hindi", 7): "1947",            # ASCII digits for १९४७
    ("hindi", 17): "100",
    ("bengali", 7): "1947",
    ("bengali", 12): "1905",
    ("bengali", 20): "দীপাবলী",       # long ii
    ("tamil", 11): "அசோகன்",
    ("telugu", 11): "అశోక",
    ("english", 0): "Delhi",
    ("english", 1): "Ganges",
    ("english", 3): "Kanchenjunga",
}

# Rows that always get their variant, so the sample shows each kind of
# miss: ASCII digits for Indic digits (fixed by --normalize indic), and
# spelling variants (not fixed by any normalisation).
FORCED = {("kestrel-7b", "hindi", 7), ("kestrel-7b", "bengali", 7), ("kestrel-7b", "hindi", 10),
          ("kestrel-7b", "english", 1), ("tern-13b", "bengali", 20), ("tern-13b", "hindi", 17)}

# A verbose answer wraps the answer in a sentence of the language.
VERBOSE = {
    "english": "The answer is {}.",
    "hindi": "सही उत्तर {} है।",
    "bengali": "সঠিক উত্তর হল {}।",
    "tamil": "சரியான விடை {}.",
    "telugu": "సరైన సమాధానం {}.",
}

# Per model and language: probabilities of a right answer (terse or
# verbose), a right answer in a variant spelling, a wrong answer, a blank.
PROFILE = {
    "kestrel-7b": {"style": "terse",
                   "english": (0.55, 0.10, 0.30, 0.05), "hindi": (0.75, 0.10, 0.10, 0.05),
                   "bengali": (0.70, 0.10, 0.15, 0.05), "tamil": (0.85, 0.05, 0.10, 0.00),
                   "telugu": (0.80, 0.05, 0.15, 0.00)},
    "tern-13b": {"style": "verbose",
                 "english": (0.95, 0.00, 0.05, 0.00), "hindi": (0.80, 0.05, 0.15, 0.00),
                 "bengali": (0.90, 0.00, 0.10, 0.00), "tamil": (0.55, 0.05, 0.35, 0.05),
                 "telugu": (0.75, 0.00, 0.25, 0.00)},
    "heron-3b": {"style": "terse",
                 "english": (0.45, 0.05, 0.45, 0.05), "hindi": (0.35, 0.05, 0.50, 0.10),
                 "bengali": (0.30, 0.05, 0.55, 0.10), "tamil": (0.30, 0.00, 0.60, 0.10),
                 "telugu": (0.30, 0.00, 0.60, 0.10)},
}


def main():
    rng = random.Random(20261129)
    for model, prof in PROFILE.items():
        for lang, qa in QA.items():
            right, variant, wrong, blank = prof[lang]
            rows = []
            for i, (q, a) in enumerate(qa):
                x = rng.random()
                if x < right:
                    resp = a
                elif x < right + variant:
                    resp = VARIANTS.get((lang, i), a)
                elif x < right + variant + wrong:
                    resp = qa[(i + 1 + rng.randrange(len(qa) - 1)) % len(qa)][1]
                else:
                    resp = ""
                if (model, lang, i) in FORCED:
                    resp = VARIANTS[(lang, i)]
                if resp and prof["style"] == "verbose":
                    resp = VERBOSE[lang].format(resp)
                rows.append([f"q{i + 1:02d}", q, a, DOMAINS[i], resp])
            with open(f"{model}_{lang}.csv", "w", newline="", encoding="utf-8") as f:
                w = csv.writer(f, lineterminator="\n")
                w.writerow(["id", "question", "answer", "Domain", "response"])
                w.writerows(rows)


if __name__ == "__main__":
    main()
