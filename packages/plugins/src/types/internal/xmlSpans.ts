/**
 * Where each element of an XML text lies: its start and end, where its
 * opening tag ends and its closing tag starts, and each attribute's value
 * span. The types editor edits files by splicing these spans (like the
 * config editor), so whatever it does not change keeps its bytes:
 * indentation, line endings, comments, `<x />` against `<x/>`, quoting.
 *
 * Only the shapes a file that passed fast-xml-parser's validation can have
 * are handled (comments, CDATA, processing instructions, a doctype, tags);
 * anything else is an `XmlSpanProblem`.
 */

export interface AttributeSpan {
  readonly name: string
  /** From the attribute's name to after its closing quote. */
  readonly start: number
  readonly end: number
  readonly valueStart: number
  readonly valueEnd: number
  readonly quote: string
}

export interface ElementSpan {
  readonly tag: string
  readonly start: number
  /** After the opening tag's `>` (equal to `end` for `<x/>`). */
  openEnd: number
  /** Where `</tag>` starts (equal to `end` for `<x/>`). */
  closeStart: number
  end: number
  readonly selfClosing: boolean
  readonly attributes: ReadonlyArray<AttributeSpan>
  readonly children: Array<ElementSpan>
}

export class XmlSpanProblem extends Error {}

const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\r" || c === "\n"

const after = (text: string, from: number, marker: string): number => {
  const at = text.indexOf(marker, from)
  if (at < 0) throw new XmlSpanProblem(`unclosed markup at offset ${from}`)
  return at + marker.length
}

/** The top-level elements of `text`, each with its descendants. */
export const scanElements = (text: string): ReadonlyArray<ElementSpan> => {
  const top: Array<ElementSpan> = []
  const open: Array<ElementSpan> = []
  let i = 0
  for (;;) {
    const lt = text.indexOf("<", i)
    if (lt < 0) break
    if (text.startsWith("<!--", lt)) i = after(text, lt + 4, "-->")
    else if (text.startsWith("<![CDATA[", lt)) i = after(text, lt + 9, "]]>")
    else if (text.startsWith("<?", lt)) i = after(text, lt + 2, "?>")
    else if (text.startsWith("<!", lt)) {
      // A doctype, perhaps with an internal subset in brackets.
      let depth = 0
      let p = lt + 2
      for (; p < text.length; p++) {
        if (text[p] === "[") depth++
        else if (text[p] === "]") depth--
        else if (text[p] === ">" && depth <= 0) break
      }
      if (p >= text.length) throw new XmlSpanProblem(`unclosed declaration at offset ${lt}`)
      i = p + 1
    } else if (text[lt + 1] === "/") {
      const end = after(text, lt + 2, ">")
      const tag = text.slice(lt + 2, end - 1).trim()
      const element = open.pop()
      if (element === undefined || element.tag !== tag) throw new XmlSpanProblem(`</${tag}> at offset ${lt} closes nothing open`)
      element.closeStart = lt
      element.end = end
      i = end
    } else {
      let p = lt + 1
      while (p < text.length && !isSpace(text[p]) && text[p] !== "/" && text[p] !== ">") p++
      const tag = text.slice(lt + 1, p)
      const attributes: Array<AttributeSpan> = []
      let selfClosing = false
      for (;;) {
        while (isSpace(text[p])) p++
        if (p >= text.length) throw new XmlSpanProblem(`unclosed <${tag}> at offset ${lt}`)
        if (text[p] === ">") { p++; break }
        if (text[p] === "/" && text[p + 1] === ">") { selfClosing = true; p += 2; break }
        const nameStart = p
        while (p < text.length && !isSpace(text[p]) && text[p] !== "=" && text[p] !== ">" && text[p] !== "/") p++
        const name = text.slice(nameStart, p)
        while (isSpace(text[p])) p++
        if (text[p] !== "=") throw new XmlSpanProblem(`attribute ${name} of <${tag}> at offset ${lt} has no value`)
        p++
        while (isSpace(text[p])) p++
        const quote = text[p]
        if (quote !== '"' && quote !== "'") throw new XmlSpanProblem(`attribute ${name} of <${tag}> at offset ${lt} is not quoted`)
        const valueEnd = text.indexOf(quote, p + 1)
        if (valueEnd < 0) throw new XmlSpanProblem(`unclosed attribute ${name} at offset ${lt}`)
        attributes.push({ name, start: nameStart, end: valueEnd + 1, valueStart: p + 1, valueEnd, quote })
        p = valueEnd + 1
      }
      const element: ElementSpan = { tag, start: lt, openEnd: p, closeStart: p, end: p, selfClosing, attributes, children: [] }
      const parent = open[open.length - 1]
      if (parent === undefined) top.push(element)
      else parent.children.push(element)
      if (!selfClosing) open.push(element)
      i = p
    }
  }
  if (open.length > 0) throw new XmlSpanProblem(`<${open[open.length - 1]!.tag}> is never closed`)
  return top
}

export const attributeOf = (element: ElementSpan, name: string): AttributeSpan | undefined => element.attributes.find((a) => a.name === name)
