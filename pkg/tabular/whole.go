package tabular

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// DefaultMaxFile is the default of MaxFile: 1 GiB, far beyond any file a
// reader of the module takes whole (a plan, a case file, a prompt file,
// a JSON results document, a task's data), and small enough that a file
// that is not what it claims (a disk image, /dev/zero) is refused before
// it exhausts memory.
const DefaultMaxFile = 1 << 30

// MaxFile is the largest file, in bytes, that ReadAll and ReadFile take
// when given no limit of their own, and so every reader of the module
// that holds a whole file in memory. A command sets it from its
// --max-file-mib flag before it reads; a program may raise it the same
// way. 0 means DefaultMaxFile.
var MaxFile int64 = DefaultMaxFile

// FileLimitHint is what an error about a file beyond MaxFile says to do.
const FileLimitHint = "if the file is genuine, raise the limit with --max-file-mib (tabular.MaxFile)"

// ErrFileTooLarge is matched by the error of ReadAll and ReadFile for a
// file larger than their limit.
var ErrFileTooLarge = errors.New("file too large")

// RecordLimit returns the longest record a Reader or Lines given no limit
// of its own accepts now: Limit.MaxRecord, or DefaultMaxRecord when that
// is 0. Readers with a line limit of their own that should follow
// --max-field-mib take their default from it.
func RecordLimit() int { return maxRecord(0) }

// FileLimit returns the largest file ReadAll takes now: MaxFile, or
// DefaultMaxFile when that is 0 or less.
func FileLimit() int64 {
	if MaxFile > 0 {
		return MaxFile
	}
	return DefaultMaxFile
}

// ReadAll reads r to the end, as io.ReadAll does, but refuses more than
// max bytes (0 or less: FileLimit()) with a *ParseError naming name, the
// limit and the flag that raises it, wrapping ErrFileTooLarge:
//
//	plan.json: file too large: the file is larger than 1024 MiB, the most this reader takes whole; if the file is genuine, raise the limit with --max-file-mib (tabular.MaxFile)
//
// It reads at most max+1 bytes, so its memory is bounded by the limit
// (its buffer doubles as it fills, up to the limit+1 bytes: refusing an
// endless stream costs about one and a half times the limit). A read error is
// returned wrapped with name.
func ReadAll(r io.Reader, name string, max int64) ([]byte, error) {
	return readAllSized(r, name, max, 512)
}

// readAllSized is ReadAll with a first buffer of size+1 bytes (size is a
// hint: the file's size when it is known, so it is read in one buffer).
func readAllSized(r io.Reader, name string, max, size int64) ([]byte, error) {
	if max <= 0 {
		max = FileLimit()
	}
	data := make([]byte, 0, min(size, max)+1)
	for {
		if len(data) == cap(data) {
			if int64(len(data)) > max {
				return nil, FileTooLarge(name, max)
			}
			if int64(len(data)) == max {
				// Full at the limit: one byte more is one too many.
				var b [1]byte
				n, err := io.ReadFull(r, b[:])
				if n > 0 {
					return nil, FileTooLarge(name, max)
				}
				if err == io.EOF {
					return data, nil
				}
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			grown := make([]byte, len(data), min(2*int64(cap(data)), max)) // double, up to the limit
			copy(grown, data)
			data = grown
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if int64(len(data)) > max {
		return nil, FileTooLarge(name, max)
	}
	return data, nil
}

// FileTooLarge returns the error of ReadAll for a file name larger than
// max bytes, for readers that find the size another way (a declared
// size, a count while streaming).
func FileTooLarge(name string, max int64) *ParseError {
	return &ParseError{File: name, Err: FileLimitError(max)}
}

// FileLimitError returns the cause of FileTooLarge's error, for a reader
// whose callers place it themselves (an io.Reader that stops a Reader
// at the limit, whose error the Reader wraps with the file and line).
func FileLimitError(max int64) error {
	return fmt.Errorf("%w: the file is larger than %s, the most this reader takes whole; %s", ErrFileTooLarge, size64(max), FileLimitHint)
}

// ReadFile reads the named file as ReadAll does (max 0: FileLimit()),
// refusing a larger one before reading it when its size is known, and
// reading a regular file into one buffer of its size, as os.ReadFile
// does.
func ReadFile(name string, max int64) ([]byte, error) {
	if max <= 0 {
		max = FileLimit()
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if st.Size() > max {
			return nil, FileTooLarge(name, max)
		}
		// As os.ReadFile: one buffer of the file's size (it may still
		// grow while it is read, up to the limit).
		return readAllSized(f, name, max, st.Size())
	}
	return ReadAll(f, name, max)
}

// size64 is Size for an int64.
func size64(n int64) string {
	if n > 0 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadFS reads the file name of fsys whole, bounded as ReadAll bounds it
// (FileLimit(), --max-file-mib), with an error naming it, the limit and
// the flag.
func ReadFS(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, name, 0)
}
