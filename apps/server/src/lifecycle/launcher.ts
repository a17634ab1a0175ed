import { readFileSync } from 'node:fs';

interface ProcessInfo {
  pid: number;
  command: string;
  ppid: number;
  group: number;
  zombie: boolean;
  startTime: string;
}

function readProcess(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; the fields after its closing ')' are positional.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return {
      pid,
      command,
      ppid: Number(fields[1]),
      group: Number(fields[2]),
      zombie: fields[0] === 'Z',
      startTime: fields[19]!,
    };
  } catch {
    return null;
  }
}

/** Shells end the chain: a script that runs `pnpm start &` and goes on to exit is not the server's launcher. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'fish']);

/**
 * The processes that launched this one: its ancestors in the same process group (`npx` → `pnpm`), up to the first
 * shell. A shell with job control puts a command line in a group of its own, so the interactive shell, a
 * supervisor or a container's init are never part of it; a shell without job control (a script, `cmd &`) may be,
 * and its exit must not stop the server.
 */
function launcherChain(): ProcessInfo[] {
  const self = readProcess(process.pid);
  const chain: ProcessInfo[] = [];
  for (
    let info = self && readProcess(self.ppid);
    info && info.pid > 1 && info.group === self!.group && !SHELLS.has(info.command);
    info = readProcess(info.ppid)
  ) {
    chain.push(info);
  }
  return chain;
}

function isGone(launcher: ProcessInfo): boolean {
  const now = readProcess(launcher.pid);
  return !now || now.zombie || now.startTime !== launcher.startTime;
}

/**
 * Calls `onGone` once when any process of the launcher chain exits. Why: npx and pnpm forward SIGINT and SIGTERM
 * and wait for the server, but a launcher killed outright (SIGKILL, a crash) forwards nothing, and without this the
 * server (and its embedded PostgreSQL) would live on as orphans holding their ports. Linux only (/proc); elsewhere,
 * and when started directly (container, systemd), there is nothing to watch. Returns a stop function.
 */
export function watchLauncher(onGone: (pid: number) => void, intervalMs = 250): () => void {
  const chain = launcherChain();
  if (!chain.length) return () => undefined;
  const timer = setInterval(() => {
    const gone = chain.find(isGone);
    if (!gone) return;
    clearInterval(timer);
    onGone(gone.pid);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
