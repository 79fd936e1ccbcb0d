import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env';

const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).TRUST_PROXY;

describe('TRUST_PROXY parsing', () => {
  it('true and 1 mean one hop, never "trust every entry"', () => {
    expect(trust('true')).toBe(1);
    expect(trust('1')).toBe(1);
  });
  it('false, 0 and empty turn it off', () => {
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('')).toBe(false);
  });
  it('takes a hop count', () => {
    expect(trust('3')).toBe(3);
  });
  it('takes a list of proxy addresses and CIDR ranges', () => {
    expect(trust('10.0.0.1, 192.168.0.0/16,::1, fd00::/8')).toBe('10.0.0.1,192.168.0.0/16,::1,fd00::/8');
    expect(trust('loopback')).toBe('loopback');
  });
  it('refuses anything else with a clear message', () => {
    expect(() => trust('yes')).toThrow(ConfigError);
    expect(() => trust('10.0.0.300')).toThrow(/TRUST_PROXY/);
    expect(() => trust('10.0.0.0/33')).toThrow(/TRUST_PROXY/);
  });
});
