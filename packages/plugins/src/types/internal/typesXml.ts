/**
 * DayZ's economy files: `types.xml` (one `<type name="...">` per item class,
 * with `nominal`, `lifetime`, `restock`, `min`, `quantmin`, `quantmax`,
 * `cost`, `flags`, `category`, and repeated `usage`, `value` and `tag`) and
 * `cfgeconomycore.xml` (which registers extra types files:
 * `<ce folder="x"><file name="t.xml" type="types"/></ce>`).
 *
 * Read with fast-xml-parser in its order-preserving form (which also
 * checks the file is XML; entities are not expanded). Changes are not
 * printed from the tree: `typesEdits` splices the file's text at the
 * positions `xmlSpans` finds, so every byte not changed stays.
 */
import { XMLParser } from "fast-xml-parser"
import { errorMessage } from "@garrison/runtime"
import { type ElementSpan, scanElements } from "./xmlSpans.js"

const OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  commentPropName: "#comment",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: false,
  ignoreDeclaration: false
} as const

/** A node of the order-preserving tree: `{tag: children, ":@": attributes}`, `{"#text": ...}` or `{"#comment": [...]}`. */
export type XmlNode = Record<string, unknown>

// Made on first use: the bundle loads the XML library only then (packages/http/scripts/lazyModules.mjs).
let made: { readonly parser: XMLParser } | undefined
const xml = () => (made ??= { parser: new XMLParser(OPTIONS) })

export const FLAGS = ["count_in_cargo", "count_in_hoarder", "count_in_map", "count_in_player", "crafted", "deloot"] as const

export interface TypeItem {
  readonly name: string
  readonly nominal: number | null
  readonly lifetime: number | null
  readonly restock: number | null
  readonly min: number | null
  readonly quantmin: number | null
  readonly quantmax: number | null
  readonly cost: number | null
  readonly flags: Readonly<Record<string, number>>
  readonly category: string | null
  readonly usage: ReadonlyArray<string>
  readonly value: ReadonlyArray<string>
  readonly tag: ReadonlyArray<string>
}

const NUMBERS = ["nominal", "lifetime", "restock", "min", "quantmin", "quantmax", "cost"] as const
type NumberField = (typeof NUMBERS)[number]

const tagOf = (node: XmlNode): string | undefined => Object.keys(node).find((k) => k !== ":@")
const attrs = (node: XmlNode): Record<string, string> => (node[":@"] as Record<string, string> | undefined) ?? {}
const children = (node: XmlNode, tag: string): Array<XmlNode> => (node[tag] as Array<XmlNode> | undefined) ?? []
const textOf = (node: XmlNode, tag: string): string => children(node, tag).map((c) => String(c["#text"] ?? "")).join("")

export interface TypesDocument {
  /** The text parsed, byte for byte (a byte order mark included). */
  readonly text: string
  /** Where the `<types>` element and each of its descendants lie in `text`. */
  readonly root: ElementSpan
  readonly tree: Array<XmlNode>
  /** The `<types>` element's children (type elements, comments). */
  readonly entries: Array<XmlNode>
}

export class XmlProblem extends Error {}

/** A types file; `XmlProblem` when it is not XML or has no `<types>` root. */
export const parseTypes = (text: string): TypesDocument => {
  let tree: Array<XmlNode>
  let spans: ReadonlyArray<ElementSpan>
  try {
    // A byte order mark (as UTF-8 or read byte by byte) is kept in the text but not shown to the parser.
    tree = xml().parser.parse(text.replace(/^(\uFEFF|\u00EF\u00BB\u00BF)/, ""), true) as Array<XmlNode>
    spans = scanElements(text)
  } catch (error) {
    throw new XmlProblem(`not well-formed XML: ${errorMessage(error)}`)
  }
  const root = tree.find((n) => tagOf(n) === "types")
  const rootSpan = spans.find((e) => e.tag === "types")
  if (root === undefined || rootSpan === undefined) throw new XmlProblem("has no <types> element")
  return { text, root: rootSpan, tree, entries: children(root, "types") }
}

/** The file's text: changes are made by splicing it (`typesEdits`), never by printing the tree. */
export const printTypes = (doc: TypesDocument): string => doc.text

const numberOr = (text: string): number | null => (text.trim() === "" || !Number.isFinite(Number(text)) ? null : Number(text))

export const itemOf = (node: XmlNode): TypeItem => {
  const content = children(node, "type")
  const first = (tag: string) => content.find((c) => tagOf(c) === tag)
  const numbers = Object.fromEntries(NUMBERS.map((field) => [field, (() => { const c = first(field); return c === undefined ? null : numberOr(textOf(c, field)) })()])) as Record<NumberField, number | null>
  const flagsNode = first("flags")
  const flags: Record<string, number> = {}
  if (flagsNode !== undefined) for (const [k, v] of Object.entries(attrs(flagsNode))) flags[k.replace(/^@_/, "")] = Number(v)
  const named = (tag: string) => content.filter((c) => tagOf(c) === tag).map((c) => attrs(c)["@_name"] ?? "").filter((n) => n !== "")
  return { name: attrs(node)["@_name"] ?? "", ...numbers, flags, category: named("category")[0] ?? null, usage: named("usage"), value: named("value"), tag: named("tag") }
}

/** The type elements of a document, in order. */
export const typeNodes = (doc: TypesDocument): Array<XmlNode> => doc.entries.filter((n) => tagOf(n) === "type")

export const findType = (doc: TypesDocument, name: string): XmlNode | undefined =>
  typeNodes(doc).find((n) => (attrs(n)["@_name"] ?? "").toLowerCase() === name.toLowerCase())

/** Why an item cannot be saved (DayZ's economy would misbehave), or undefined. */
export const itemProblem = (item: TypeItem): string | undefined => {
  if (!/^[A-Za-z0-9_]{1,128}$/.test(item.name)) return "name must be a class name (letters, digits, underscores)"
  for (const field of ["nominal", "lifetime", "restock", "min", "cost"] as const) {
    const value = item[field]
    if (value !== null && (!Number.isInteger(value) || value < 0)) return `${field} must be a whole number, 0 or more`
  }
  for (const field of ["quantmin", "quantmax"] as const) {
    const value = item[field]
    if (value !== null && (!Number.isInteger(value) || value < -1 || value > 100)) return `${field} must be -1 or 0 to 100`
  }
  if (item.min !== null && item.nominal !== null && item.min > item.nominal) return `min (${item.min}) must not exceed nominal (${item.nominal})`
  if (item.quantmin !== null && item.quantmax !== null && item.quantmin > item.quantmax && item.quantmax !== -1) return "quantmin must not exceed quantmax"
  for (const [flag, value] of Object.entries(item.flags)) {
    if (!(FLAGS as ReadonlyArray<string>).includes(flag)) return `flags.${flag} is not a flag DayZ knows (${FLAGS.join(", ")})`
    if (value !== 0 && value !== 1) return `flags.${flag} must be 0 or 1`
  }
  for (const list of ["usage", "value", "tag"] as const) {
    if (item[list].some((n) => !/^[A-Za-z0-9_]{1,64}$/.test(n))) return `${list} names are letters, digits and underscores`
  }
  if (item.category !== null && !/^[A-Za-z0-9_]{1,64}$/.test(item.category)) return "category is letters, digits and underscores"
  return undefined
}

/** The extra types files `cfgeconomycore.xml` registers, as paths relative to the mission folder. */
export const registeredTypesFiles = (economyCore: string): ReadonlyArray<string> => {
  let tree: Array<XmlNode>
  try {
    tree = xml().parser.parse(economyCore, true) as Array<XmlNode>
  } catch (error) {
    throw new XmlProblem(`cfgeconomycore.xml is not well-formed XML: ${errorMessage(error)}`)
  }
  const root = tree.find((n) => tagOf(n) === "economycore")
  if (root === undefined) return []
  const files: Array<string> = []
  for (const ce of children(root, "economycore").filter((n) => tagOf(n) === "ce")) {
    const folder = attrs(ce)["@_folder"] ?? ""
    for (const file of children(ce, "ce").filter((n) => tagOf(n) === "file" && attrs(n)["@_type"] === "types")) {
      const name = attrs(file)["@_name"] ?? ""
      if (name !== "") files.push(folder === "" ? name : `${folder}/${name}`)
    }
  }
  return files
}
