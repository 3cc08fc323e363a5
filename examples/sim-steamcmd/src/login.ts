/**
 * `+login anonymous` and `+login <user> [<password>] [<Steam Guard code>]`.
 * stdin is treated as closed: where SteamCMD would prompt (a missing
 * password, a missing Steam Guard code) the login fails instead of waiting.
 * Neither the password nor the code is ever printed.
 */
import type { CommandResult, RunContext } from "./context.js"
import { EXIT, lines } from "./output.js"

export interface LoginOptions {
  /** `+@NoPromptForPassword 1`: fail at once where a code would be asked for. */
  readonly noPrompt: boolean
  /** A code given earlier with `+set_steam_guard_code`. */
  readonly pendingGuardCode: string | undefined
}

export const login = (ctx: RunContext, args: ReadonlyArray<string>, options: LoginOptions): CommandResult => {
  const [user, password, givenCode] = args
  if (user === undefined) {
    ctx.out.line("ERROR! Usage: login <username> [<password>] [<Steam guard code>]")
    return { code: EXIT.failure }
  }
  const { pipedOutput, loginOutage } = ctx.catalogue.behaviour
  // Piped (`pipedOutput`), real SteamCMD ends none of the login's lines: they run together, ended by one newline.
  const group = (texts: ReadonlyArray<string>) => (pipedOutput === true ? ctx.out.write(`${texts.join("")}\n`) : texts.forEach((t) => ctx.out.line(t)))
  if (user.toLowerCase() === "anonymous") {
    group(lines.anonymousLogin)
    ctx.login = { _tag: "Anonymous" }
    return { code: EXIT.ok }
  }
  ctx.out.write(lines.loggingIn(user))
  // Steam out of reach: the password is never checked.
  switch (loginOutage ?? null) {
    case "no-connection":
      ctx.out.write("\n")
      ctx.out.line(lines.noConnection)
      return { code: EXIT.noConnection, end: true }
    case "result-code-3":
      ctx.out.line(lines.resultCode3)
      return { code: EXIT.noConnection, end: true }
    case "user-info-timeout":
      group(lines.userInfoTimedOut)
      return { code: EXIT.timeout, end: true }
    case null:
      break
  }
  const account = ctx.catalogue.accounts[user]
  // An unknown account reads as a wrong password, as on Steam (no account enumeration).
  if (account === undefined || password !== account.password) {
    if (pipedOutput === true) group(lines.invalidPassword)
    else {
      ctx.out.write("\n")
      for (const line of lines.invalidPassword) ctx.out.line(line)
    }
    return { code: EXIT.badCredentials, end: true }
  }
  if (account.guardCode !== undefined) {
    const code = givenCode ?? options.pendingGuardCode
    if (code === undefined) {
      ctx.out.write("\n")
      if (!options.noPrompt) {
        for (const line of lines.guardPrompt) ctx.out.line(line)
        // The prompt, then stdin turns out closed: give up on a fresh line.
        ctx.out.write(lines.guardCodePrompt)
        ctx.out.write("\n")
      }
      ctx.out.line(lines.logonDenied)
      return { code: EXIT.guardCodeNeeded, end: true }
    }
    if (code.toUpperCase() !== account.guardCode.toUpperCase()) {
      ctx.out.write("\n")
      for (const line of lines.invalidAuthCode) ctx.out.line(line)
      return { code: EXIT.badCredentials, end: true }
    }
  }
  group(["OK", ...lines.loggedIn])
  ctx.login = { _tag: "Account", name: user, account }
  return { code: EXIT.ok }
}
