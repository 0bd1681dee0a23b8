import { rmSync } from 'node:fs';
import { E2E_DATA_DIR } from './env';

export default function globalSetup() {
  rmSync(E2E_DATA_DIR, { recursive: true, force: true });
}
