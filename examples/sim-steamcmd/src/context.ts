/** What the commands of one run share: where things go, who is logged in, the catalogue read at start. */
import type { Catalogue, CatalogueAccount } from "./catalogue.js"

export type Login =
  | { readonly _tag: "Anonymous" }
  | { readonly _tag: "Account"; readonly name: string; readonly account: CatalogueAccount }

export interface Out {
  /** Text as is (a prompt without its newline). */
  readonly write: (text: string) => void
  /** One line, newline added. */
  readonly line: (text: string) => void
}

export interface RunContext {
  /** The folder of steamcmd.sh (and catalogue.json). */
  readonly home: string
  readonly catalogue: Catalogue
  readonly out: Out
  readonly signal: AbortSignal | undefined
  /** Lays out the DayZ server app's files in an empty folder. */
  readonly layOutServer: (dir: string) => void | Promise<void>
  /** `+force_install_dir`, absolute; unset until given. */
  installDir: string | undefined
  login: Login | undefined
}

/** A command's result: an exit code (0 ok), and whether the run must end now whatever follows. */
export interface CommandResult {
  readonly code: number
  readonly end?: boolean
}

export const OK: CommandResult = { code: 0 }
