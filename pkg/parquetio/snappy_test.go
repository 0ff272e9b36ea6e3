package parquetio

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/snappy"
)

// TestFastSnappyIsStandardSnappy checks that the Snappy codec parquetio
// registers is the plain s2 encoder and that what it writes is standard
// Snappy: the reference decoder (klauspost's snappy, what arrow-go
// decodes with) gives the input back, for text of verdict rows and for
// the empty and tiny pages.
func TestFastSnappyIsStandardSnappy(t *testing.T) {
	c, err := compress.GetCodec(compress.Codecs.Snappy)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(fastSnappy); !ok {
		t.Fatalf("the registered Snappy codec is %T, not fastSnappy", c)
	}
	if _, ok := c.(compress.StreamingCodec); !ok {
		t.Fatal("fastSnappy lost the streaming reader arrow-go's page reader asserts")
	}
	row := "q0000002,किस पूर्व बैंक राज्य पहला जो जीता?,क्रिकेट तत्व,Economics,प्राचीन नेटवर्क उत्तर है क्रिकेट। मानव,hi,osprey-70b\n"
	for _, in := range [][]byte{nil, []byte("x"), []byte(strings.Repeat(row, 5000))} {
		enc := c.EncodeLevel(nil, in, 0)
		got, err := snappy.Decode(nil, enc)
		if err != nil || !bytes.Equal(got, in) {
			t.Fatalf("snappy.Decode of fastSnappy's %d bytes: %v, equal %v", len(in), err, bytes.Equal(got, in))
		}
		if back := c.Decode(nil, enc); !bytes.Equal(back, in) {
			t.Fatalf("fastSnappy.Decode does not give the %d bytes back", len(in))
		}
		if len(in) > 1000 && len(enc) >= len(in)/2 {
			t.Fatalf("%d bytes of repeated rows compress to %d", len(in), len(enc))
		}
	}
}
