/**
 * The busy rule for a server's files, decided in the actor's mailbox so
 * that no start slips in between a plugin's check and its work:
 *
 * - A files hold (`ServerActor.holdFiles(what)`, for a scope): granted only
 *   while no process runs, no hold is taken and no operation runs (but the
 *   caller's own, `within`: a rollout installing its mods). While it is held,
 *   a start, an operation and a retire are refused, naming it.
 * - The operations that change the files themselves (an update, a restore,
 *   a wipe, a replicate) are refused while the process runs: the mailbox
 *   checks that when it takes them, under the same lock as a start.
 *
 * `makeFilesHolds` keeps the holds (what they are for, shown in the state
 * as `filesHeld`) and answers the mailbox's questions; the actor owns the
 * order in which those are asked.
 */
import * as Effect from "effect/Effect"
import type { ServerState } from "../ServerState.js"
import type { OperationKind } from "./operation.js"

/** Operations that write the server's files: refused while its process runs (a rollout stops it itself). */
export const FILE_OPERATIONS: ReadonlySet<OperationKind> = new Set<OperationKind>(["update", "restore", "wipe", "replicate"])

export interface FilesHoldsDeps {
  readonly patch: (f: (s: ServerState) => Partial<ServerState>) => Effect.Effect<void>
}

export const makeFilesHolds = (deps: FilesHoldsDeps) => {
  const holds = new Map<number, string>()
  /** Requests posted and not yet decided by the mailbox; and those whose caller went away meanwhile. */
  const pending = new Set<number>()
  const withdrawn = new Set<number>()
  let seq = 0
  const show = Effect.suspend(() => deps.patch(() => ({ filesHeld: holds.values().next().value })))
  return {
    /** A token for the next request, made before it is posted so that its release can name it. */
    request: (): number => {
      const token = ++seq
      pending.add(token)
      return token
    },
    /** The mailbox takes up a request: false when its caller is gone already (nothing to decide). */
    stillWanted: (token: number): boolean => {
      pending.delete(token)
      return !withdrawn.delete(token)
    },
    /** What holds the files now, if anything. */
    heldFor: (): string | undefined => holds.values().next().value,
    /** Records the hold; the mailbox has checked it may be taken. */
    take: (token: number, what: string) =>
      Effect.suspend(() => {
        holds.set(token, what)
        return show
      }),
    /**
     * Lets go of a hold when its scope closes: the hold if it was taken; a
     * request still in the mailbox is withdrawn (its caller was interrupted).
     */
    release: (token: number) =>
      Effect.suspend(() => {
        if (holds.delete(token)) return show
        if (pending.has(token)) withdrawn.add(token)
        return Effect.void
      })
  }
}

/** A server's files holds: see `makeFilesHolds`. */
export type FilesHolds = ReturnType<typeof makeFilesHolds>
