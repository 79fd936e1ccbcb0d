/**
 * npm run bench:page — how fast the first page shows on a slow mobile link: the real server (a
 * separate process, production mode) serving the built client, and system Chromium with the
 * network throttled as Lighthouse's "slow 4G" (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up)
 * and its cache off. Each run opens `/` in a fresh context and reads the first contentful paint,
 * the load event and the bytes that crossed the network.
 *
 * Options (after `--`):
 *   --runs N                runs per tree (default 7); the median is reported
 *   --path /audio           the page to open (default /)
 *   --name NAME             what the summary calls this checkout (default "this tree")
 *   --compare NAME=DIR      also serve the client of the checkout in DIR (built there first, with
 *                           `npx vite build`); runs alternate between the trees, so load from
 *                           elsewhere on the machine falls on both alike
 */
import path from 'node:path';
import { chromium } from 'playwright-core';
import { projectRoot, ServerProcess, tempDataDir } from './lib/server-process';

function option(name: string): string | undefined {
  const args = process.argv;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}`) return args[i + 1];
    if (args[i].startsWith(`--${name}=`)) return args[i].slice(name.length + 3);
  }
  return undefined;
}

function options(name: string): string[] {
  const out: string[] = [];
  const args = process.argv;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}` && args[i + 1]) out.push(args[i + 1]);
    else if (args[i].startsWith(`--${name}=`)) out.push(args[i].slice(name.length + 3));
  }
  return out;
}

const RUNS = Math.max(1, Number(option('runs') ?? 7));
const PAGE = option('path') ?? '/';
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

interface Tree {
  name: string;
  root: string;
  server?: ServerProcess;
  runs: { fcp: number; load: number; bytes: number }[];
}

const trees: Tree[] = [
  { name: option('name') ?? 'this tree', root: projectRoot, runs: [] },
  ...options('compare').map((spec) => {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new Error(`--compare takes NAME=DIR, got "${spec}"`);
    return { name: spec.slice(0, eq), root: path.resolve(spec.slice(eq + 1)), runs: [] };
  }),
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

async function main() {
  for (const tree of trees) {
    tree.server = await ServerProcess.create(
      { DATA_DIR: tempDataDir('doorstep-bench-page-'), ROLES: 'web' },
      tree.root,
    );
    await tree.server.start();
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    for (let run = 0; run < RUNS; run++) {
      // A B, then B A: neither tree always runs first.
      const order = run % 2 === 0 ? trees : [...trees].reverse();
      for (const tree of order) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
        let bytes = 0;
        cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
          bytes += e.encodedDataLength;
        });
        await page.goto(tree.server!.url + PAGE, { waitUntil: 'load', timeout: 120_000 });
        const timing = await page.evaluate(
          () =>
            new Promise<{ fcp: number; load: number }>((resolve) => {
              const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
              // The app paints once its script has run, which may be after the load event.
              new PerformanceObserver((list) => {
                const paint = list.getEntriesByName('first-contentful-paint')[0];
                if (paint) resolve({ fcp: paint.startTime, load: nav.loadEventEnd });
              }).observe({ type: 'paint', buffered: true });
              setTimeout(() => resolve({ fcp: NaN, load: nav.loadEventEnd }), 30_000);
            }),
        );
        tree.runs.push({ ...timing, bytes });
        await context.close();
      }
    }
  } finally {
    await browser.close();
    for (const tree of trees) await tree.server?.stop();
  }
  console.log(`${PAGE} on slow 4G (150 ms, 1.6 Mbit/s), cache off, ${RUNS} runs each, medians:`);
  console.log('| tree | first contentful paint | load | transferred |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const tree of trees) {
    const fcp = median(tree.runs.map((r) => r.fcp));
    const load = median(tree.runs.map((r) => r.load));
    const kb = median(tree.runs.map((r) => r.bytes)) / 1024;
    console.log(
      `| ${tree.name} | ${(fcp / 1000).toFixed(2)} s | ${(load / 1000).toFixed(2)} s | ${kb.toFixed(0)} KB |`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
