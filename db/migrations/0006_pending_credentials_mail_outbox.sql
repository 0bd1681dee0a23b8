-- A confirmation link activates exactly the credentials of the registration that issued it
-- (issue 15: someone who registered an address before its owner could have their own password
-- activated by the owner's click). Mails go through a durable outbox instead of being sent
-- inside the request.
CREATE TABLE `mail_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`to_address` text NOT NULL,
	`reply_to` text,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text,
	`contact_message_id` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`failed_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`contact_message_id`) REFERENCES `contact_messages`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_due_idx` ON `mail_outbox` (`failed_at`,`next_attempt_at`);--> statement-breakpoint
ALTER TABLE `email_tokens` ADD `pending_password_hash` text;--> statement-breakpoint
ALTER TABLE `email_tokens` ADD `pending_first_name` text;--> statement-breakpoint
ALTER TABLE `email_tokens` ADD `pending_last_name` text;--> statement-breakpoint
ALTER TABLE `email_tokens` ADD `pending_language` text;--> statement-breakpoint
ALTER TABLE `email_tokens` ADD `pending_image_id` text;--> statement-breakpoint
-- Links mailed before this release keep working, but carry no password: the account's may be
-- that of whoever registered the address first, so the one who opens the link chooses it.
UPDATE `email_tokens` SET
  `pending_password_hash` = NULL,
  `pending_first_name` = (SELECT `first_name` FROM `users` WHERE `users`.`id` = `email_tokens`.`user_id`),
  `pending_last_name` = (SELECT `last_name` FROM `users` WHERE `users`.`id` = `email_tokens`.`user_id`),
  `pending_language` = (SELECT `language` FROM `users` WHERE `users`.`id` = `email_tokens`.`user_id`),
  `pending_image_id` = (SELECT `image_id` FROM `users` WHERE `users`.`id` = `email_tokens`.`user_id`)
WHERE `kind` = 'confirm';
