import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../env';
import { headersOf, securityHeaderOptions } from './security';

/** The headers helmet's own middleware sets on a real HTTP response with these options. */
async function helmetOnARealResponse(options: Parameters<typeof helmet>[0]): Promise<IncomingHttpHeaders> {
  const middleware = helmet(options);
  const server = http.createServer((req, res) => middleware(req, res, () => res.end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const headers: IncomingHttpHeaders = {};
    res.headers.forEach((value, name) => (headers[name] = value));
    return headers;
  } finally {
    server.close();
  }
}

const ownHeaders = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

describe('security headers computed once (decision 011)', () => {
  for (const publicUrl of ['http://localhost:8000', 'https://recensera.example.se']) {
    it(`are exactly what helmet's middleware sets on a real response (${publicUrl})`, async () => {
      const options = securityHeaderOptions(loadEnv({ PUBLIC_URL: publicUrl }));
      const fromHelmet = Object.fromEntries(Object.entries(await helmetOnARealResponse(options)).filter(([name]) => !ownHeaders.has(name)));
      expect(headersOf(options)).toEqual(fromHelmet);
      expect('strict-transport-security' in fromHelmet).toBe(publicUrl.startsWith('https://'));
    });
  }
});
