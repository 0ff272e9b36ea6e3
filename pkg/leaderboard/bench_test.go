package leaderboard

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchDir writes 3 models × 5 languages × rows seeded response files.
func benchDir(b *testing.B, rows int) string {
	b.Helper()
	dir := b.TempDir()
	vocab := map[string][]string{
		"english": strings.Fields("river valley temple capital city ancient kingdom deer golden carved north south"),
		"hindi":   strings.Fields("नदी घाटी मंदिर राजधानी शहर प्राचीन राज्य हिरण सुनहरा उत्तर दक्षिण"),
		"bengali": strings.Fields("নদী উপত্যকা মন্দির রাজধানী শহর প্রাচীন রাজ্য হরিণ সোনালি উত্তর দক্ষিণ"),
		"tamil":   strings.Fields("ஆறு பள்ளத்தாக்கு கோயில் தலைநகரம் நகரம் பழமையான இராச்சியம் மான் தங்க வடக்கு தெற்கு"),
		"telugu":  strings.Fields("నది లోయ ఆలయం రాజధాని నగరం ప్రాచీన రాజ్యం జింక బంగారు ఉత్తర దక్షిణ"),
	}
	for mi, model := range []string{"heron-3b", "kestrel-7b", "tern-13b"} {
		for lang, v := range vocab {
			r := rand.New(rand.NewPCG(uint64(mi), uint64(len(lang))))
			var sb strings.Builder
			sb.WriteString("id,question,answer,Domain,response\n")
			for i := 0; i < rows; i++ {
				ans := v[r.IntN(len(v))] + " " + v[r.IntN(len(v))]
				resp := "the answer is " + ans
				if r.Float64() < 0.2+0.1*float64(mi) {
					resp = v[r.IntN(len(v))]
				}
				fmt.Fprintf(&sb, "q%05d,question %d in %s,%s,D%d,%s\n", i, i, lang, ans, i%7, resp)
			}
			if err := os.WriteFile(filepath.Join(dir, model+"_"+lang+".csv"), []byte(sb.String()), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return dir
}

func benchBuild(b *testing.B, metric string) {
	dir := benchDir(b, 10000)
	inputs, err := Discover(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		board, err := Build(context.Background(), inputs, Options{Metric: metric})
		if err != nil {
			b.Fatal(err)
		}
		if len(board.Cells) != 15 || board.Cells[0].N != 10000 {
			b.Fatalf("%d cells", len(board.Cells))
		}
		if err := board.WriteText(&strings.Builder{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuild: 3 models × 5 languages × 10,000 rows (150,000 rows),
// exact_substring, text output. Run with -benchtime=3x.
func BenchmarkBuild(b *testing.B) { benchBuild(b, "exact_substring") }

// BenchmarkBuildCHRF: the same under chrF (corpus-level).
func BenchmarkBuildCHRF(b *testing.B) { benchBuild(b, "chrf") }
