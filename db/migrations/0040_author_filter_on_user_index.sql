-- A star rating moves its author's stars along their comments on the rated business
-- (rating-tally.ts, authorRate): it walked the rater's entries of comments_user_idx and read each
-- comment's row for its business_id, ~200 rows for a rater with 200 reviews. With business_id in
-- the index the walk filters on the entries alone (issue 32 item 3; docs/operations/scaling.md,
-- "Eighteenth session"). The profile lists walk it in its new order (created_at, business_id,
-- rowid): services/accounts/profiles.ts orders by the same, with no sort.
DROP INDEX `comments_user_idx`;--> statement-breakpoint
CREATE INDEX `comments_user_idx` ON `comments` (`user_id`,`created_at`,`business_id`);