-- Places approved from members' suggestions before 74e18e8 got a branch without a town and a
-- business without the suggested website. The website is copied here; the town needs townOf
-- (server/lib/towns.ts), so an upgrade task gives it (services/ops/upgrade-tasks.ts). The same
-- start runs 'comment-branches' again: it links comments to branches named since, and writes the
-- typed-place keys of the others with placeKeyOf, which folds white space more strictly than
-- 0026's SQL did (runs of five or more spaces, line breaks, no-break spaces).
UPDATE `businesses` SET `website` = (SELECT s.`website` FROM `business_suggestions` s WHERE s.`business_id` = `businesses`.`id` AND s.`status` = 'approved' AND s.`website` IS NOT NULL ORDER BY s.`decided_at` LIMIT 1) WHERE `website` IS NULL AND `id` IN (SELECT `business_id` FROM `business_suggestions` WHERE `status` = 'approved' AND `website` IS NOT NULL AND `business_id` IS NOT NULL);--> statement-breakpoint
INSERT INTO `upgrade_tasks` (`name`) VALUES ('suggested-branch-towns'), ('comment-branches') ON CONFLICT DO NOTHING;
