/**
 * The form's values as its inputs hold them (text, switches, a new
 * password), what they change against the file that was read (the PATCH
 * body: only the settings that differ), the checks of that body by the
 * contract's own `ConfigPatch` schema (in the API's plain words), and the
 * file's text as it will be after the change, for the diff shown before
 * saving.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { decodeIssues, editServerConfig, parseServerConfig } from "@garrison/runtime"
import { ConfigPatch, type ServerConfig } from "../contract/Api.js"
import { FIELDS, type FieldSpec } from "./fields.js"

/** A password's input: empty keeps it; `clear` removes it. Its value is never read back. */
export interface SecretDraft {
  readonly next: string
  readonly clear: boolean
}

/** Text for text and number inputs (and the messages, one per line), a switch's state (null: not in the file), or a password's. */
export type DraftValue = string | boolean | null | SecretDraft

export type Draft = Readonly<Record<string, DraftValue>>

const isSecretDraft = (value: DraftValue): value is SecretDraft => typeof value === "object" && value !== null

/** The value the file has for `field` (null: not set). */
const valueIn = (config: ServerConfig, field: FieldSpec): unknown => (config.fields as Readonly<Record<string, unknown>>)[field.key] ?? null

const draftValueOf = (field: FieldSpec, value: unknown): DraftValue => {
  switch (field.kind) {
    case "bool":
      return typeof value === "boolean" ? value : null
    case "secret":
      return { next: "", clear: false }
    case "strings":
      return Array.isArray(value) ? value.join("\n") : ""
    default:
      return value === null || value === undefined ? "" : String(value)
  }
}

/** The form's values for the file `config`. */
export const draftOf = (config: ServerConfig): Draft => Object.fromEntries(FIELDS.map((field) => [field.key, draftValueOf(field, valueIn(config, field))]))

const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/

/** What `draft` sends for `field`, or undefined when it leaves the setting as it is. */
const changeOf = (field: FieldSpec, before: unknown, draft: DraftValue | undefined): unknown => {
  if (draft === undefined) return undefined
  switch (field.kind) {
    case "bool":
      return draft === null || draft === before ? undefined : draft
    case "secret": {
      if (!isSecretDraft(draft)) return undefined
      if (draft.next !== "") return draft.next
      // Removing a password the file does not have changes nothing.
      return draft.clear && before !== "" && before !== null ? "" : undefined
    }
    case "strings": {
      const lines = String(draft).split(/\r?\n/)
      while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop()
      const was = Array.isArray(before) ? before.map(String) : []
      return lines.length === was.length && lines.every((line, i) => line === was[i]) ? undefined : lines
    }
    case "int":
    case "number": {
      const text = String(draft).trim()
      const wasText = before === null ? "" : String(before)
      if (text === wasText) return undefined
      if (!NUMBER.test(text)) return text // Not a number: the schema says what it must be.
      return Number(text) === before ? undefined : Number(text)
    }
    default:
      return draft === (before ?? "") ? undefined : draft
  }
}

/** The PATCH body: each setting whose input differs from the file that was read. */
export const patchOf = (config: ServerConfig, draft: Draft): Readonly<Record<string, unknown>> => {
  const patch: Record<string, unknown> = {}
  for (const field of FIELDS) {
    const change = changeOf(field, valueIn(config, field), draft[field.key])
    if (change !== undefined) patch[field.key] = change
  }
  return patch
}

/** The settings `draft` changes, with their drafts: what a reload of a newer file keeps. */
export const changedDrafts = (config: ServerConfig, draft: Draft): Draft => {
  const patch = patchOf(config, draft)
  return Object.fromEntries(Object.keys(patch).map((key) => [key, draft[key]!]))
}

/** `ConfigPatch` is built from a list of `Schema.Any`, so it claims an unknown context; it needs none. */
const decodePatch = Schema.decodeUnknownEither(ConfigPatch as unknown as Schema.Schema<Readonly<Record<string, unknown>>, unknown>, {
  errors: "all",
  onExcessProperty: "error"
})

/**
 * The contract's checks of `patch`, by setting: the words the API would
 * answer (`must be a whole number from 1 to 127`), never the schema
 * library's. Empty when the API would take it.
 */
export const problemsOf = (patch: Readonly<Record<string, unknown>>): Readonly<Record<string, string>> => {
  const decoded = decodePatch(patch)
  if (Either.isRight(decoded)) return {}
  const problems: Record<string, string> = {}
  for (const issue of decodeIssues(decoded.left.issue)) {
    const key = issue.path[0]
    if (key !== undefined && problems[key] === undefined) problems[key] = issue.rule
  }
  return problems
}

/** How a new password shows in the diff: the page never prints what was typed. */
const NEW_SECRET = "(a new password)"

/** The file's text (passwords masked, as the API shows it) with `patch` applied as the controller applies it. */
export const projectedText = (config: ServerConfig, patch: Readonly<Record<string, unknown>>): string => {
  const edits = FIELDS.flatMap((field) => {
    if (!(field.key in patch)) return []
    const value = patch[field.key]
    const written = field.kind === "bool" ? (value === true ? 1 : 0) : field.kind === "secret" && value !== "" ? NEW_SECRET : (value as string | number | ReadonlyArray<string>)
    return [{ key: field.key, value: written, ...(field.path === undefined ? {} : { path: field.path }) }]
  })
  try {
    return editServerConfig(parseServerConfig(config.text), edits)
  } catch {
    // A setting whose class is missing: the controller refuses the change and says why.
    return config.text
  }
}
