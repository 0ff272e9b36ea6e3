package harness

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

// StopWords are dropped from questions and chunks before retrieval: the
// function words of English, Bengali and Hindi and, unlike the leakage
// check's list, the question words (how, what, কী, क्या ...), which say
// nothing about which document holds the answer. In NFC.
var StopWords = []string{
	"a", "about", "am", "an", "and", "any", "are", "as", "at", "be", "been", "by", "can", "could",
	"d", "did", "do", "does", "for", "from", "get", "had", "has", "have", "how", "i", "if", "in",
	"into", "is", "it", "its", "ll", "m", "may", "me", "might", "much", "must", "my", "of", "on",
	"or", "our", "re", "s", "should", "so", "t", "than", "that", "the", "their", "them", "then",
	"there", "these", "they", "this", "those", "to", "us", "ve", "was", "we", "what", "when",
	"where", "which", "who", "why", "will", "with", "would", "you", "your",
	"আমি", "আমার", "আমাকে", "আমরা", "আপনি", "আপনার", "কি", "কী", "কত", "কখন", "কোথায়", "কেন",
	"কীভাবে", "কোন", "কোনো", "এই", "সেই", "যে", "এবং", "ও", "আর", "বা", "তো", "হয়", "হবে", "আছে",
	"থেকে", "জন্য", "দিয়ে", "সাথে", "মধ্যে", "একটা", "একটি", "তা", "কে",
	"का", "की", "के", "को", "में", "से", "पर", "है", "हैं", "था", "थी", "और", "या", "मैं", "मेरा",
	"मेरी", "आप", "आपका", "यह", "वह", "क्या", "कब", "कैसे", "कितने", "कितना", "तो", "भी", "ने", "एक",
}

var stopSet = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range StopWords {
		m[textnorm.NFC.Apply(w)] = true
	}
	return m
}()

// terms returns the distinct non-stop words of s, sorted: words are runs of
// letters, marks and digits after NFC, zero-width-joiner removal, Indic
// digit folding and lower-casing.
func terms(s string) []string {
	s = textnorm.Lower(textnorm.Indic.Apply(s))
	ws := textnorm.Words(s) // the Indic profile has already removed joiners
	seen := map[string]bool{}
	var out []string
	for _, w := range ws {
		if !stopSet[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// Retriever ranks chunks of a corpus for a question.
type Retriever struct {
	Chunking Chunking // how NewRetriever cut the documents
	chunks   []Chunk
	terms    [][]string
	docs     int
}

// NewRetriever chunks docs and indexes the chunks. A chunking other than
// Paragraph and Sentence is an error (see ParseChunking).
func NewRetriever(docs []Document, ch Chunking) (*Retriever, error) {
	chunks, err := Chunks(docs, ch)
	if err != nil {
		return nil, err
	}
	r := &Retriever{Chunking: ch, chunks: chunks, docs: len(docs)}
	r.terms = make([][]string, len(r.chunks))
	for i, c := range r.chunks {
		r.terms[i] = terms(c.Text)
	}
	return r, nil
}

// LoadRetriever reads the corpus in fsys (ReadCorpus) and indexes it
// under ch (NewRetriever). An error reading the corpus names it by label
// ("corpus LABEL: ..."), e.g. the directory fsys was opened from.
func LoadRetriever(fsys fs.FS, label string, ch Chunking) (*Retriever, error) {
	docs, err := ReadCorpus(fsys)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", label, err)
	}
	return NewRetriever(docs, ch)
}

// Len returns the number of chunks the retriever searches.
func (r *Retriever) Len() int { return len(r.chunks) }

// Documents returns the number of documents the chunks were cut from.
func (r *Retriever) Documents() int { return r.docs }

// Hit is a chunk and its score for a question.
type Hit struct {
	Chunk
	Score float64
}

// ErrNoTerms is returned for a question with no searchable word.
var ErrNoTerms = errors.New("the question has no searchable word")

// Search scores every chunk by the share of the question's terms it
// contains,
//
//	score(q, c) = |T(q) ∩ T(c)| / |T(q)|
//
// (T: the distinct words without StopWords; matching is exact, so an
// inflected form does not match) and returns the chunks with a positive
// score, best first; ties go to the smaller document id, then the earlier
// chunk.
func (r *Retriever) Search(question string) ([]Hit, error) {
	q := terms(question)
	if len(q) == 0 {
		return nil, ErrNoTerms
	}
	var hits []Hit
	for i, ct := range r.terms {
		shared := 0
		for _, w := range q {
			if k := sort.SearchStrings(ct, w); k < len(ct) && ct[k] == w {
				shared++
			}
		}
		if shared > 0 {
			hits = append(hits, Hit{r.chunks[i], float64(shared) / float64(len(q))})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		if hits[i].DocID != hits[j].DocID {
			return hits[i].DocID < hits[j].DocID
		}
		return hits[i].N < hits[j].N
	})
	return hits, nil
}

// Model writes a reply from the question and the ranked evidence (never
// empty when called).
type Model interface {
	Reply(question string, evidence []Hit) string
}

// CopyModel is the worst-case model: it copies the top evidence and its
// source id, "<text> [<doc id>]", whatever the question. It never abstains,
// so only the system's guard can pass an unanswerable case.
type CopyModel struct{}

// Reply returns the top chunk's text followed by its document id in brackets.
func (CopyModel) Reply(_ string, evidence []Hit) string {
	return evidence[0].Text + " [" + evidence[0].DocID + "]"
}

// System is the system under test: retrieve, guard, then let the model
// reply. The guard abstains when nothing matches, when the top score is
// below MinScore, or when the margin (top score minus the best score of a
// chunk from another document, 0 when there is none) is below MinMargin.
type System struct {
	Retriever *Retriever
	Model     Model
	MinScore  float64
	MinMargin float64
}

// Reply is what the system did with one question.
type Reply struct {
	Kind   string  `json:"kind"`   // answer, abstain or error
	Text   string  `json:"text"`   // the model's reply, for an answer
	Source string  `json:"source"` // the document of the top evidence, "" when nothing matched
	Score  float64 `json:"score"`  // the top score
	Margin float64 `json:"margin"`
	Reason string  `json:"reason"` // why the guard abstained, or the error
}

// Ask runs one question through the system.
func (s *System) Ask(question string) Reply {
	hits, err := s.Retriever.Search(question)
	if err != nil {
		return Reply{Kind: KindError, Reason: err.Error()}
	}
	if len(hits) == 0 {
		return Reply{Kind: KindAbstain, Reason: "no chunk shares a word with the question"}
	}
	top := hits[0]
	second := 0.0
	for _, h := range hits[1:] {
		if h.DocID != top.DocID {
			second = h.Score
			break
		}
	}
	rep := Reply{Source: top.DocID, Score: top.Score, Margin: top.Score - second}
	switch {
	case top.Score < s.MinScore:
		rep.Kind, rep.Reason = KindAbstain, fmt.Sprintf("top score %.3f is below the minimum %g", top.Score, s.MinScore)
	case rep.Margin < s.MinMargin:
		rep.Kind, rep.Reason = KindAbstain, fmt.Sprintf("margin %.3f over another document is below the minimum %g", rep.Margin, s.MinMargin)
	default:
		model := s.Model
		if model == nil {
			model = CopyModel{}
		}
		rep.Kind, rep.Text = KindAnswer, model.Reply(question, hits)
	}
	return rep
}
