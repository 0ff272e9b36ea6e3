// Package store keeps every evalbook run in one SQLite file (through
// modernc.org/sqlite, pure Go): what was run (tool, command, dataset
// content hash, settings, model, prompt hashes, normaliser, tokens and
// cost where known), every group's figures with intervals, and every
// row's outcome per metric keyed by sample id. It is an edge package:
// the core never imports it.
//
// A run is recorded in one transaction (Record), so a process killed
// while recording leaves nothing half-written; the file is in WAL mode
// with a busy timeout, so two processes can record at once. The schema
// is versioned (table schema_version) and Open migrates an older file
// forward. DESIGN.md documents the tables; the sqlite3 shell reads them.
//
// The analyses over stored runs (Diff, Gate, AA, History) pair runs by
// sample id only after checking that they are comparable (the same
// dataset content, prompt and normaliser), and reuse pkg/stats.
package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// SchemaVersion is the version of the schema this package writes; Open
// migrates a file written by an older version up to it.
const SchemaVersion = 3

// BusyTimeout is how long, in milliseconds, a writer waits for another
// process's transaction before giving up with "database is locked"
// (readers opened with OpenReadOnly do not wait for writers). A store
// opened afterwards uses the new value.
var BusyTimeout = 30000

// DefaultPath is the store's file when neither --store nor EVALBOOK_STORE names one.
const DefaultPath = "evalbook.db"

// EnvVar names the environment variable that chooses the store's file.
const EnvVar = "EVALBOOK_STORE"

// Path returns the store file to use: flag when it is not empty, else
// $EVALBOOK_STORE when set, else DefaultPath.
func Path(flag string) string {
	if flag != "" {
		return flag
	}
	if p := os.Getenv(EnvVar); p != "" {
		return p
	}
	return DefaultPath
}

// Store is an open run store. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string
}

// migrations[i] takes the schema from version i to version i+1. A new
// file runs them all; a file at version v runs migrations[v:]. Never
// edit a released step: append one.
var migrations = []string{
	// 0 -> 1: runs, their metrics, group figures and row chunks.
	`CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (0);
CREATE TABLE run (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	created TEXT NOT NULL,
	tool TEXT NOT NULL,
	command TEXT NOT NULL,
	title TEXT NOT NULL DEFAULT '',
	dataset_path TEXT NOT NULL DEFAULT '',
	dataset_file_hash TEXT NOT NULL DEFAULT '',
	dataset_hash TEXT NOT NULL,
	settings TEXT NOT NULL DEFAULT '{}',
	model TEXT NOT NULL DEFAULT '',
	prompt_hash TEXT NOT NULL DEFAULT '',
	key_kind TEXT NOT NULL,
	rows INTEGER NOT NULL,
	warnings TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE metric (
	run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	idx INTEGER NOT NULL,
	id TEXT NOT NULL,
	graded INTEGER NOT NULL,
	PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE TABLE grouping (
	run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	idx INTEGER NOT NULL,
	by_name TEXT NOT NULL,
	labels TEXT NOT NULL,
	PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE TABLE group_score (
	run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	by_name TEXT NOT NULL,
	grp TEXT NOT NULL,
	metric TEXT NOT NULL,
	n INTEGER NOT NULL,
	blank INTEGER NOT NULL,
	empty_golden INTEGER NOT NULL,
	correct REAL NOT NULL,
	accuracy REAL NOT NULL,
	ci_low REAL NOT NULL,
	ci_high REAL NOT NULL,
	PRIMARY KEY (run_id, by_name, grp, metric)
) WITHOUT ROWID;
CREATE TABLE row_chunk (
	run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	first INTEGER NOT NULL,
	n INTEGER NOT NULL,
	ids TEXT NOT NULL,
	lines TEXT NOT NULL,
	flags TEXT NOT NULL,
	groups TEXT NOT NULL,
	question TEXT NOT NULL,
	answer TEXT NOT NULL,
	response TEXT NOT NULL,
	PRIMARY KEY (run_id, first)
);
CREATE TABLE outcome_chunk (
	run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	metric_idx INTEGER NOT NULL,
	first INTEGER NOT NULL,
	vals TEXT NOT NULL,
	PRIMARY KEY (run_id, metric_idx, first)
);
CREATE VIEW sample AS
	SELECT c.run_id AS run_id, c.first + j.key AS idx, j.value AS sample_id,
		json_extract(c.lines, '$[' || j.key || ']') AS line,
		json_extract(c.question, '$[' || j.key || ']') AS question,
		json_extract(c.answer, '$[' || j.key || ']') AS answer,
		json_extract(c.response, '$[' || j.key || ']') AS response
	FROM row_chunk c, json_each(c.ids) j;
CREATE VIEW outcome AS
	SELECT o.run_id AS run_id, o.first + j.key AS idx,
		json_extract(c.ids, '$[' || j.key || ']') AS sample_id,
		m.id AS metric, j.value AS value
	FROM outcome_chunk o
	JOIN metric m ON m.run_id = o.run_id AND m.idx = o.metric_idx
	JOIN row_chunk c ON c.run_id = o.run_id AND c.first = o.first,
	json_each(o.vals) j;
UPDATE schema_version SET version = 1;`,
	// 1 -> 2: what else makes runs comparable or costly: the judge's
	// prompt, the normaliser, tokens and cost (NULL: unknown).
	`ALTER TABLE run ADD COLUMN judge_prompt_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE run ADD COLUMN normalizer TEXT NOT NULL DEFAULT '';
ALTER TABLE run ADD COLUMN tokens_in INTEGER;
ALTER TABLE run ADD COLUMN tokens_out INTEGER;
ALTER TABLE run ADD COLUMN cost REAL;
CREATE INDEX run_dataset ON run(dataset_hash);
UPDATE schema_version SET version = 2;`,
	// 2 -> 3: each text of a row chunk (its ids, lines, flags, groups,
	// questions, golden answers, responses: the JSON arrays of version
	// 1) is kept once in the table text, by its SHA-256, and the table
	// chunk names the texts of each run's chunks: a rerun of a dataset
	// stores its questions and answers no more. migrationPrep[2] has
	// created text and chunk and moved the rows of row_chunk into them;
	// row_chunk becomes a view with its old columns, so the views sample
	// and outcome, and every reader, read what they read before.
	`DROP VIEW outcome;
DROP VIEW sample;
DROP TABLE row_chunk;
CREATE VIEW row_chunk AS
	SELECT c.run_id AS run_id, c.first AS first, c.n AS n,
		ti.body AS ids, tl.body AS lines, tf.body AS flags, tg.body AS groups,
		tq.body AS question, ta.body AS answer, tr.body AS response
	FROM chunk c
	JOIN text ti ON ti.id = c.ids
	JOIN text tl ON tl.id = c.lines
	JOIN text tf ON tf.id = c.flags
	JOIN text tg ON tg.id = c.groups
	JOIN text tq ON tq.id = c.question
	JOIN text ta ON ta.id = c.answer
	JOIN text tr ON tr.id = c.response;
CREATE VIEW sample AS
	SELECT c.run_id AS run_id, c.first + j.key AS idx, j.value AS sample_id,
		json_extract(c.lines, '$[' || j.key || ']') AS line,
		json_extract(c.question, '$[' || j.key || ']') AS question,
		json_extract(c.answer, '$[' || j.key || ']') AS answer,
		json_extract(c.response, '$[' || j.key || ']') AS response
	FROM row_chunk c, json_each(c.ids) j;
CREATE VIEW outcome AS
	SELECT o.run_id AS run_id, o.first + j.key AS idx,
		json_extract(c.ids, '$[' || j.key || ']') AS sample_id,
		m.id AS metric, j.value AS value
	FROM outcome_chunk o
	JOIN metric m ON m.run_id = o.run_id AND m.idx = o.metric_idx
	JOIN row_chunk c ON c.run_id = o.run_id AND c.first = o.first,
	json_each(o.vals) j;
UPDATE schema_version SET version = 3;`,
}

// migrationPrep[i], when set, runs in the transaction of step i -> i+1
// before its SQL: what SQL alone cannot do.
var migrationPrep = map[int]func(ctx context.Context, tx *sql.Tx) error{
	2: textsByHash,
}

// chunkTextColumns are the texts of a row chunk, in the order of the
// table chunk's columns.
var chunkTextColumns = []string{"ids", "lines", "flags", "groups", "question", "answer", "response"}

// textsByHash creates the tables text and chunk of schema 3 and moves
// every row of row_chunk into them, each text once.
func textsByHash(ctx context.Context, tx *sql.Tx) error {
	for _, stmt := range []string{
		`CREATE TABLE text (
	id INTEGER PRIMARY KEY,
	hash BLOB NOT NULL UNIQUE,
	body TEXT NOT NULL
)`,
		`CREATE TABLE chunk (
	run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	first INTEGER NOT NULL,
	n INTEGER NOT NULL,
	ids INTEGER NOT NULL REFERENCES text(id),
	lines INTEGER NOT NULL REFERENCES text(id),
	flags INTEGER NOT NULL REFERENCES text(id),
	groups INTEGER NOT NULL REFERENCES text(id),
	question INTEGER NOT NULL REFERENCES text(id),
	answer INTEGER NOT NULL REFERENCES text(id),
	response INTEGER NOT NULL REFERENCES text(id),
	PRIMARY KEY (run_id, first)
)`,
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	tw, err := newTextWriter(ctx, tx)
	if err != nil {
		return err
	}
	defer tw.close()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO chunk VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	// A chunk at a time: the rows are read by key, not held.
	var keys [][2]int64
	rows, err := tx.QueryContext(ctx, `SELECT run_id, first FROM row_chunk ORDER BY run_id, first`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var k [2]int64
		if err := rows.Scan(&k[0], &k[1]); err != nil {
			rows.Close()
			return err
		}
		keys = append(keys, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, k := range keys {
		var n int64
		texts := make([]string, len(chunkTextColumns))
		dst := []any{&n}
		for i := range texts {
			dst = append(dst, &texts[i])
		}
		if err := tx.QueryRowContext(ctx, `SELECT n, `+strings.Join(chunkTextColumns, ", ")+` FROM row_chunk WHERE run_id = ? AND first = ?`,
			k[0], k[1]).Scan(dst...); err != nil {
			return err
		}
		args := []any{k[0], k[1], n}
		for _, t := range texts {
			id, err := tw.id(t)
			if err != nil {
				return err
			}
			args = append(args, id)
		}
		if _, err := ins.ExecContext(ctx, args...); err != nil {
			return err
		}
	}
	return nil
}

// textWriter keeps texts in the table text, each once.
type textWriter struct {
	ctx       context.Context
	ins, find *sql.Stmt
}

func newTextWriter(ctx context.Context, tx *sql.Tx) (*textWriter, error) {
	ins, err := tx.PrepareContext(ctx, `INSERT INTO text (hash, body) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING`)
	if err != nil {
		return nil, err
	}
	find, err := tx.PrepareContext(ctx, `SELECT id FROM text WHERE hash = ?`)
	if err != nil {
		ins.Close()
		return nil, err
	}
	return &textWriter{ctx: ctx, ins: ins, find: find}, nil
}

func (t *textWriter) close() {
	t.ins.Close()
	t.find.Close()
}

// id returns the id of body in the table text, adding it when no text
// has its SHA-256.
func (t *textWriter) id(body string) (int64, error) {
	h := sha256.Sum256([]byte(body))
	var id int64
	err := t.find.QueryRowContext(t.ctx, h[:]).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	res, err := t.ins.ExecContext(t.ctx, h[:], body)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// dropUnusedTexts deletes the texts no chunk names (after a run is
// removed).
func dropUnusedTexts(ctx context.Context, tx *sql.Tx) error {
	q := `DELETE FROM text WHERE id NOT IN (`
	for i, c := range chunkTextColumns {
		if i > 0 {
			q += " UNION "
		}
		q += "SELECT " + c + " FROM chunk"
	}
	_, err := tx.ExecContext(ctx, q+")")
	return err
}

// Open opens the store at path, creating it when it does not exist, and
// migrates its schema to SchemaVersion. The file is in WAL mode with
// foreign keys on and a busy timeout of BusyTimeout ms; transactions
// take the write lock when they begin (BEGIN IMMEDIATE), so concurrent
// recorders wait for each other instead of failing. A file written by a
// newer evalbook (a higher schema version) is an error.
func Open(path string) (*Store, error) {
	if err := create(path); err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	dsn := "file:" + path + "?_txlock=immediate&_pragma=busy_timeout(" + fmt.Sprint(BusyTimeout) +
		")&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=cache_size(-32768)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	s := &Store{db: db, path: path}
	if err := s.migrate(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return s, nil
}

// ErrNoStore is the error (through errors.Is) of OpenExisting for a file
// that does not exist.
var ErrNoStore = errors.New("no run store")

// OpenExisting is Open for a command that changes an existing store
// (runs rm): a missing file is an error wrapping ErrNoStore (record a
// run first) rather than a new, empty store. A command that only reads
// opens the store with OpenReadOnly, which never waits for a writer.
func OpenExisting(path string) (*Store, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, noStore(path)
	}
	return Open(path)
}

func noStore(path string) error {
	return fmt.Errorf("%w at %s: record a run with --record first, or name the store with --store or $%s", ErrNoStore, path, EnvVar)
}

// OpenReadOnly opens an existing store for reading only (runs list,
// runs show, runs diff, aa, gate, history). Its connections are
// read-only and begin no write transaction, so in WAL mode they read the
// last committed state while another process records (holding the write
// lock for as long as its run takes) instead of waiting for it up to
// BusyTimeout and failing with "database is locked". A missing file is
// an error wrapping ErrNoStore. A store of an older schema is opened
// with OpenExisting instead, once, to migrate it (that waits for the
// write lock); one of a newer schema is an error.
func OpenReadOnly(path string) (*Store, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, noStore(path)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout("+fmt.Sprint(BusyTimeout)+")&_pragma=foreign_keys(1)&_pragma=cache_size(-32768)")
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	s := &Store{db: db, path: path}
	v, err := s.schemaVersion(context.Background(), db)
	if err == nil && v > SchemaVersion {
		err = fmt.Errorf("schema version %d is newer than this evalbook's (%d): upgrade evalbook", v, SchemaVersion)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	if v < SchemaVersion {
		db.Close()
		return OpenExisting(path)
	}
	return s, nil
}

// PageSize is the page size of a new store: large pages make a run's
// row chunks a few hundred page writes instead of tens of thousands.
const PageSize = 65536

// create gives a file that does not exist yet (or is empty) its page
// size before WAL mode fixes it: the connection options apply
// journal_mode before page_size, which then has no effect.
func create(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		return nil
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout("+fmt.Sprint(BusyTimeout)+")")
	if err != nil {
		return err
	}
	defer db.Close()
	// Another process creating the store at the same moment may hold
	// the lock: setting WAL mode then fails at once (SQLite calls no
	// busy handler for it), and until that process has written the
	// file's header the file is still empty. Its file is as good as
	// ours once the header is there; until then, try again, for up to
	// BusyTimeout (1 in 30 runs of TestConcurrentRecorders failed here
	// when this gave up at the first refusal).
	deadline := time.Now().Add(time.Duration(BusyTimeout) * time.Millisecond)
	for {
		err := setNewStore(db)
		if err == nil {
			return nil
		}
		if fi, serr := os.Stat(path); serr == nil && fi.Size() > 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// setNewStore gives the empty store of db its page size and WAL mode.
func setNewStore(db *sql.DB) error {
	for _, p := range []string{fmt.Sprintf("PRAGMA page_size = %d", PageSize), "PRAGMA journal_mode = WAL"} {
		if _, err := db.Exec(p); err != nil {
			return err
		}
	}
	return nil
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// Path returns the file the store was opened from.
func (s *Store) Path() string { return s.path }

// DB returns the underlying database, for queries the package does not
// offer (read the tables DESIGN.md documents; write only through Record
// and Remove).
func (s *Store) DB() *sql.DB { return s.db }

// Version returns the schema version of the open file.
func (s *Store) Version(ctx context.Context) (int, error) {
	var v int
	err := s.db.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v)
	return v, err
}

func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	v, err := s.schemaVersion(ctx, tx)
	if err != nil {
		return err
	}
	if v > SchemaVersion {
		return fmt.Errorf("schema version %d is newer than this evalbook's (%d): upgrade evalbook", v, SchemaVersion)
	}
	if v == SchemaVersion {
		return nil
	}
	for i := v; i < SchemaVersion; i++ {
		if prep := migrationPrep[i]; prep != nil {
			if err := prep(ctx, tx); err != nil {
				return fmt.Errorf("migrating schema %d -> %d: %w", i, i+1, err)
			}
		}
		for _, stmt := range splitSQL(migrations[i]) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("migrating schema %d -> %d: %w", i, i+1, err)
			}
		}
	}
	return tx.Commit()
}

// schemaVersion reads the file's schema version through q (0: a new,
// empty file), or says it is not an evalbook store.
func (s *Store) schemaVersion(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int, error) {
	v := 0
	var name string
	err := q.QueryRowContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'`).Scan(&name)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		var n int
		if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&n); err != nil {
			return 0, err
		}
		if n > 0 {
			return 0, fmt.Errorf("not an evalbook store (it has tables but no schema_version); name another file with --store")
		}
	case err != nil:
		return 0, fmt.Errorf("not an evalbook store: %w", err)
	default:
		if err := q.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil {
			return 0, fmt.Errorf("reading schema_version: %w", err)
		}
	}
	return v, nil
}

// splitSQL splits a migration into statements at semicolons that end a
// line (the migrations hold no such semicolon inside a literal).
func splitSQL(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ";\n") {
		if p := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(part), ";")); p != "" {
			out = append(out, p)
		}
	}
	return out
}
