package leaderboard

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// scoreFile scores one file with pkg/qa and returns its rows by model
// and language, taken from the scored rows as qa hands them out.
func scoreFile(ctx context.Context, in Input, m *score.Metric, opt Options, b *Board) (FileInfo, map[string]map[string]*rowSet, error) {
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
	var cs score.CorpusStats
	if m.Corpus != nil {
		cs = m.Corpus.New()
	}
	out := map[string]map[string]*rowSet{}
	langs := map[string]bool{}
	sources := map[string]int{}
	var disagree, guessed, unknown int
	// The strings of a row handed out by qa are reused: what is kept is
	// cloned, and the few distinct domains, languages and models are
	// interned.
	intern := map[string]string{}
	keep := func(s string) string {
		if k, ok := intern[s]; ok {
			return k
		}
		k := strings.Clone(s)
		intern[k] = k
		return k
	}
	iID, iQ, iA, iD, iR, iL, iM := -1, -1, -1, -1, -1, -1, -1
	perRowModel := false
	seen := false
	take := func(r *qa.Row) error {
		if !seen {
			seen = true
			col := func(name string) int { return slices.Index(r.Schema.Columns, name) }
			iID, iQ, iA, iD, iR = col(cols.ID), col(cols.Question), col(cols.Answer), col(cols.Domain), col(cols.Response)
			iL, iM = col(cols.Language), col(cols.Model)
			perRowModel = in.Language == "" && iM >= 0
		}
		f := r.Fields
		v := r.Values[0]
		if !m.Graded && v != 1 {
			v = 0 // a binary verdict is 1 or 0, as the verdict file writes it
		}
		rw := row{value: v}
		if iID >= 0 && strings.TrimSpace(f[iID]) != "" {
			rw.key = b.id(strings.TrimSpace(f[iID]))
		} else {
			rw.key = b.id(f[iQ])
		}
		if iD >= 0 {
			rw.domain = b.id(f[iD])
		}
		rw.blank = r.Blank
		colLang := ""
		if iL >= 0 {
			colLang = strings.TrimSpace(f[iL])
			if l, ok := textnorm.ParseLanguage(colLang); ok {
				colLang = l
			} else {
				colLang = strings.ToLower(colLang)
			}
		}
		var lang string
		switch {
		case in.Language != "":
			lang = in.Language
			sources["file name"]++
			if colLang != "" && colLang != in.Language {
				disagree++
			}
		case colLang != "":
			lang = keep(colLang)
			sources["column"]++
		default:
			sc := textnorm.ScriptOf(f[iA])
			l, ambiguous := textnorm.LanguageOfScript(sc)
			if l == "" {
				l = "unknown"
				unknown++
			} else if ambiguous {
				guessed++
			}
			lang = l
			sources["script"]++
		}
		if cs != nil {
			g, resp := f[iA], ""
			if iR >= 0 {
				resp = f[iR]
			}
			b.corpus = append(b.corpus, cs.AppendStats(nil, opt.Profile.Apply(g), opt.Profile.Apply(resp)))
			rw.st = int32(len(b.corpus))
		}
		model := in.Model
		if perRowModel && strings.TrimSpace(f[iM]) != "" {
			model = keep(strings.TrimSpace(f[iM]))
		}
		if out[model] == nil {
			out[model] = map[string]*rowSet{}
		}
		rs := out[model][lang]
		if rs == nil {
			rs = &rowSet{}
			out[model][lang] = rs
		}
		rs.add(rw)
		langs[lang] = true
		return nil
	}
	res, err := in.score(ctx, qa.Options{Columns: cols, Metrics: []*score.Metric{m}, Profile: opt.Profile,
		By: [][]string{}, CI: "none", Rows: take, Workers: opt.Workers, RepairUTF8: opt.RepairUTF8})
	if err != nil {
		return FileInfo{}, nil, err
	}
	// With CI "none" pkg/qa gives no interval warnings: these are all
	// about rows.
	for _, w := range res.Warnings {
		b.fileWarning(in.Path, w)
	}
	info := FileInfo{Path: in.name(), Model: in.Model, Rows: res.Combined.N, Hash: res.Dataset.Hash}
	if perRowModel {
		info.Model = "(model column)"
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
		b.warn(CodeLanguageDisagrees, disagree, fmt.Sprintf("%s: %s a language column that differs from the language "+
			"in the file name (%s); the file name was used", in.name(), rowsHave(disagree), in.Language))
	}
	if guessed > 0 {
		b.warn(CodeLanguageGuessed, guessed, fmt.Sprintf("%s: %s no language but the golden answer's script; the "+
			"language is a guess (Devanagari is read as Hindi but may be Marathi or Nepali, Bengali script may be Assamese, "+
			"Latin is read as English); name files <model>_<language>.csv or add a language column", in.name(), rowsHave(guessed)))
	}
	if unknown > 0 {
		b.warn(CodeLanguageUnknown, unknown, fmt.Sprintf("%s: %s no language and a golden answer in no recognised "+
			"script; grouped as \"unknown\"", in.name(), rowsHave(unknown)))
	}
	for model, byLang := range out {
		for lang, rs := range byLang {
			rs.clip()
			dups := duplicates(rs.keys)
			if dups > 0 {
				b.warn(CodeDuplicateQuestion, dups, fmt.Sprintf("%s: model %q, language %q: %s a question id "+
					"(or question text); the paired test uses the first", in.name(), model, lang, plural(dups, "row repeats", "rows repeat")))
			}
		}
	}
	return info, out, nil
}

// rowsHave is "1 row has" or "n rows have".
func rowsHave(n int) string { return plural(n, "row has", "rows have") }

// duplicates counts the keys that repeat an earlier one.
func duplicates(keys []uint32) int {
	seen := make(map[uint32]struct{}, len(keys))
	dups := 0
	for _, k := range keys {
		if _, ok := seen[k]; ok {
			dups++
		}
		seen[k] = struct{}{}
	}
	return dups
}
