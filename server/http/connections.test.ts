import { describe, expect, it } from 'vitest';
import { defaultMaxConnections, openFileLimit } from './connections';

describe('defaultMaxConnections', () => {
  it('follows the open-file limit, within bounds', () => {
    expect(defaultMaxConnections(1024)).toBe(668);
    expect(defaultMaxConnections(20_000)).toBe(10_000);
    expect(defaultMaxConnections(256)).toBe(256);
    expect(defaultMaxConnections(null)).toBe(4096);
  });

  it("reads this process's open-file limit on Linux", () => {
    const limit = openFileLimit();
    if (process.platform === 'linux') expect(limit).toBeGreaterThan(0);
  });
});
