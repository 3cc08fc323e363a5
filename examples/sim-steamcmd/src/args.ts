/**
 * SteamCMD's command line: `+command arg arg +command arg ...`, processed in
 * order as if typed at its console, e.g.
 *
 * ```
 * +force_install_dir /srv/dayz +login anonymous +app_update 223350 validate +quit
 * ```
 *
 * Each `+word` starts a command; the words up to the next `+word` are its
 * arguments (each argv element is one word, so paths with spaces work as one
 * argument). Words before the first `+word` are ignored, as SteamCMD does.
 */

export interface Command {
  /** Without the `+`: `login`, `app_update`, `@NoPromptForPassword`. */
  readonly name: string
  readonly args: ReadonlyArray<string>
}

export const parseCommandLine = (argv: ReadonlyArray<string>): ReadonlyArray<Command> => {
  const commands: Array<{ name: string; args: Array<string> }> = []
  for (const word of argv) {
    if (word.startsWith("+") && word.length > 1) commands.push({ name: word.slice(1), args: [] })
    else commands[commands.length - 1]?.args.push(word)
  }
  return commands
}

/** `app_update <appid> [-beta <name>] [-betapassword <pw>] [validate]`, options in any order after the id. */
export interface AppUpdateArgs {
  readonly appId: string | undefined
  readonly beta: string | undefined
  readonly validate: boolean
}

export const parseAppUpdateArgs = (args: ReadonlyArray<string>): AppUpdateArgs => {
  let beta: string | undefined
  let validate = false
  const rest: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "-beta") beta = args[++i]
    else if (arg === "-betapassword") i++ // accepted and ignored, like the branch itself
    else if (arg.toLowerCase() === "validate" || arg === "-validate") validate = true
    else rest.push(arg)
  }
  return { appId: rest[0], beta, validate }
}

/** `workshop_download_item <appid> <itemid> [validate]`. */
export interface WorkshopArgs {
  readonly appId: string | undefined
  readonly itemId: string | undefined
  readonly validate: boolean
}

export const parseWorkshopArgs = (args: ReadonlyArray<string>): WorkshopArgs => {
  const words = args.filter((a) => a.toLowerCase() !== "validate")
  return { appId: words[0], itemId: words[1], validate: words.length !== args.length }
}

/** The `+@Setting value` convars SteamCMD takes on its command line ("1" is on). */
export const isOn = (args: ReadonlyArray<string>): boolean => args[0] === "1" || args[0]?.toLowerCase() === "true"
