import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layer rules in eslint.config.js, each shown to fire on a planted violation (and to stay
// quiet on the allowed form). The planted files exist only as text handed to ESLint; the type
// service takes them into a default project with the root tsconfig.json's options.
const planted = ['db/planted.ts', 'server/services/planted.ts', 'client/planted.ts', 'server/lib/planted.ts', 'shared/planted.ts', 'server/plugins/planted.ts'];
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: { languageOptions: { parserOptions: { projectService: { allowDefaultProject: planted, defaultProject: 'tsconfig.json' } } } },
});

async function rulesFiredOn(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

// Building the type service for the first file takes a while on a busy machine.
describe('lint guards the layers', { timeout: 240_000 }, () => {
  it('db imports nothing from server', async () => {
    expect(await rulesFiredOn('db/planted.ts', "import { newId } from '../server/lib/ids';\nexport const id = newId();\n")).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('services import nothing from plugins, rest or trpc', async () => {
    for (const from of ['../plugins/errors', '../rest/comment', '../trpc/caller']) {
      expect(await rulesFiredOn('server/services/planted.ts', `import * as m from '${from}';\nexport const n = Object.keys(m).length;\n`)).toContain(
        'import-x/no-restricted-paths',
      );
    }
    expect(await rulesFiredOn('server/services/planted.ts', "import { newId } from '../lib/ids';\nexport const id = newId();\n")).toEqual([]);
  });

  it('shared/ imports nothing from server, client or db', async () => {
    for (const from of ['../server/lib/ids', '../client/lib/hydrated', '../db/schema']) {
      expect(await rulesFiredOn('shared/planted.ts', `import * as m from '${from}';\nexport const n = Object.keys(m).length;\n`)).toContain(
        'import-x/no-restricted-paths',
      );
    }
    expect(await rulesFiredOn('shared/planted.ts', "import { excerpt } from './schemas/text';\nexport const e = excerpt;\n")).toEqual([]);
  });

  it('the server imports nothing from client/: shared code lives in shared/', async () => {
    expect(await rulesFiredOn('server/plugins/planted.ts', "import { sv } from '../../client/i18n/index';\nexport const s = sv;\n")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await rulesFiredOn('server/plugins/planted.ts', "import { sv } from '../../shared/i18n/sv';\nexport const s = sv;\n")).toEqual([]);
  });

  it('server/lib imports no services, doors or plugins', async () => {
    for (const from of ['../services/ops/backup', '../rest/comment', '../plugins/errors']) {
      expect(await rulesFiredOn('server/lib/planted.ts', `import * as m from '${from}';\nexport const n = Object.keys(m).length;\n`)).toContain(
        'import-x/no-restricted-paths',
      );
    }
    expect(await rulesFiredOn('server/lib/planted.ts', "import { newId } from './ids';\nexport const id = newId();\n")).toEqual([]);
  });

  it('the client imports shared/ and only the AppRouter type from the server', async () => {
    expect(await rulesFiredOn('client/planted.ts', "import { getMe } from '../server/services/accounts/users';\nexport const f = getMe;\n")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await rulesFiredOn('client/planted.ts', "import { appRouter } from '../server/trpc/router';\nexport const r = appRouter;\n")).toContain(
      'no-restricted-imports',
    );
    expect(await rulesFiredOn('client/planted.ts', "import type { AppRouter } from '../server/trpc/router';\nexport type R = AppRouter;\n")).toEqual([]);
    expect(await rulesFiredOn('client/planted.ts', "import { excerpt } from '../shared/schemas/text';\nexport const e = excerpt;\n")).toEqual([]);
  });

  it('an import cycle fails', async () => {
    // services/comments/comments.ts imports services/comments/replies.ts; a planted module importing comments.ts
    // that replies.ts would import closes no cycle, so the planted text stands in for replies.ts.
    const replies = readFileSync('server/services/comments/replies.ts', 'utf8');
    expect(
      await rulesFiredOn('server/services/comments/replies.ts', `import { findComment } from './comments';\nexport const f = findComment;\n${replies}`),
    ).toContain('import-x/no-cycle');
    expect(await rulesFiredOn('server/services/comments/replies.ts', replies)).toEqual([]);
  });

  it('a floating promise fails (type-aware rules run)', async () => {
    const code = 'async function work(): Promise<void> {}\nexport function start() {\n  work();\n}\n';
    expect(await rulesFiredOn('server/lib/planted.ts', code)).toContain('@typescript-eslint/no-floating-promises');
  });
});
