/**
 * One pass over a parsed JSON value for what `JSON.parse` lets through but
 * the rest of the controller must not see: nesting deeper than a bound
 * (the platform's error formatting recurses per level), and strings, keys
 * included, that are not well-formed UTF-16 (a lone surrogate from a
 * `\ud800`-style escape cannot be stored as UTF-8). Iterative, with an
 * explicit stack, so no depth of input can overflow the call stack.
 */

export type JsonPath = ReadonlyArray<string | number>

export type JsonShapeFault =
  | { readonly _tag: "TooDeep"; readonly path: JsonPath }
  | { readonly _tag: "IllFormedString"; readonly path: JsonPath; readonly inKey: boolean }

interface Frame {
  readonly node: object
  /** The object's keys; `undefined` for an array. */
  readonly keys: ReadonlyArray<string> | undefined
  readonly length: number
  next: number
}

const frameOf = (node: object): Frame => {
  if (Array.isArray(node)) return { node, keys: undefined, length: node.length, next: 0 }
  const keys = Object.keys(node)
  return { node, keys, length: keys.length, next: 0 }
}

/** The path to the element each frame is visiting, outermost first. */
const pathOf = (frames: ReadonlyArray<Frame>): Array<string | number> =>
  frames.map((frame) => (frame.keys === undefined ? frame.next - 1 : frame.keys[frame.next - 1]!))

/**
 * The first fault in document order, or `undefined`. `maxDepth` counts
 * containers (`{}` alone is depth 1); `checkStrings` is off when the text
 * had no surrogate escape, since fatally decoded UTF-8 cannot hold one.
 */
export const findJsonShapeFault = (value: unknown, maxDepth: number, checkStrings: boolean): JsonShapeFault | undefined => {
  if (typeof value === "string") {
    return checkStrings && !value.isWellFormed() ? { _tag: "IllFormedString", path: [], inKey: false } : undefined
  }
  if (typeof value !== "object" || value === null) return undefined
  if (maxDepth < 1) return { _tag: "TooDeep", path: [] }
  const frames: Array<Frame> = [frameOf(value)]
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!
    if (frame.next === frame.length) {
      frames.pop()
      continue
    }
    const index = frame.next++
    let child: unknown
    if (frame.keys === undefined) child = (frame.node as ReadonlyArray<unknown>)[index]
    else {
      const key = frame.keys[index]!
      if (checkStrings && !key.isWellFormed()) return { _tag: "IllFormedString", path: pathOf(frames), inKey: true }
      child = (frame.node as Record<string, unknown>)[key]
    }
    if (typeof child === "string") {
      if (checkStrings && !child.isWellFormed()) return { _tag: "IllFormedString", path: pathOf(frames), inKey: false }
    } else if (typeof child === "object" && child !== null) {
      if (frames.length === maxDepth) return { _tag: "TooDeep", path: pathOf(frames) }
      frames.push(frameOf(child))
    }
  }
  return undefined
}
