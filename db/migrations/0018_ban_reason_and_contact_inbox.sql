ALTER TABLE `contact_messages` ADD `read_at` integer;--> statement-breakpoint
CREATE INDEX `contact_messages_unread_idx` ON `contact_messages` (`created_at`) WHERE "contact_messages"."read_at" is null;--> statement-breakpoint
ALTER TABLE `users` ADD `ban_reason` text;