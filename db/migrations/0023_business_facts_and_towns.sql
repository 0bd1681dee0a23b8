CREATE TABLE `business_fact_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`actor_id` text,
	`actor_name` text NOT NULL,
	`changes` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `business_fact_changes_business_idx` ON `business_fact_changes` (`business_id`,`created_at`);--> statement-breakpoint
DROP INDEX `branches_location_idx`;--> statement-breakpoint
ALTER TABLE `branches` ADD `town` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `branches` ADD `area` text;--> statement-breakpoint
ALTER TABLE `branches` ADD `postal_code` text;--> statement-breakpoint
ALTER TABLE `branches` ADD `lat` real;--> statement-breakpoint
ALTER TABLE `branches` ADD `lng` real;--> statement-breakpoint
ALTER TABLE `branches` ADD `phone` text;--> statement-breakpoint
ALTER TABLE `branches` ADD `opening_hours` text;--> statement-breakpoint
CREATE INDEX `branches_town_idx` ON `branches` (`town`,`business_id`);--> statement-breakpoint
ALTER TABLE `businesses` ADD `website` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `phone` text;--> statement-breakpoint
-- Every branch's town is its location until the queued upgrade task splits names such as
-- "Malmö Hyllie" into town "Malmö" and area "Hyllie" (services/upgrade-tasks.ts, server/lib/towns.ts).
UPDATE `branches` SET `town` = `location`;--> statement-breakpoint
INSERT INTO `upgrade_tasks` (`name`) VALUES ('branch-towns');
