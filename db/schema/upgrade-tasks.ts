import { sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * One-off data upgrades a migration queues for the server to run at start, where they need
 * application code (e.g. Swedish case folding, which SQLite's lower() lacks): the runner
 * (server/services/ops/upgrade-tasks.ts) does a task and deletes its row in one transaction.
 */
export const upgradeTasks = sqliteTable('upgrade_tasks', {
  name: text('name').primaryKey(),
});
