package leaderboard

import (
	"context"
	"fmt"
	"maps"
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
	s := &fileScorer{in: in, m: m, opt: opt, b: b, out: map[string]map[string]*rowSet{}, langs: map[string]bool{},
		sources: map[string]int{}, intern: map[string]string{}}
	if m.Corpus != nil {
		s.cs = m.Corpus.New()
	}
	cols := columnsOrDefaults(opt.Columns)
	s.cols = cols
	res, err := in.score(ctx, qa.Options{Columns: cols, Metrics: []*score.Metric{m}, Profile: opt.Profile,
		By: [][]string{}, CI: "none", Rows: s.take, Workers: opt.Workers, RepairUTF8: opt.RepairUTF8})
	if err != nil {
		return FileInfo{}, nil, err
	}
	// With CI "none" pkg/qa gives no interval warnings: these are all
	// about rows.
	for _, w := range res.Warnings {
		b.fileWarning(in.Path, w)
	}
	info := s.fileInfo(res.Combined.N, res.Dataset.Hash)
	s.warnLanguages()
	s.clipAndWarnDuplicates()
	return info, s.out, nil
}

// columnsOrDefaults is cols with every column left empty named as
// qa.DefaultColumns names it.
func columnsOrDefaults(cols qa.Columns) qa.Columns {
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
	return cols
}

// fileScorer gathers one file's scored rows by model and language, and
// counts where each row's language came from, for scoreFile.
type fileScorer struct {
	in   Input
	m    *score.Metric
	opt  Options
	b    *Board
	cols qa.Columns
	cs   score.CorpusStats // nil unless the metric is corpus-level

	out     map[string]map[string]*rowSet // model → language → rows
	langs   map[string]bool
	sources map[string]int // "file name", "column", "script" → rows
	// rows whose language column differs from the file name's; whose
	// language is a guess from an ambiguous script; with no language.
	disagree, guessed, unknown int

	// The strings of a row handed out by qa are reused: what is kept is
	// cloned, and the few distinct domains, languages and models are
	// interned.
	intern map[string]string

	seen                        bool // the column indexes are set
	iID, iQ, iA, iD, iR, iL, iM int  // column indexes, -1 absent
	perRowModel                 bool // the model comes from a model column
}

// keep is s cloned and interned.
func (s *fileScorer) keep(str string) string {
	if k, ok := s.intern[str]; ok {
		return k
	}
	k := strings.Clone(str)
	s.intern[k] = k
	return k
}

// index finds the columns in the file's schema (on its first row).
func (s *fileScorer) index(columns []string) {
	s.seen = true
	col := func(name string) int { return slices.Index(columns, name) }
	s.iID, s.iQ, s.iA, s.iD, s.iR = col(s.cols.ID), col(s.cols.Question), col(s.cols.Answer), col(s.cols.Domain), col(s.cols.Response)
	s.iL, s.iM = col(s.cols.Language), col(s.cols.Model)
	s.perRowModel = s.in.Language == "" && s.iM >= 0
}

// take is qa's row callback: it decodes one scored row into a row and
// files it under its model and language.
func (s *fileScorer) take(r *qa.Row) error {
	if !s.seen {
		s.index(r.Schema.Columns)
	}
	f := r.Fields
	rw := s.decode(r)
	lang := s.language(f)
	if s.cs != nil {
		g, resp := f[s.iA], ""
		if s.iR >= 0 {
			resp = f[s.iR]
		}
		s.b.corpus = append(s.b.corpus, s.cs.AppendStats(nil, s.opt.Profile.Apply(g), s.opt.Profile.Apply(resp)))
		rw.st = int32(len(s.b.corpus))
	}
	model := s.in.Model
	if s.perRowModel && strings.TrimSpace(f[s.iM]) != "" {
		model = s.keep(strings.TrimSpace(f[s.iM]))
	}
	if s.out[model] == nil {
		s.out[model] = map[string]*rowSet{}
	}
	rs := s.out[model][lang]
	if rs == nil {
		rs = &rowSet{}
		s.out[model][lang] = rs
	}
	rs.add(rw)
	s.langs[lang] = true
	return nil
}

// decode is a scored row's value, question key, domain and blankness.
func (s *fileScorer) decode(r *qa.Row) row {
	f := r.Fields
	v := r.Values[0]
	if !s.m.Graded && v != 1 {
		v = 0 // a binary verdict is 1 or 0, as the verdict file writes it
	}
	rw := row{value: v}
	if s.iID >= 0 && strings.TrimSpace(f[s.iID]) != "" {
		rw.key = s.b.id(strings.TrimSpace(f[s.iID]))
	} else {
		rw.key = s.b.id(f[s.iQ])
	}
	if s.iD >= 0 {
		rw.domain = s.b.id(f[s.iD])
	}
	rw.blank = r.Blank
	return rw
}

// language is a row's language: the file name's, else the language
// column's, else a reading of the golden answer's script; it counts the
// source and any disagreement, guess or unknown.
func (s *fileScorer) language(f []string) string {
	colLang := ""
	if s.iL >= 0 {
		colLang = strings.TrimSpace(f[s.iL])
		if l, ok := textnorm.ParseLanguage(colLang); ok {
			colLang = l
		} else {
			colLang = strings.ToLower(colLang)
		}
	}
	switch {
	case s.in.Language != "":
		s.sources["file name"]++
		if colLang != "" && colLang != s.in.Language {
			s.disagree++
		}
		return s.in.Language
	case colLang != "":
		s.sources["column"]++
		return s.keep(colLang)
	default:
		sc := textnorm.ScriptOf(f[s.iA])
		l, ambiguous := textnorm.LanguageOfScript(sc)
		if l == "" {
			l = "unknown"
			s.unknown++
		} else if ambiguous {
			s.guessed++
		}
		s.sources["script"]++
		return l
	}
}

// fileInfo is the Files-table entry of the file: n rows with the given
// hash, its languages and where they came from.
func (s *fileScorer) fileInfo(n int, hash string) FileInfo {
	info := FileInfo{Path: s.in.name(), Model: s.in.Model, Rows: n, Hash: hash}
	if s.perRowModel {
		info.Model = "(model column)"
	}
	for l := range s.langs {
		info.Languages = append(info.Languages, l)
	}
	sort.Strings(info.Languages)
	var src []string
	for _, k := range []string{"file name", "column", "script"} {
		if s.sources[k] > 0 {
			src = append(src, k)
		}
	}
	info.LanguageSource = strings.Join(src, "+")
	return info
}

// warnLanguages warns of rows whose language column disagrees with the
// file name, whose language is a guess, or that have none.
func (s *fileScorer) warnLanguages() {
	b, name := s.b, s.in.name()
	if s.disagree > 0 {
		b.warn(CodeLanguageDisagrees, s.disagree, fmt.Sprintf("%s: %s a language column that differs from the language "+
			"in the file name (%s); the file name was used", name, rowsHave(s.disagree), s.in.Language))
	}
	if s.guessed > 0 {
		b.warn(CodeLanguageGuessed, s.guessed, fmt.Sprintf("%s: %s no language but the golden answer's script; the "+
			"language is a guess (Devanagari is read as Hindi but may be Marathi or Nepali, Bengali script may be Assamese, "+
			"Latin is read as English); name files <model>_<language>.csv or add a language column", name, rowsHave(s.guessed)))
	}
	if s.unknown > 0 {
		b.warn(CodeLanguageUnknown, s.unknown, fmt.Sprintf("%s: %s no language and a golden answer in no recognised "+
			"script; grouped as \"unknown\"", name, rowsHave(s.unknown)))
	}
}

// clipAndWarnDuplicates trims every row set's spare capacity and warns
// of questions a model answers twice in a language.
func (s *fileScorer) clipAndWarnDuplicates() {
	for _, model := range slices.Sorted(maps.Keys(s.out)) { // warnings in a fixed order
		byLang := s.out[model]
		for _, lang := range slices.Sorted(maps.Keys(byLang)) {
			rs := byLang[lang]
			rs.clip()
			dups := duplicates(rs.keys)
			if dups > 0 {
				s.b.warn(CodeDuplicateQuestion, dups, fmt.Sprintf("%s: model %q, language %q: %s a question id "+
					"(or question text); the paired test uses the first", s.in.name(), model, lang, plural(dups, "row repeats", "rows repeat")))
			}
		}
	}
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
