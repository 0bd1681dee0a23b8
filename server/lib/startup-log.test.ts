import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startupLog } from './startup-log';

const dir = mkdtempSync(path.join(os.tmpdir(), 'recensera-startup-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the start-up logger', () => {
  it('has written a line when the call returns, before any blocking step that follows', () => {
    const file = path.join(dir, 'start.log');
    const fd = openSync(file, 'a');
    try {
      const log = startupLog('info', fd);
      log.info({ migration: '0021_business_owners', step: '5/8' }, 'applying migration');
      log.info({ migration: '0022_top_rated_bayes_score', step: '6/8' }, 'applying migration');
      log.debug('not at info');
      // Read in the same tick, as a blocking migration would leave it: an asynchronous stream
      // keeps every line after the first in memory until the event loop runs again.
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatchObject({ msg: 'applying migration', migration: '0022_top_rated_bayes_score', step: '6/8', level: 30 });
    } finally {
      closeSync(fd);
    }
  });
});
