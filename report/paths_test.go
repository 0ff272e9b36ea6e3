package main

import (
	"archive/zip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
)

// reportTexts returns every report file under dir as text, by name: the
// HTML page, the SVG charts, and each XML part of the workbooks.
func reportTexts(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".html", ".svg", ".json", ".txt":
			b, err := os.ReadFile(path)
			out[path] = string(b)
			return err
		case ".xlsx":
			zr, err := zip.OpenReader(path)
			if err != nil {
				return err
			}
			defer zr.Close()
			for _, f := range zr.File {
				rc, err := f.Open()
				if err != nil {
					return err
				}
				b, err := io.ReadAll(rc)
				rc.Close()
				if err != nil {
					return err
				}
				out[path+"!"+f.Name] = string(b)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// No report written from a file in a temporary directory names that
// directory (or the folder the file sits in): not the text, the JSON, the
// page, the workbook's XML parts or the SVG charts. --show-paths puts
// the path back, which shows the check can fail; report --from strips a
// path that a saved result holds.
func TestReportsHaveNoPaths(t *testing.T) {
	tmp := t.TempDir()
	data := filepath.Join(tmp, "private-folder")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(data, "responses.csv")
	if err := os.WriteFile(in, datasets.Responses, 0o644); err != nil {
		t.Fatal(err)
	}
	outDir := filepath.Join(tmp, "out")
	score := func(sub string, extra ...string) {
		t.Helper()
		d := filepath.Join(outDir, sub)
		args := append([]string{"score", "--responses", in, "--by", "Domain", "--by", "language",
			"--xlsx", filepath.Join(d, "r.xlsx"), "--html", filepath.Join(d, "r.html"), "--charts", filepath.Join(d, "charts")}, extra...)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("score %v: exit %d: %s", extra, code, stderr)
		}
		os.WriteFile(filepath.Join(d, "stdout.txt"), []byte(stdout), 0o644)
		js, stderr, code := runCLI(t, "score", "--responses", in, "--json")
		if code != 0 {
			t.Fatalf("score --json: exit %d: %s", code, stderr)
		}
		os.WriteFile(filepath.Join(d, "result.json"), []byte(js), 0o644)
	}
	score("plain")
	texts := reportTexts(t, filepath.Join(outDir, "plain"))
	kinds := map[string]bool{}
	for name, text := range texts {
		kinds[filepath.Ext(strings.SplitN(name, "!", 2)[0])] = true
		for _, bad := range []string{tmp, data, "private-folder"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s names %q", name, bad)
			}
		}
	}
	for _, k := range []string{".html", ".svg", ".xlsx", ".txt", ".json"} {
		if !kinds[k] {
			t.Errorf("no %s report was checked (have %v)", k, kinds)
		}
	}
	if page := texts[filepath.Join(outDir, "plain", "r.html")]; !strings.Contains(page, "<title>Evaluation report: responses.csv</title>") {
		t.Errorf("the page's title is not the file's base name:\n%.400s", page)
	}

	// --show-paths: the page and the workbook name the path as given.
	score("shown", "--show-paths")
	shown := reportTexts(t, filepath.Join(outDir, "shown"))
	if !strings.Contains(shown[filepath.Join(outDir, "shown", "r.html")], in) {
		t.Errorf("--show-paths: the page does not name %s", in)
	}
	if !strings.Contains(shown[filepath.Join(outDir, "shown", "r.xlsx")+"!xl/sharedStrings.xml"], in) {
		t.Errorf("--show-paths: the workbook does not name %s", in)
	}

	// A saved result that holds a path is rendered without it.
	var doc map[string]any
	if err := json.Unmarshal([]byte(texts[filepath.Join(outDir, "plain", "result.json")]), &doc); err != nil {
		t.Fatal(err)
	}
	doc["dataset"].(map[string]any)["path"] = in
	saved, _ := json.Marshal(doc)
	from := filepath.Join(tmp, "saved.json")
	os.WriteFile(from, saved, 0o644)
	replay := filepath.Join(outDir, "replay")
	os.MkdirAll(replay, 0o755)
	if _, stderr, code := runCLI(t, "report", "--from", from, "--html", filepath.Join(replay, "r.html"), "--xlsx", filepath.Join(replay, "r.xlsx")); code != 0 {
		t.Fatalf("report --from: exit %d: %s", code, stderr)
	}
	for name, text := range reportTexts(t, replay) {
		if strings.Contains(text, "private-folder") {
			t.Errorf("report --from: %s names the saved path's folder", name)
		}
	}
}
