package store

import (
	"html/template"
	"io"
	"strconv"
)

// WriteDiffHTML writes d as one self-contained HTML page: the two runs
// side by side, the change per metric and per group with its interval,
// and the flipped rows with both runs' responses (when d was made with
// DiffOptions.Texts). All model text is escaped by html/template; the
// page loads nothing.
func WriteDiffHTML(w io.Writer, d *DiffResult) error {
	return diffPage.Execute(w, d)
}

var diffPage = template.Must(template.New("diff").Funcs(template.FuncMap{
	"pct":  pctText,
	"arr":  func(a, b RunRef) []RunRef { return []RunRef{a, b} },
	"arr2": func(a, b []Flip) [][]Flip { return [][]Flip{a, b} },
	"pp":   ppText,
	"p":    pText,
	"id":   func(r RunRef) string { return strconv.FormatInt(r.ID, 10) },
	"when": func(r RunRef) string {
		return r.Time.UTC().Format("2006-01-02 15:04:05 UTC")
	},
	"cls": func(x float64) string {
		switch {
		case x > 0:
			return "up"
		case x < 0:
			return "down"
		}
		return ""
	},
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>evalbook runs diff {{id .A}} → {{id .B}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:.3em .6em;vertical-align:top;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.up{color:#176d2c}.down{color:#a11}
.runs{display:grid;grid-template-columns:1fr 1fr;gap:1em}
.run{border:1px solid #ccc;padding:.6em}
.warn{background:#fff4d6;padding:.6em;border:1px solid #e0c060}
pre{white-space:pre-wrap;margin:0;font-family:inherit}
</style></head><body>
<h1>Run {{id .A}} → run {{id .B}}</h1>
<div class="runs">
{{range $side, $r := (arr .A .B)}}<div class="run"><h2>{{if eq $side 0}}A{{else}}B{{end}}: run {{id $r}}</h2>
<p>{{$r.Command}} · {{when $r}}{{if $r.Model}} · model {{$r.Model}}{{end}}{{if $r.Title}} · {{$r.Title}}{{end}}<br>
dataset {{$r.DatasetHash}} · {{$r.Rows}} rows</p></div>
{{end}}</div>
{{if not .Comparable}}<p class="warn">Not comparable, paired because --force was given: {{range .Reasons}}{{.}}; {{end}}</p>{{end}}
<p>{{.Paired}} rows paired; {{.OnlyA}} only in A, {{.OnlyB}} only in B.</p>
<h2>Change from A to B</h2>
<table><tr><th>metric</th><th>n</th><th>A</th><th>B</th><th>delta</th><th>interval</th><th>better</th><th>worse</th><th>sign p</th><th>McNemar p</th></tr>
{{range .Metrics}}<tr><td>{{.Metric}}</td><td class="n">{{.N}}</td><td class="n">{{pct .MeanA}}</td><td class="n">{{pct .MeanB}}</td>
<td class="n {{cls .Delta}}">{{pp .Delta}}</td><td class="n">{{pp .DeltaLow}} … {{pp .DeltaHigh}}</td><td class="n">{{.Better}}</td><td class="n">{{.Worse}}</td>
<td class="n">{{p .SignP}}</td><td class="n">{{p .McNemarP}}</td></tr>
{{end}}</table>
{{range .Metrics}}{{if .Groups}}<h2>{{.Metric}} by group</h2>
<table><tr><th>by</th><th>group</th><th>n</th><th>A</th><th>B</th><th>delta</th><th>interval</th><th>better</th><th>worse</th><th>sign p</th></tr>
{{range .Groups}}<tr><td>{{.By}}</td><td>{{.Group}}</td><td class="n">{{.N}}</td><td class="n">{{pct .MeanA}}</td><td class="n">{{pct .MeanB}}</td>
<td class="n {{cls .Delta}}">{{pp .Delta}}</td><td class="n">{{pp .DeltaLow}} … {{pp .DeltaHigh}}</td><td class="n">{{.Better}}</td><td class="n">{{.Worse}}</td><td class="n">{{p .SignP}}</td></tr>
{{end}}</table>{{end}}
{{range $dir, $rows := (arr2 .WorseRows .BetterRows)}}{{if $rows}}<h2>{{if eq $dir 0}}Worse{{else}}Better{{end}} in B</h2>
<table><tr><th>id</th><th>question</th><th>golden answer</th><th>A's response</th><th>B's response</th><th>A</th><th>B</th></tr>
{{range $rows}}<tr><td>{{.ID}}</td>{{if .TextA}}<td><pre>{{.TextA.Question}}</pre></td><td><pre>{{.TextA.Answer}}</pre></td><td><pre>{{.TextA.Response}}</pre></td>{{else}}<td></td><td></td><td></td>{{end}}
<td>{{if .TextB}}<pre>{{.TextB.Response}}</pre>{{end}}</td><td class="n">{{.A}}</td><td class="n">{{.B}}</td></tr>
{{end}}</table>{{end}}{{end}}{{end}}
{{if .Warnings}}<h2>Warnings</h2><ul>{{range .Warnings}}<li><code>{{.Code}}</code> ({{.Count}}): {{.Message}}</li>{{end}}</ul>{{end}}
</body></html>
`))
