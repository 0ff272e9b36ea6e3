package parquetio

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/results"
)

// HiveNull is the directory value Hive, Spark and DuckDB use for a null
// or empty partition value.
const HiveNull = "__HIVE_DEFAULT_PARTITION__"

// HiveEscape escapes a partition key or value for a directory name as
// Hive does (FileUtils.escapePathName): the control characters, " # % '
// * / : = ? \ DEL { [ ] ^ become %XX (upper-case hex of the byte), every
// other character, Devanagari and Bengali included, is kept as it is. An
// empty value is HiveNull. DuckDB, Spark and Hive decode %XX when they
// read the directory back, so the value comes back as it was. Two
// additions keep every value apart and every folder name honest: the
// literal value __HIVE_DEFAULT_PARTITION__ becomes %5F_HIVE_DEFAULT_PARTITION__
// (DuckDB reads it back as that text, where the bare name is its null,
// the empty value's folder), and a bidi or invisible control
// (results.IsInvisible: U+202E RIGHT-TO-LEFT OVERRIDE, U+200B, ...) or a
// byte that is not UTF-8 is escaped byte by byte (U+202E is %E2%80%AE),
// so that no folder name reorders or hides what a listing shows.
func HiveEscape(s string) string {
	if s == "" {
		return HiveNull
	}
	if s == HiveNull {
		return "%5F" + HiveNull[1:]
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x80 {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 || results.IsInvisible(r) {
				for k := i; k < i+n; k++ {
					fmt.Fprintf(&b, "%%%02X", s[k])
				}
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
			continue
		}
		if c < 0x20 || c == 0x7F || strings.IndexByte("\"#%'*/:=?\\{[]^", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
		i++
	}
	return b.String()
}

// DirOptions configures a DirWriter.
type DirOptions struct {
	// By names the input columns to partition on, outermost first
	// ("model", "language" gives model=m/language=l/). At least one.
	By []string
	// RowGroupRows bounds the rows buffered over all partitions; when
	// that many are buffered, every partition's rows are written as a
	// row group. 0 means DefaultRowGroupRows.
	RowGroupRows int
	// MaxOpen is the number of partition files kept open at once; 0
	// means 64. When a row needs another, the least recently written
	// is finished, and later rows of its partition go to a new file
	// (part-00001.parquet, ...): any number of partitions can be
	// written with bounded memory and file handles.
	MaxOpen int
	// Compression is the files' codec, as WriteOptions.Compression.
	Compression string
}

// A DirWriter writes verdict rows to a Hive-partitioned folder: one
// directory level per partition column, named key=value (HiveEscape),
// holding one or more Parquet files part-NNNNN.parquet whose columns are
// a Writer's without the partition columns (their values are in the
// path). DuckDB reads it with
//
//	SELECT model, language, count(*), sum(exact_substring)
//	FROM read_parquet('verdicts/**/*.parquet', hive_partitioning = true)
//	GROUP BY ALL
//
// and Spark with spark.read.parquet("verdicts/").
//
// The folder is written beside its target under a temporary name and
// renamed into place by Close, so a failed run leaves no half folder;
// the target must not exist or be an empty directory. A target that is
// a symbolic link to an empty directory is written through: the folder
// it points at is filled (replaced by the new one, with its permission
// bits) and the link is left as it was.
type DirWriter struct {
	dir, tmp string
	target   string // dir with a final symbolic link resolved: the folder replaced
	schema   *results.RowSchema
	by       []int
	opt      DirOptions
	wopt     WriteOptions
	root     pnode // partition values, one level per column, to their part
	byRel    map[string]*part
	nparts   int
	open     []*part // least recently written first
	buffered int
	files    int
	rows     int64
	done     bool
}

type pnode struct {
	kids map[string]*pnode
	part *part
}

type part struct {
	rel   string // key=value/key=value
	next  int    // number of the next file
	f     *os.File
	w     *Writer
	rows  int64
	files int
}

// DirResult says what a DirWriter wrote.
type DirResult struct {
	Dir        string   `json:"dir"`
	By         []string `json:"partition_by"`
	Partitions int      `json:"partitions"`
	Files      int      `json:"files"`
	Rows       int64    `json:"rows"`
}

// NewDirWriter starts a partitioned folder at dir for rows of schema s.
func NewDirWriter(dir string, s *results.RowSchema, opt DirOptions) (*DirWriter, error) {
	if s == nil {
		return nil, errors.New("parquetio: the row schema is nil")
	}
	if len(opt.By) == 0 {
		return nil, errors.New("parquetio: name at least one column to partition by")
	}
	d := &DirWriter{dir: filepath.Clean(dir), schema: s, opt: opt}
	for _, b := range opt.By {
		i := slices.Index(s.Columns, b)
		if i < 0 {
			return nil, fmt.Errorf("parquetio: cannot partition by %q: it is not an input column (the columns are %s)", b, strings.Join(s.Columns, ", "))
		}
		if slices.Contains(d.by, i) {
			return nil, fmt.Errorf("parquetio: %q is named twice in the partition columns", b)
		}
		d.by = append(d.by, i)
	}
	if d.opt.RowGroupRows <= 0 {
		d.opt.RowGroupRows = DefaultRowGroupRows
	}
	if d.opt.MaxOpen <= 0 {
		d.opt.MaxOpen = 64
	}
	// Each file's own row limit is never the trigger: the folder-wide
	// count below is.
	d.wopt = WriteOptions{RowGroupRows: d.opt.RowGroupRows + 1, Omit: opt.By, Compression: opt.Compression, part: true}
	if _, err := d.wopt.codec(); err != nil {
		return nil, err
	}
	if _, _, err := columns(s, opt.By); err != nil {
		return nil, err
	}
	d.target = d.dir
	if fi, err := os.Lstat(d.dir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		t, err := filepath.EvalSymlinks(d.dir)
		if err != nil {
			return nil, fmt.Errorf("parquetio: %s is a symbolic link to a folder that cannot be reached (%w): create the folder it names, or name another", d.dir, err)
		}
		d.target = t
	}
	if err := checkTarget(d.target); err != nil {
		return nil, err
	}
	mode := os.FileMode(0o755)
	if fi, err := os.Stat(d.target); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.MkdirTemp(filepath.Dir(d.target), "."+filepath.Base(d.target)+".partial-")
	if err != nil {
		return nil, fmt.Errorf("parquetio: %w", err)
	}
	d.tmp = tmp
	if err := os.Chmod(tmp, mode); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("parquetio: %w", err)
	}
	return d, nil
}

// checkTarget refuses a target that exists and is not an empty directory:
// DuckDB would read old files along with the new ones.
func checkTarget(dir string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("parquetio: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("parquetio: %s exists and is not a directory", dir)
	}
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("parquetio: %w", err)
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); err != io.EOF {
		return fmt.Errorf("parquetio: %s is not empty: remove it or choose a new folder (old files would be read with the new ones)", dir)
	}
	return nil
}

// Write adds one row to its partition. The row is copied.
func (d *DirWriter) Write(r *results.Row) error {
	if d.done {
		return errors.New("parquetio: Write after Close")
	}
	// One map lookup per partition column on the raw values (no
	// allocation); the escaped path is made once per partition.
	node := &d.root
	for _, i := range d.by {
		if i >= len(r.Fields) {
			return fmt.Errorf("parquetio: row %d has %d fields; the schema has %d", r.Line, len(r.Fields), len(d.schema.Columns))
		}
		next := node.kids[r.Fields[i]]
		if next == nil {
			if node.kids == nil {
				node.kids = map[string]*pnode{}
			}
			next = &pnode{}
			node.kids[strings.Clone(r.Fields[i])] = next
		}
		node = next
	}
	p := node.part
	if p == nil {
		var rel strings.Builder
		for k, i := range d.by {
			seg := HiveEscape(d.opt.By[k]) + "=" + HiveEscape(r.Fields[i])
			if len(seg) > 255 {
				return fmt.Errorf("parquetio: row %d: the partition directory for %s is %d bytes long once escaped; a directory name is at most 255 (partition by a shorter column)", r.Line, d.opt.By[k], len(seg))
			}
			if k > 0 {
				rel.WriteByte('/')
			}
			rel.WriteString(seg)
		}
		// HiveEscape gives distinct values distinct names; the map
		// keeps one part per name all the same.
		if p = d.byRel[rel.String()]; p == nil {
			p = &part{rel: rel.String()}
			if d.byRel == nil {
				d.byRel = map[string]*part{}
			}
			d.byRel[p.rel] = p
			d.nparts++
		}
		node.part = p
	}
	if p.w == nil {
		if err := d.openPart(p); err != nil {
			return err
		}
	} else if k := slices.Index(d.open, p); k != len(d.open)-1 {
		d.open = append(slices.Delete(d.open, k, k+1), p)
	}
	if err := p.w.Write(r); err != nil {
		return err
	}
	p.rows++
	d.rows++
	d.buffered++
	if d.buffered >= d.opt.RowGroupRows {
		for _, o := range d.open {
			if err := o.w.Flush(); err != nil {
				return err
			}
		}
		d.buffered = 0
	}
	return nil
}

// openPart starts p's next file, finishing the least recently written
// open file first when MaxOpen are open.
func (d *DirWriter) openPart(p *part) error {
	if len(d.open) >= d.opt.MaxOpen {
		old := d.open[0]
		d.open = d.open[1:]
		d.buffered -= old.w.Buffered()
		if err := old.finish(); err != nil {
			return err
		}
	}
	dir := filepath.Join(d.tmp, filepath.FromSlash(p.rel))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("parquetio: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("part-%05d.parquet", p.next)))
	if err != nil {
		return fmt.Errorf("parquetio: %w", err)
	}
	p.next++
	w, err := NewWriter(f, d.schema, d.wopt)
	if err != nil {
		f.Close()
		return err
	}
	p.f, p.w = f, w
	p.files++
	d.files++
	d.open = append(d.open, p)
	return nil
}

func (p *part) finish() error {
	err := p.w.Close()
	if cerr := p.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("parquetio: %w", cerr)
	}
	p.w, p.f = nil, nil
	return err
}

// Close finishes every file and puts the folder in place. On an error the
// temporary folder is removed and the target left as it was.
func (d *DirWriter) Close() (DirResult, error) {
	res := DirResult{Dir: d.dir, By: d.opt.By, Partitions: d.nparts, Files: d.files, Rows: d.rows}
	if d.done {
		return res, errors.New("parquetio: Close called twice")
	}
	d.done = true
	var err error
	for _, p := range d.open {
		if ferr := p.finish(); err == nil {
			err = ferr
		}
	}
	d.open = nil
	if err == nil {
		err = checkTarget(d.target)
	}
	if err == nil {
		if rerr := os.Remove(d.target); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = fmt.Errorf("parquetio: %w", rerr)
		}
	}
	if err == nil {
		if rerr := os.Rename(d.tmp, d.target); rerr != nil {
			err = fmt.Errorf("parquetio: %w", rerr)
		}
	}
	if err != nil {
		os.RemoveAll(d.tmp)
		return res, err
	}
	return res, nil
}

// Abort removes what was written; the target is left as it was.
func (d *DirWriter) Abort() {
	if d.done {
		return
	}
	d.done = true
	for _, p := range d.open {
		p.finish()
	}
	d.open = nil
	os.RemoveAll(d.tmp)
}

// WriteDir writes the rows of seq (as qa.Rows yields them) to a
// Hive-partitioned folder at dir (see DirWriter). The schema is the
// first row's. An error from seq (bad input) or from writing removes the
// partial folder and is returned.
func WriteDir(dir string, seq iter.Seq2[*results.Row, error], opt DirOptions) (DirResult, error) {
	var d *DirWriter
	for r, err := range seq {
		if err == nil && d == nil {
			d, err = NewDirWriter(dir, r.Schema, opt)
			if err != nil {
				return DirResult{}, err
			}
		}
		if err == nil {
			err = d.Write(r)
		}
		if err != nil {
			if d != nil {
				d.Abort()
			}
			return DirResult{}, err
		}
	}
	if d == nil {
		return DirResult{}, errors.New("parquetio: no rows to write")
	}
	return d.Close()
}
