CREATE TABLE `site_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text,
	`tagline_sv` text,
	`tagline_en` text,
	`welcome_sv` text,
	`welcome_en` text,
	`updated_at` integer NOT NULL,
	`updated_by` text,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "site_settings_one_row" CHECK("site_settings"."id" = 1)
);
