/**
 * One pass over a parsed JSON value for what `JSON.parse` lets through but
 * the rest of the controller must not see: nesting deeper than a bound
 * (the platform's error formatting recurses per level), and strings, keys
 * included, that are not well-formed UTF-16 (a lone surrogate from a
 * `\ud800`-style escape cannot be stored as UTF-8). Iterative, with an
 * explicit stack, so no depth of input can overflow the call stack.
 *
 * Two walks: a lean one that only says whether there is a fault (it runs
 * on every body, right after `JSON.parse`, when the parsed objects are
 * still young: allocating per object there would make the garbage
 * collector copy them, tripling the walk's cost on a 20 MB import), and,
 * only when it finds one, a second that names its path.
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
export const findJsonShapeFault = (value: unknown, maxDepth: number, checkStrings: boolean): JsonShapeFault | undefined =>
  hasJsonShapeFault(value, maxDepth, checkStrings) ? locateJsonShapeFault(value, maxDepth, checkStrings) : undefined

const illFormed = (value: unknown, checkStrings: boolean) => checkStrings && typeof value === "string" && !value.isWellFormed()

/** Whether there is a fault: containers on a stack with their depths, nothing allocated per object. */
export const hasJsonShapeFault = (value: unknown, maxDepth: number, checkStrings: boolean): boolean => {
  if (typeof value !== "object" || value === null) return illFormed(value, checkStrings)
  if (maxDepth < 1) return true
  const stack: Array<object> = [value]
  const depths: Array<number> = [1]
  while (stack.length > 0) {
    const node = stack.pop()!
    const depth = depths.pop()!
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i]
        if (typeof child === "object" && child !== null) {
          if (depth === maxDepth) return true
          stack.push(child)
          depths.push(depth + 1)
        } else if (illFormed(child, checkStrings)) return true
      }
    } else {
      for (const key in node) {
        if (checkStrings && !key.isWellFormed()) return true
        const child: unknown = (node as Record<string, unknown>)[key]
        if (typeof child === "object" && child !== null) {
          if (depth === maxDepth) return true
          stack.push(child)
          depths.push(depth + 1)
        } else if (illFormed(child, checkStrings)) return true
      }
    }
  }
  return false
}

/** The first fault in document order and its path: one frame per open container. */
export const locateJsonShapeFault = (value: unknown, maxDepth: number, checkStrings: boolean): JsonShapeFault | undefined => {
  if (typeof value !== "object" || value === null) {
    return illFormed(value, checkStrings) ? { _tag: "IllFormedString", path: [], inKey: false } : undefined
  }
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
    if (typeof child === "object" && child !== null) {
      if (frames.length === maxDepth) return { _tag: "TooDeep", path: pathOf(frames) }
      frames.push(frameOf(child))
    } else if (illFormed(child, checkStrings)) return { _tag: "IllFormedString", path: pathOf(frames), inKey: false }
  }
  return undefined
}
