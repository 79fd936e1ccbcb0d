export { ensureClientBuilt, clientBuildIsStale, clientDistDir, rootDir } from './build';
export {
  launchBrowser,
  openPage,
  fakeMicArgs,
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  type PageErrors,
} from './browser';
export { startAppServer, type TestServer } from './server';
export { roleplayUrl } from './urls';
export { roleplay } from './pages';
export { useAppAndBrowser } from './suite';
export { seriousViolations } from './axe';
