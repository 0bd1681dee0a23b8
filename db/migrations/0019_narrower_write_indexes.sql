-- Fewer index entries per write (issue 32 item 3). comments_user_idx (user_id) and the partial
-- comments_user_public_idx (user_id, created_at) become one comments_user_idx (user_id, created_at):
-- every new comment wrote both. comments_image_idx and the notices' nullable-reference indexes
-- become partial (IS NOT NULL): a comment without a picture, a notice without a reply or actor,
-- adds no entry, and every lookup by `= ?` (the upload sweep, the cascades) still finds its rows.
DROP INDEX `comments_user_public_idx`;--> statement-breakpoint
DROP INDEX `comments_user_idx`;--> statement-breakpoint
DROP INDEX `comments_image_idx`;--> statement-breakpoint
CREATE INDEX `comments_user_idx` ON `comments` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_image_idx` ON `comments` (`image_id`) WHERE "comments"."image_id" IS NOT NULL;--> statement-breakpoint
DROP INDEX `notifications_actor_idx`;--> statement-breakpoint
DROP INDEX `notifications_reply_idx`;--> statement-breakpoint
CREATE INDEX `notifications_actor_idx` ON `notifications` (`actor_id`) WHERE "notifications"."actor_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `notifications_reply_idx` ON `notifications` (`reply_id`) WHERE "notifications"."reply_id" IS NOT NULL;