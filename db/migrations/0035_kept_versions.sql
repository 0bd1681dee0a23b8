CREATE TABLE `kept_versions` (
	`scope` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `kept_versions` (`scope`, `version`) VALUES ('businesses', random());--> statement-breakpoint
CREATE TRIGGER `kept_businesses_business_insert` AFTER INSERT ON `businesses` BEGIN UPDATE `kept_versions` SET `version` = random() WHERE `scope` = 'businesses'; END;--> statement-breakpoint
CREATE TRIGGER `kept_businesses_business_delete` AFTER DELETE ON `businesses` BEGIN UPDATE `kept_versions` SET `version` = random() WHERE `scope` = 'businesses'; END;--> statement-breakpoint
CREATE TRIGGER `kept_businesses_business_update` AFTER UPDATE OF `id`, `title`, `title_search`, `category_id`, `description`, `description_en`, `rating_count`, `rating_sum`, `title_sort`, `stars_1`, `stars_2`, `stars_3`, `stars_4`, `stars_5`, `image_id`, `icon_id`, `is_suggestion_box`, `suggested_by`, `website`, `phone`, `created_at`, `updated_at` ON `businesses` BEGIN UPDATE `kept_versions` SET `version` = random() WHERE `scope` = 'businesses'; END;--> statement-breakpoint
CREATE TRIGGER `kept_businesses_branch_insert` AFTER INSERT ON `branches` BEGIN UPDATE `kept_versions` SET `version` = random() WHERE `scope` = 'businesses'; END;--> statement-breakpoint
CREATE TRIGGER `kept_businesses_branch_delete` AFTER DELETE ON `branches` BEGIN UPDATE `kept_versions` SET `version` = random() WHERE `scope` = 'businesses'; END;--> statement-breakpoint
CREATE TRIGGER `kept_businesses_branch_update` AFTER UPDATE ON `branches` BEGIN UPDATE `kept_versions` SET `version` = random() WHERE `scope` = 'businesses'; END;--> statement-breakpoint
CREATE TRIGGER `kept_businesses_category_insert` AFTER INSERT ON `categories` BEGIN UPDATE `kept_versions` SET `version` = random() WHERE `scope` = 'businesses'; END;--> statement-breakpoint
CREATE TRIGGER `kept_businesses_category_delete` AFTER DELETE ON `categories` BEGIN UPDATE `kept_versions` SET `version` = random() WHERE `scope` = 'businesses'; END;--> statement-breakpoint
CREATE TRIGGER `kept_businesses_category_update` AFTER UPDATE ON `categories` BEGIN UPDATE `kept_versions` SET `version` = random() WHERE `scope` = 'businesses'; END;--> statement-breakpoint
CREATE TRIGGER `kept_businesses_image_delete` AFTER DELETE ON `images` BEGIN UPDATE `kept_versions` SET `version` = random() WHERE `scope` = 'businesses'; END;--> statement-breakpoint
CREATE TRIGGER `kept_businesses_image_update` AFTER UPDATE ON `images` BEGIN UPDATE `kept_versions` SET `version` = random() WHERE `scope` = 'businesses'; END;
