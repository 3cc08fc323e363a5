/**
 * Changes to a types file as splices of its text: a saved item changes only
 * the characters of the values that differ (a number's text, an attribute's
 * value), a child that goes away takes its own line with it, and what is
 * new copies its neighbours' line break, indentation, quoting and `/>` or
 * ` />`. Everything else keeps its bytes, so a file kept in git shows only
 * the change (the config editor's `editServerConfig` works the same way).
 */
import { attributeOf, type ElementSpan } from "./xmlSpans.js"
import type { TypeItem } from "./typesXml.js"

interface Splice {
  readonly start: number
  readonly end: number
  readonly text: string
}

const NUMBERS = ["nominal", "lifetime", "restock", "min", "quantmin", "quantmax", "cost"] as const
const LISTS = ["category", "usage", "value", "tag"] as const
/** DayZ's order of an item's children: where a child the item lacks goes. */
const ORDER: ReadonlyArray<string> = [...NUMBERS, "flags", ...LISTS]

/** How the file spells what Garrison writes anew. */
interface Style {
  readonly quote: string
  /** `"/>"` or `" />"`. */
  readonly close: string
}

const styleOf = (text: string, scope: ElementSpan, fallback?: Style): Style => {
  let spaced = 0
  let tight = 0
  let single = 0
  let double = 0
  const visit = (e: ElementSpan) => {
    if (e.selfClosing) {
      if (/\s/.test(text[e.end - 3] ?? "")) spaced++
      else tight++
    }
    for (const a of e.attributes) {
      if (a.quote === "'") single++
      else double++
    }
    e.children.forEach(visit)
  }
  visit(scope)
  return {
    quote: single + double === 0 && fallback !== undefined ? fallback.quote : single > double ? "'" : '"',
    close: spaced + tight === 0 && fallback !== undefined ? fallback.close : spaced > tight ? " />" : "/>"
  }
}

/** Where the line holding `at` starts, and where its content ends (before `\r\n` or `\n`) and after its line break. */
const lineAround = (text: string, at: number) => {
  const start = text.lastIndexOf("\n", at - 1) + 1
  const newline = text.indexOf("\n", at)
  const breakAt = newline < 0 ? text.length : text[newline - 1] === "\r" ? newline - 1 : newline
  return { start, contentEnd: Math.max(breakAt, at), end: newline < 0 ? text.length : newline + 1 }
}

/**
 * The line break and indentation before an element (`"\r\n\t\t"`), or the
 * plain whitespace before it when it shares its line with a sibling.
 */
const separatorBefore = (text: string, element: ElementSpan): string => {
  let p = element.start
  while (p > 0 && /[ \t\r\n]/.test(text[p - 1]!)) p--
  const space = text.slice(p, element.start)
  const newline = space.lastIndexOf("\n")
  if (newline < 0) return space
  return space.slice(newline > 0 && space[newline - 1] === "\r" ? newline - 1 : newline)
}

const ONLY_COMMENTS = /^[ \t]*(<!--[\s\S]*?-->[ \t]*)*$/

/** Inserts `parts` after `anchor`, each on its own line like the anchor's when the anchor has its own line. */
const insertAfter = (text: string, anchor: ElementSpan, parts: ReadonlyArray<string>): Splice => {
  const separator = separatorBefore(text, anchor)
  const line = lineAround(text, anchor.end)
  // A comment closing the anchor's line stays with the anchor.
  const at = separator.includes("\n") && ONLY_COMMENTS.test(text.slice(anchor.end, line.contentEnd)) ? line.contentEnd : anchor.end
  return { start: at, end: at, text: parts.map((p) => separator + p).join("") }
}

const insertBefore = (text: string, first: ElementSpan, parts: ReadonlyArray<string>): Splice => {
  const separator = separatorBefore(text, first)
  return { start: first.start, end: first.start, text: parts.map((p) => p + separator).join("") }
}

/** Takes an element out: its whole line when it has the line to itself, else just it and the space before it. */
const removal = (text: string, element: ElementSpan): Splice => {
  const line = lineAround(text, element.end)
  const lineStart = text.lastIndexOf("\n", element.start - 1) + 1
  const before = text.slice(lineStart, element.start)
  const rest = text.slice(element.end, line.contentEnd)
  if (/^[ \t]*$/.test(before) && /^[ \t]*$/.test(rest)) return { start: lineStart, end: line.end, text: "" }
  if (/^[ \t]*$/.test(before)) return { start: element.start, end: element.end + (/^[ \t]*/.exec(rest)?.[0].length ?? 0), text: "" }
  return { start: element.start - (/[ \t]*$/.exec(before)?.[0].length ?? 0), end: element.end, text: "" }
}

const valueOf = (text: string, element: ElementSpan, attribute: string): string | undefined => {
  const a = attributeOf(element, attribute)
  return a === undefined ? undefined : text.slice(a.valueStart, a.valueEnd)
}

const leaf = (tag: string, value: number) => `<${tag}>${value}</${tag}>`
const named = (style: Style, tag: string, name: string) => `<${tag} name=${style.quote}${name}${style.quote}${style.close}`
const flagsElement = (style: Style, flags: Readonly<Record<string, number>>) =>
  `<flags${Object.entries(flags).map(([k, v]) => ` ${k}=${style.quote}${v}${style.quote}`).join("")}${style.close}`

/** A number's new text: only the digits change (`<min> 5 </min>` keeps its spaces). */
const numberSplices = (text: string, element: ElementSpan, tag: string, value: number): ReadonlyArray<Splice> => {
  if (element.selfClosing) return [{ start: element.start, end: element.end, text: leaf(tag, value) }]
  const content = text.slice(element.openEnd, element.closeStart)
  const trimmed = content.trim()
  if (trimmed !== "" && !content.includes("<") && Number(trimmed) === value) return []
  if (content.includes("<")) return [{ start: element.openEnd, end: element.closeStart, text: String(value) }]
  const lead = content.length - content.trimStart().length
  return [{ start: element.openEnd + lead, end: element.openEnd + lead + trimmed.length, text: String(value) }]
}

/** The flags an element has become: values changed in place, flags dropped with their space, new ones after the last. */
const flagSplices = (text: string, element: ElementSpan, flags: Readonly<Record<string, number>>, style: Style): ReadonlyArray<Splice> => {
  const splices: Array<Splice> = []
  for (const a of element.attributes) {
    const wanted = flags[a.name]
    if (wanted === undefined) {
      let p = a.start
      while (p > 0 && /[ \t\r\n]/.test(text[p - 1]!)) p--
      splices.push({ start: p, end: a.end, text: "" })
    } else if (Number(text.slice(a.valueStart, a.valueEnd)) !== wanted || text.slice(a.valueStart, a.valueEnd).trim() === "") {
      splices.push({ start: a.valueStart, end: a.valueEnd, text: String(wanted) })
    }
  }
  const missing = Object.entries(flags).filter(([k]) => attributeOf(element, k) === undefined)
  if (missing.length > 0) {
    const at = element.attributes.length > 0 ? element.attributes[element.attributes.length - 1]!.end : element.start + 1 + element.tag.length
    const quote = element.attributes[0]?.quote ?? style.quote
    splices.push({ start: at, end: at, text: missing.map(([k, v]) => ` ${k}=${quote}${v}${quote}`).join("") })
  }
  return splices
}

/** An item written out whole, in the layout of `model` (a type element of the file) when there is one. */
const renderItem = (text: string, item: TypeItem, style: Style, model: ElementSpan | undefined, fallbackIndent: string): { readonly text: string; readonly separator: string } => {
  const separator = model === undefined ? fallbackIndent : separatorBefore(text, model)
  const firstChild = model?.children[0]
  const childSeparator =
    firstChild !== undefined ? separatorBefore(text, firstChild) : separator.includes("\n") ? `${separator}    ` : separator
  const children = childrenOf(item, style)
  const closing = childSeparator.includes("\n") ? separator : ""
  return { text: `<type name=${style.quote}${item.name}${style.quote}>${children.map((c) => childSeparator + c).join("")}${closing}</type>`, separator }
}

const childrenOf = (item: TypeItem, style: Style): ReadonlyArray<string> => [
  ...NUMBERS.flatMap((f) => (item[f] === null ? [] : [leaf(f, item[f])])),
  ...(Object.keys(item.flags).length > 0 ? [flagsElement(style, item.flags)] : []),
  ...(item.category === null ? [] : [named(style, "category", item.category)]),
  ...(["usage", "value", "tag"] as const).flatMap((list) => item[list].map((n) => named(style, list, n)))
]

const apply = (text: string, splices: ReadonlyArray<Splice>): string => {
  // From the end backwards, so earlier offsets stay true; of two insertions at one place the later one goes in first, ending up second.
  const ordered = splices.map((s, index) => ({ ...s, index })).sort((a, b) => b.start - a.start || b.end - a.end || b.index - a.index)
  let result = text
  let limit = Number.POSITIVE_INFINITY
  for (const s of ordered) {
    // Two changes to the same characters would be a bug here; fail rather than write a broken file.
    if (s.end > limit) throw new Error(`overlapping edits at ${s.start}..${s.end}`)
    result = result.slice(0, s.start) + s.text + result.slice(s.end)
    limit = s.start
  }
  return result
}

/** The splices that make type element `element` say `item`. */
const itemSplices = (text: string, element: ElementSpan, item: TypeItem, fileStyle: Style): ReadonlyArray<Splice> => {
  const style = styleOf(text, element, fileStyle)
  const children = element.children
  if (children.length === 0) return [{ start: element.start, end: element.end, text: renderItem(text, item, style, element, "").text }]
  const splices: Array<Splice> = []
  const removed = new Set<ElementSpan>()
  const name = attributeOf(element, "name")
  if (name !== undefined && text.slice(name.valueStart, name.valueEnd) !== item.name) splices.push({ start: name.valueStart, end: name.valueEnd, text: item.name })
  /** What the item has that the element lacks, by field, in DayZ's order. */
  const missing = new Map<string, Array<string>>()
  const lack = (field: string, parts: ReadonlyArray<string>) => missing.set(field, [...(missing.get(field) ?? []), ...parts])
  for (const field of NUMBERS) {
    const value = item[field]
    const present = children.filter((c) => c.tag === field)
    if (present.length === 0 && value !== null) lack(field, [leaf(field, value)])
    for (const c of present) {
      if (value === null) {
        splices.push(removal(text, c))
        removed.add(c)
      } else splices.push(...numberSplices(text, c, field, value))
    }
  }
  const flags = children.filter((c) => c.tag === "flags")
  if (flags.length === 0 && Object.keys(item.flags).length > 0) lack("flags", [flagsElement(style, item.flags)])
  for (const f of flags) splices.push(...flagSplices(text, f, item.flags, style))
  for (const list of LISTS) {
    const wanted = list === "category" ? (item.category === null ? [] : [item.category]) : item[list]
    const present = children.filter((c) => c.tag === list && (valueOf(text, c, "name") ?? "") !== "")
    present.forEach((c, i) => {
      const want = wanted[i]
      if (want === undefined) {
        splices.push(removal(text, c))
        removed.add(c)
      } else if (valueOf(text, c, "name") !== want) {
        const a = attributeOf(c, "name")!
        splices.push({ start: a.valueStart, end: a.valueEnd, text: want })
      }
    })
    const extra = wanted.slice(present.length).map((n) => named(style, list, n))
    if (extra.length === 0) continue
    if (present.length > 0) splices.push(insertAfter(text, present[present.length - 1]!, extra))
    else lack(list, extra)
  }
  // Each missing field goes after the last child that comes before it in DayZ's order, or before the first child.
  const after = new Map<ElementSpan | undefined, Array<string>>()
  for (const field of ORDER) {
    const parts = missing.get(field)
    if (parts === undefined) continue
    const rank = ORDER.indexOf(field)
    const anchor = children.filter((c) => !removed.has(c) && ORDER.includes(c.tag) && ORDER.indexOf(c.tag) < rank).at(-1)
    after.set(anchor, [...(after.get(anchor) ?? []), ...parts])
  }
  for (const [anchor, parts] of after) {
    if (anchor !== undefined) splices.push(insertAfter(text, anchor, parts))
    else {
      const first = children.find((c) => !removed.has(c)) ?? children[0]!
      splices.push(removed.has(first) ? insertAfter(text, first, parts) : insertBefore(text, first, parts))
    }
  }
  return splices
}

const typesOf = (root: ElementSpan) => root.children.filter((c) => c.tag === "type")

export const findTypeSpan = (text: string, root: ElementSpan, name: string): ElementSpan | undefined =>
  typesOf(root).find((t) => (valueOf(text, t, "name") ?? "").toLowerCase() === name.toLowerCase())

/** `text` with each item saved over the type element of its name (which must be there). */
export const saveItems = (text: string, root: ElementSpan, items: ReadonlyArray<TypeItem>): string => {
  const fileStyle = styleOf(text, root)
  // The last of two saves of one item wins, as when they were written one after the other.
  const last = new Map(items.map((item) => [item.name.toLowerCase(), item]))
  const splices = [...last.values()].flatMap((item) => {
    const element = findTypeSpan(text, root, item.name)
    if (element === undefined) throw new Error(`no item ${item.name}`)
    return itemSplices(text, element, item, fileStyle)
  })
  return apply(text, splices)
}

/** `text` with a new type element after the last one, laid out like it (or like four-space indentation in an empty file). */
export const addItem = (text: string, root: ElementSpan, item: TypeItem): string => {
  const style = styleOf(text, root)
  const model = typesOf(root).at(-1)
  const eol = text.includes("\r\n") ? "\r\n" : "\n"
  if (model !== undefined) {
    const rendered = renderItem(text, item, style, model, "")
    return apply(text, [insertAfter(text, model, [rendered.text])])
  }
  const rendered = renderItem(text, item, style, undefined, `${eol}    `)
  if (root.selfClosing) {
    const opening = text.slice(root.start, root.end).replace(/\s*\/>$/, ">")
    return apply(text, [{ start: root.start, end: root.end, text: `${opening}${rendered.separator}${rendered.text}${eol}</${root.tag}>` }])
  }
  return apply(text, [{ start: root.openEnd, end: root.openEnd, text: rendered.separator + rendered.text }])
}

/** `text` without the type element `name` (its own lines only). */
export const removeItem = (text: string, root: ElementSpan, name: string): string => {
  const element = findTypeSpan(text, root, name)
  if (element === undefined) throw new Error(`no item ${name}`)
  return apply(text, [removal(text, element)])
}
