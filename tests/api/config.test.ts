import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['DATABASE_URL', 'localhost:5432'],
    ['ADMIN_EMAIL', 'not-an-email'],
    ['ADMIN_PASSWORD', 'short'],
    ['SMTP_URL', 'http://mail'],
    ['PUBLIC_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['TOKEN_TTL_HOURS', '0'],
    ['SEED_DEMO', 'yes'],
    ['SMS_GATEWAY_URL', 'ftp://sms.example.ua'],
    ['REQUEST_TIMEOUT_SECONDS', '0'],
    ['REQUEST_TIMEOUT_SECONDS', 'soon'],
    ['REQUEST_TIMEOUT_SECONDS', '1.5'],
    ['IMPORT_EXPORT_LIMIT', '0'],
    ['IMPORT_EXPORT_LIMIT_PER_USER', 'many'],
    ['LINK_SECRET', 'shorter-than-thirty-two-chars'],
  ])('refuses %s=%s with one readable line', (name, value) => {
    const err = configError({ [name]: value });
    expect(err.message.startsWith('Invalid configuration:')).toBe(true);
    expect(err.message).toContain(name);
    expect(err.message).not.toContain('\n');
    expect(err.message.length).toBeLessThan(200);
  });

  it('applies the defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: 'localhost',
      dataDir: path.resolve('./data'),
      uploadsDir: path.join(path.resolve('./data'), 'uploads'),
      databaseUrl: undefined,
      adminEmail: 'admin@demo.ua',
      adminPassword: 'demo-admin-2026',
      adminPasswordSet: false,
      production: undefined,
      smtpUrl: undefined,
      publicUrl: 'http://localhost:8080',
      supportEmail: 'support@demo.ua',
      logLevel: 'info',
      tokenTtlSeconds: 12 * 3600,
      requestTimeoutMs: 60_000,
      seedDemo: true,
      smsGateway: undefined,
      devOutbox: true,
      workLimits: { perProcess: 4, perUser: 1 },
    });
    expect(loadConfig({ IMPORT_EXPORT_LIMIT: '8', IMPORT_EXPORT_LIMIT_PER_USER: '2' }).workLimits).toEqual({ perProcess: 8, perUser: 2 });
  });

  it('takes the SMS gateway address and token together or not at all', () => {
    expect(configError({ SMS_GATEWAY_URL: 'https://sms.example.ua/send' }).message).toContain('SMS_GATEWAY_TOKEN');
    expect(configError({ SMS_GATEWAY_TOKEN: 'secret' }).message).toContain('SMS_GATEWAY_URL');
    expect(loadConfig({ SMS_GATEWAY_URL: 'https://sms.example.ua/send', SMS_GATEWAY_TOKEN: 'secret' }).smsGateway).toEqual({
      url: 'https://sms.example.ua/send',
      token: 'secret',
    });
  });

  it('treats empty variables as unset', () => {
    const c = loadConfig({ PORT: '', DATABASE_URL: '', SMTP_URL: '', PUBLIC_URL: '' });
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.smtpUrl).toBeUndefined();
  });

  it('reads and normalises the values', () => {
    const c = loadConfig({
      PORT: '3000',
      DATABASE_URL: 'postgresql://u:p@db:5432/zhk',
      ADMIN_EMAIL: 'Boss@Example.UA',
      PUBLIC_URL: 'https://zhk.example.ua/',
      TOKEN_TTL_HOURS: '2',
      SEED_DEMO: '0',
      SMTP_URL: 'smtps://u:p@mail.example.ua:465',
    });
    expect(c).toMatchObject({
      port: 3000,
      databaseUrl: 'postgresql://u:p@db:5432/zhk',
      adminEmail: 'boss@example.ua',
      publicUrl: 'https://zhk.example.ua',
      tokenTtlSeconds: 7200,
      seedDemo: false,
      smtpUrl: 'smtps://u:p@mail.example.ua:465',
    });
    expect(loadConfig({ PORT: '3000' }).publicUrl).toBe('http://localhost:3000');
  });

  it('takes a LINK_SECRET of 32 characters or more, and leaves it unset otherwise (DATA_DIR/link.key)', () => {
    expect(configError({ LINK_SECRET: 'x'.repeat(31) }).message).toBe('Invalid configuration: LINK_SECRET must be at least 32 characters');
    expect(loadConfig({ LINK_SECRET: 'x'.repeat(32) }).linkSecret).toBe('x'.repeat(32));
    expect(loadConfig({ LINK_SECRET: '' }).linkSecret).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgres://db/zhk' })).toMatchObject({ linkSecret: undefined, dataDir: path.resolve('./data') });
  });

  it('never sets the test-only hash cost', () => {
    expect(loadConfig({}).passwordHashCost).toBeUndefined();
  });
});
