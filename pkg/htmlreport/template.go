package htmlreport

import (
	"html/template"
	"sync"

	"github.com/evalbook/evalbook/pkg/results"
)

// css styles the report. Every rule is scoped to .evalbook, so a fragment
// can sit inside another page (a notebook) without restyling it.
const css = `.evalbook .ctl{color:#a40000;background:#ffe8e6;font:.8em ui-monospace,monospace;padding:0 2px;border-radius:3px}
.evalbook{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Devanagari","Noto Sans Bengali","Nirmala UI","Kohinoor Devanagari","Kohinoor Bangla",sans-serif;color:#1d1d1f;max-width:1100px;margin:0 auto;padding:12px 14px 40px}
.evalbook h1{font-size:1.5em;margin:.2em 0 .1em;color:#1f3864;overflow-wrap:anywhere}
.evalbook h2{font-size:1.22em;margin:1.8em 0 .5em;border-bottom:1px solid #c8d3e0;padding-bottom:.2em;color:#1f3864}
.evalbook h3{font-size:1.05em;margin:1.2em 0 .3em}
.evalbook a{color:#1f5fa8}
.evalbook .meta,.evalbook .note{color:#555;font-size:.9em}
.evalbook nav ul{display:flex;flex-wrap:wrap;gap:.25em 1em;padding:0;margin:.6em 0;list-style:none;font-size:.92em}
.evalbook .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(210px,1fr));gap:10px;margin:.6em 0}
.evalbook .card{border:1px solid #d5dde8;border-radius:8px;padding:10px 12px;background:#f7f9fc}
.evalbook .card .big{font-size:1.9em;font-weight:600;color:#1f3864}
.evalbook .card .m{font-weight:600}
.evalbook .scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%;margin:.4em 0}
.evalbook table{border-collapse:collapse;font-size:.88em}
.evalbook th,.evalbook td{padding:3px 8px;border-bottom:1px solid #e3e8ef;text-align:left;vertical-align:top}
.evalbook thead th{background:#dce6f1;position:sticky;top:0;white-space:nowrap}
.evalbook table.sortable thead th{cursor:pointer}
.evalbook th[aria-sort=ascending]::after{content:" \25B2";font-size:.75em}
.evalbook th[aria-sort=descending]::after{content:" \25BC";font-size:.75em}
.evalbook td.num,.evalbook th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.evalbook td.pass{background:#c6efce;color:#006100;text-align:center}
.evalbook td.fail{background:#ffc7ce;color:#9c0006;text-align:center}
.evalbook td.text{white-space:pre}
.evalbook td.long{white-space:pre-wrap;overflow-wrap:break-word;min-width:16em;max-width:30em}
.evalbook tfoot td{font-weight:600;border-top:2px solid #444}
.evalbook svg{max-width:100%;height:auto;display:block}
.evalbook svg.chart{width:100%;max-width:720px;min-width:440px}
.evalbook svg.chart.narrow{display:none;max-width:480px;min-width:0}
.evalbook svg text{font-family:inherit}
.evalbook .warn{border-left:4px solid #e0a100;background:#fff8e5;padding:6px 10px;margin:8px 0}
.evalbook .warn code{font-weight:600}
.evalbook dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:3px 16px;margin:.4em 0}
.evalbook dl.kv dt{font-weight:600}
.evalbook dl.kv dd{margin:0;overflow-wrap:anywhere}
.evalbook .sw{display:inline-block;width:.85em;height:.85em;border-radius:2px;vertical-align:-1px;margin-right:4px}
.evalbook .b-both{fill:#4E9A5B;background:#4E9A5B}
.evalbook .b-neither{fill:#B4B4B4;background:#B4B4B4}
.evalbook .b-only_first{fill:#4472C4;background:#4472C4}
.evalbook .b-only_second{fill:#ED7D31;background:#ED7D31}
.evalbook .buckets td.lab{white-space:nowrap;padding-right:10px}
.evalbook .buckets td.bar{width:100%;min-width:160px}
.evalbook footer{margin-top:3em;color:#777;font-size:.85em}
.evalbook .rvctl{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;margin:.5em 0}
.evalbook .rvctl label{display:flex;gap:6px;align-items:center;white-space:nowrap}
.evalbook .rvctl select,.evalbook .rvctl input,.evalbook .pager button{font:inherit;padding:3px 6px;border:1px solid #b8c4d3;border-radius:4px;background:#fff}
.evalbook .rvctl input{width:16em;max-width:60vw}
.evalbook .pager{display:flex;gap:10px;align-items:center;margin:.4em 0}
.evalbook .pager button:disabled{opacity:.45}
.evalbook .rvstat{margin:.3em 0;color:#333}
.evalbook table.rows thead th{cursor:pointer}
.evalbook .scroll.rowsbox{max-height:80vh}
.evalbook td.text.long{min-width:14em}
.evalbook .ivn{display:none}
@media (max-width:600px){.evalbook svg.chart.wide{display:none}.evalbook svg.chart.narrow{display:block}.evalbook .opt,.evalbook .iv{display:none}.evalbook .ivn{display:block;font-size:.8em;color:#555}.evalbook table.groups td:first-child,.evalbook table.groups th:first-child{position:sticky;left:0;background:#fff;z-index:1}.evalbook table.groups thead th:first-child{background:#dce6f1;z-index:2}.evalbook td.long{min-width:12em;max-width:80vw}.evalbook{font-size:14px;padding:8px 8px 30px}.evalbook dl.kv{grid-template-columns:1fr}.evalbook dl.kv dd{margin-bottom:6px}.evalbook .card .big{font-size:1.6em}}
@media print{.evalbook thead th{position:static}.evalbook .scroll{overflow:visible}.evalbook nav,.evalbook .rvctl,.evalbook .pager{display:none}}`

// sortJS makes every table.sortable sortable by clicking (or pressing
// Enter on) a header: numbers by the cell's data-v or its text, other
// cells by text; the footer (the combined row) stays put.
const sortJS = `document.querySelectorAll("table.sortable").forEach(function(t){
var hs=t.tHead.rows[0].cells;
Array.prototype.forEach.call(hs,function(th,i){
th.tabIndex=0;
function go(){var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows),up=th.getAttribute("aria-sort")!=="ascending";
Array.prototype.forEach.call(hs,function(h){h.removeAttribute("aria-sort")});
th.setAttribute("aria-sort",up?"ascending":"descending");
function key(r){var c=r.cells[i];if(!c)return"";var v=c.getAttribute("data-v")||c.textContent,x=parseFloat(v);return isNaN(x)?v.toLowerCase():x}
rows.sort(function(a,b){var x=key(a),y=key(b),d=typeof x===typeof y?(x<y?-1:x>y?1:0):(typeof x==="number"?-1:1);return up?d:-d});
rows.forEach(function(r){b.appendChild(r)})}
th.addEventListener("click",go);
th.addEventListener("keydown",function(e){if(e.key==="Enter")go()})})});`

// pageTemplate is parsed at its first use, not when the program starts:
// every command (score of a million rows included) would pay for it.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"add":    func(a, b int) int { return a + b },
		"commas": commas,
		"vis":    visible,
		"vist":   results.ShowInvisible,
	}).Parse(pageHTML + chartHTML + rowviewHTML))
})

const chartHTML = `{{define "chart"}}<div class="scroll"><svg class="chart {{.Class}}" viewBox="0 0 {{.Width}} {{.Height}}" role="img" aria-label="{{vist .Title}}">
<title>{{vist .Title}}</title>
{{$c := .}}{{range .Legend}}<rect x="{{.X}}" y="{{.Y}}" width="14" height="14" fill="{{.Color}}"/><text x="{{add .X 19}}" y="{{add .Y 12}}" font-size="{{$c.FontLabel}}">{{vist .Label}}</text>
{{end}}{{range .Ticks}}<line x1="{{.X}}" x2="{{.X}}" y1="{{$c.PlotY}}" y2="{{add $c.PlotY $c.PlotH}}" stroke="#dde3ea"/><text x="{{.X}}" y="{{add $c.PlotY -4}}" font-size="{{$c.FontTick}}" text-anchor="middle" fill="#555">{{.Label}}</text>
{{end}}{{range .Groups}}<text x="{{add $c.PlotX -8}}" y="{{.LabelY}}" font-size="{{$c.FontLabel}}" text-anchor="end">{{vist .Label}}</text>
{{range .Bars}}<g><title>{{vist .Tip}}</title><rect x="{{$c.PlotX}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}" fill="{{.Color}}"/>{{if .Whisker}}<line x1="{{.Lo}}" x2="{{.Hi}}" y1="{{.MidY}}" y2="{{.MidY}}" stroke="#262626" stroke-width="1.2"/><line x1="{{.Lo}}" x2="{{.Lo}}" y1="{{.CapY1}}" y2="{{.CapY2}}" stroke="#262626"/><line x1="{{.Hi}}" x2="{{.Hi}}" y1="{{.CapY1}}" y2="{{.CapY2}}" stroke="#262626"/>{{end}}<text x="{{.ValueX}}" y="{{.CapY2}}" font-size="{{$c.FontValue}}" fill="{{if .Dark}}#fff{{else}}#333{{end}}">{{.ValueText}}</text></g>
{{end}}{{end}}<line x1="{{.PlotX}}" x2="{{.PlotX}}" y1="{{.PlotY}}" y2="{{add .PlotY .PlotH}}" stroke="#888"/>
</svg></div>{{end}}`

const pageHTML = `{{if not .Fragment}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="generator" content="{{.Tool}}">
<title>{{.Title}}</title>
<style>body{margin:0;background:#fff}
{{.CSS}}</style>
</head>
<body>
{{else}}<style>{{.CSS}}</style>
{{end}}<div class="evalbook">
<header>
<h1>{{.Title}}</h1>
{{if not .TablesOnly}}<p class="meta">{{.Tool}}{{if .Created}} · {{.Created}}{{end}} · dataset <b>{{.S.Dataset.Path}}</b>, {{commas .S.Dataset.Rows}} rows, file hash <code>{{.S.Dataset.Hash}}</code></p>
{{with .Head}}<p class="verdict {{.Tone}}">{{vis .Verdict}}</p>{{range .Notes}}<p class="note">{{vis .}}</p>{{end}}{{end}}{{end}}
</header>
<nav aria-label="Sections"><ul>{{range .Sections}}<li><a href="#{{index . 0}}">{{index . 1}}</a></li>{{end}}</ul></nav>
{{if not .TablesOnly}}
<section id="summary">
<h2>Key figures</h2>
<div class="cards">{{range .Key}}
<div class="card"><div class="m">{{.Metric}}</div><div class="big">{{.Accuracy}}</div><div>{{.Count}}</div>{{if .Interval}}<div class="note">{{$.CIText}}: {{.Interval}}</div>{{end}}</div>{{end}}
<div class="card"><div class="m">Rows</div><div class="big">{{commas .S.Combined.N}}</div><div>{{.S.Combined.Blank}} blank responses</div><div class="note">{{.S.Combined.EmptyGolden}} empty golden answers</div></div>
</div>
{{range .Agreement}}<p>{{.A.First}} and {{.A.Second}} disagree on <b>{{add .A.OnlyFirst .A.OnlySecond}}</b> of {{.A.Total}} rows: only {{.A.First}} passes on {{.A.OnlyFirst}}, only {{.A.Second}} on {{.A.OnlySecond}}. <a href="#agreement">See agreement</a>.</p>
{{end}}{{if .Warnings}}<p class="warn">{{len .Warnings}} warnings about the data: {{range $i, $w := .Warnings}}{{if $i}}, {{end}}<code>{{$w.Code}}</code>{{if $w.Count}} ({{$w.Count}}){{end}}{{end}}. <a href="#warnings">Read them</a> before trusting the figures.</p>{{end}}
</section>

<section id="settings">
<h2>Data and settings</h2>
<dl class="kv">{{range .Settings}}<dt>{{index . 0}}</dt><dd>{{index . 1}}</dd>{{end}}</dl>
</section>
{{range .Groupings}}
<section id="{{.ID}}">
<h2>Accuracy by {{.By}}</h2>
<p class="note">Bars show accuracy (correct / n) per group{{if $.S.Settings.CI}}{{if ne $.S.Settings.CI "none"}}; whiskers show the {{$.CIText}}{{end}}{{end}}. Hover or tap a bar for its figures.</p>
{{template "chart" .Chart}}{{template "chart" .Narrow}}
<div class="scroll"><table class="sortable groups">
<thead><tr><th>{{.By}}</th><th class="num">n</th><th class="num opt">blank</th><th class="num opt">empty golden</th>{{range $.S.Settings.Metrics}}<th class="num opt">{{.}}<br>correct</th><th class="num">{{.}}<br>accuracy</th>{{if ne $.CIText "no interval"}}<th class="num iv">{{.}}<br>interval</th>{{end}}{{end}}</tr></thead>
<tbody>{{range .Rows}}
<tr><td>{{vis .Name}}</td><td class="num">{{.N}}</td><td class="num opt">{{.Blank}}</td><td class="num opt">{{.Empty}}</td>{{range .Cells}}<td class="num opt">{{.Correct}}</td><td class="num" data-v="{{.Acc}}">{{.Accuracy}}{{if .Hi}}<span class="ivn">{{.Lo}} – {{.Hi}}</span>{{end}}</td>{{if .Lo}}<td class="num iv">{{.Lo}}{{if .Hi}} – {{.Hi}}{{end}}</td>{{end}}{{end}}</tr>{{end}}
</tbody>
<tfoot>{{with .Total}}<tr><td>{{vis .Name}}</td><td class="num">{{.N}}</td><td class="num opt">{{.Blank}}</td><td class="num opt">{{.Empty}}</td>{{range .Cells}}<td class="num opt">{{.Correct}}</td><td class="num">{{.Accuracy}}{{if .Hi}}<span class="ivn">{{.Lo}} – {{.Hi}}</span>{{end}}</td>{{if .Lo}}<td class="num iv">{{.Lo}}{{if .Hi}} – {{.Hi}}{{end}}</td>{{end}}{{end}}</tr>{{end}}</tfoot>
</table></div>
</section>
{{end}}{{if .Agreement}}
<section id="agreement">
<h2>Agreement between metrics</h2>
<p class="note">Each row falls in one bucket per pair of metrics. Rows where only one metric passes show that metric's blind spot: review them, or send them to a judge.</p>
{{range .Agreement}}<h3>{{.A.First}} (first) and {{.A.Second}} (second), {{.A.Total}} rows</h3>
<p>{{range .Buckets}}<span class="sw {{.Class}}"></span>{{.Name}} &nbsp; {{end}}</p>
<div class="scroll"><table class="buckets"><tbody>{{range .Bars}}
<tr><td class="lab">{{vis .Label}} <span class="note">({{.N}})</span></td><td class="bar"><svg width="100%" height="22" role="img" aria-label="{{vist .Label}}">{{range .Segments}}<g><title>{{vist .Tip}}</title><rect x="{{.X}}%" y="1" width="{{.W}}%" height="20" fill="{{.Color}}"/>{{if .Text}}<text x="{{.X}}%" dx="4" y="15" font-size="11" fill="{{.Ink}}">{{.Text}}</text>{{end}}</g>{{end}}</svg></td></tr>{{end}}
</tbody></table></div>
<div class="scroll"><table>
<thead><tr><th>bucket</th><th class="num">rows</th><th class="num">share</th><th>meaning</th></tr></thead>
<tbody>{{range .Buckets}}<tr><td><span class="sw {{.Class}}"></span>{{.Name}}</td><td class="num">{{.Count}}</td><td class="num">{{.Share}}</td><td>{{.Meaning}}</td></tr>{{end}}</tbody>
</table></div>
<h3>Example rows</h3>
<div class="scroll"><table class="sortable">
<thead><tr><th>bucket</th><th class="num">line</th><th>id</th><th>group</th><th>golden answer</th><th>response</th></tr></thead>
<tbody>{{range $b := .Buckets}}{{range .Examples}}<tr><td>{{$b.Name}}</td><td class="num">{{.Line}}</td><td>{{vis .ID}}</td><td>{{vis .Group}}</td><td class="text long">{{vis .Golden}}</td><td class="text long">{{vis .Response}}</td></tr>{{end}}{{end}}</tbody>
</table></div>
{{end}}</section>
{{end}}{{end}}{{range .Tables}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
{{if .Note}}<p class="note">{{.Note}}</p>{{end}}<div class="scroll"><table class="sortable">
<thead><tr>{{range .Columns}}<th{{if .Num}} class="num"{{end}}>{{.Name}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}<td class="{{.Class}}"{{if .Sort}} data-v="{{vist .Sort}}"{{end}}>{{vis .Text}}</td>{{end}}</tr>
{{end}}</tbody></table></div>
</section>
{{end}}{{if not .TablesOnly}}
<section id="warnings">
<h2>Warnings</h2>
{{range .Warnings}}<div class="warn"><code>{{.Code}}</code>{{if .Count}} · {{.Count}} rows{{end}}{{if .Lines}} · first lines {{range $i, $l := .Lines}}{{if $i}}, {{end}}{{$l}}{{end}}{{end}}<br>{{vis .Message}}</div>
{{else}}<p>No warnings.</p>{{end}}
</section>

<section id="metrics">
<h2>What each metric means</h2>
{{range .Defs}}<h3>{{.ID}}{{if .Name}}: {{.Name}}{{end}}{{if .Graded}} (graded){{end}}</h3>
<dl class="kv">{{if .Rule}}<dt>Rule</dt><dd>{{.Rule}}</dd>{{end}}{{if .FalsePositives}}<dt>False positives</dt><dd>{{.FalsePositives}}</dd>{{end}}{{if .FalseNegatives}}<dt>False negatives</dt><dd>{{.FalseNegatives}}</dd>{{end}}{{if .Blank}}<dt>Blank and empty</dt><dd>{{.Blank}}</dd>{{end}}{{if .Source}}<dt>Source</dt><dd>{{.Source}}</dd>{{end}}</dl>
{{end}}</section>
{{with .Review}}{{if ge .Disagree 0}}
<section id="disagreements">
<h2>Disagreements</h2>
<p>{{commas .Disagree}} of the rows here are rows where the binary metrics disagree (one passes, another fails). <a href="{{.DisagreeLink}}">Show them in the verdict rows</a>, with their text, to review them.</p>
</section>
{{end}}
<section id="verdicts">
<h2>Verdicts</h2>
<p class="note">One row per response: 1 passes, 0 fails; "row" is the row's place in the verdict file. {{.Note}}</p>
{{template "rowview" .}}
</section>
{{end}}{{with .Disagreements}}
<section id="disagreements">
<h2>Disagreements</h2>
<p class="note">Rows where the binary metrics disagree (one passes, another fails), for review; "row" is the row's place in the verdict file. {{.Note}}</p>
{{template "rows" .}}
</section>
{{end}}{{with .Verdicts}}
<section id="verdicts">
<h2>Verdicts</h2>
<p class="note">One row per response: 1 passes, 0 fails. {{.Note}}</p>
{{template "rows" .}}
</section>
{{end}}{{if .NoVerdicts}}<p class="note">No verdict file was given, so rows are not listed: score with --out FILE, or pass --verdicts FILE to evalbook report.</p>{{end}}{{end}}
<footer>{{if .Tool}}Made by {{.Tool}}. {{end}}This page is self-contained: it loads nothing from the network.</footer>
</div>
{{if not .Fragment}}<script>{{.JS}}</script>
</body>
</html>
{{end}}
{{define "rows"}}{{if .Rows}}<div class="scroll"><table class="sortable">
<thead><tr>{{range $i, $h := .Header}}<th{{if index $.Numeric $i}} class="num"{{end}}>{{vis $h}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}
<tr>{{range .}}<td class="{{.Class}}">{{vis .Text}}</td>{{end}}</tr>{{end}}
</tbody></table></div>{{end}}{{end}}`
