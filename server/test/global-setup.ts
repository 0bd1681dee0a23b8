import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { closeDb, migrateDb, openDb } from '../../db/client';

/** Migrates one template database; every test file copies it instead of migrating again. */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-template-'));
  const file = path.join(dir, 'template.sqlite');
  const db = openDb(file);
  migrateDb(db);
  db.$client.pragma('wal_checkpoint(TRUNCATE)');
  closeDb(db);
  project.provide('templateDb', file);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDb: string;
  }
}
