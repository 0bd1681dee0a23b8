-- The comment search index no longer needs the application: every trigger only queues, and
-- indexQueuedComments (server/services/comment-search.ts) computes the words (searchWordsOf) and
-- writes them. Before, the edit and author-rename triggers called search_words, a function only
-- the app's connections defined, so editing a comment or a user name in the sqlite3 shell failed.
-- The index is keyed by comments.search_rowid, an explicit column, instead of the comments' rowid,
-- which VACUUM may renumber (SQLite promises stable rowids only for INTEGER PRIMARY KEY tables)
-- and which a table rebuild (CREATE new, INSERT … SELECT, DROP, RENAME) does renumber.
-- Existing index rows were keyed by rowid: every comment keeps that number as its search_rowid,
-- so what was findable stays findable without re-indexing; queued comments get theirs when
-- indexed. Edits and renames of hidden or removed comments queue nothing: they stay out of the
-- index (dropFromSearch) until queueForSearch puts them back, as before.
ALTER TABLE `comments` ADD `search_rowid` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `comments_search_rowid_idx` ON `comments` (`search_rowid`);--> statement-breakpoint
UPDATE `comments` SET `search_rowid` = `rowid`;--> statement-breakpoint
DROP TRIGGER `comments_fts_update`;--> statement-breakpoint
CREATE TRIGGER `comments_fts_update` AFTER UPDATE OF `text`, `business_location`, `business_id` ON `comments`
WHEN new.`hidden_at` IS NULL AND new.`removed_at` IS NULL BEGIN
  INSERT OR IGNORE INTO `comments_fts_queue` (`comment_rowid`) VALUES (new.rowid);
END;--> statement-breakpoint
DROP TRIGGER `comments_fts_author`;--> statement-breakpoint
CREATE TRIGGER `comments_fts_author` AFTER UPDATE OF `first_name`, `last_name` ON `users` BEGIN
  INSERT OR IGNORE INTO `comments_fts_queue` (`comment_rowid`)
  SELECT `rowid` FROM `comments` WHERE `user_id` = new.id AND `hidden_at` IS NULL AND `removed_at` IS NULL;
END;--> statement-breakpoint
DROP TRIGGER `comments_fts_delete`;--> statement-breakpoint
CREATE TRIGGER `comments_fts_delete` AFTER DELETE ON `comments` BEGIN
  DELETE FROM `comments_fts_queue` WHERE `comment_rowid` = old.rowid;
  DELETE FROM `comments_fts` WHERE `rowid` = old.`search_rowid`;
END;
