import { describe, expect, it } from 'vitest';
import { ConfigurationError, parseEnvironment } from '../../../subgraphs/platform/config.ts';

describe('CORS_ORIGINS and METRICS_TOKEN', () => {
  it('are off by default', () => {
    const env = parseEnvironment({});
    expect(env.CORS_ORIGINS).toEqual([]);
    expect(env.METRICS_TOKEN).toBeUndefined();
  });

  it('takes exact origins, comma-separated', () => {
    expect(parseEnvironment({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173,' }).CORS_ORIGINS).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
  });

  it.each([
    '*',
    'https://app.example.com/',
    'https://app.example.com/path',
    'app.example.com',
    'ftp://files.example.com',
    'https://*.example.com',
  ])('refuses %s as an origin, naming the variable', (origin) => {
    expect(() => parseEnvironment({ CORS_ORIGINS: origin })).toThrow(ConfigurationError);
    expect(() => parseEnvironment({ CORS_ORIGINS: origin })).toThrow(/CORS_ORIGINS/);
  });

  it('refuses a metrics token shorter than 16 characters', () => {
    expect(() => parseEnvironment({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(parseEnvironment({ METRICS_TOKEN: 'a'.repeat(16) }).METRICS_TOKEN).toBe('a'.repeat(16));
  });
});
