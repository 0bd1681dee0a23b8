-- Issue 18 (PRODUCT.md sections 4 and 7): categories come from one bilingual list, a business may
-- have an English description, and the admin's `rate` is no longer a number shown while nobody
-- has rated. Written by hand around drizzle-kit's statements: the data moves between them.
CREATE TABLE `categories` (
	`id` text PRIMARY KEY NOT NULL,
	`name_sv` text NOT NULL,
	`name_en` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
-- The list every site starts with (the demo directory's categories and a few more everyday ones).
INSERT INTO `categories` (`id`, `name_sv`, `name_en`, `created_at`, `updated_at`)
SELECT lower(hex(randomblob(12))), `sv`, `en`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
FROM (
	SELECT 'Livsmedel' AS `sv`, 'Groceries' AS `en`
	UNION ALL SELECT 'Apotek', 'Pharmacy'
	UNION ALL SELECT 'Järnhandel', 'Hardware'
	UNION ALL SELECT 'Bygg och trädgård', 'Building and garden'
	UNION ALL SELECT 'Bil och fritid', 'Car and leisure'
	UNION ALL SELECT 'Möbler och inredning', 'Furniture and interiors'
	UNION ALL SELECT 'Kläder', 'Clothing'
	UNION ALL SELECT 'Skor', 'Shoes'
	UNION ALL SELECT 'Varuhus', 'Department store'
	UNION ALL SELECT 'Elektronik', 'Electronics'
	UNION ALL SELECT 'Kafé', 'Café'
	UNION ALL SELECT 'Restaurang', 'Restaurant'
	UNION ALL SELECT 'Snabbmat', 'Fast food'
	UNION ALL SELECT 'Servicebutik', 'Convenience store'
	UNION ALL SELECT 'Post och paket', 'Post and parcels'
	UNION ALL SELECT 'Drivmedel', 'Fuel'
	UNION ALL SELECT 'Vin och sprit', 'Wine and spirits'
	UNION ALL SELECT 'Sport', 'Sports'
	UNION ALL SELECT 'Böcker', 'Books'
	UNION ALL SELECT 'Leksaker', 'Toys'
	UNION ALL SELECT 'Skönhet och hälsa', 'Beauty and health'
	UNION ALL SELECT 'Optiker', 'Optician'
	UNION ALL SELECT 'Djur', 'Pets'
	UNION ALL SELECT 'Blommor', 'Flowers'
	UNION ALL SELECT 'Förslag', 'Suggestions'
);
--> statement-breakpoint
-- A category no entry of the list names (in either language) joins it with its text as both
-- names, until an admin gives it an English one.
INSERT INTO `categories` (`id`, `name_sv`, `name_en`, `created_at`, `updated_at`)
SELECT lower(hex(randomblob(12))), `name`, `name`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
FROM (SELECT min(trim(`category`)) AS `name` FROM `businesses` GROUP BY lower(trim(`category`))) AS `used`
WHERE NOT EXISTS (
	SELECT 1 FROM `categories` WHERE lower(`name_sv`) = lower(`used`.`name`) OR lower(`name_en`) = lower(`used`.`name`)
);
--> statement-breakpoint
ALTER TABLE `businesses` ADD `category_id` text REFERENCES categories(id);--> statement-breakpoint
ALTER TABLE `businesses` ADD `description_en` text;--> statement-breakpoint
UPDATE `businesses` SET `category_id` = (
	SELECT `c`.`id` FROM `categories` AS `c`
	WHERE lower(`c`.`name_sv`) = lower(trim(`businesses`.`category`)) OR lower(`c`.`name_en`) = lower(trim(`businesses`.`category`))
	ORDER BY lower(`c`.`name_sv`) = lower(trim(`businesses`.`category`)) DESC
	LIMIT 1
);
--> statement-breakpoint
-- The suggestion box as the demo data wrote it gets the English text the demo data now has.
UPDATE `businesses` SET `description_en` =
	'Missing a business on Recensera? Write a comment here with the business''s name and the town where you visited it.' || char(10) ||
	'We read every suggestion and add new businesses to the directory.'
WHERE `is_suggestion_box` = 1 AND `description` =
	'Saknar du ett företag på Recensera? Skriv en kommentar här med företagets namn och orten där du har besökt det.' || char(10) ||
	'Vi läser alla förslag och lägger till nya företag i katalogen.';
--> statement-breakpoint
ALTER TABLE `businesses` DROP COLUMN `category`;--> statement-breakpoint
-- No table records who added a business, so the rate an admin entered cannot become that admin's
-- rating: it is dropped. A business nobody has rated shows "No ratings yet" (PRODUCT.md 4).
ALTER TABLE `businesses` DROP COLUMN `admin_rate`;
