/**
 * What each operation says in words: the plugin's own description (by
 * hand, in its contract) followed by one sentence naming what the caller
 * needs, derived here from its `Access` so no plugin writes it and none
 * can get it wrong.
 */
import type { AccessRule } from "@garrison/runtime"
import { ADMIN } from "@garrison/runtime"

/** "Needs the `bans.manage` permission (Manage the global ban database). Admins may call every operation." */
export const accessSentence = (rule: AccessRule, permissionDescriptions: ReadonlyMap<string, string>): string => {
  switch (rule._tag) {
    case "None":
      return "Public: no sign-in needed."
    case "AnyAuth":
      return "Needs a signed-in caller; any role may call it."
    case "Permission": {
      if (rule.permission === ADMIN) return "Needs the `admin` permission: admins only."
      const what = permissionDescriptions.get(rule.permission)
      return `Needs the \`${rule.permission}\` permission${what === undefined ? "" : ` (${what})`}. Admins may call every operation.`
    }
  }
}

/** The plugin's description, then the access sentence, as separate paragraphs. */
export const describeOperation = (own: string | undefined, sentence: string): string =>
  own === undefined || own.trim() === "" ? sentence : `${own.trim()}\n\n${sentence}`
