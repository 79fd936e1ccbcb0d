import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * Child processes (recognisers, voices, decoders) that die with the server.
 *
 * Node cannot set PR_SET_PDEATHSIG itself, so on Linux each child is started through
 * util-linux `setpriv --pdeathsig KILL`, which sets it and then execs the command (same pid):
 * the kernel kills the child as soon as the server dies, even by SIGKILL. Children are also
 * killed from the process 'exit' handler, which covers machines without setpriv on normal exits.
 */
const SETPRIV =
  process.platform === 'linux' ? ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => executable(p)) : undefined;

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Whether the command can be run (a path, or a name found on PATH). */
function resolvable(command: string): boolean {
  if (command.includes('/')) return executable(command);
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir && executable(path.join(dir, command)));
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function track(child: ChildProcess): ChildProcess {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
  }
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  return child;
}

/** Whether the kernel ties children to this process (setpriv present) or only the exit handler does. */
export const childrenTiedByKernel = Boolean(SETPRIV);

function spawnTiedImpl(
  command: string,
  args: readonly string[] = [],
  options: SpawnOptions = {},
): ChildProcess {
  const opts: SpawnOptions = { ...options, detached: false };
  // A missing command is spawned directly so callers still get their 'error' (ENOENT) event.
  if (SETPRIV && resolvable(command)) {
    return track(spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args], opts));
  }
  return track(spawn(command, args, opts));
}

/** child_process.spawn with the child killed when this process exits or dies; never detached. */
export const spawnTied = spawnTiedImpl as unknown as typeof spawn;
