package parquetio

import (
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/s2"
)

// fastSnappy is arrow-go's Snappy codec with klauspost/compress's fast
// Snappy encoder (s2.EncodeSnappy) in place of the "better" one that
// arrow-go's calls (snappy.Encode is s2.EncodeSnappyBetter). Both write
// the Snappy block format, which every Snappy decoder reads; the fast
// one takes about half the time for files 10-15% larger (measured on
// verdict rows: see docs/speed.md, Reports and Parquet). Decoding is
// arrow-go's own.
type fastSnappy struct{ compress.Codec }

func (fastSnappy) Encode(dst, src []byte) []byte { return s2.EncodeSnappy(dst, src) }

func (fastSnappy) EncodeLevel(dst, src []byte, _ int) []byte { return s2.EncodeSnappy(dst, src) }

// arrow-go looks codecs up in one table for the process, so the fast
// encoder is put there once, before any file is written or read (init
// runs before any goroutine could use the table). Every arrow-go Parquet
// writer in a program that imports this package writes Snappy pages
// with it.
func init() {
	if c, err := compress.GetCodec(compress.Codecs.Snappy); err == nil {
		compress.RegisterCodec(compress.Codecs.Snappy, fastSnappy{c})
	}
}
