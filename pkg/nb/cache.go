package nb

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
)

// CacheEnv names the environment variable that, when set, is the folder
// Cache keeps its values in.
const CacheEnv = "EVALBOOK_NB_CACHE"

// cacheVersion is the layout of a cache file; a file of another layout
// is recomputed.
const cacheVersion = 1

// Cache returns the value that compute returned for key in an earlier
// cell program, or calls compute, keeps its value and returns it. It is
// the notebook's answer to a Python variable that outlives its cell: a
// GoNB cell is a new program, so a function such as score() would
// otherwise read and score the data again in every cell that calls it.
//
//	func score() *results.Score {
//		return nb.Cache("score", func() (*results.Score, error) {
//			return qa.Score(ctx, f, name, opt)
//		}, "responses.csv")
//	}
//
// The value is kept, gob-encoded, in CacheDir: under GoNB the kernel's
// own scratch folder, so it lasts as long as the kernel does and a
// restarted kernel (or a headless run) computes afresh. It is computed
// again when the key differs, when the Go type of T differs (a field
// added to a struct of the notebook's own counts), or when the content
// of a file named in deps (a file, or a folder: every file under it) has
// changed since. Change the key (e.g. "score-v2") when you change what
// compute does: a function's code cannot be compared.
//
// T must be a type gob stores whole: exported fields only, no funcs,
// channels or interfaces (a gota DataFrame, with unexported fields, is
// not). For any other T, or a cache file that cannot be read or written,
// Cache prints a warning and computes the value as if there were no
// cache; it never panics. An error from compute (or a dependency that
// cannot be read) stops the cell as Must does, and nothing is kept.
func Cache[T any](key string, compute func() (T, error), deps ...string) T {
	return Must(Cached(key, compute, deps...))
}

// Cached is Cache without stopping the cell: it returns compute's error
// (or the error reading a dependency) instead of showing it. Problems of
// the cache itself are warnings on Err, never errors.
func Cached[T any](key string, compute func() (T, error), deps ...string) (T, error) {
	var zero T
	if key == "" {
		return zero, errors.New("nb.Cache: the key is empty; name the value, e.g. nb.Cache(\"score\", ...)")
	}
	if compute == nil {
		return zero, fmt.Errorf("nb.Cache %q: compute is nil", key)
	}
	sums, err := depSums(deps)
	if err != nil {
		return zero, fmt.Errorf("nb.Cache %q: %w", key, err)
	}
	t := reflect.TypeFor[T]()
	h := cacheHeader{Version: cacheVersion, Key: key, Type: typeSig(t), Deps: sums}
	dir, derr := CacheDir()
	var file string
	if derr == nil {
		file = filepath.Join(dir, cacheFileName(key))
	}
	whyNot := storable(t)
	if whyNot == "" && derr == nil {
		v, ok, warn := readCache[T](file, h)
		if ok {
			return v, nil
		}
		if warn != "" {
			cacheWarn(key, warn)
		}
	}
	v, err := compute()
	if err != nil {
		return zero, err
	}
	switch {
	case whyNot != "":
		cacheWarn(key, fmt.Sprintf("a %v cannot be kept (%s), so it is computed in every cell that asks for it; cache a value of exported fields instead", t, whyNot))
	case derr != nil:
		cacheWarn(key, derr.Error())
	default:
		if err := writeCache(file, h, v); err != nil {
			cacheWarn(key, fmt.Sprintf("not kept: %v", err))
		}
	}
	return v, nil
}

// Forget removes what Cache keeps for key, so that the next call
// computes it again. A key with nothing kept is not an error.
func Forget(key string) error {
	dir, err := CacheDir()
	if err != nil {
		return err
	}
	err = os.Remove(filepath.Join(dir, cacheFileName(key)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// CacheDir is the folder Cache keeps values in: $EVALBOOK_NB_CACHE if
// set; under GoNB, the folder .evalbook-cache in the kernel's scratch
// module ($GONB_TMP_DIR), which GoNB removes when the kernel stops;
// otherwise evalbook/nb-cache under the user's cache folder
// (os.UserCacheDir).
func CacheDir() (string, error) {
	if d := os.Getenv(CacheEnv); d != "" {
		return d, nil
	}
	if d := os.Getenv("GONB_TMP_DIR"); d != "" {
		return filepath.Join(d, ".evalbook-cache"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no folder to keep values in (%v); set %s", err, CacheEnv)
	}
	return filepath.Join(d, "evalbook", "nb-cache"), nil
}

// cacheHeader precedes the value in a cache file; the value is used only
// when every field equals the one the call computes.
type cacheHeader struct {
	Version int
	Key     string
	Type    string
	Deps    []string // "path\x00sha256" per dependency, in the order given
}

func (h cacheHeader) equal(o cacheHeader) bool {
	if h.Version != o.Version || h.Key != o.Key || h.Type != o.Type || len(h.Deps) != len(o.Deps) {
		return false
	}
	for i := range h.Deps {
		if h.Deps[i] != o.Deps[i] {
			return false
		}
	}
	return true
}

func cacheFileName(key string) string {
	s := sha256.Sum256([]byte(key))
	return hex.EncodeToString(s[:16]) + ".gob"
}

func cacheWarn(key, msg string) {
	fmt.Fprintf(Err, "warning: nb.Cache %q: %s\n", key, msg)
}

// readCache returns the kept value when file holds one for h. A missing
// file or one kept for other inputs is a plain miss; a file that cannot
// be read or decoded is a miss with a warning.
func readCache[T any](file string, want cacheHeader) (v T, ok bool, warn string) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return v, false, ""
	}
	if err != nil {
		return v, false, fmt.Sprintf("cannot read %s (%v); computing again", file, err)
	}
	defer func() {
		if r := recover(); r != nil {
			var zero T
			v, ok, warn = zero, false, fmt.Sprintf("%s is damaged (%v); computing again", file, r)
		}
	}()
	dec := gob.NewDecoder(bytes.NewReader(data))
	var got cacheHeader
	if err := dec.Decode(&got); err != nil {
		return v, false, fmt.Sprintf("%s is damaged (%v); computing again", file, err)
	}
	if !got.equal(want) {
		return v, false, ""
	}
	if err := dec.Decode(&v); err != nil {
		var zero T
		return zero, false, fmt.Sprintf("%s is damaged (%v); computing again", file, err)
	}
	return v, true, ""
}

// writeCache writes h and v to file through a temporary file renamed
// into place, so a reader never sees half a file.
func writeCache[T any](file string, h cacheHeader, v T) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gob: %v", r)
		}
	}()
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	if err := enc.Encode(h); err != nil {
		return err
	}
	if err := enc.Encode(&v); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// depSums hashes each dependency: a file's content, or for a folder the
// names and contents of every file under it.
func depSums(deps []string) ([]string, error) {
	sums := make([]string, 0, len(deps))
	for _, d := range deps {
		s, err := depSum(d)
		if err != nil {
			return nil, fmt.Errorf("dependency %s: %w", d, err)
		}
		sums = append(sums, d+"\x00"+s)
	}
	return sums, nil
}

func depSum(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if !info.IsDir() {
		if err := hashFile(h, path); err != nil {
			return "", err
		}
		return hex.EncodeToString(h.Sum(nil)), nil
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	for _, f := range files {
		rel, _ := filepath.Rel(path, f)
		fmt.Fprintf(h, "%q\n", filepath.ToSlash(rel))
		if err := hashFile(h, f); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := io.Copy(w, f)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\x00%d\x00", n)
	return nil
}

// typeSig describes t's structure: names, package paths, field names and
// tags, element types, recursively, so that a struct that gains a field
// (under the same name) has another signature.
func typeSig(t reflect.Type) string {
	var b strings.Builder
	writeSig(&b, t, map[reflect.Type]bool{})
	return b.String()
}

func writeSig(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) {
	if t.Name() != "" {
		fmt.Fprintf(b, "%s.%s:", t.PkgPath(), t.Name())
		if seen[t] {
			return
		}
		seen[t] = true
	}
	b.WriteString(t.Kind().String())
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice:
		b.WriteByte('(')
		writeSig(b, t.Elem(), seen)
		b.WriteByte(')')
	case reflect.Array:
		fmt.Fprintf(b, "[%d](", t.Len())
		writeSig(b, t.Elem(), seen)
		b.WriteByte(')')
	case reflect.Map:
		b.WriteByte('(')
		writeSig(b, t.Key(), seen)
		b.WriteByte(',')
		writeSig(b, t.Elem(), seen)
		b.WriteByte(')')
	case reflect.Struct:
		b.WriteByte('{')
		for i := range t.NumField() {
			f := t.Field(i)
			fmt.Fprintf(b, "%s %q ", f.Name, f.Tag)
			writeSig(b, f.Type, seen)
			b.WriteByte(';')
		}
		b.WriteByte('}')
	}
}

var (
	gobEncoderType    = reflect.TypeFor[gob.GobEncoder]()
	binaryMarshalType = reflect.TypeFor[encoding.BinaryMarshaler]()
)

// storable returns "" when gob stores and restores every part of a value
// of type t, and otherwise the first part it would drop or refuse.
func storable(t reflect.Type) string {
	return storableIn(t, map[reflect.Type]bool{})
}

func storableIn(t reflect.Type, seen map[reflect.Type]bool) string {
	if seen[t] {
		return ""
	}
	seen[t] = true
	for _, c := range []reflect.Type{t, reflect.PointerTo(t)} {
		if c.Implements(gobEncoderType) || c.Implements(binaryMarshalType) {
			return ""
		}
	}
	switch t.Kind() {
	case reflect.Func, reflect.Chan, reflect.UnsafePointer, reflect.Interface, reflect.Uintptr:
		return fmt.Sprintf("%v is a %s", t, t.Kind())
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return storableIn(t.Elem(), seen)
	case reflect.Map:
		if w := storableIn(t.Key(), seen); w != "" {
			return w
		}
		return storableIn(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				return fmt.Sprintf("%v has the unexported field %s", t, f.Name)
			}
			if w := storableIn(f.Type, seen); w != "" {
				return w
			}
		}
	}
	return ""
}
