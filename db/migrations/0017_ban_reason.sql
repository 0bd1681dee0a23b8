ALTER TABLE `users` ADD `ban_reason` text;
