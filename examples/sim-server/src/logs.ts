/**
 * The logs a DayZ server writes into its profiles folder:
 * `DayZServer_x64_<YYYY-MM-DD_HH-MM-SS>.RPT` (engine log; lines start with
 * `HH:MM:SS.mmm`), `.ADM` (admin log with `-adminlog`; lines start with
 * `HH:MM:SS | `), `script_<...>.log`, and `crash_<...>.log` on a crash.
 * Written synchronously, so nothing is lost when the process exits or crashes.
 */
import * as Fs from "node:fs"
import * as NodePath from "node:path"

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

export const fileStamp = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}_${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`

const clock = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`

export interface Vec3 {
  readonly x: number
  readonly y: number
  readonly z: number
}

/** `<x, y, z>` with one decimal, as the ADM log prints positions. */
export const formatPos = (p: Vec3) => `<${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}>`

class LogFile {
  private fd: number | undefined

  constructor(readonly path: string) {
    this.fd = Fs.openSync(path, "a")
  }

  write(text: string): void {
    if (this.fd === undefined) return
    try {
      Fs.writeSync(this.fd, text)
    } catch {
      // Disk full or the file was removed under us: a log must never take the server down.
    }
  }

  close(): void {
    if (this.fd === undefined) return
    try {
      Fs.closeSync(this.fd)
    } catch {
      // Ignore.
    }
    this.fd = undefined
  }
}

/** Writes to stdout without ever failing (the parent may have gone away: EPIPE). */
export const say = (line: string): void => {
  try {
    process.stdout.write(line + "\n")
  } catch {
    // Ignore.
  }
}

export class Logs {
  readonly rpt: LogFile
  readonly adm: LogFile | undefined
  readonly script: LogFile
  readonly stamp: string
  private readonly profiles: string

  constructor(profiles: string, adminLog: boolean, now: Date) {
    Fs.mkdirSync(profiles, { recursive: true })
    this.profiles = profiles
    this.stamp = fileStamp(now)
    this.rpt = new LogFile(NodePath.join(profiles, `DayZServer_x64_${this.stamp}.RPT`))
    this.adm = adminLog ? new LogFile(NodePath.join(profiles, `DayZServer_x64_${this.stamp}.ADM`)) : undefined
    this.script = new LogFile(NodePath.join(profiles, `script_${this.stamp}.log`))
    this.adm?.write(`AdminLog started on ${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} at ${clock(now)}\n`)
  }

  /** A raw RPT line (no time prefix), e.g. the header or the termination line. */
  rptRaw(line: string): void {
    this.rpt.write(line + "\n")
  }

  /** An RPT line prefixed `HH:MM:SS.mmm `; also echoed to stdout. */
  engine(message: string): void {
    const d = new Date()
    const line = `${clock(d)}.${pad(d.getMilliseconds(), 3)} ${message}`
    this.rpt.write(line + "\n")
    say(line)
  }

  /** An ADM line `HH:MM:SS | message` (only with `-adminlog`). */
  admin(message: string): void {
    this.adm?.write(`${clock(new Date())} | ${message}\n`)
  }

  scriptLog(message: string): void {
    const d = new Date()
    this.script.write(`${clock(d)}.${pad(d.getMilliseconds(), 3)} SCRIPT       : ${message}\n`)
  }

  crashLog(message: string): void {
    const file = new LogFile(NodePath.join(this.profiles, `crash_${fileStamp(new Date())}.log`))
    file.write(`${message}\n`)
    file.close()
  }

  close(): void {
    this.rpt.close()
    this.adm?.close()
    this.script.close()
  }
}
