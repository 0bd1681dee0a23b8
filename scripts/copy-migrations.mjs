// Copies the committed migrations beside the bundled server (dist/db/migrations).
import { cpSync } from 'node:fs';

cpSync('db/migrations', 'dist/db/migrations', { recursive: true });
