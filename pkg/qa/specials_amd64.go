package qa

// specialMasksSSE2 is specialBlocks in assembly (specials_amd64.s).
//
//go:noescape
func specialMasksSSE2(t []byte, out []uint64)

// specialBlocks sets, for each whole 64-byte block j of t (j <
// len(out)), bit b of out[j] when byte 64j+b is a comma, a quote or a
// line feed.
func specialBlocks(t []byte, out []uint64) { specialMasksSSE2(t, out) }
