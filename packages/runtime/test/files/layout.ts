/**
 * The confinement tests' folders: a root holding `a.<ext>` and `sub/b.<ext>`,
 * and a folder outside it holding a secret that no confined read may ever
 * return. Both are throw-away folders of the testkit (removed after the file).
 */
import { tempDir } from "@garrison/testkit/core"
import * as Fs from "node:fs"
import * as NodePath from "node:path"

export const SECRET = "OUTSIDE-SECRET-4711"

export const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

/** `prefix` names the folders (`garrison-<prefix>-root-...`); `ext` the files' extension; `text` what `a.<ext>` holds. */
export const secretLayout = (prefix: string, ext: string, text: string) => {
  const root = tempDir(`garrison-${prefix}-root-`)
  const outside = tempDir(`garrison-${prefix}-outside-`)
  Fs.writeFileSync(NodePath.join(root, `a.${ext}`), text)
  Fs.mkdirSync(NodePath.join(root, "sub"))
  Fs.writeFileSync(NodePath.join(root, "sub", `b.${ext}`), "in sub\n")
  Fs.writeFileSync(NodePath.join(outside, `secret.${ext}`), `${SECRET}\n`)
  return { root, outside, secret: NodePath.join(outside, `secret.${ext}`) }
}
