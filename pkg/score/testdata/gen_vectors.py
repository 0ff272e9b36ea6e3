"""Writes gen_vectors.json: published reference figures for pkg/score's
generative metrics, with the repository, commit, file and test each comes
from. Run with python3 from this directory. Nothing here is computed: every
expected number is copied from the named source."""
import json

SB = {"repo": "github.com/mjpost/sacrebleu", "commit": "f615c7286d4d813370efb824d94fc2bfcd3a6b94", "version": "2.6.0"}
HF = {"repo": "github.com/huggingface/evaluate", "commit": "2250e6752374c7dff55696d145cbcb73886bed2a"}
RG = {"repo": "github.com/google-research/google-research",
      "commit": "066e6a12a3817e45919458090102abfc0a09d287 (tests), 10bf941a5a0625bf27bb8443aa849e9b48fdd5f9 (testdata)"}


def src(base, file, test):
    d = dict(base)
    d["file"] = file
    d["test"] = test
    return d


V = []


def add(metric, hyps, refs, options, expected, tol, source, scale=100.0, field="score"):
    """refs are reference streams, as sacreBLEU takes them."""
    V.append({"metric": metric, "hyps": hyps, "refs": refs, "options": options, "expected": expected,
              "scale": scale, "field": field, "tolerance": tol, "source": source})


# chrF: sacreBLEU test/test_chrf.py
EPS = [
    (["abcdefg"], ["hijklmnop"], 0.0), (["a"], ["b"], 0.0), ([""], ["b"], 0.0), ([""], ["ref"], 0.0),
    ([""], ["reference"], 0.0), (["aa"], ["ab"], 8.3333), (["a", "b"], ["a", "c"], 8.3333), (["a"], ["a"], 16.6667),
    (["a b c"], ["a b c"], 50.0), (["a b c"], ["abc"], 50.0),
    ([" risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists ."],
     ["risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists ."], 63.361730),
    ([" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "],
     ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."], 64.1302698),
    (["Niemand hat die Absicht, eine Mauer zu errichten"], ["Niemand hat die Absicht, eine Mauer zu errichten"], 100.0),
]
for h, r, e in EPS:
    add("corpus_chrf", h, [r], {"char_order": 6, "word_order": 0, "beta": 3, "eps_smoothing": True}, e, 1e-4,
        src(SB, "test/test_chrf.py", "test_chrf (test_cases)"))
EFF = [(["a"], ["a"], 100.0), ([""], ["reference"], 0.0), (["a b c"], ["a b c"], 100.0), (["a b c"], ["abc"], 100.0),
       ([""], ["c"], 0.0), (["a", "b"], ["a", "c"], 50.0), (["aa"], ["ab"], 25.0)]
for h, r, e in EFF:
    add("corpus_chrf", h, [r], {"char_order": 6, "word_order": 0, "beta": 3, "eps_smoothing": False}, e, 1e-4,
        src(SB, "test/test_chrf.py", "test_chrf_eff_order (test_cases_effective_order)"))
WS = [
    (["Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."],
     ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."], 67.3481606),
    (["risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists ."],
     ["risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists ."], 65.2414427),
]
for h, r, e in WS:
    add("corpus_chrf", h, [r], {"char_order": 6, "word_order": 0, "beta": 3, "whitespace": True}, e, 1e-4,
        src(SB, "test/test_chrf.py", "test_chrf_keep_whitespace (test_cases_keep_whitespace)"))
SENT = [
    ('Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.',
     'Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře.', 39.14078509),
    ('Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.',
     'A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři.', 31.22557079),
    ('Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.',
     'Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli.', 57.15704367),
]
for h, r, e in SENT:
    add("sentence_chrf", [h], [[r]], {"eps_smoothing": True}, e, 1e-4,
        src(SB, "test/test_chrf.py", "test_chrf_sentence_level (sentence_chrf, default beta 2)"))
# chrF defaults and chrF++: HF evaluate metrics/chrf/chrf.py docstring (doctested against sacreBLEU)
HFP = ["The relationship between cats and dogs is not exactly friendly.",
       "a good bookshop is just a genteel black hole that knows how to read."]
HFR = [["The relationship between dogs and cats is not exactly friendly.",
        "A good bookshop is just a genteel Black Hole that knows how to read."]]
add("corpus_chrf", HFP, HFR, {}, 84.64214891738334, 1e-9,
    src(HF, "metrics/chrf/chrf.py", "docstring Example 1 (sacreBLEU CHRF defaults)"))
add("corpus_chrf", HFP, HFR, {"word_order": 2}, 82.87263732906315, 1e-9,
    src(HF, "metrics/chrf/chrf.py", "docstring Example 2 (chrF++)"))
add("corpus_chrf", HFP, HFR, {"word_order": 2, "lowercase": True}, 92.12853119829202, 1e-9,
    src(HF, "metrics/chrf/chrf.py", "docstring Example 3 (chrF++, lowercase)"))

# BLEU: sacreBLEU test/test_bleu.py and test/test_sentence_bleu.py
REFS = [['The dog bit the man.', 'It was not unexpected.', 'The man bit him first.'],
        ['The dog had bit the man.', 'No one was surprised.', 'The man had bitten the dog.']]
HYPS = ['The dog bit the man.', "It wasn't surprising.", 'The man had just bitten him.']
for opts, e in [({}, 48.530827), ({"tokenize": "none"}, 49.1919566), ({"tokenize": "13a"}, 48.530827),
                ({"smooth": "none"}, 48.530827)]:
    add("corpus_bleu", HYPS, REFS, opts, e, 1e-8, src(SB, "test/test_bleu.py", "test_corpus_bleu (test_corpus_bleu_cases)"))
add("corpus_bleu", ["", "", ""], REFS, {}, 0.0, 1e-8,
    src(SB, "test/test_bleu.py", "test_corpus_bleu: empty hypotheses are not removed"))
for order, e in [(1, "77.65"), (2, "60.50"), (3, "53.93"), (4, "48.53"), (5, "46.14"), (6, "43.28")]:
    add("corpus_bleu", HYPS, REFS, {"max_order": order}, float(e), 0.005,
        src(SB, "test/test_bleu.py", "test_max_ngram_order (printed with 2 decimals)"))
RAW = {"tokenize": "none", "smooth": "floor", "smooth_value": 0.01, "effective_order": True}
for h, r, e in [(["this is a test", "another test"], [["ref1", "ref2"]], 0.0), (["this is a test"], [["this is a test"]], 1.0),
                (["this is a fest"], [["this is a test"]], 0.223606797749979)]:
    add("corpus_bleu", h, r, RAW, e, 1e-8, src(SB, "test/test_bleu.py", "test_raw_bleu (raw_corpus_bleu with floor 0.01)"), scale=1.0)
for h, r, e in [(["test"], [["a test"]], 0.3678794411714425), (["a test"], [["a test"]], 1.0),
                (["a little test"], [["a test"]], 0.03218297948685433)]:
    add("corpus_bleu", h, r, RAW, e, 1e-8, src(SB, "test/test_bleu.py", "test_effective_order (raw_corpus_bleu with floor 0.01)"), scale=1.0)
OH, OR = ["am I am a character sequence"], [["I am a symbol string sequence a a"]]
add("corpus_bleu", OH, OR, {"tokenize": "none", "smooth": "floor", "effective_order": True}, 0.1555722182, 1e-8,
    src(SB, "test/test_bleu.py", "test_offset (raw_corpus_bleu, default floor 0.1)"), scale=1.0)
add("corpus_bleu", OH, OR, {"tokenize": "none", "smooth": "none", "effective_order": True}, 0.0, 1e-8,
    src(SB, "test/test_bleu.py", "test_offset (floor 0.0, which is no smoothing)"), scale=1.0)
add("corpus_bleu_counts", OH, OR, RAW, {"counts": [4, 2, 1, 0], "totals": [6, 5, 4, 3]}, 0,
    src(SB, "test/test_bleu.py", "test_statistics"), scale=1.0, field="counts")
REF = "producţia de zahăr brut se exprimă în zahăr alb;"
SYS = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
for sm, sv, tok, e in [("exp", 0, "13a", 8.493), ("none", 0, "13a", 0.0), ("floor", 0, "13a", 4.51688),
                       ("floor", 0.1, "13a", 4.51688), ("floor", 0.5, "13a", 10.10), ("add-k", 0, "13a", 14.882),
                       ("add-k", 1, "13a", 14.882), ("add-k", 2, "13a", 21.389), ("exp", 0, "none", 7.347)]:
    o = {"smooth": sm, "tokenize": tok, "effective_order": True}
    if sv:
        o["smooth_value"] = sv
    add("sentence_bleu", [SYS], [[REF]], o, e, 1e-3,
        src(SB, "test/test_sentence_bleu.py", "test_compat_sentence_bleu (printed to 3 decimals, EPSILON 1e-3)"))
for sm in ["exp", "none", "floor", "add-k"]:
    add("sentence_bleu", ["this is a cat"], [["okay thanks"]], {"smooth": sm, "effective_order": True}, 0.0, 1e-3,
        src(SB, "test/test_sentence_bleu.py", "test_api_sentence_bleu_zero"))

# TER: sacreBLEU test/test_ter.py (EPSILON 1e-3 on the 0..100 scale)
TH = [
    'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , damit das Bild ungefähr dieselbe Größe aufweist wie die andere Größe .',
    'wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
    'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und geben Sie Werte für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " ein .',
    'Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne enthält .',
    'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "',
]
TR = [
    'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , damit die Darstellung des Bildes in einer anderen Größe beibehalten wird .',
    'wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
    'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und geben Sie für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " niedrigere Werte ein .',
    'Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich über die Bühne bewegt .',
    'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "',
]
for h, r, e, name in [(['aaaa bbbb cccc dddd'], ['aaaa bbbb cccc dddd'], 0, "perfect match"),
                      (['dddd eeee ffff'], ['aaaa bbbb cccc'], 1, "no overlap"),
                      ([''], ['a'], 1, "empty hypothesis"), (['a'], [''], 1, "empty reference"),
                      ([''], [''], 0, "both empty"), (['d e f g h a b c'], ['a b c d e f g h'], 1 / 8, "a single shift"),
                      (TH, TR, 0.136, "realistic example from WMT dev data (2019)")]:
    add("corpus_ter", h, [r], {}, 100 * e, 1e-3, src(SB, "test/test_ter.py", "test_ter: " + name))
TP = ["does this sentence match??", "what about this sentence?", "What did the TER metric user say to the developer?"]
TRS = [["does this sentence match", "wHaT aBoUt ThIs SeNtEnCe?", "Your jokes are..."],
       ["does this sentence match!?!", "wHaT aBoUt ThIs SeNtEnCe?", "...TERrible"]]
add("corpus_ter", TP, TRS, {"case_sensitive": True}, 150.0, 1e-9,
    src(HF, "metrics/ter/ter.py", "docstring Example 1 (num_edits 15, ref_length 10.0)"))
add("corpus_ter", TP[:2], [s[:2] for s in TRS], {"case_sensitive": True}, 62.5, 1e-9,
    src(HF, "metrics/ter/ter.py", "docstring Example 2 (num_edits 5, ref_length 8.0)"))


# ROUGE: rouge-score rouge/rouge_scorer_test.py
def rg(kind, target, pred, p, r, f, tol, test):
    V.append({"metric": kind, "target": target, "prediction": pred,
              "expected": {"precision": p, "recall": r, "f": f}, "tolerance": tol,
              "source": src(RG, "rouge/rouge_scorer_test.py", test)})


T7 = 5e-8  # assertAlmostEqual's default: equal when rounded to 7 places
rg("rouge1", "testing one two", "testing", 1, 1 / 3, 1 / 2, T7, "testRouge1")
rg("rouge2", "testing one two", "testing one", 1, 1 / 2, 2 / 3, T7, "testRouge2")
rg("rougeL", "testing one two", "testing one", 1, 2 / 3, 4 / 5, T7, "testRougeLConsecutive")
rg("rougeL", "testing one two", "testing two", 1, 2 / 3, 4 / 5, T7, "testRougeLNonConsecutive")
for k in ["rouge1", "rouge2", "rougeL"]:
    rg(k, "testing one two", "", 0, 0, 0, T7, "testRougeEmpty")
# rouge/testdata/target.txt and prediction.txt, lines 1 and 2 as readlines() returns them.
T0 = "ZfbCUIUuePaiLVUlCaUXxkpu XPeWing tUHfPMuZ',-Xd Y BrUgVJing M-HV.-DgdDaY.rFDJCRing Ht-LM EKBDXkME,yz'RBr q'wtion wIojNbN wL,b .a-'XdQggyFl jB-RPP'iyOIcUxer tKM L\n"
T1 = "KsJdPByEtAor fE-Qg Dpdbring cw-WeFyu vC MoBL Xdn g wkvcEiGvKtion BDFhrpMtion psing sbKao Q m qiing LMmer HqqLFXe,XPY,J XsurkMer ,ed nB'wH'bWVHjWFEing tQ.saefZwJtKrTlixYpMMsJing UCAPwNHeYVjDing c T BUySKtion gMPfJpwGw p'NvxAoping eu pBwMBKV'I DNxqelhu,PHPxDEq,mtion SN\n"
P0 = "rFDJCRtion Ht-LM EKtDXkME,yz'RBr q'wer wrojNbN wL,b .a-'XdQggyFl jB-RPP'iyOIcUxi\n"
P1 = "n cw-WeFyu vC MoBL Xdn g wkvcEiGvKtion BDFhrpMer pstion sbKao Q m qier LMmed HqqLFXe,XPY,J XsurkMeo ,ed nB'wH'bWVHjWFEer tQ.saefZwJtKrTlixYpMMNJtion UCAPwNHeYVjD\n"
T5 = 5e-6  # assertAlmostEqual(..., 5)
rg("rouge1", T0, P0, 0.68750, 0.40741, 0.51163, T5, "testRouge1AgainstRouge155 (ROUGE-1.5.5 figures), line 1")
rg("rouge1", T1, P1, 0.65385, 0.40476, 0.50000, T5, "testRouge1AgainstRouge155, line 2")
rg("rouge2", T0, P0, 0.53333, 0.30769, 0.39024, T5, "testRouge2AgainstRouge155, line 1")
rg("rouge2", T1, P1, 0.48000, 0.29268, 0.36364, T5, "testRouge2AgainstRouge155, line 2")
rg("rougeL", T0, P0, 0.68750, 0.40741, 0.51163, T5, "testRougeLAgainstRouge155, line 1")
rg("rougeL", T1, P1, 0.65385, 0.40476, 0.50000, T5, "testRougeLAgainstRouge155, line 2")

DOC = {"about": "Reference vectors for pkg/score's generative metrics, each with its provenance. Scores from sacreBLEU "
       "and HF evaluate are on sacreBLEU's 0..100 scale unless scale is 1; pkg/score reports on [0, 1], so a test "
       "compares expected/scale. tolerance is the source's own (its EPSILON, assertAlmostEqual places or printed "
       "precision) on the source's scale. refs are reference streams (refs[k][i] is the k-th reference of hyps[i]). "
       "Written by gen_vectors.py from the sources named; no number here was computed by evalbook.",
       "vectors": V}
with open("gen_vectors.json", "w", encoding="utf-8") as f:
    json.dump(DOC, f, ensure_ascii=False, indent=1)
    f.write("\n")
print(len(V), "vectors")
