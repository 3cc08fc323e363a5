/**
 * A strict parser of Prometheus' text exposition format (0.0.4), for the
 * tests: prom-client only writes it. Every line must be a `# HELP`, a
 * `# TYPE`, another comment, blank, or a sample `name{label="value",...}
 * value [timestamp]`; names, label names, escapes and numbers are checked;
 * a family's HELP and TYPE come once, before its samples, and its samples
 * are together; a series (name and labels) appears once; a histogram's
 * buckets rise and end with `le="+Inf"` equal to its `_count`. Anything
 * else throws, naming the line.
 */

export type MetricType = "counter" | "gauge" | "histogram" | "summary" | "untyped"

export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface Family {
  readonly name: string
  help?: string
  type: MetricType
  readonly samples: Array<Sample>
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const TYPES = new Set<string>(["counter", "gauge", "histogram", "summary", "untyped"])

const parseValue = (text: string, line: number): number => {
  // As Prometheus reads them (Go's ParseFloat): infinities and NaN in any case (prom-client writes "Nan").
  if (/^\+?inf(inity)?$/i.test(text)) return Number.POSITIVE_INFINITY
  if (/^-inf(inity)?$/i.test(text)) return Number.NEGATIVE_INFINITY
  if (/^nan$/i.test(text)) return Number.NaN
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new Error(`line ${line}: bad value "${text}"`)
  return Number(text)
}

/** The labels in `{...}` from `at` (just after `{`); answers them and the index after `}`. */
const parseLabels = (text: string, at: number, line: number): { labels: Record<string, string>; end: number } => {
  const labels: Record<string, string> = {}
  let i = at
  for (;;) {
    if (text[i] === "}") return { labels, end: i + 1 }
    const eq = text.indexOf("=", i)
    if (eq === -1) throw new Error(`line ${line}: label without "="`)
    const name = text.slice(i, eq)
    if (!LABEL_NAME.test(name)) throw new Error(`line ${line}: bad label name "${name}"`)
    if (name in labels) throw new Error(`line ${line}: label "${name}" twice`)
    if (text[eq + 1] !== '"') throw new Error(`line ${line}: label value not quoted`)
    let value = ""
    let j = eq + 2
    for (;;) {
      const c = text[j]
      if (c === undefined) throw new Error(`line ${line}: unterminated label value`)
      if (c === '"') break
      if (c === "\\") {
        const next = text[j + 1]
        if (next === "\\") value += "\\"
        else if (next === '"') value += '"'
        else if (next === "n") value += "\n"
        else throw new Error(`line ${line}: bad escape "\\${String(next)}"`)
        j += 2
        continue
      }
      value += c
      j++
    }
    labels[name] = value
    i = j + 1
    if (text[i] === ",") i++
    else if (text[i] !== "}") throw new Error(`line ${line}: expected "," or "}" after a label`)
  }
}

/** The family a sample belongs to, by the suffixes its type allows. */
const familyOf = (families: Map<string, Family>, sampleName: string): Family | undefined => {
  const exact = families.get(sampleName)
  if (exact !== undefined) return exact
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!sampleName.endsWith(suffix)) continue
    const family = families.get(sampleName.slice(0, -suffix.length))
    if (family !== undefined && (family.type === "histogram" || (family.type === "summary" && suffix !== "_bucket"))) return family
  }
  return undefined
}

export const parsePrometheusText = (text: string): Map<string, Family> => {
  const families = new Map<string, Family>()
  const seriesSeen = new Set<string>()
  let current: Family | undefined
  const closed = new Set<string>()
  const lines = text.split("\n")
  if (lines.at(-1) !== "") throw new Error("the text does not end with a newline")
  lines.forEach((raw, index) => {
    const line = index + 1
    if (raw === "") return
    if (raw.startsWith("#")) {
      const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(raw)
      if (meta === null) return // another comment
      const [, kind, name, rest] = meta as unknown as [string, "HELP" | "TYPE", string, string]
      if (!METRIC_NAME.test(name)) throw new Error(`line ${line}: bad metric name "${name}"`)
      if (closed.has(name)) throw new Error(`line ${line}: ${kind} for ${name} after its samples ended`)
      let family = families.get(name)
      if (family === undefined) {
        family = { name, type: "untyped", samples: [] }
        families.set(name, family)
      } else if (family.samples.length > 0) {
        throw new Error(`line ${line}: ${kind} for ${name} after its samples`)
      }
      if (current !== undefined && current !== family) closed.add(current.name)
      current = family
      if (kind === "HELP") {
        if (family.help !== undefined) throw new Error(`line ${line}: second HELP for ${name}`)
        family.help = rest
      } else {
        if (!TYPES.has(rest)) throw new Error(`line ${line}: bad type "${rest}"`)
        family.type = rest as MetricType
      }
      return
    }
    const nameEnd = raw.search(/[{ ]/)
    if (nameEnd === -1) throw new Error(`line ${line}: sample without a value`)
    const name = raw.slice(0, nameEnd)
    if (!METRIC_NAME.test(name)) throw new Error(`line ${line}: bad metric name "${name}"`)
    let labels: Record<string, string> = {}
    let rest = raw.slice(nameEnd)
    if (rest.startsWith("{")) {
      const parsed = parseLabels(raw, nameEnd + 1, line)
      labels = parsed.labels
      rest = raw.slice(parsed.end)
    }
    const fields = /^ (\S+)( (-?\d+))?$/.exec(rest)
    if (fields === null) throw new Error(`line ${line}: bad sample "${raw}"`)
    const value = parseValue(fields[1]!, line)
    let family = familyOf(families, name)
    if (family === undefined) {
      family = { name, type: "untyped", samples: [] }
      families.set(name, family)
    }
    if (closed.has(family.name)) throw new Error(`line ${line}: samples of ${family.name} are not together`)
    if (current !== undefined && current !== family) closed.add(current.name)
    current = family
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`
    if (seriesSeen.has(key)) throw new Error(`line ${line}: series ${key} twice`)
    seriesSeen.add(key)
    if (family.type === "histogram" && name.endsWith("_bucket") && labels["le"] === undefined) throw new Error(`line ${line}: bucket without le`)
    family.samples.push({ name, labels, value })
  })
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family)
  return families
}

/** Each histogram series: buckets not falling, the last `+Inf`, equal to `_count`. */
const checkHistogram = (family: Family) => {
  const groups = new Map<string, Array<Sample>>()
  for (const sample of family.samples) {
    if (!sample.name.endsWith("_bucket")) continue
    const { le: _le, ...rest } = sample.labels
    const key = JSON.stringify(Object.entries(rest).sort())
    groups.set(key, [...(groups.get(key) ?? []), sample])
  }
  for (const [key, buckets] of groups) {
    for (let i = 1; i < buckets.length; i++) {
      if (buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${family.name}${key}: buckets fall`)
    }
    const last = buckets.at(-1)!
    if (last.labels["le"] !== "+Inf") throw new Error(`${family.name}${key}: the last bucket is not +Inf`)
    const count = family.samples.find(
      (s) => s.name === `${family.name}_count` && JSON.stringify(Object.entries(s.labels).sort()) === key
    )
    if (count === undefined || count.value !== last.value) throw new Error(`${family.name}${key}: _count differs from the +Inf bucket`)
  }
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when none. */
export const valueOf = (families: Map<string, Family>, name: string, labels: Readonly<Record<string, string>> = {}): number | undefined => {
  const family = familyOf(families, name)
  const sample = family?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  return sample?.value
}
