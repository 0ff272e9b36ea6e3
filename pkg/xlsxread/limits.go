package xlsxread

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/evalbook/evalbook/pkg/qa"
)

// Limits bound what reading one workbook may cost. An .xlsx file is a
// ZIP archive, and a small one can inflate to gigabytes (a zip bomb: a
// 2 MB file whose sheet is 2 GiB of repeated rows), so Open checks the
// archive's central directory before excelize sees it and then counts
// the bytes each member really inflates to, which catches a header that
// declares less than the data holds.
type Limits struct {
	// MaxInflated is the most bytes all members together may inflate
	// to, declared and actual (the file itself may be no larger).
	MaxInflated int64
	// MaxRatio is the largest inflated-to-compressed ratio of a member
	// that inflates to more than RatioFloor bytes. Sheet XML of real
	// response tables deflates about 5 to 20 times; 1000 is a bomb.
	MaxRatio float64
	// RatioFloor is the inflated size from which MaxRatio applies:
	// small parts (styles, an empty sheet) may be as repetitive as
	// they like.
	RatioFloor int64
}

// DefaultLimits are limits no real workbook meets: 1 GiB inflated, and
// a ratio of 100 for members above 16 MiB.
var DefaultLimits = Limits{MaxInflated: 1 << 30, MaxRatio: 100, RatioFloor: 16 << 20}

// Limit is what Open (and so the qa reader for .xlsx) applies; a
// command sets it from its flags (--max-inflated-mib,
// --max-inflate-ratio) before it reads, a program may raise it the same
// way. A zero field means its DefaultLimits value.
var Limit = DefaultLimits

// ErrTooLarge is matched (errors.Is) by the error for a workbook beyond
// Limit: the file, a member or all of them inflate past MaxInflated, or
// a large member deflates more than MaxRatio times.
var ErrTooLarge = errors.New("workbook too large")

func (l Limits) orDefault() Limits {
	if l.MaxInflated <= 0 {
		l.MaxInflated = DefaultLimits.MaxInflated
	}
	if l.MaxRatio <= 0 {
		l.MaxRatio = DefaultLimits.MaxRatio
	}
	if l.RatioFloor <= 0 {
		l.RatioFloor = DefaultLimits.RatioFloor
	}
	return l
}

const sizeHint = "raise it with --max-inflated-mib (xlsxread.Limit.MaxInflated) if the workbook is genuine"
const ratioHint = "raise it with --max-inflate-ratio (xlsxread.Limit.MaxRatio) if the workbook is genuine"

func mib(n int64) string {
	if n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// readBounded reads the whole file (excelize needs it in memory), at
// most l.MaxInflated bytes: a compressed file larger than what it may
// inflate to is refused before it is all read.
func readBounded(r io.Reader, name string, l Limits) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, l.MaxInflated+1))
	if err != nil {
		return nil, &qa.ParseError{File: name, Err: err}
	}
	if int64(len(data)) > l.MaxInflated {
		return nil, &qa.ParseError{File: name, Err: fmt.Errorf("%w: the file is larger than the %s limit; %s", ErrTooLarge, mib(l.MaxInflated), sizeHint)}
	}
	return data, nil
}

// checkArchive refuses a workbook whose members declare, or really
// inflate to, more than l allows. It reads the central directory first
// (declared sizes, ratios: no inflating), then inflates each member into
// a counter, never past the remaining allowance, so a member whose
// header understates its data is caught too (archive/zip stops at the
// declared size with zip.ErrFormat, reported as a forged header).
func checkArchive(data []byte, name string, l Limits) error {
	if bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}) {
		return &qa.ParseError{File: name, Err: errors.New("not a readable .xlsx workbook: an encrypted or legacy (.xls) file; save it as an unprotected .xlsx")}
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return &qa.ParseError{File: name, Err: fmt.Errorf("not a readable .xlsx workbook: %v", err)}
	}
	var declared uint64
	for _, f := range zr.File {
		u, c := f.UncompressedSize64, f.CompressedSize64
		declared += u
		if u > uint64(l.MaxInflated) || declared > uint64(l.MaxInflated) {
			what := "member " + strconv.Quote(f.Name) + " declares " + strconv.FormatUint(u, 10) + " bytes inflated"
			if u <= uint64(l.MaxInflated) {
				what += ", " + strconv.FormatUint(declared, 10) + " with the members before it"
			}
			return &qa.ParseError{File: name, Err: fmt.Errorf("%w: %s, above the %s limit; %s", ErrTooLarge, what, mib(l.MaxInflated), sizeHint)}
		}
		if int64(u) > l.RatioFloor && float64(u) > l.MaxRatio*float64(max(c, 1)) {
			return &qa.ParseError{File: name, Err: fmt.Errorf("%w: member %q inflates %d bytes to %d (%.0f:1), above the ratio limit %g:1 for members over %s (a zip bomb?); %s",
				ErrTooLarge, f.Name, c, u, float64(u)/float64(max(c, 1)), l.MaxRatio, mib(l.RatioFloor), ratioHint)}
		}
	}
	left := l.MaxInflated
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		n, err := inflate(f, left)
		if n > left {
			return &qa.ParseError{File: name, Err: fmt.Errorf("%w: member %q inflates past the %s limit (it declares %d bytes); %s", ErrTooLarge, f.Name, mib(l.MaxInflated), f.UncompressedSize64, sizeHint)}
		}
		if err != nil {
			if errors.Is(err, zip.ErrFormat) {
				return &qa.ParseError{File: name, Err: fmt.Errorf("not a readable .xlsx workbook: member %q does not inflate to the %d bytes it declares (a damaged or forged header)", f.Name, f.UncompressedSize64)}
			}
			return &qa.ParseError{File: name, Err: fmt.Errorf("not a readable .xlsx workbook: member %q: %v", f.Name, err)}
		}
		left -= n
	}
	return nil
}

// inflate decompresses f into nothing and returns how many bytes it
// gave, reading at most limit+1 of them.
func inflate(f *zip.File, limit int64) (int64, error) {
	rc, err := f.Open()
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	return io.Copy(io.Discard, io.LimitReader(rc, limit+1))
}
