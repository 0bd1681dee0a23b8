-- New comments are indexed for search in batches instead of one by one in the posting
-- transaction: FTS5 pays a fixed cost per commit that touches the index (flushing its pending
-- terms into a new segment and merging segments), about 0.2 ms, which was a third of posting a
-- comment. The insert trigger now only queues the comment's rowid; indexQueuedComments
-- (server/services/comment-search.ts) indexes the whole queue in one transaction, on a short timer
-- after posting and always before a search reads the index, so searches never miss a comment.
-- Edits and author renames still update the index in place: a queued comment is not in the index
-- yet (the update finds no row) and is indexed with its current text when the queue is read.
-- Every existing comment is queued (added with migration 0011): migration 0004 no longer indexes
-- them itself, and one that is already in the index is indexed again in its place.
CREATE TABLE `comments_fts_queue` (
	`comment_rowid` integer PRIMARY KEY NOT NULL
);--> statement-breakpoint
INSERT INTO `comments_fts_queue` (`comment_rowid`) SELECT `rowid` FROM `comments`;--> statement-breakpoint
DROP TRIGGER `comments_fts_insert`;--> statement-breakpoint
CREATE TRIGGER `comments_fts_insert` AFTER INSERT ON `comments` BEGIN
  INSERT INTO `comments_fts_queue` (`comment_rowid`) VALUES (new.rowid);
END;--> statement-breakpoint
DROP TRIGGER `comments_fts_delete`;--> statement-breakpoint
CREATE TRIGGER `comments_fts_delete` AFTER DELETE ON `comments` BEGIN
  DELETE FROM `comments_fts_queue` WHERE `comment_rowid` = old.rowid;
  DELETE FROM `comments_fts` WHERE `rowid` = old.rowid;
END;
