//go:build !amd64

package qa

// specialBlocks sets, for each whole 64-byte block j of t (j <
// len(out)), bit b of out[j] when byte 64j+b is a comma, a quote or a
// line feed, and bit b of high[j] when it is not ASCII; high is at
// least as long as out.
func specialBlocks(t []byte, out, high []uint64) { specialBlocksGo(t, out, high) }
