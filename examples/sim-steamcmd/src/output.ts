/**
 * What the stand-in prints, line for line as Valve's SteamCMD prints it.
 * This is the contract Garrison's SteamCMD parser is written against (the
 * README lists the same lines): change a line here only together with it.
 */

/** How a run ends. Steam's own codes; 6 is deliberately never used. */
export const EXIT = {
  ok: 0,
  /** Wrong account name, password or Steam Guard code. */
  badCredentials: 5,
  /** A command failed (no subscription, not found, disk full, not logged on...). */
  failure: 8,
  /** A download timed out. */
  timeout: 10,
  /** The account needs a Steam Guard code and none was given. */
  guardCodeNeeded: 63,
  /** Steam could not be reached (Steam's result code 3, No Connection, as 5 and 63 are its codes too). */
  noConnection: 3,
  /** The stand-in itself is misconfigured (bad catalogue.json): not a Steam code. */
  simMisconfigured: 2
} as const

/** Where output goes: the process's stdout, or a buffer in tests. Each call is flushed at once. */
export interface Console {
  readonly write: (text: string) => void
}

/** A console whose lines are written through at once (SteamCMD's stdout is line-buffered to a pipe). */
export const lineConsole = (write: (text: string) => void): Console & { readonly line: (text: string) => void } => ({
  write,
  line: (text) => write(`${text}\n`)
})

export const STEAMCMD_VERSION = "1718904809"

export const banner = (home: string): ReadonlyArray<string> => [
  `Redirecting stderr to '${home}/Steam/logs/stderr.txt'`,
  "[  0%] Checking for available updates...",
  "[----] Verifying installation...",
  `Steam Console Client (c) Valve Corporation - version ${STEAMCMD_VERSION}`,
  "-- type 'quit' to exit --",
  "Loading Steam API...OK"
]

export type ItemFailure = "Failure" | "File Not Found" | "Disk Write Failure" | "I/O Operation Failed"

export const lines = {
  anonymousLogin: ["Connecting anonymously to Steam Public...OK", "Waiting for client config...OK", "Waiting for user info...OK"],
  /** Printed without a newline: `OK` (success) or a newline (failure) follows. */
  loggingIn: (user: string) => `Logging in user '${user}' [U:1:0] to Steam Public...`,
  loggedIn: ["Waiting for client config...OK", "Waiting for user info...OK"],
  invalidPassword: ["FAILED (Invalid Password)", "Login Failure: Invalid Password"],
  invalidAuthCode: ["FAILED (Invalid Login Auth Code)", "Login Failure: Invalid Login Auth Code"],
  guardPrompt: [
    "This computer has not been authenticated for your account using Steam Guard.",
    "Please check your email for the message from Steam, and enter the Steam Guard",
    " code from that message.",
    "You can also enter this code at any time using 'set_steam_guard_code'",
    " at the console."
  ],
  /** The prompt itself: no newline, SteamCMD waits on the same line. */
  guardCodePrompt: "Steam Guard code:",
  logonDenied: "FAILED (Account Logon Denied)",
  /** Steam out of reach (`loginOutage`): the first after a newline, the others right after `...`. */
  noConnection: "Login Failure: No Connection",
  userInfoTimedOut: ["OK", "Waiting for client config...OK", "Waiting for user info...FAILED (Timed out)"],
  resultCode3: "FAILED with result code 3",
  /** What real SteamCMD prints between the lines that matter (`warnings`). */
  warning: "Warning: failed to init SDL thread priority manager: SDL not found",

  notLoggedOn: "ERROR! Not logged on.",
  unknownCommand: (name: string) => `Unknown command "${name}"`,

  appNoSubscription: (appId: string) => `ERROR! Failed to install app '${appId}' (No subscription)`,
  appInvalidPlatform: (appId: string) => `ERROR! Failed to install app '${appId}' (Invalid platform)`,
  appNoMatch: (appId: string) => `ERROR! Failed to install app '${appId}' (No match)`,
  appUpToDate: (appId: string) => ` Success! App '${appId}' already up to date.`,
  appInstalled: (appId: string) => `Success! App '${appId}' fully installed.`,
  /** 0x6: timed out; 0x202: disk full; 0x602: failed (Steam's update state flags). */
  appState: (appId: string, state: string) => `Error! App '${appId}' state is ${state} after update job.`,
  /** `comma`: the locale's decimal comma (`0,00`), as real SteamCMD prints it under some locales. */
  updateState: (state: string, stage: string, done: number, total: number, comma = false) =>
    ` Update state (${state}) ${stage}, progress: ${percent(done, total, comma)} (${done} / ${total})`,
  /** Real SteamCMD's first state: nothing counted yet (0 / 0), yet 0.00, not 100.00. */
  appReconfiguring: (comma = false) => ` Update state (0x3) reconfiguring, progress: ${comma ? "0,00" : "0.00"} (0 / 0)`,
  appDownloading: (done: number, total: number, comma = false) => lines.updateState("0x61", "downloading", done, total, comma),
  appVerifying: (total: number, comma = false) => lines.updateState("0x81", "verifying update", total, total, comma),

  itemDownloading: (id: string) => `Downloading item ${id} ...`,
  itemFailed: (id: string, reason: ItemFailure) => `ERROR! Download item ${id} failed (${reason}).`,
  itemTimeout: (id: string) => `ERROR! Timeout downloading item ${id}`,
  /** The trailing space is SteamCMD's. */
  itemDownloaded: (id: string, path: string, bytes: number) => `Success. Downloaded item ${id} to "${path}" (${bytes} bytes) `
}

/** Steam's progress percentage: two decimals, 100.00 for an empty download; `comma` writes `45,12`. */
export const percent = (done: number, total: number, comma = false): string => {
  const text = (total <= 0 ? 100 : (done / total) * 100).toFixed(2)
  return comma ? text.replace(".", ",") : text
}
