import { describe, expect, it } from 'vitest';
import { ConfigurationError, parseEnvironment } from '../../../subgraphs/platform/config.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const env = parseEnvironment({});
    expect(env.PORT).toBe(4000);
    expect(env.dataDir).toMatch(/\/data$/);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DEDUPLICATE_IN_FLIGHT).toBe(true);
  });

  it('turns in-flight sharing off only when told so', () => {
    expect(parseEnvironment({ DEDUPLICATE_IN_FLIGHT: 'off' }).DEDUPLICATE_IN_FLIGHT).toBe(false);
    expect(parseEnvironment({ DEDUPLICATE_IN_FLIGHT: 'on' }).DEDUPLICATE_IN_FLIGHT).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/x' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ DEDUPLICATE_IN_FLIGHT: 'false' }, 'DEDUPLICATE_IN_FLIGHT'],
    [{ VERTICALS_URL: 'http://localhost:4001/graphql' }, 'MARKETS_URL'],
  ])('names the variable of a bad value: %o', (source, variable) => {
    expect(() => parseEnvironment(source)).toThrow(ConfigurationError);
    expect(() => parseEnvironment(source)).toThrow(variable);
  });
});
