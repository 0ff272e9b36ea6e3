package parquetio

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/snappy"
)

// The Snappy codec arrow-go writes pages with is the fast encoder, and
// what it writes is the Snappy block format: the reference decoder
// (klauspost's port of Google's snappy.Decode) and arrow-go's own give
// the input back.
func TestFastSnappy(t *testing.T) {
	c, err := compress.GetCodec(compress.Codecs.Snappy)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(fastSnappy); !ok {
		t.Fatalf("arrow-go's Snappy codec is %T, not the fast encoder", c)
	}
	src := []byte(strings.Repeat("नई दिल्ली है, the capital; ", 4000) + "tail")
	enc := c.EncodeLevel(nil, src, compress.DefaultCompressionLevel)
	if len(enc) >= len(src)/4 {
		t.Errorf("%d bytes encoded to %d: the repeated text should shrink at least 4 times", len(src), len(enc))
	}
	dec, err := snappy.Decode(nil, enc)
	if err != nil || !bytes.Equal(dec, src) {
		t.Fatalf("snappy.Decode: %d bytes, %v", len(dec), err)
	}
	if dec := c.Decode(nil, enc); !bytes.Equal(dec, src) {
		t.Fatalf("arrow-go's decoder gave %d bytes back", len(dec))
	}
}
