/** Linux `/proc` readings for benchmarks: resident memory, and finding processes by command line. */
import { readdirSync, readFileSync } from "node:fs"

/** A `kB` field of `/proc/<pid>/status` in MiB; undefined when the process is gone. */
const statusMiB = (pid: number, field: string): number | undefined => {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match === null ? undefined : Number(match[1]) / 1024
  } catch {
    return undefined
  }
}

/** Resident memory now (VmRSS). */
export const rssMiB = (pid: number): number | undefined => statusMiB(pid, "VmRSS")

/** Peak resident memory so far (VmHWM). */
export const hwmMiB = (pid: number): number | undefined => statusMiB(pid, "VmHWM")

/** Pids whose command line has an argument for which `test` holds. */
export const pidsWhere = (test: (args: ReadonlyArray<string>) => boolean): ReadonlyArray<number> =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return test(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"))
      } catch {
        return false
      }
    })
    .map(Number)

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** CPU time a process has used so far (user + system), in seconds; undefined when it is gone. */
export const cpuSeconds = (pid: number): number | undefined => {
  try {
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis): utime is the 12th, stime the 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return undefined
  }
}

/** Linux's USER_HZ, 100 on every architecture Node runs on here. */
const CLOCK_TICKS = 100
