import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../env';
import { signInAvailable, signInLinkBase } from './service';
import { accountEmail, hashSecret, randomToken } from './tokens';

const ctxWith = (env: Record<string, string>) => ({ config: loadConfig({ DATA_DIR: '/tmp/x', ...env }) });

describe('where sign-in links point and when sign-in is on', () => {
  it('production never takes a link host from the request', () => {
    const prod = ctxWith({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example:25' });
    expect(signInLinkBase(prod, 'http://evil.example')).toBeNull();
    const prodUrl = ctxWith({ NODE_ENV: 'production', PUBLIC_URL: 'https://practice.example.com' });
    expect(signInLinkBase(prodUrl, 'http://evil.example')).toBe('https://practice.example.com/');
    expect(signInLinkBase(ctxWith({ NODE_ENV: 'development' }), 'http://localhost:5000')).toBe(
      'http://localhost:5000/',
    );
  });

  it('production without SMTP stores no live links in the outbox: sign-in is off', () => {
    expect(signInAvailable(ctxWith({ NODE_ENV: 'production' }))).toBe(false);
    expect(signInAvailable(ctxWith({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example:25' }))).toBe(
      true,
    );
    expect(signInAvailable(ctxWith({ NODE_ENV: 'development' }))).toBe(true);
  });

  it('tokens are 256 random bits; stored forms are their SHA-256; addresses compare lower-cased', () => {
    const a = randomToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(a);
    expect(hashSecret(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret(a)).not.toContain(a);
    expect(accountEmail('  Rep@Example.COM ')).toBe('rep@example.com');
  });
});
