import path from 'node:path';
import type { Config } from '../../env';
import type { EngineInfo } from '../types';
import { LocalFileStore } from './local';
import { parseS3Url, S3FileStore } from './s3';
import type { FileStore } from './types';

export function selectFileStore(config: Config): { engine: FileStore; info: EngineInfo } {
  if (config.STORAGE_URL && config.STORAGE_URL !== 'local') {
    const { bucket, prefix } = parseS3Url(config.STORAGE_URL);
    const engine = new S3FileStore({
      bucket,
      prefix,
      region: config.AWS_REGION ?? 'us-east-1',
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      accessKeyId: config.AWS_ACCESS_KEY_ID,
      secretAccessKey: config.AWS_SECRET_ACCESS_KEY,
      sessionToken: config.AWS_SESSION_TOKEN,
      timeoutMs: config.S3_TIMEOUT_MS,
    });
    return {
      engine,
      info: {
        capability: 'storage',
        engine: 's3',
        label: 'S3-compatible bucket',
        reason: `STORAGE_URL is an S3 bucket (${engine.label})`,
        quality: 'enhanced',
        ok: true,
      },
    };
  }
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
