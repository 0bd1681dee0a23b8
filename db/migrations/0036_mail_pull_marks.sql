CREATE TABLE `mail_pull_marks` (
	`name` text PRIMARY KEY NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notification_settings_digest_idx` ON `notification_settings` (`digest_at`) WHERE "notification_settings"."digest_at" IS NOT NULL;