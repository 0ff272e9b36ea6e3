"""Writes kestrel-7b_predictions.csv: a sample multiple-choice prediction
file (one row per option) for `evalbook mc`.

Eight general-knowledge questions, written for this project, asked in
English, Hindi, Bengali and Tamil, with option labels in each language's
script. The log-likelihoods belong to no real model: each option gets a
per-character log-probability drawn from a seeded generator (higher for
the gold option, noisier in Tamil), times its length, plus noise; the token
counts are the length times a per-language fertility with noise. Run:
python3 gen_predictions.py
"""
import csv
import random

Q = [
    ("science", {
        "english": ("Which planet is known as the Red Planet?", ["Mars", "Venus", "Jupiter", "Mercury"], 0),
        "hindi": ("लाल ग्रह किसे कहा जाता है?", ["मंगल", "शुक्र", "बृहस्पति", "बुध"], 0),
        "bengali": ("কোন গ্রহকে লাল গ্রহ বলা হয়?", ["মঙ্গল", "শুক্র", "বৃহস্পতি", "বুধ"], 0),
        "tamil": ("சிவப்பு கிரகம் என்று அழைக்கப்படுவது எது?", ["செவ்வாய்", "வெள்ளி", "வியாழன்", "புதன்"], 0)}),
    ("science", {
        "english": ("Which gas do plants take from the air for photosynthesis?", ["Oxygen", "Carbon dioxide", "Nitrogen", "Hydrogen"], 1),
        "hindi": ("प्रकाश संश्लेषण के लिए पौधे हवा से कौन-सी गैस लेते हैं?", ["ऑक्सीजन", "कार्बन डाइऑक्साइड", "नाइट्रोजन", "हाइड्रोजन"], 1),
        "bengali": ("সালোকসংশ্লেষণের জন্য উদ্ভিদ বাতাস থেকে কোন গ্যাস গ্রহণ করে?", ["অক্সিজেন", "কার্বন ডাই অক্সাইড", "নাইট্রোজেন", "হাইড্রোজেন"], 1),
        "tamil": ("ஒளிச்சேர்க்கைக்கு தாவரங்கள் காற்றிலிருந்து எந்த வாயுவை எடுத்துக்கொள்கின்றன?", ["ஆக்ஸிஜன்", "கார்பன் டை ஆக்சைடு", "நைட்ரஜன்", "ஹைட்ரஜன்"], 1)}),
    ("geography", {
        "english": ("Which river flows through Varanasi?", ["Ganga", "Godavari", "Narmada", "Kaveri"], 0),
        "hindi": ("वाराणसी से होकर कौन-सी नदी बहती है?", ["गंगा", "गोदावरी", "नर्मदा", "कावेरी"], 0),
        "bengali": ("বারাণসীর মধ্য দিয়ে কোন নদী প্রবাহিত হয়?", ["গঙ্গা", "গোদাবরী", "নর্মদা", "কাবেরী"], 0),
        "tamil": ("வாரணாசி வழியாக ஓடும் ஆறு எது?", ["கங்கை", "கோதாவரி", "நர்மதா", "காவிரி"], 0)}),
    ("history", {
        "english": ("In which year did India become independent?", ["1942", "1947", "1950", "1857"], 1),
        "hindi": ("भारत किस वर्ष स्वतंत्र हुआ?", ["१९४२", "१९४७", "१९५०", "१८५७"], 1),
        "bengali": ("ভারত কোন সালে স্বাধীন হয়?", ["১৯৪২", "১৯৪৭", "১৯৫০", "১৮৫৭"], 1),
        "tamil": ("இந்தியா எந்த ஆண்டு சுதந்திரம் பெற்றது?", ["1942", "1947", "1950", "1857"], 1)}),
    ("geography", {
        "english": ("Which is the largest ocean?", ["Atlantic Ocean", "Indian Ocean", "Pacific Ocean", "Arctic Ocean"], 2),
        "hindi": ("सबसे बड़ा महासागर कौन-सा है?", ["अटलांटिक महासागर", "हिंद महासागर", "प्रशांत महासागर", "आर्कटिक महासागर"], 2),
        "bengali": ("সবচেয়ে বড় মহাসাগর কোনটি?", ["আটলান্টিক মহাসাগর", "ভারত মহাসাগর", "প্রশান্ত মহাসাগর", "আর্কটিক মহাসাগর"], 2),
        "tamil": ("மிகப்பெரிய பெருங்கடல் எது?", ["அட்லாண்டிக் பெருங்கடல்", "இந்தியப் பெருங்கடல்", "பசிபிக் பெருங்கடல்", "ஆர்க்டிக் பெருங்கடல்"], 2)}),
    ("science", {
        "english": ("At sea level, water boils at how many degrees Celsius?", ["90", "100", "110", "120"], 1),
        "hindi": ("समुद्र तल पर पानी कितने डिग्री सेल्सियस पर उबलता है?", ["९०", "१००", "११०", "१२०"], 1),
        "bengali": ("সমুদ্রপৃষ্ঠে জল কত ডিগ্রি সেলসিয়াসে ফোটে?", ["৯০", "১০০", "১১০", "১২০"], 1),
        "tamil": ("கடல் மட்டத்தில் நீர் எத்தனை டிகிரி செல்சியஸில் கொதிக்கிறது?", ["90", "100", "110", "120"], 1)}),
    ("history", {
        "english": ("Who wrote the national anthem Jana Gana Mana?", ["Rabindranath Tagore", "Bankim Chandra", "Sarojini Naidu", "Subramania Bharati"], 0),
        "hindi": ("राष्ट्रगान जन गण मन किसने लिखा?", ["रवींद्रनाथ टैगोर", "बंकिम चंद्र", "सरोजिनी नायडू", "सुब्रमण्य भारती"], 0),
        "bengali": ("জাতীয় সংগীত জন গণ মন কে লিখেছেন?", ["রবীন্দ্রনাথ ঠাকুর", "বঙ্কিমচন্দ্র", "সরোজিনী নাইডু", "সুব্রহ্মণ্য ভারতী"], 0),
        "tamil": ("ஜன கண மன தேசிய கீதத்தை எழுதியவர் யார்?", ["ரவீந்திரநாத் தாகூர்", "பங்கிம் சந்திரர்", "சரோஜினி நாயுடு", "சுப்பிரமணிய பாரதி"], 0)}),
    ("geography", {
        "english": ("Which is the highest mountain peak in India?", ["Nanda Devi", "Kangchenjunga", "Anamudi", "Mount Abu"], 1),
        "hindi": ("भारत की सबसे ऊँची पर्वत चोटी कौन-सी है?", ["नंदा देवी", "कंचनजंगा", "अनामुडी", "माउंट आबू"], 1),
        "bengali": ("ভারতের সর্বোচ্চ পর্বতশৃঙ্গ কোনটি?", ["নন্দা দেবী", "কাঞ্চনজঙ্ঘা", "আনাইমুদি", "মাউন্ট আবু"], 1),
        "tamil": ("இந்தியாவின் மிக உயர்ந்த மலைச் சிகரம் எது?", ["நந்தா தேவி", "கஞ்சன்ஜங்கா", "ஆனைமுடி", "மவுண்ட் அபு"], 1)}),
]
LABELS = {"english": "ABCD", "hindi": "कखगघ", "bengali": "কখগঘ", "tamil": "அஆஇஈ"}
FERTILITY = {"english": 0.25, "hindi": 0.45, "bengali": 0.5, "tamil": 0.6}  # tokens per character
NOISE = {"english": 0.25, "hindi": 0.35, "bengali": 0.45, "tamil": 0.7}


def main():
    rng = random.Random(20261129)
    rows = []
    for qi, (subject, langs) in enumerate(Q):
        for lang in ["english", "hindi", "bengali", "tamil"]:
            question, choices, gold = langs[lang]
            for ci, text in enumerate(choices):
                n = len(text)
                tokens = max(1, round(n * FERTILITY[lang] * rng.uniform(0.6, 1.6)))
                per_char = -0.55 - rng.random() * NOISE[lang]
                if ci == gold:
                    per_char += 0.2
                ll = per_char * n + rng.uniform(-0.8, 0.8)
                rows.append([f"q{qi + 1:02d}", lang, subject, question, LABELS[lang][ci], text,
                             f"{ll:.3f}", str(tokens), LABELS[lang][gold]])
    with open("kestrel-7b_predictions.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "language", "subject", "question", "choice", "choice_text", "loglik", "tokens", "gold"])
        w.writerows(rows)


if __name__ == "__main__":
    main()
