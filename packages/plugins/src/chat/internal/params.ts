/**
 * An action's `params`, read field by field with the conventions' rules: a
 * Steam64 is 17 digits starting `7656119`, a broadcast at most 256
 * characters, a spawn quantity at most 100. A field that breaks its rule is
 * refused by its path (`params.platformId`) and its rule in words.
 */
import * as Effect from "effect/Effect"
import { hasNul } from "@garrison/runtime"
import { InvalidChatInput } from "../errors.js"

export type Params = Readonly<Record<string, unknown>>

const refuse = (name: string, rule: string) => Effect.fail(new InvalidChatInput({ field: `params.${name}`, message: `params.${name} ${rule}` }))

/** 17 digits starting 7656119 (the conventions' rule, stricter than any Steam64 the id formulas accept). */
export const STEAM64_RULE = /^7656119\d{10}$/

export const steam64 = (params: Params, name = "platformId") => {
  const value = params[name]
  return typeof value === "string" && STEAM64_RULE.test(value.trim())
    ? Effect.succeed(value.trim())
    : refuse(name, "must be a Steam64 id: 17 digits starting 7656119")
}

interface TextRule {
  readonly max: number
  /** Line breaks allowed (a note); otherwise one line. */
  readonly multiline?: boolean
}

export const text = (params: Params, name: string, rule: TextRule) => {
  const value = params[name]
  if (typeof value !== "string" || value.trim() === "") return refuse(name, "is required: a non-empty string")
  const trimmed = value.trim()
  if ([...trimmed].length > rule.max) return refuse(name, `must be at most ${rule.max} characters`)
  if (hasNul(trimmed)) return refuse(name, "must not contain a NUL character (U+0000)")
  if (rule.multiline !== true && /[\r\n]/.test(trimmed)) return refuse(name, "must be a single line")
  return Effect.succeed(trimmed)
}

export const optionalText = (params: Params, name: string, rule: TextRule) =>
  params[name] === undefined || params[name] === null ? Effect.succeed(undefined) : text(params, name, rule)

interface NumberRule {
  readonly min: number
  readonly max: number
  readonly integer?: boolean
}

export const number = (params: Params, name: string, rule: NumberRule) => {
  const value = params[name]
  const kind = rule.integer === true ? "a whole number" : "a number"
  if (typeof value !== "number" || !Number.isFinite(value) || (rule.integer === true && !Number.isInteger(value)) || value < rule.min || value > rule.max) {
    return refuse(name, `must be ${kind} from ${rule.min} to ${rule.max}`)
  }
  return Effect.succeed(value)
}

export const optionalNumber = (params: Params, name: string, rule: NumberRule & { readonly fallback: number }) =>
  params[name] === undefined || params[name] === null ? Effect.succeed(rule.fallback) : number(params, name, rule)

export const oneOf = <const T extends string>(params: Params, name: string, values: ReadonlyArray<T>, fallback?: T) => {
  const value = params[name]
  if (value === undefined && fallback !== undefined) return Effect.succeed(fallback)
  return typeof value === "string" && (values as ReadonlyArray<string>).includes(value)
    ? Effect.succeed(value as T)
    : refuse(name, `must be one of ${values.join(", ")}`)
}

export const optionalBoolean = (params: Params, name: string) => {
  const value = params[name]
  if (value === undefined || value === null) return Effect.succeed(undefined)
  return typeof value === "boolean" ? Effect.succeed(value) : refuse(name, "must be true or false")
}

/** A Steam Workshop item id: digits. */
export const workshopId = (params: Params, name = "workshopId") => {
  const value = params[name]
  const id = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value
  return typeof id === "string" && /^\d{1,20}$/.test(id.trim()) ? Effect.succeed(id.trim()) : refuse(name, "must be a Steam Workshop item id (digits)")
}
