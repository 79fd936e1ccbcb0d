/**
 * npm run models [-- --list | --all | <id> ... | <id> --sha256=<hex> --bytes=<size>]
 * Downloads the optional engine models into MODELS_DIR (default DATA_DIR/models). The catalogue
 * and the downloader live in server/models/ (the server fetches the upgrade set itself at start,
 * AUTO_MODELS); this is the by-hand way. Every download is checked against a pinned checksum and
 * size: entries without one in the catalogue need them given (for one model at a time).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isPinned, MODEL_CATALOGUE } from '../server/models/catalogue';
import { installModel, isInstalled } from '../server/models/install';

export {
  installedPath,
  MODEL_CATALOGUE,
  modelUrl,
  upgradeSet,
  type ModelEntry,
} from '../server/models/catalogue';
export { installModel, isInstalled, ModelDownloadError } from '../server/models/install';

function modelsDirFromEnv(): string {
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  return path.resolve(process.env.MODELS_DIR ?? path.join(dataDir, 'models'));
}

async function main(argv: string[]) {
  const modelsDir = modelsDirFromEnv();
  const baseUrl = process.env.MODELS_BASE_URL?.trim() || undefined;
  if (argv.includes('--list') || argv.includes('-h') || argv.includes('--help')) {
    console.log(`Models folder: ${modelsDir}\n`);
    for (const m of MODEL_CATALOGUE) {
      const state = isInstalled(modelsDir, m)
        ? 'installed'
        : [m.default ? 'default' : '', m.upgrade ? 'auto' : '', isPinned(m) ? '' : 'unpinned']
            .filter(Boolean)
            .join(',');
      console.log(
        `${m.id.padEnd(30)} ${String(m.approxMb).padStart(4)} MB  ${state.padEnd(12)}  ${m.description}`,
      );
    }
    console.log(
      '\nnpm run models            installs the defaults\nnpm run models -- --all   installs every pinned model\nnpm run models -- <id>... installs the named models\nnpm run models -- <id> --sha256=<hex> --bytes=<size>   installs an unpinned one, checked against your pin\n(auto: fetched in the background by npm start unless AUTO_MODELS=off)',
    );
    return;
  }
  const ids = argv.filter((a) => !a.startsWith('-'));
  const unknown = ids.filter((id) => !MODEL_CATALOGUE.some((m) => m.id === id));
  if (unknown.length) {
    console.error(`Unknown model id(s): ${unknown.join(', ')}. See npm run models -- --list`);
    process.exit(2);
  }
  const sha = argv.find((a) => a.startsWith('--sha256='))?.slice('--sha256='.length);
  const bytes = argv.find((a) => a.startsWith('--bytes='))?.slice('--bytes='.length);
  if ((sha || bytes) && (ids.length !== 1 || !sha || !bytes)) {
    console.error('--sha256 and --bytes pin one model: give both, with one model id.');
    process.exit(2);
  }
  const pin = sha && bytes ? { sha256: sha, sizeBytes: Number(bytes) } : undefined;
  const chosen = argv.includes('--all')
    ? MODEL_CATALOGUE.filter(isPinned)
    : ids.length
      ? MODEL_CATALOGUE.filter((m) => ids.includes(m.id))
      : MODEL_CATALOGUE.filter((m) => m.default);
  let failed = 0;
  for (const entry of chosen) {
    console.log(`${entry.id} (~${entry.approxMb} MB) -> ${path.join(modelsDir, entry.target)}`);
    let lastPct = -10;
    try {
      const r = await installModel(modelsDir, entry, {
        baseUrl,
        pin,
        connectTimeoutMs: 30_000,
        log: (l) => console.log(`  ${l}`),
        onProgress: (bytes, total) => {
          const pct = total ? Math.floor((bytes / total) * 100) : -1;
          if (pct >= lastPct + 10) {
            lastPct = pct;
            console.log(`  ${entry.id}: ${pct}%`);
          }
        },
      });
      console.log(r.status === 'present' ? '  already installed' : `  installed (sha256 ${r.sha256})`);
    } catch (err) {
      failed++;
      console.error(`  failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  console.log(failed ? `${failed} model(s) failed.` : 'Done. Restart the server to use the new engines.');
  if (failed) process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  void main(process.argv.slice(2));
}
