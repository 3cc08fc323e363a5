/**
 * What each operation says in words: the plugin's own description (by
 * hand, in its contract) followed by one sentence naming what the caller
 * needs, derived here from its `Access` so no plugin writes it and none
 * can get it wrong.
 */
import * as Duration from "effect/Duration"
import type { AccessRule, RateLimitDeclaration } from "@garrison/runtime"
import { ADMIN, EXEMPT_SCOPE } from "@garrison/runtime"

/** "`bans.manage` (Manage the global ban database)" */
const permissionPhrase = (permission: string, descriptions: ReadonlyMap<string, string>): string => {
  const what = descriptions.get(permission)
  return `the \`${permission}\` permission${what === undefined ? "" : ` (${what})`}`
}

/** What the rule asks, as a phrase: "the `x` permission and the `y` permission", "one of: ...". */
const rulePhrase = (rule: AccessRule, descriptions: ReadonlyMap<string, string>): string => {
  switch (rule._tag) {
    case "None":
      return "nothing"
    case "AnyAuth":
      return "a signed-in caller"
    case "Permission":
      return permissionPhrase(rule.permission, descriptions)
    case "All":
      return rule.rules.map((r) => rulePhrase(r, descriptions)).join(" and ")
    case "Any":
      return `one of: ${rule.rules.map((r) => rulePhrase(r, descriptions)).join("; ")}`
  }
}

/** "Needs the `bans.manage` permission (Manage the global ban database). Admins may call every operation." */
export const accessSentence = (rule: AccessRule, permissionDescriptions: ReadonlyMap<string, string>): string => {
  switch (rule._tag) {
    case "None":
      return "Public: no sign-in needed."
    case "AnyAuth":
      return "Needs a signed-in caller; any role may call it."
    case "Permission":
      if (rule.permission === ADMIN) return "Needs the `admin` permission: admins only."
      return `Needs ${permissionPhrase(rule.permission, permissionDescriptions)}. Admins may call every operation.`
    case "All":
    case "Any":
      return `Needs ${rulePhrase(rule, permissionDescriptions)}. Admins may call every operation.`
  }
}

/** The scope as `x-garrison-rate-limit` gives it (the defaults; `RATE_LIMIT_<SCOPE>` may change them). */
export const rateLimitOf = (scope: string, declared: ReadonlyMap<string, RateLimitDeclaration>) => {
  const rule = declared.get(scope)
  return rule === undefined
    ? { scope }
    : { scope, limit: rule.limit, windowSeconds: Math.round(Duration.toSeconds(Duration.decode(rule.window))) }
}

/** "Rate limit: `chat`, 60 requests per 1m per client address." */
export const rateLimitSentence = (scope: string, declared: ReadonlyMap<string, RateLimitDeclaration>): string => {
  if (scope === EXEMPT_SCOPE) return "Not rate-limited."
  const rule = declared.get(scope)
  return rule === undefined
    ? `Rate limit: \`${scope}\`.`
    : `Rate limit: \`${scope}\`, ${rule.limit} requests per ${Duration.format(Duration.decode(rule.window))} per client address.`
}

/** The plugin's description, then the access sentence, as separate paragraphs. */
export const describeOperation = (own: string | undefined, sentence: string): string =>
  own === undefined || own.trim() === "" ? sentence : `${own.trim()}\n\n${sentence}`
