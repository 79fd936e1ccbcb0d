import { describe, expect, it } from 'vitest';
import { isClientRoute } from './routes';

const ID = '0b7c6d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e';

describe('client pages', () => {
  it('knows the team pages and nothing like them', () => {
    for (const path of [
      '/teams',
      '/join',
      `/teams/${ID}`,
      `/teams/${ID}/reps/${ID}`,
      `/teams/${ID}/calls/audio/${ID}`,
    ]) {
      expect(isClientRoute(path), path).toBe(true);
    }
    for (const path of [
      '/teams/x',
      `/teams/${ID}/reps`,
      `/teams/${ID}/calls/video/${ID}`,
      `/teams/${ID}/export.csv`,
      `/teams/${ID}/reps/${ID}/more`,
    ]) {
      expect(isClientRoute(path), path).toBe(false);
    }
  });
});
