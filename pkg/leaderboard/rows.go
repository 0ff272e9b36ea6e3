package leaderboard

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// scoreFile scores one file with pkg/qa and returns its rows by model
// and language, read back from the verdict file qa writes.
func scoreFile(ctx context.Context, in Input, m *score.Metric, opt Options, b *Board) (FileInfo, map[string]map[string][]row, error) {
	cols := opt.Columns
	d := qa.DefaultColumns
	for _, f := range []struct {
		dst *string
		def string
	}{
		{&cols.Question, d.Question}, {&cols.Answer, d.Answer}, {&cols.Domain, d.Domain}, {&cols.Response, d.Response},
		{&cols.ID, d.ID}, {&cols.Language, d.Language}, {&cols.Model, d.Model},
	} {
		if *f.dst == "" {
			*f.dst = f.def
		}
	}
	var buf bytes.Buffer
	res, err := qa.ScoreFile(ctx, in.Path, qa.Options{Columns: cols, Metrics: []*score.Metric{m}, Profile: opt.Profile,
		By: [][]string{}, CI: "none", Verdicts: &buf, Workers: opt.Workers, RepairUTF8: opt.RepairUTF8})
	if err != nil {
		return FileInfo{}, nil, err
	}
	// With CI "none" pkg/qa gives no interval warnings: these are all
	// about rows.
	for _, w := range res.Warnings {
		b.fileWarning(in.Path, w)
	}
	r := csv.NewReader(&buf)
	r.ReuseRecord = true
	hdr, err := r.Read()
	if err != nil {
		return FileInfo{}, nil, fmt.Errorf("%s: reading back the verdicts: %w", in.Path, err)
	}
	pos := map[string]int{}
	for i, h := range hdr {
		if _, dup := pos[h]; !dup {
			pos[h] = i
		}
	}
	col := func(name string) int {
		if i, ok := pos[name]; ok && name != "" {
			return i
		}
		return -1
	}
	iID, iQ, iA, iD, iR := col(cols.ID), col(cols.Question), col(cols.Answer), col(cols.Domain), col(cols.Response)
	iL, iM := col(cols.Language), col(cols.Model)
	iV, iB := col(m.ID), col("blank_response")
	if iQ < 0 || iA < 0 || iV < 0 {
		return FileInfo{}, nil, fmt.Errorf("%s: the verdict file lacks its question, answer or %s column", in.Path, m.ID)
	}
	info := FileInfo{Path: in.name(), Model: in.Model, Rows: res.Combined.N, Hash: res.Dataset.Hash}
	perRowModel := in.Language == "" && iM >= 0
	if perRowModel {
		info.Model = "(model column)"
	}
	var cs score.CorpusStats
	if m.Corpus != nil {
		cs = m.Corpus.New()
	}
	out := map[string]map[string][]row{}
	langs := map[string]bool{}
	sources := map[string]int{}
	var disagree, guessed, unknown int
	line := 1
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return FileInfo{}, nil, fmt.Errorf("%s: reading back the verdicts: %w", in.Path, err)
		}
		line++
		v, err := strconv.ParseFloat(rec[iV], 64)
		if err != nil {
			return FileInfo{}, nil, fmt.Errorf("%s: verdict row %d: %q is not a number", in.Path, line, rec[iV])
		}
		rw := row{value: v, key: rec[iQ]}
		if iID >= 0 && strings.TrimSpace(rec[iID]) != "" {
			rw.key = strings.TrimSpace(rec[iID])
		}
		if iD >= 0 {
			rw.domain = rec[iD]
		}
		rw.blank = iB >= 0 && rec[iB] == "1"
		colLang := ""
		if iL >= 0 {
			colLang = strings.TrimSpace(rec[iL])
			if l, ok := textnorm.ParseLanguage(colLang); ok {
				colLang = l
			} else {
				colLang = strings.ToLower(colLang)
			}
		}
		switch {
		case in.Language != "":
			rw.language = in.Language
			sources["file name"]++
			if colLang != "" && colLang != in.Language {
				disagree++
			}
		case colLang != "":
			rw.language = colLang
			sources["column"]++
		default:
			sc := textnorm.ScriptOf(rec[iA])
			l, ambiguous := textnorm.LanguageOfScript(sc)
			if l == "" {
				l = "unknown"
				unknown++
			} else if ambiguous {
				guessed++
			}
			rw.language = l
			sources["script"]++
		}
		if cs != nil {
			g, resp := rec[iA], ""
			if iR >= 0 {
				resp = rec[iR]
			}
			rw.stats = cs.AppendStats(nil, opt.Profile.Apply(g), opt.Profile.Apply(resp))
		}
		model := in.Model
		if perRowModel && strings.TrimSpace(rec[iM]) != "" {
			model = strings.TrimSpace(rec[iM])
		}
		if out[model] == nil {
			out[model] = map[string][]row{}
		}
		out[model][rw.language] = append(out[model][rw.language], rw)
		langs[rw.language] = true
	}
	for l := range langs {
		info.Languages = append(info.Languages, l)
	}
	sort.Strings(info.Languages)
	var src []string
	for _, s := range []string{"file name", "column", "script"} {
		if sources[s] > 0 {
			src = append(src, s)
		}
	}
	info.LanguageSource = strings.Join(src, "+")
	if disagree > 0 {
		b.warn("language_disagrees", disagree, fmt.Sprintf("%s: %s a language column that differs from the language "+
			"in the file name (%s); the file name was used", in.name(), rowsHave(disagree), in.Language))
	}
	if guessed > 0 {
		b.warn("language_guessed", guessed, fmt.Sprintf("%s: %s no language but the golden answer's script; the "+
			"language is a guess (Devanagari is read as Hindi but may be Marathi or Nepali, Bengali script may be Assamese, "+
			"Latin is read as English); name files <model>_<language>.csv or add a language column", in.name(), rowsHave(guessed)))
	}
	if unknown > 0 {
		b.warn("language_unknown", unknown, fmt.Sprintf("%s: %s no language and a golden answer in no recognised "+
			"script; grouped as \"unknown\"", in.name(), rowsHave(unknown)))
	}
	for model, byLang := range out {
		for lang, rs := range byLang {
			seen := map[string]bool{}
			dups := 0
			for _, r := range rs {
				if seen[r.key] {
					dups++
				}
				seen[r.key] = true
			}
			if dups > 0 {
				b.warn("duplicate_question", dups, fmt.Sprintf("%s: model %q, language %q: %s a question id "+
					"(or question text); the paired test uses the first", in.name(), model, lang, plural(dups, "row repeats", "rows repeat")))
			}
		}
	}
	return info, out, nil
}

// rowsHave is "1 row has" or "n rows have".
func rowsHave(n int) string { return plural(n, "row has", "rows have") }
