import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { E2E_DATA_DIR, E2E_EMPTY_DATA_DIR, E2E_EMPTY_PORT, E2E_INSTAGRAM_URL, E2E_PORT } from './env';

/** The built production server on `port` with a throwaway DATA_DIR, wiped before it starts. */
function server({ port, dataDir, demoData }: { port: number; dataDir: string; demoData: boolean }) {
  return {
    // Playwright starts the web server before globalSetup, so the wipe must come first here:
    // a wipe after the start would delete the files of the server already running.
    command: `node -e "fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true })" && node ${process.env.E2E_SERVER_DIR ?? 'dist'}/server/index.js`,
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DEMO_DATA: demoData ? '1' : '0',
      LOG_LEVEL: 'warn',
      ADMIN_EMAILS: 'e2e-admin@example.com',
      // Each test sends its own X-Forwarded-For, so per-IP limits count per test (fixtures.ts).
      TRUST_PROXY: '1',
      // The one footer social link set; the others stay hidden (e2e/shell.spec.ts).
      SOCIAL_INSTAGRAM_URL: E2E_INSTAGRAM_URL,
    },
  };
}

/**
 * Journeys run against the built production server (npm run build first) on its own port with a
 * throwaway DATA_DIR seeded with demo data; mails land in DATA_DIR/outbox as .eml files. A
 * second server on E2E_EMPTY_PORT starts empty, as a fresh install does.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  workers: 1,
  // No retries, in CI too: a retry would hide a flaky journey instead of failing on it.
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    server({ port: E2E_PORT, dataDir: E2E_DATA_DIR, demoData: true }),
    // A fresh install, empty as the Docker image starts (e2e/empty-install.spec.ts).
    server({ port: E2E_EMPTY_PORT, dataDir: E2E_EMPTY_DATA_DIR, demoData: false }),
  ],
});
