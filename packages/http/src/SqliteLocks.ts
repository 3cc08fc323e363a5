import { readFileSync, statSync } from "node:fs"

/**
 * Other processes holding SQLite locks on `file` (their pids), from
 * `/proc/locks`: a controller keeps its database open, and in WAL mode an
 * open connection holds a shared lock on the file for as long as it is open,
 * busy or idle. Matched by inode (overlay filesystems report another device
 * there than `stat` does) and by the lock's range (SQLite's lock bytes start
 * at 0x40000000). `undefined` where that cannot be seen (no `/proc/locks`:
 * not Linux; no such file).
 */
export const sqliteLockHolders = (file: string): ReadonlyArray<number> | undefined => {
  let locks: string
  let inode: string
  try {
    locks = readFileSync("/proc/locks", "utf8")
    inode = statSync(file, { bigint: true }).ino.toString()
  } catch {
    return undefined
  }
  const pids = new Set<number>()
  for (const line of locks.split("\n")) {
    // "1: POSIX  ADVISORY  READ 7260 fe:00:2435426 1073741826 1073742335" (a waiting lock has "->" after the number)
    const fields = line.trim().split(/\s+/).filter((field) => field !== "->")
    const [, kind, , , pidText, where, start] = fields
    if (kind !== "POSIX" || where === undefined || start === undefined) continue
    if (where.split(":")[2] !== inode || !/^\d+$/.test(start) || BigInt(start) < 0x40000000n) continue
    const pid = Number(pidText)
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) pids.add(pid)
  }
  return [...pids].sort((a, b) => a - b)
}
