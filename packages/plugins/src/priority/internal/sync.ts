/**
 * `priority.txt`: the active entries' Steam64 ids joined by `;` (no
 * trailing separator or newline). Garrison owns the whole file; the
 * runtime's `ServerFileSync` writes it into every install folder.
 */
import { GeneratedFile } from "@garrison/runtime"

export const PRIORITY_FILE = "priority.txt"

export const priorityFileText = (platformIds: ReadonlyArray<string>): string => platformIds.join(";")

/** The whole file for these ids (whatever was there before is replaced). */
export const priorityFile = (platformIds: ReadonlyArray<string>) => GeneratedFile.whole(priorityFileText(platformIds), platformIds.length)
