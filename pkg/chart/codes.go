package chart

// Codes of the warnings about chart labels (the charts' Warnings).
const (
	// CodeFontMissing: labels have characters no font found can draw,
	// because a font family is not installed (Count: the labels).
	CodeFontMissing = "chart_font_missing"
	// CodeTextUnshapable: labels have characters the charts' fonts have no
	// glyph for; they are drawn as boxes (Count: the labels).
	CodeTextUnshapable = "chart_text_unshapable"
)
