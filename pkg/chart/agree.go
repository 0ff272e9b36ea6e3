package chart

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// grid adapts a confusion matrix to plotter.GridXYZ: column c is the
// second rater's label, row r the first rater's, drawn top to bottom.
type grid struct{ m [][]float64 }

func (g grid) Dims() (c, r int)   { return len(g.m[0]), len(g.m) }
func (g grid) Z(c, r int) float64 { return g.m[len(g.m)-1-r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }
func (g grid) Min() float64       { return 0 }
func (g grid) Max() (mx float64)  { return maxOf(g.m) }
func maxOf(m [][]float64) (mx float64) {
	for _, r := range m {
		for _, v := range r {
			mx = max(mx, v)
		}
	}
	return mx
}

// blues is a sequential palette from near white to dark blue.
type blues int

func (n blues) Colors() []color.Color {
	lo, hi := [3]float64{0xF4, 0xF8, 0xFD}, [3]float64{0x08, 0x30, 0x6B}
	out := make([]color.Color, n)
	for i := range out {
		t := float64(i) / float64(n-1)
		out[i] = color.RGBA{
			R: uint8(lo[0] + t*(hi[0]-lo[0])), G: uint8(lo[1] + t*(hi[1]-lo[1])), B: uint8(lo[2] + t*(hi[2]-lo[2])), A: 255,
		}
	}
	return out
}

// Confusion draws a confusion matrix as a heat map with the count in
// every cell: m[i][j] counts the items the first rater (rows, e.g. the
// human labels) put in labels[i] and the second (columns, e.g. the
// judge) in labels[j]. The matrix must be square with one row per label.
func Confusion(title, first, second string, labels []string, m [][]int) (*Figure, error) {
	if len(labels) == 0 || len(m) != len(labels) {
		return nil, fmt.Errorf("chart: confusion matrix has %d rows for %d labels", len(m), len(labels))
	}
	return Heatmap(title, first, second, labels, labels, m)
}

// Heatmap draws a matrix of counts, rows (named by rowName) down the
// side and columns (colName) across, each cell shaded by its count and
// labelled with it: a coverage matrix (task x set), or any cross count.
// Every row must have len(cols) cells, and counts may not be negative.
func Heatmap(title, rowName, colName string, rows, cols []string, m [][]int) (*Figure, error) {
	nr, nc := len(rows), len(cols)
	if nr == 0 || nc == 0 || len(m) != nr {
		return nil, fmt.Errorf("chart: heat map has %d rows of counts for %d row labels and %d column labels", len(m), nr, nc)
	}
	fm := make([][]float64, nr)
	for i, r := range m {
		if len(r) != nc {
			return nil, fmt.Errorf("chart: heat map row %d has %d cells for %d columns", i, len(r), nc)
		}
		fm[i] = make([]float64, nc)
		for j, v := range r {
			if v < 0 {
				return nil, fmt.Errorf("chart: negative count %d at row %d, column %d", v, i, j)
			}
			fm[i][j] = float64(v)
		}
	}
	p := newPlot(title)
	g := grid{fm}
	hm := plotter.NewHeatMap(g, blues(64))
	if g.Max() == 0 {
		hm.Max = 1 // an all-zero matrix: every cell the lightest colour
	}
	p.Add(hm)
	var xys plotter.XYs
	var texts []string
	for i := range nr {
		for j := range nc {
			xys = append(xys, plotter.XY{X: float64(j), Y: float64(nr - 1 - i)})
			texts = append(texts, fmt.Sprint(m[i][j]))
		}
	}
	lab, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
	if err != nil {
		return nil, err
	}
	mx := g.Max()
	for n := range lab.TextStyle {
		st := &lab.TextStyle[n]
		st.Font = sans
		st.Font.Size = vg.Points(12)
		st.XAlign, st.YAlign = draw.XCenter, draw.YCenter
		st.Color = color.Black
		shapeLabel(st)
		if mx > 0 && float64(m[n/nc][n%nc]) > 0.55*mx {
			st.Color = color.White // dark cells
		}
	}
	p.Add(lab)
	ys := make([]string, nr)
	for i, l := range rows {
		ys[nr-1-i] = l
	}
	p.NominalX(cols...)
	p.NominalY(ys...)
	p.X.Label.Text = colName
	p.Y.Label.Text = rowName
	w := vg.Points(float64(60*nc + 120))
	h := vg.Points(float64(60*nr + 120))
	return &Figure{Plot: p, Width: w + labelWidth(rows), Height: h, Warnings: textWarnings(labelsOf(p, rows, cols))}, nil
}

// Calibration draws, per kind of item, the share on which a judge agrees
// with the human labels (agree[i] of n[i]) as horizontal bars labelled
// "agree/n", the first kind at the top. A kind with n = 0 is drawn empty
// and labelled "no items".
func Calibration(title string, kinds []string, agree, n []int) (*Figure, error) {
	k := len(kinds)
	if k == 0 || len(agree) != k || len(n) != k {
		return nil, fmt.Errorf("chart: calibration needs one agree and n per kind (%d kinds, %d agree, %d n)", k, len(agree), len(n))
	}
	p := newPlot(title)
	vals := make(plotter.Values, k)
	names := make([]string, k)
	var xys plotter.XYs
	var texts []string
	for i := range k {
		if agree[i] < 0 || n[i] < 0 || agree[i] > n[i] {
			return nil, fmt.Errorf("chart: kind %q: agree %d of n %d", kinds[i], agree[i], n[i])
		}
		row := k - 1 - i
		names[row] = kinds[i]
		share, text := 0.0, " no items"
		if n[i] > 0 {
			share = float64(agree[i]) / float64(n[i])
			text = fmt.Sprintf(" %d/%d", agree[i], n[i])
		}
		vals[row] = share
		xys = append(xys, plotter.XY{X: share, Y: float64(row)})
		texts = append(texts, text)
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(16))
	if err != nil {
		return nil, err
	}
	bars.Horizontal = true
	bars.Color = Colors[0]
	bars.LineStyle.Width = 0
	p.Add(plotter.NewGrid(), bars)
	lab, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
	if err != nil {
		return nil, err
	}
	for i := range lab.TextStyle {
		lab.TextStyle[i].Font = sans
		lab.TextStyle[i].Font.Size = vg.Points(10)
		lab.TextStyle[i].YAlign = draw.YCenter
		shapeLabel(&lab.TextStyle[i])
	}
	p.Add(lab)
	p.NominalY(names...)
	p.X.Min, p.X.Max = 0, 1.15
	p.X.Tick.Marker = percentTicks{}
	p.X.Label.Text = "agreement with the human labels"
	height := vg.Points(110) + vg.Length(k)*vg.Points(24)
	return &Figure{Plot: p, Width: vg.Points(420) + labelWidth(names), Height: height, Warnings: textWarnings(labelsOf(p, names))}, nil
}
