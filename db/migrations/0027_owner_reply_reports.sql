-- Hand-edited: drizzle-kit leaves out the ON DELETE of a column added with a reference; reports go
-- with the answer they are about, as with comments and replies.
ALTER TABLE `reports` ADD `owner_reply_id` text REFERENCES owner_replies(comment_id) ON DELETE cascade;--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_owner_reply_idx` ON `reports` (`owner_reply_id`,`reporter_id`) WHERE resolved_at is null and owner_reply_id is not null;--> statement-breakpoint
CREATE INDEX `reports_owner_reply_reporter_idx` ON `reports` (`owner_reply_id`,`reporter_id`,`resolution`);--> statement-breakpoint
ALTER TABLE `owner_replies` ADD `hidden_at` integer;--> statement-breakpoint
ALTER TABLE `owner_replies` ADD `removed_at` integer;--> statement-breakpoint
ALTER TABLE `owner_replies` ADD `removal_reason` text;