/**
 * The `npm-shrinkwrap.json` of a package made by pack.mjs: the part of the
 * clone's package-lock.json its dependencies reach, so an install gets
 * exactly the versions (and integrity hashes) the tests ran, and needs no
 * registry metadata (an offline install from npm's cache works).
 *
 * Reached is found the way Node resolves: a package at `node_modules/a`
 * needing `b` gets `node_modules/a/node_modules/b` when the lock has it,
 * else `node_modules/b`. Optional platform packages (`os`/`cpu`) the lock
 * recorded are kept with their conditions: npm installs the one that fits
 * the host.
 */
import { readFileSync } from "node:fs"
import * as NodePath from "node:path"

/** Lock entries of the workspace itself (links, workspace folders) never ship. */
const isRegistryEntry = (entry) => entry !== undefined && entry.link !== true && typeof entry.version === "string" && typeof entry.integrity === "string"

export const shrinkwrapFor = ({ root, name, version, dependencies }) => {
  const lock = JSON.parse(readFileSync(NodePath.join(root, "package-lock.json"), "utf8"))
  const entries = lock.packages
  const reached = new Map()

  /** The lock path `dependency` resolves to from the package at `from` ("" for the top). */
  const resolve = (from, dependency) => {
    for (let at = from; ; ) {
      const candidate = `${at === "" ? "" : `${at}/`}node_modules/${dependency}`
      if (entries[candidate] !== undefined) return candidate
      if (at === "") return undefined
      const parent = at.lastIndexOf("/node_modules/")
      at = parent === -1 ? "" : at.slice(0, parent)
    }
  }

  const visit = (from, dependency, optional) => {
    const path = resolve(from, dependency)
    if (path === undefined) {
      if (optional) return
      throw new Error(`shrinkwrap: ${dependency} (needed from ${from || "the package"}) is not in package-lock.json`)
    }
    if (reached.has(path)) return
    const entry = entries[path]
    if (!isRegistryEntry(entry)) throw new Error(`shrinkwrap: ${path} is not a registry package in package-lock.json`)
    reached.set(path, entry)
    for (const next of Object.keys(entry.dependencies ?? {})) visit(path, next, false)
    for (const next of Object.keys(entry.optionalDependencies ?? {})) visit(path, next, true)
    for (const [next, meta] of Object.entries(entry.peerDependenciesMeta ?? {})) if (meta?.optional !== true) visit(path, next, true)
    for (const next of Object.keys(entry.peerDependencies ?? {})) if (entry.peerDependenciesMeta?.[next]?.optional !== true) visit(path, next, false)
  }
  for (const dependency of Object.keys(dependencies)) visit("", dependency, false)

  const packages = { "": { name, version, dependencies } }
  for (const path of [...reached.keys()].sort()) {
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = reached.get(path)
    // An optional package the clone's lock never recorded (another platform's binary) is left out of the
    // entry too: npm refuses a shrinkwrap whose entries name packages it lacks.
    if (entry.optionalDependencies !== undefined) {
      entry.optionalDependencies = Object.fromEntries(Object.entries(entry.optionalDependencies).filter(([dependency]) => resolve(path, dependency) !== undefined))
    }
    packages[path] = entry
  }
  return { name, version, lockfileVersion: 3, requires: true, packages }
}
