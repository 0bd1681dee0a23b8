import os from 'node:os';
import path from 'node:path';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8123);
/** Wiped by the webServer command (playwright.config.ts) before the server starts, so every run begins from fresh demo data. */
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'recensera-e2e-data');
export const E2E_OUTBOX = path.join(E2E_DATA_DIR, 'outbox');
/** The one footer social link the e2e server sets (the others stay unset, so hidden). */
export const E2E_INSTAGRAM_URL = 'https://www.instagram.com/recensera.e2e/';

/** A second server, started empty (DEMO_DATA=0) as a fresh install is: e2e/empty-install.spec.ts. */
export const E2E_EMPTY_PORT = Number(process.env.E2E_EMPTY_PORT ?? E2E_PORT + 10);
export const E2E_EMPTY_DATA_DIR = `${E2E_DATA_DIR}-empty`;
export const E2E_EMPTY_OUTBOX = path.join(E2E_EMPTY_DATA_DIR, 'outbox');
