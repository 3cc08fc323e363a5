/**
 * DayZ's economy files: `types.xml` (one `<type name="...">` per item class,
 * with `nominal`, `lifetime`, `restock`, `min`, `quantmin`, `quantmax`,
 * `cost`, `flags`, `category`, and repeated `usage`, `value` and `tag`) and
 * `cfgeconomycore.xml` (which registers extra types files:
 * `<ce folder="x"><file name="t.xml" type="types"/></ce>`).
 *
 * Parsed with fast-xml-parser in its order-preserving form: comments,
 * attributes (also ones Garrison does not know), unknown child elements and
 * the order of everything stay when an item is edited; only the edited
 * item's known children change. Entities are not expanded (no entity
 * tricks), and the declaration is kept.
 */
import { XMLBuilder, XMLParser } from "fast-xml-parser"
import { errorMessage } from "@garrison/runtime"

const OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  commentPropName: "#comment",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: false,
  ignoreDeclaration: false,
  suppressEmptyNode: true,
  format: true,
  indentBy: "    "
} as const

/** A node of the order-preserving tree: `{tag: children, ":@": attributes}`, `{"#text": ...}` or `{"#comment": [...]}`. */
export type XmlNode = Record<string, unknown>

// Made on first use: the bundle loads the XML library only then (packages/http/scripts/lazyModules.mjs).
let made: { readonly parser: XMLParser; readonly builder: XMLBuilder } | undefined
const xml = () => (made ??= { parser: new XMLParser(OPTIONS), builder: new XMLBuilder(OPTIONS) })

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
  readonly tree: Array<XmlNode>
  /** The `<types>` element's children (type elements, comments). */
  readonly entries: Array<XmlNode>
}

export class XmlProblem extends Error {}

/** A types file; `XmlProblem` when it is not XML or has no `<types>` root. */
export const parseTypes = (text: string): TypesDocument => {
  let tree: Array<XmlNode>
  try {
    tree = xml().parser.parse(text, true) as Array<XmlNode>
  } catch (error) {
    throw new XmlProblem(`not well-formed XML: ${errorMessage(error)}`)
  }
  const root = tree.find((n) => tagOf(n) === "types")
  if (root === undefined) throw new XmlProblem("has no <types> element")
  return { tree, entries: children(root, "types") }
}

export const printTypes = (doc: TypesDocument): string => {
  const text = xml().builder.build(doc.tree) as string
  return text.endsWith("\n") ? text : `${text}\n`
}

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

const element = (tag: string, attributes?: Record<string, string>, text?: string): XmlNode => ({
  [tag]: text === undefined ? [] : [{ "#text": text }],
  ...(attributes === undefined ? {} : { ":@": Object.fromEntries(Object.entries(attributes).map(([k, v]) => [`@_${k}`, v])) })
})

/**
 * Writes `item` into `node` (a type element): known children updated in
 * place (or added in DayZ's usual order), `usage`/`value`/`tag` lists
 * replaced where the first of each stood, unknown children and comments
 * kept where they are.
 */
export const writeItem = (node: XmlNode, item: TypeItem): void => {
  node[":@"] = { ...attrs(node), "@_name": item.name }
  const content = children(node, "type")
  const result: Array<XmlNode> = []
  const done = new Set<string>()
  const emitLists = (tag: "category" | "usage" | "value" | "tag") => {
    if (done.has(tag)) return
    done.add(tag)
    const names = tag === "category" ? (item.category === null ? [] : [item.category]) : item[tag]
    for (const name of names) result.push(element(tag, { name }))
  }
  for (const child of content) {
    const tag = tagOf(child)
    if (tag !== undefined && (NUMBERS as ReadonlyArray<string>).includes(tag)) {
      const value = item[tag as NumberField]
      if (value !== null) result.push(element(tag, undefined, String(value)))
      done.add(tag)
    } else if (tag === "flags") {
      result.push(element("flags", Object.fromEntries(Object.entries(item.flags).map(([k, v]) => [k, String(v)]))))
      done.add("flags")
    } else if (tag === "category" || tag === "usage" || tag === "value" || tag === "tag") {
      emitLists(tag)
    } else {
      result.push(child)
    }
  }
  // What the element did not have yet, in DayZ's order.
  for (const field of NUMBERS) if (!done.has(field) && item[field] !== null) result.push(element(field, undefined, String(item[field])))
  if (!done.has("flags") && Object.keys(item.flags).length > 0) result.push(element("flags", Object.fromEntries(Object.entries(item.flags).map(([k, v]) => [k, String(v)]))))
  for (const tag of ["category", "usage", "value", "tag"] as const) emitLists(tag)
  node["type"] = result
}

export const newTypeNode = (item: TypeItem): XmlNode => {
  const node: XmlNode = { type: [], ":@": { "@_name": item.name } }
  writeItem(node, item)
  return node
}

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
