ALTER TABLE `businesses` ADD `bayes_score` real GENERATED ALWAYS AS (CASE WHEN rating_count > 0 THEN (15.0 + rating_sum) / (5.0 + rating_count) END) VIRTUAL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `title_sort` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `businesses_dir_name_idx` ON `businesses` ("is_suggestion_box" desc,`title_sort`,"created_at" desc,`id`);--> statement-breakpoint
CREATE INDEX `businesses_dir_rating_idx` ON `businesses` ("is_suggestion_box" desc,"bayes_score" desc,`id`);--> statement-breakpoint
CREATE INDEX `businesses_dir_reviews_idx` ON `businesses` ("is_suggestion_box" desc,"rating_count" desc,`id`);--> statement-breakpoint
CREATE INDEX `businesses_dir_newest_idx` ON `businesses` ("is_suggestion_box" desc,"created_at" desc,`id`);--> statement-breakpoint
CREATE INDEX `branches_location_idx` ON `branches` (`location`,`business_id`);