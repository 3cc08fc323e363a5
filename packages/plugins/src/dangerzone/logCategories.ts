/**
 * The log files a DayZ server leaves in its profiles folder, by category:
 * the engine log (`*.RPT`), the admin log (`*.ADM`), script logs
 * (`script_*.log`), crash reports (`crash_*.log`, `*.mdmp`) and BattlEye's
 * logs (in the profiles folder's `BattlEye`/`battleye` folder, or the
 * entry's BattlEye folder: `*.log`).
 */
export const LOG_CATEGORIES = [
  { id: "rpt", name: "Engine logs (.RPT)", inBattlEye: false, matches: (name: string) => /\.rpt$/i.test(name) },
  { id: "adm", name: "Admin logs (.ADM)", inBattlEye: false, matches: (name: string) => /\.adm$/i.test(name) },
  { id: "script", name: "Script logs", inBattlEye: false, matches: (name: string) => /^script.*\.log$/i.test(name) },
  { id: "crash", name: "Crash reports", inBattlEye: false, matches: (name: string) => /^crash.*\.log$/i.test(name) || /\.mdmp$/i.test(name) },
  { id: "battleye", name: "BattlEye logs", inBattlEye: true, matches: (name: string) => /\.log$/i.test(name) }
] as const

export type LogCategoryId = (typeof LOG_CATEGORIES)[number]["id"]
export const LOG_CATEGORY_IDS = LOG_CATEGORIES.map((c) => c.id) as ReadonlyArray<LogCategoryId>
