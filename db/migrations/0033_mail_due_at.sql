-- Hand-edited: drizzle-kit 0.x writes the expression index's columns as quoted fragments.
DROP INDEX `notifications_unmailed_idx`;--> statement-breakpoint
ALTER TABLE `notifications` ADD `mail_due_at` integer;--> statement-breakpoint
CREATE INDEX `notifications_mail_due_idx` ON `notifications` (coalesce(`mail_due_at`, `created_at`)) WHERE `mailed_at` IS NULL;
