package judge

// Dims is a pair judged on three dimensions separately, so that a release
// rule can say "correctness must not regress, concision may".
type Dims struct {
	Correctness Label `json:"correctness"`
	Evidence    Label `json:"evidence"`
	Concision   Label `json:"concision"`
}

// ConcisionRatio is how many times longer (in words) one answer must be
// than the other for the shorter to win on concision.
const ConcisionRatio = 1.5

// Dimensions judges a labelled pair with three rules that look at one
// thing each and are blind to position, style and each other:
//
//	correctness  the answer containing the larger share of the listed facts
//	             (case-insensitive, after NFC); equal shares tie
//	evidence     the only answer citing a source id (Cited); both or
//	             neither tie
//	concision    the shorter answer when the longer has at least
//	             ConcisionRatio times its words; otherwise tie
//
// A padded wrong answer loses on correctness and concision; a verbose tie
// loses on concision only, which the labelling guidelines settle as a tie;
// a cited answer wins on evidence only.
func Dimensions(p Pair) Dims {
	var d Dims
	d.Correctness = compareNumbers(factShare(p.A, p.Facts), factShare(p.B, p.Facts))
	d.Evidence = compareBools(Cited(p.A), Cited(p.B))
	wa, wb := float64(Words(p.A)), float64(Words(p.B))
	switch {
	case wb >= ConcisionRatio*wa && wb > wa:
		d.Concision = LabelA
	case wa >= ConcisionRatio*wb && wa > wb:
		d.Concision = LabelB
	default:
		d.Concision = LabelTie
	}
	return d
}

func compareNumbers(a, b float64) Label {
	switch {
	case a > b:
		return LabelA
	case b > a:
		return LabelB
	}
	return LabelTie
}

func compareBools(a, b bool) Label {
	switch {
	case a && !b:
		return LabelA
	case b && !a:
		return LabelB
	}
	return LabelTie
}
