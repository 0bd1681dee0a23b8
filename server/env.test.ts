import { describe, expect, it } from 'vitest';
import { EnvError, googleEnabled, loadEnv } from './env';

describe('loadEnv', () => {
  it('gives the documented defaults', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(8000);
    expect(env.HOST).toBe('0.0.0.0');
    expect(env.DATA_DIR).toBe('./data');
    expect(env.PUBLIC_URL).toBe('http://localhost:8000');
    expect(env.DEMO_DATA).toBe(true);
    expect(env.GOOGLE_ISSUER).toBe('https://accounts.google.com');
    expect(env.ADMIN_EMAILS).toEqual([]);
    expect(env.TRUST_PROXY).toBe(0);
    expect(env.RATE_LIMITS).toBe(true);
    expect(googleEnabled(env)).toBe(false);
    expect(Object.isFrozen(env)).toBe(true);
  });

  it('defaults PUBLIC_URL to the port it listens on', () => {
    expect(loadEnv({ PORT: '3000' }).PUBLIC_URL).toBe('http://localhost:3000');
    expect(loadEnv({ PORT: '3000', PUBLIC_URL: '' }).PUBLIC_URL).toBe('http://localhost:3000');
    expect(loadEnv({ PORT: '3000', PUBLIC_URL: 'https://recensera.example' }).PUBLIC_URL).toBe('https://recensera.example');
  });

  it('parses lists, booleans and trims trailing slashes', () => {
    const env = loadEnv({
      ADMIN_EMAILS: ' Ann@Example.com, bo@example.com ,',
      DEMO_DATA: '0',
      TRUST_PROXY: 'true',
      PUBLIC_URL: 'https://recensera.example/',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      SMTP_URL: '',
    });
    expect(env.ADMIN_EMAILS).toEqual(['ann@example.com', 'bo@example.com']);
    expect(env.DEMO_DATA).toBe(false);
    expect(env.TRUST_PROXY).toBe(1);
    expect(loadEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadEnv({ PORT: '' }).PORT).toBe(8000);
    expect(env.PUBLIC_URL).toBe('https://recensera.example');
    expect(env.SMTP_URL).toBeUndefined();
    expect(googleEnabled(env)).toBe(true);
  });

  it('names every bad value in one clear error', () => {
    let error: unknown;
    try {
      loadEnv({ PORT: 'eighty', DEMO_DATA: 'maybe', ADMIN_EMAILS: 'not-an-email', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    for (const name of ['PORT', 'DEMO_DATA', 'ADMIN_EMAILS', 'LOG_LEVEL']) expect(message).toContain(name);
    expect(message).toContain('"eighty"');
  });
});

describe('secret settings', () => {
  it('are never echoed in the error about a bad value', () => {
    let message = '';
    try {
      loadEnv({ SMTP_URL: 'smtp://mailer:Hemligt-l0senord@ mail.example:587', PORT: 'eighty' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('SMTP_URL');
    expect(message).toContain('"eighty"');
    expect(message).not.toContain('Hemligt');
    expect(message).not.toContain('mailer:');
  });
});
