#!/usr/bin/env node
// Runs an operator command (server/cli/<name>.ts): from source with tsx where the sources and
// dev dependencies are (a checkout), else the bundle the build made (dist/server/cli-<name>.js),
// which is all a production install (the Docker image) has. `npm run admin -- …` calls this.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z-]+$/.test(name)) {
  console.error('Usage: node scripts/run-cli.mjs <command> [arguments]');
  process.exit(2);
}
const source = path.join(root, 'server/cli', `${name}.ts`);
const tsx = path.join(root, 'node_modules/.bin/tsx');
const bundle = path.join(root, 'dist/server', `cli-${name}.js`);
let command;
if (existsSync(source) && existsSync(tsx)) command = [tsx, source];
else if (existsSync(bundle)) command = [process.execPath, bundle];
else {
  console.error(`No command '${name}': neither ${path.relative(root, source)} with tsx nor ${path.relative(root, bundle)} (run npm run build).`);
  process.exit(2);
}
const child = spawn(command[0], [...command.slice(1), ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
