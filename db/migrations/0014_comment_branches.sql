-- Comments link to the business's branch they are about (services/comment-branches.ts).
-- drizzle-kit writes ADD COLUMN without the ON DELETE action: added by hand, so deleting a
-- branch unlinks its comments and keeps their location text.
-- upgrade_tasks: one-off data upgrades that need application code; the server runs them at start
-- (services/upgrade-tasks.ts). 'comment-branches' links the existing comments to their branches,
-- matching the location text with Swedish case folding, which SQLite's lower() cannot do.
CREATE TABLE `upgrade_tasks` (
	`name` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE `comments` ADD `branch_id` text REFERENCES branches(id) ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX `comments_branch_idx` ON `comments` (`branch_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_branch_authors_idx` ON `comments` (`business_id`,`branch_id`,`user_id`) WHERE "comments"."branch_id" IS NOT NULL AND "comments"."hidden_at" IS NULL AND "comments"."removed_at" IS NULL;--> statement-breakpoint
INSERT INTO `upgrade_tasks` (`name`) VALUES ('comment-branches');
