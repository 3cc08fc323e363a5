/**
 * What stands between an item's form and a save, said plainly, with the
 * way out each offers: the item changed since the form opened (save over
 * it, or load its values), removed since (add it back), or a new item's
 * name already in the file (save over it). The user's values stay in the
 * form until they choose.
 */
import { ActionButton } from "@dashboard/ui/feedback.js"
import type { TypeItem } from "../contract/Api.js"

/** What stands between the form and a save, with the way out it offers. */
export type Conflict =
  | { readonly kind: "changed"; readonly fields: ReadonlyArray<string>; readonly now: TypeItem }
  | { readonly kind: "gone" }
  | { readonly kind: "exists" }

export const ConflictChoice = ({
  conflict,
  name,
  file,
  saveOver,
  addBack,
  loadTheirs
}: {
  readonly conflict: Conflict
  readonly name: string
  readonly file: string
  readonly saveOver: () => Promise<void>
  readonly addBack: () => Promise<void>
  readonly loadTheirs: (now: TypeItem) => void
}) => (
  <div className="notice warn stack" role="alert">
    {conflict.kind === "changed" && (
      <>
        <p>
          <strong>{name} was changed by someone else after you opened it</strong> ({conflict.fields.join(", ")}). Your values are not saved yet.
        </p>
        <div className="row">
          <ActionButton className="danger" run={saveOver}>
            Save mine over theirs
          </ActionButton>
          <button type="button" onClick={() => loadTheirs(conflict.now)}>
            Load theirs (drop mine)
          </button>
        </div>
      </>
    )}
    {conflict.kind === "gone" && (
      <>
        <p>
          <strong>{name} is not in {file} any more</strong>: someone removed it after you opened it. Your values are not saved.
        </p>
        <div className="row">
          <ActionButton run={addBack}>Add it back with my values</ActionButton>
        </div>
      </>
    )}
    {conflict.kind === "exists" && (
      <>
        <p>
          <strong>{file} already has an item {name}.</strong> Nothing was added.
        </p>
        <div className="row">
          <ActionButton className="danger" run={saveOver}>
            Save my values over it
          </ActionButton>
        </div>
      </>
    )}
  </div>
)
