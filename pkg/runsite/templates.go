package runsite

import (
	"html/template"
	"sync"
)

// css styles every page of the site; it reads on a phone (tables scroll
// sideways in their box, the chart scales) and prints.
const css = `body{margin:0;background:#fff}
.site{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Devanagari","Noto Sans Bengali","Noto Sans Tamil","Noto Sans Telugu","Nirmala UI",sans-serif;color:#1d1d1f;max-width:1100px;margin:0 auto;padding:12px 14px 40px}
.site h1{font-size:1.5em;margin:.2em 0 .1em;color:#1f3864;overflow-wrap:anywhere}
.site h2{font-size:1.22em;margin:1.6em 0 .5em;border-bottom:1px solid #c8d3e0;padding-bottom:.2em;color:#1f3864}
.site h3{font-size:1.05em;margin:1.1em 0 .3em}
.site a{color:#1f5fa8}
.site nav{display:flex;flex-wrap:wrap;gap:.3em 1.2em;margin:.5em 0 1em;font-size:.95em}
.site .meta,.site .note{color:#555;font-size:.9em}
.site .scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%;margin:.4em 0}
.site table{border-collapse:collapse;font-size:.9em}
.site th,.site td{padding:3px 8px;border-bottom:1px solid #e3e8ef;text-align:left;vertical-align:top}
.site thead th{background:#dce6f1;white-space:nowrap}
.site td.num,.site th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.site td.iv{color:#555;white-space:nowrap;font-variant-numeric:tabular-nums}
.site td.text{white-space:pre-wrap;overflow-wrap:anywhere;min-width:12em;max-width:28em}
.site .up{color:#176d2c;font-weight:600}.site .down{color:#a11;font-weight:600}
.site .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:10px;margin:.6em 0}
.site .card{border:1px solid #d5dde8;border-radius:8px;padding:10px 12px;background:#f7f9fc}
.site .card .big{font-size:1.8em;font-weight:600;color:#1f3864}
.site .card .m{font-weight:600}
.site dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:3px 16px}
.site dl.kv dt{font-weight:600}.site dl.kv dd{margin:0;overflow-wrap:anywhere}
.site .warn{border-left:4px solid #e0a100;background:#fff8e5;padding:6px 10px;margin:8px 0}
.site svg{max-width:100%;height:auto;display:block}
.site svg text{font-family:inherit}
.site svg.hist{width:100%}.site svg.hist.wide{width:auto}.site .show-narrow{display:none}
.site footer{margin-top:3em;color:#777;font-size:.85em}
@media (max-width:600px){.site{font-size:14px;padding:8px 8px 30px}.site dl.kv{grid-template-columns:1fr}.site dl.kv dd{margin-bottom:6px}.site .hide-narrow{display:none}.site .show-narrow{display:block}}
@media print{.site nav{display:none}.site .scroll{overflow:visible}}`

const headHTML = `{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="referrer" content="no-referrer">
<title>{{.Title}}</title>
<style>{{.CSS | css}}</style>
</head>
<body>
<div class="site">
{{end}}{{define "foot"}}<footer>{{if .Tool}}Made by {{.Tool}}{{if .Made}} on {{.Made}}{{end}}. {{end}}Every page of this site is a file beside this one: open it from disk or from a zip; nothing is loaded from the network.</footer>
</div>
</body>
</html>
{{end}}`

var funcs = template.FuncMap{
	"css": func(s string) template.CSS { return template.CSS(s) },
}

func page(body string) *template.Template {
	return template.Must(template.New("page").Funcs(funcs).Parse(headHTML + body))
}

// indexPage is parsed at its first use, not when the program starts:
// every command (score of a million rows included) would pay for it.
var indexPage = sync.OnceValue(func() *template.Template {
	return page(`{{template "head" .Head}}<header><h1>Run history</h1>
<p class="meta">{{len .Runs}} runs in the run store{{if gt .Hashes 1}}, on {{.Hashes}} datasets (content hashes){{end}}. Newest first; each run has its page, and each run that has an earlier comparable run (same content hash, key, prompts and normalisation) a page of what changed.</p></header>
<nav><a href="#runs">Runs</a>{{if .Charts}}<a href="#history">History charts</a>{{end}}</nav>
<section id="runs">
<h2>Runs</h2>
<div class="scroll"><table>
<thead><tr><th>run</th>{{range .Metrics}}<th class="num">{{.}}<br><span class="note">and interval</span></th>{{end}}<th>what changed</th><th>time</th><th>command</th><th>data</th><th class="num">rows</th></tr></thead>
<tbody>{{range $r := .Runs}}<tr><td><a href="{{.File}}">{{.Label}}</a></td>
{{range $m := $.Metrics}}{{$found := false}}{{range $r.Figures}}{{if eq .Metric $m}}{{$found = true}}<td class="num"><b>{{.Value}}</b>{{if .Interval}}<br><span class="note">{{.Interval}}</span>{{end}}</td>{{end}}{{end}}{{if not $found}}<td class="num">–</td>{{end}}{{end}}
<td>{{if .DiffFile}}<a href="{{.DiffFile}}">against {{.DiffWith}}</a>{{else}}<span class="note">{{.NotCompared}}</span>{{end}}</td>
<td class="num">{{.Time}}</td><td>{{.Command}}</td><td>{{.Data}}<br><span class="note">content {{.ContentHash}}</span></td><td class="num">{{.Rows}}</td></tr>
{{end}}</tbody></table></div>
</section>
{{if .Charts}}<section id="history">
<h2>History charts</h2>
<p class="note">Each metric over all rows, one line per run, oldest at the top: the point is the figure, the whiskers its interval as the run recorded it. A hollow point is a run on another dataset than the newest run's: not comparable. Each label links to its run.</p>
{{range .Charts}}<h3 id="history-{{.Metric}}">{{.Metric}}</h3>
<div class="scroll hide-narrow">{{template "history" .Wide}}</div><div class="scroll show-narrow">{{template "history" .Narrow}}</div>{{if .Wide.Mixed}}<p class="note">Hollow points: runs on another dataset than the newest run's (content hash {{.Wide.Reference}}).</p>{{end}}{{end}}
</section>{{end}}
{{template "foot" .Head}}
{{define "history"}}<svg class="hist{{if .Wide}} wide{{end}}" viewBox="0 0 {{.Width}} {{.Height}}"{{if .Wide}} width="{{.Width}}" height="{{.Height}}"{{end}} role="img" aria-label="{{.Metric}} over the runs, with intervals">
<title>{{.Metric}} over the runs, with intervals</title>
{{$c := .}}{{range .Ticks}}<line x1="{{.X}}" x2="{{.X}}" y1="22" y2="{{$c.Height}}" stroke="#dde3ea"/><text x="{{.X}}" y="16" font-size="12" text-anchor="middle" fill="#555">{{.Label}}</text>
{{end}}{{range .Points}}<g><title>{{.Tip}}</title><a href="{{.File}}"><text x="{{$c.PlotX}}" dx="-8" y="{{.TextY}}" font-size="13" text-anchor="end" fill="#1f5fa8">{{.Label}}</text></a>
<line x1="{{.Lo}}" x2="{{.Hi}}" y1="{{.Y}}" y2="{{.Y}}" stroke="#262626" stroke-width="1.4"/><line x1="{{.Lo}}" x2="{{.Lo}}" y1="{{.CapY1}}" y2="{{.CapY2}}" stroke="#262626"/><line x1="{{.Hi}}" x2="{{.Hi}}" y1="{{.CapY1}}" y2="{{.CapY2}}" stroke="#262626"/>
<circle cx="{{.X}}" cy="{{.Y}}" r="5" {{if .Comparable}}fill="#4472C4"{{else}}fill="#fff" stroke="#4472C4" stroke-width="2"{{end}}/><text x="{{.Hi}}" dx="5" y="{{.TextY}}" font-size="12" fill="#333">{{.Value}}</text></g>
{{end}}</svg>{{end}}`)
})

var runPage = sync.OnceValue(func() *template.Template {
	return page(`{{template "head" .Head}}<header><h1>{{.Label}}</h1>
<p class="meta">{{.R.Command}} · {{(index .Facts 0).V}} · {{.R.Rows}} rows</p></header>
<nav><a href="index.html">All runs</a>{{if .PrevFile}}<a href="{{.PrevFile}}">‹ {{.PrevLabel}}</a>{{end}}{{if .NextFile}}<a href="{{.NextFile}}">{{.NextLabel}} ›</a>{{end}}{{if .DiffFile}}<a href="{{.DiffFile}}">What changed: {{.DiffLabel}}</a>{{end}}{{range .Later}}<a href="{{.K}}">What changed: {{.V}}</a>{{end}}</nav>
{{if .Figures}}<section id="figures"><h2>Figures</h2>
<div class="cards">{{range .Figures}}<div class="card"><div class="m">{{.Metric}}</div><div class="big">{{.Value}}</div><div>over {{.N}} rows</div>{{if .Interval}}<div class="note">interval {{.Interval}}</div>{{end}}</div>{{end}}</div>
</section>{{end}}
<section id="run"><h2>What was run</h2>
<dl class="kv">{{range .Facts}}<dt>{{.K}}</dt><dd>{{.V}}</dd>{{end}}</dl>
</section>
{{range .Groups}}<section><h2>By {{.By}}</h2>
<div class="scroll"><table><thead><tr><th>{{.By}}</th><th>metric</th><th class="num">n</th><th class="num hide-narrow">blank</th><th class="num">accuracy</th><th>interval</th></tr></thead>
<tbody>{{range .Rows}}<tr><td>{{.Group}}</td><td>{{.Metric}}</td><td class="num">{{.N}}</td><td class="num hide-narrow">{{.Blank}}</td><td class="num">{{.Value}}</td><td class="iv">{{.Interval}}</td></tr>
{{end}}</tbody></table></div></section>
{{end}}<section id="warnings"><h2>Warnings</h2>
{{range .Warnings}}<div class="warn"><code>{{.Code}}</code>{{if .Count}} · {{.Count}}{{end}}<br>{{.Message}}</div>
{{else}}<p>No warnings.</p>{{end}}</section>
{{template "foot" .Head}}`)
})
