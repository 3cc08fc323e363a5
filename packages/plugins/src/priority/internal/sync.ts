/**
 * Writing `priority.txt`: the active entries' Steam64 ids joined by `;`
 * (no trailing separator or newline), written atomically into a server's
 * install folder. Garrison owns the whole file.
 */
import { AtomicFiles, type AtomicWriteError } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"

export const PRIORITY_FILE = "priority.txt"

export const priorityFileText = (platformIds: ReadonlyArray<string>): string => platformIds.join(";")

export const priorityFilePath = (installDir: string): string => NodePath.join(installDir, PRIORITY_FILE)

export const writePriorityFile = (
  installDir: string,
  platformIds: ReadonlyArray<string>
): Effect.Effect<void, AtomicWriteError, AtomicFiles> =>
  Effect.flatMap(AtomicFiles, (files) => files.write(priorityFilePath(installDir), priorityFileText(platformIds)))
