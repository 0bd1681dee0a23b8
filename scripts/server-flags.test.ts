import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './server-flags';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('the production server starts with the same Node flags everywhere', () => {
  it('npm start (scripts/start.sh), the Dockerfile and the image smoke test', () => {
    expect((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start).toBe('exec sh scripts/start.sh');
    expect(read('scripts/start.sh')).toContain(`exec node ${SERVER_NODE_FLAGS.join(' ')} dist/server/index.js`);
    const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'))?.[1];
    expect(JSON.parse(cmd ?? '[]')).toEqual(['node', ...SERVER_NODE_FLAGS, 'dist/server/index.js']);
    expect(read('scripts/image-smoke.sh')).toContain(`node ${SERVER_NODE_FLAGS.join(' ')} dist/server/index.js`);
  });

  it('with the same environment (SERVER_ENV) in npm start, the Dockerfile and the image smoke test', () => {
    const dockerEnv = /^ENV ((?:.*\\\n)*.*)$/m.exec(read('Dockerfile'))?.[1] ?? '';
    for (const [name, value] of Object.entries(SERVER_ENV)) {
      expect(read('scripts/start.sh')).toContain(`export ${name}=${value}`);
      expect(dockerEnv).toMatch(new RegExp(`(^|\\s)${name}=${value}(\\s|$)`));
      expect(read('scripts/image-smoke.sh')).toContain(`${name}=${value} node ${SERVER_NODE_FLAGS.join(' ')}`);
    }
  });
});
