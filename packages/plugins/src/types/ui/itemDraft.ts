/**
 * An item of types.xml as its form holds it (text in every box), what the
 * API takes back, and the checks the API makes, made first here so a
 * mistake is shown under its field before anything is sent (the API's own
 * message is still shown when it refuses something these miss).
 */
import type { TypeItem, TypeItemInput } from "../contract/Api.js"

/** DayZ's six flags (the API refuses any other). */
export const FLAGS = ["count_in_cargo", "count_in_hoarder", "count_in_map", "count_in_player", "crafted", "deloot"] as const

/** The counts and times, in the order the form shows them, with their labels and what they accept. */
export const NUMBER_FIELDS = [
  { key: "nominal", label: "Nominal (how many the map aims for)", quantity: false },
  { key: "min", label: "Min (spawn more below this)", quantity: false },
  { key: "lifetime", label: "Lifetime (seconds on the ground)", quantity: false },
  { key: "restock", label: "Restock (seconds between respawns)", quantity: false },
  { key: "quantmin", label: "Quantity min (% full, -1: not used)", quantity: true },
  { key: "quantmax", label: "Quantity max (% full, -1: not used)", quantity: true },
  { key: "cost", label: "Cost (spawn priority)", quantity: false }
] as const

export type NumberField = (typeof NUMBER_FIELDS)[number]["key"]
export type DraftField = "name" | NumberField

export interface ItemDraft {
  readonly name: string
  readonly numbers: Readonly<Record<NumberField, string>>
  readonly category: string
  /** Comma-separated, as typed. */
  readonly usage: string
  readonly value: string
  readonly tag: string
  readonly flags: Readonly<Record<string, boolean>>
}

const listText = (values: ReadonlyArray<string>) => values.join(", ")
const listOf = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")

export const draftOf = (item: TypeItem): ItemDraft => ({
  name: item.name,
  numbers: Object.fromEntries(NUMBER_FIELDS.map(({ key }) => [key, item[key] === null ? "" : String(item[key])])) as Record<NumberField, string>,
  category: item.category ?? "",
  usage: listText(item.usage),
  value: listText(item.value),
  tag: listText(item.tag),
  flags: Object.fromEntries(FLAGS.map((flag) => [flag, item.flags[flag] === 1]))
})

/** A new item's starting values (what most vanilla loot uses). */
export const blankDraft = (): ItemDraft => ({
  name: "",
  numbers: { nominal: "", min: "", lifetime: "14400", restock: "0", quantmin: "-1", quantmax: "-1", cost: "100" },
  category: "",
  usage: "",
  value: "",
  tag: "",
  flags: Object.fromEntries(FLAGS.map((flag) => [flag, flag === "count_in_map"]))
})

const numberOf = (text: string): number | null => (text.trim() === "" ? null : Number(text.trim()))

/** The draft as the API takes it (flags the item had none of stay out, as they were). */
export const inputOf = (draft: ItemDraft, original: TypeItem | undefined): TypeItemInput => ({
  name: draft.name.trim(),
  nominal: numberOf(draft.numbers.nominal),
  min: numberOf(draft.numbers.min),
  lifetime: numberOf(draft.numbers.lifetime),
  restock: numberOf(draft.numbers.restock),
  quantmin: numberOf(draft.numbers.quantmin),
  quantmax: numberOf(draft.numbers.quantmax),
  cost: numberOf(draft.numbers.cost),
  flags:
    original !== undefined && Object.keys(original.flags).length === 0 && FLAGS.every((flag) => !draft.flags[flag])
      ? {}
      : Object.fromEntries(FLAGS.map((flag) => [flag, draft.flags[flag] === true ? 1 : 0])),
  category: draft.category.trim() === "" ? null : draft.category.trim(),
  usage: listOf(draft.usage),
  value: listOf(draft.value),
  tag: listOf(draft.tag)
})

/** What is wrong with each field, in the API's words; empty when the draft may be sent. */
export const draftProblems = (draft: ItemDraft): Partial<Record<DraftField, string>> => {
  const problems: Partial<Record<DraftField, string>> = {}
  if (!/^[A-Za-z0-9_]{1,128}$/.test(draft.name.trim())) problems.name = "A class name: letters, digits and underscores."
  for (const { key, quantity } of NUMBER_FIELDS) {
    const value = numberOf(draft.numbers[key])
    if (value === null) continue
    if (quantity) {
      if (!Number.isInteger(value) || value < -1 || value > 100) problems[key] = "-1, or a whole number from 0 to 100."
    } else if (!Number.isInteger(value) || value < 0) problems[key] = "A whole number, 0 or more."
  }
  const nominal = numberOf(draft.numbers.nominal)
  const min = numberOf(draft.numbers.min)
  if (problems.min === undefined && problems.nominal === undefined && min !== null && nominal !== null && min > nominal) {
    problems.min = `Must not be above nominal (${nominal}).`
  }
  const quantmin = numberOf(draft.numbers.quantmin)
  const quantmax = numberOf(draft.numbers.quantmax)
  if (problems.quantmin === undefined && problems.quantmax === undefined && quantmin !== null && quantmax !== null && quantmax !== -1 && quantmin > quantmax) {
    problems.quantmin = "Must not be above quantity max."
  }
  return problems
}

/** The fields whose values differ between two readings of one item (for "changed since you opened it"). */
export const changedFields = (before: TypeItem, after: TypeItem): ReadonlyArray<string> => {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
  const keys = ["nominal", "min", "lifetime", "restock", "quantmin", "quantmax", "cost", "category", "usage", "value", "tag", "flags"] as const
  return keys.filter((key) => !same(before[key], after[key]))
}

/** Seconds in plain words: 28800 → "8 h", 1800 → "30 min", 3888000 → "45 d". */
export const durationText = (seconds: number | null): string => {
  if (seconds === null) return "—"
  if (seconds === 0) return "0"
  if (seconds % 86400 === 0) return `${seconds / 86400} d`
  if (seconds % 3600 === 0) return `${seconds / 3600} h`
  if (seconds % 60 === 0) return `${seconds / 60} min`
  return `${seconds} s`
}
