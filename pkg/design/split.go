package design

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
)

// Split defaults used by the evalbook command.
const (
	DefaultHoldout = 0.35
	DefaultSalt    = "evalbook-split-v1"
)

// HoldoutScore maps a case id to a number in [0, 1): the first 8 bytes of
//
//	SHA-256(salt + "\x00" + id)
//
// read as a big-endian integer and divided by 2^64 (to 53 bits). It depends
// on nothing but the salt and the id, so it never changes when cases are
// added, removed or reordered.
func HoldoutScore(id, salt string) float64 {
	sum := sha256.Sum256([]byte(salt + "\x00" + id))
	return float64(binary.BigEndian.Uint64(sum[:8])>>11) / (1 << 53)
}

// InHoldout reports whether the case id falls in the holdout at the given
// share: HoldoutScore(id, salt) < share.
func InHoldout(id string, share float64, salt string) bool {
	return HoldoutScore(id, salt) < share
}

// Split divides cases into dev and holdout, keeping their input order. A
// case goes to the holdout when InHoldout(id, share, salt), so each case's
// side is reproducible and adding cases never moves an old one across. The
// holdout holds about share of the cases, not exactly: each case is an
// independent draw, so with 31 cases and share 0.35 the holdout count has
// mean 31 x 0.35 = 10.85 and standard deviation sqrt(31 x 0.35 x 0.65) =
// 2.66 (the sample in datasets/helpdesk draws 7). share must be in [0, 1].
func Split(cases []Case, share float64, salt string) (dev, holdout []Case, err error) {
	if math.IsNaN(share) || share < 0 || share > 1 {
		return nil, nil, fmt.Errorf("holdout share %v is outside [0, 1]", share)
	}
	dev, holdout = []Case{}, []Case{}
	for _, c := range cases {
		if InHoldout(c.ID, share, salt) {
			holdout = append(holdout, c)
		} else {
			dev = append(dev, c)
		}
	}
	return dev, holdout, nil
}
