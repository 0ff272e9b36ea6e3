package generate

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// A Question is one row of a dataset: the text sent to the model and the
// fields copied to the response table.
type Question struct {
	Line int    // 1-based line (or sheet row) of the dataset
	ID   string // "" when the dataset has no id; the response table numbers it
	Text string // the question column
	// Answer (the golden answer) and Domain are copied when present.
	Answer, Domain string
	// Language picks the prompt template: the fixed language given to
	// ReadQuestions, else the row's language column (a name or code
	// that textnorm knows is normalised, any other kept lower-cased),
	// else the language of a <name>_<language> file name, else the
	// script of the question (Devanagari is taken as Hindi).
	Language string
	// LanguageCell is the row's language column as the dataset wrote it
	// ("en", "hi-IN", "Bengali"), spaces trimmed, or "" when the row has
	// none or a fixed language was given. The response table keeps it,
	// so a dataset's codes come back as they went in.
	LanguageCell string
}

// LanguageOut is the language the response table writes for q: the
// dataset's own cell when it had one, else the settled Language.
func (q Question) LanguageOut() string {
	if q.LanguageCell != "" {
		return q.LanguageCell
	}
	return q.Language
}

// ReadQuestionsFile reads the dataset at path; see ReadQuestions.
func ReadQuestionsFile(path, language string) ([]Question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadQuestions(f, path, language)
}

// ReadQuestions reads the questions of a dataset named name (a path:
// its extension gives the format and its <name>_<language> form a
// language): CSV (.csv, .txt or no extension) with a header row or JSON
// Lines (.jsonl, .ndjson) through pkg/tabular, or a format registered
// with pkg/qa (.xlsx when pkg/xlsxread is imported: the first sheet,
// rows numbered as in Excel). The dataset needs a question column (a
// "question" key on every JSON line, which may leave out others); id,
// answer, Domain and language are copied when present. A JSON value is
// taken as its text as written: the number 1.50 is "1.50", an object is
// its compact JSON, null is "".
//
// language, when not "", is every question's language (a name, as
// textnorm.ParseLanguage gives it); see Question.Language otherwise.
//
// Every error about the dataset's content is a *tabular.ParseError
// naming the file, line, character column and field: invalid UTF-8, bad
// quoting or JSON, an empty file, no question column, a row without a
// question, a file with a header but no rows.
func ReadQuestions(r io.Reader, name, language string) ([]Question, error) {
	_, fileLang, _ := textnorm.LanguageFromFileName(name)
	settle := func(q *Question, col string) {
		switch {
		case language != "":
			q.Language = language
		case strings.TrimSpace(col) != "":
			q.LanguageCell = strings.TrimSpace(col)
			q.Language = strings.ToLower(q.LanguageCell)
			if l, ok := textnorm.ParseLanguage(q.Language); ok {
				q.Language = l
			} else if base, _, cut := strings.Cut(strings.ReplaceAll(q.Language, "_", "-"), "-"); cut {
				if l, ok := textnorm.ParseLanguage(base); ok { // hi-IN, bn_BD
					q.Language = l
				}
			}
		case fileLang != "":
			q.Language = fileLang
		default:
			q.Language, _ = textnorm.LanguageOfScript(textnorm.ScriptOf(q.Text))
		}
	}
	var qs []Question
	var err error
	switch format := tabular.FormatOf(name); format {
	case "csv", "jsonl":
		qs, err = readTable(r, name, format, settle)
	default:
		qs, err = readRegistered(r, name, settle)
	}
	if err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		return nil, &tabular.ParseError{File: name, Err: errors.New("no questions: the file has a header but no rows")}
	}
	return qs, nil
}

// columnsHint is what an empty dataset is told to hold.
const columnsHint = "want a header row naming a question column (and optionally id, answer, Domain, language)"

// readTable reads CSV or JSON Lines through tabular.Reader.
func readTable(r io.Reader, name, format string, settle func(*Question, string)) ([]Question, error) {
	rd, err := tabular.NewReader(r, name, tabular.Options{Format: format, Sparse: true})
	if err != nil {
		if errors.Is(err, tabular.ErrEmptyFile) {
			hint := columnsHint
			if format == "jsonl" {
				hint = `want one JSON object per line with a "question" field`
			}
			return nil, &tabular.ParseError{File: name, Err: fmt.Errorf("%w: %s", tabular.ErrEmptyFile, hint)}
		}
		return nil, err
	}
	qi := rd.Index("question")
	if qi < 0 && format == "csv" {
		return nil, &tabular.ParseError{File: name, Line: 1, Field: "question",
			Err: fmt.Errorf("no %q column (the header has %s)", "question", strings.Join(rd.Header(), ", "))}
	}
	var qs []Question
	for rd.Scan() {
		rec := rd.Record()
		// A JSON line may add keys (the header grows), so look again.
		get := func(col string) string {
			if i := rd.Index(col); i >= 0 && i < len(rec.Fields) {
				return rec.Fields[i]
			}
			return ""
		}
		if qi < 0 {
			qi = rd.Index("question")
		}
		switch {
		case qi < 0:
			return nil, &tabular.ParseError{File: name, Line: rec.Line, Field: "question", Err: fmt.Errorf("no %q field", "question")}
		case rec.Kind(qi) == tabular.Absent:
			return nil, rd.Errorf(qi, "no %q field", "question")
		case strings.TrimSpace(rec.Fields[qi]) == "":
			return nil, rd.Errorf(qi, "empty question")
		}
		q := Question{Line: rec.Line, ID: get("id"), Text: rec.Fields[qi], Answer: get("answer"), Domain: get("Domain")}
		settle(&q, get("language"))
		qs = append(qs, q)
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	return qs, nil
}

// readRegistered reads a format registered with pkg/qa (an .xlsx
// workbook). Any other extension is refused by name rather than parsed
// as CSV.
func readRegistered(r io.Reader, name string, settle func(*Question, string)) ([]Question, error) {
	src, err := qa.Open(r, name, "")
	if err != nil {
		const reads = "generate reads .csv, .jsonl and .xlsx files"
		var pe *tabular.ParseError
		if errors.As(err, &pe) { // not a workbook
			at := *pe
			at.Err = fmt.Errorf("%w; %s", pe.Err, reads)
			return nil, &at
		}
		// qa's unknown-format error names the file first.
		return nil, &tabular.ParseError{File: name,
			Err: fmt.Errorf("%s; %s", strings.TrimPrefix(err.Error(), name+": "), reads)}
	}
	hdr, err := src.Header()
	if err != nil {
		return nil, err
	}
	if !slices.Contains(hdr, "question") {
		return nil, &tabular.ParseError{File: name, Field: "question",
			Err: fmt.Errorf("header row: no %q column (the header has %s)", "question", strings.Join(hdr, ", "))}
	}
	col := func(rec []string, name string) string {
		if i := slices.Index(hdr, name); i >= 0 && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	var qs []Question
	for {
		rec, line, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		q := Question{Line: line, ID: col(rec, "id"), Text: col(rec, "question"), Answer: col(rec, "answer"), Domain: col(rec, "Domain")}
		if strings.TrimSpace(q.Text) == "" {
			return nil, &tabular.ParseError{File: name, Line: line, Field: "question", Err: errors.New("empty question")}
		}
		settle(&q, col(rec, "language"))
		qs = append(qs, q)
	}
	return qs, nil
}
