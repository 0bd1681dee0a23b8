CREATE TABLE `business_suggestions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`category` text NOT NULL,
	`location` text NOT NULL,
	`address` text NOT NULL,
	`website` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`reason` text,
	`business_id` text,
	`decided_by` text,
	`decided_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `business_suggestions_status_idx` ON `business_suggestions` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `business_suggestions_user_idx` ON `business_suggestions` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `businesses` ADD `suggested_by` text REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `businesses_suggested_by_idx` ON `businesses` (`suggested_by`) WHERE suggested_by is not null;--> statement-breakpoint
-- The directory search (services/business-search.ts, issue 31.4): per business its title,
-- category names, towns and descriptions folded by searchFold (server/lib/sv-fold.ts: lower
-- case, no accents, å/ä/ö as a/a/o), so a substring of three or more characters is found by
-- the trigram index. The services write the rows (folding needs application code; rows missing
-- at start are written then); a deleted business takes its row along here.
CREATE VIRTUAL TABLE `business_search` USING fts5(
  `business_id` UNINDEXED,
  `title`,
  `category`,
  `town`,
  `body`,
  tokenize = 'trigram'
);
--> statement-breakpoint
CREATE TRIGGER `business_search_delete` AFTER DELETE ON `businesses` BEGIN
  DELETE FROM `business_search` WHERE `business_id` = old.id;
END;
