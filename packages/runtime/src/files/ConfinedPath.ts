/**
 * The rules for a path that a request names inside a root folder, as plain
 * functions (tested without a file system): relative, no NUL, well-formed
 * Unicode, no drive letter, no `..` that climbs out of the root; `/` and `\`
 * both separate folders, so a Windows-style path cannot slip a `..` past the
 * check.
 *
 * `..` is resolved here, by name (`a/../b` is `b`), never by the system: the
 * path handed to the file system holds no `..` at all, so a symlink on the
 * way cannot turn a `..` into a step outside.
 */
import * as Either from "effect/Either"
import * as NodePath from "node:path"

/** Longest relative path accepted, in characters (Linux's PATH_MAX). */
export const MAX_RELATIVE_PATH = 4096
/** Longest single name, in UTF-8 bytes (NAME_MAX). */
export const MAX_NAME_BYTES = 255

/**
 * The names along `path` (`a/b/c.log` → `["a", "b", "c.log"]`), or why the
 * path may not be used. `.` and empty segments are skipped, `..` takes the
 * name before it away (refused when there is none: that would leave the
 * root); with `allowRoot`, a path naming the root itself (`""`, `"."`,
 * `"a/.."`) is `[]`.
 */
export const relativeSegments = (
  path: string,
  options: { readonly allowRoot?: boolean } = {}
): Either.Either<ReadonlyArray<string>, string> => {
  if (path.length > MAX_RELATIVE_PATH) return Either.left(`must be at most ${MAX_RELATIVE_PATH} characters`)
  if (path.includes("\0")) return Either.left("must not contain a NUL character")
  // A lone surrogate has no UTF-8 form: the system would get U+FFFD, another name than the one checked.
  if (!path.isWellFormed()) return Either.left("must be well-formed Unicode (it holds a lone surrogate)")
  if (path.startsWith("/") || path.startsWith("\\") || /^[A-Za-z]:/.test(path)) {
    return Either.left("must be relative to its folder, not absolute")
  }
  const segments: Array<string> = []
  for (const segment of path.split(/[/\\]/)) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") {
      if (segments.length === 0) return Either.left("must not go up out of its folder ('..')")
      segments.pop()
      continue
    }
    if (Buffer.byteLength(segment) > MAX_NAME_BYTES) return Either.left(`a name in it is longer than ${MAX_NAME_BYTES} bytes`)
    segments.push(segment)
  }
  if (segments.length === 0 && options.allowRoot !== true) return Either.left("must name a file")
  return Either.right(segments)
}

/** True when `path` is strictly inside `folder` (both absolute and already resolved). */
export const isInsideFolder = (folder: string, path: string): boolean => {
  const prefix = folder.endsWith(NodePath.sep) ? folder : folder + NodePath.sep
  return path.length > prefix.length && path.startsWith(prefix)
}

/** True when `path` is `folder` itself or inside it. */
export const isFolderOrInside = (folder: string, path: string): boolean => path === folder || isInsideFolder(folder, path)
