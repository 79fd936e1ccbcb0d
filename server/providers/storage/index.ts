import path from 'node:path';
import type { Config } from '../../env';
import type { EngineInfo } from '../types';
import { LocalFileStore } from './local';
import type { FileStore } from './types';

export function selectFileStore(config: Config): { engine: FileStore; info: EngineInfo } {
  const root = path.join(config.dataDir, 'uploads');
  const engine = new LocalFileStore(root);
  return {
    engine,
    info: {
      capability: 'storage',
      engine: 'local',
      label: 'Local folder',
      reason: 'Uploads are kept in a private folder under DATA_DIR',
      quality: 'basic',
      ok: true,
    },
  };
}
