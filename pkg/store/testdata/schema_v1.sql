-- The schema of evalbook run stores at version 1, frozen as released:
-- TestMigrateFromV1 builds a version-1 store from it with the sqlite3
-- shell, and TestMigrationsFrozen fails if migrations[0] drifts from it.
CREATE TABLE schema_version (version INTEGER NOT NULL);
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
UPDATE schema_version SET version = 1;
