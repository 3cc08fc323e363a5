/**
 * The server's mods in load order. Moving one up or down saves the whole
 * order (`POST .../mods/reorder`) and keeps the keyboard focus on the
 * moved mod's button, so it can be moved again at once.
 */
import { useEffect, useRef, useState } from "react"
import { useFeedback } from "@dashboard/ui/feedback.js"
import { type Mod, ModList, ReorderInput } from "../contract/Api.js"
import { modsApi } from "./client.js"
import { ModRow, type RowActions } from "./ModRow.js"
import { modLabel } from "./words.js"

/** The button to focus once the moved mod is drawn in its new place. */
interface FocusAfterMove {
  readonly workshopId: string
  readonly direction: "up" | "down"
}

export const ModTable = ({
  list,
  setList,
  ...rest
}: Omit<RowActions, "moving" | "move" | "changed"> & {
  readonly list: ModList
  readonly setList: (list: ModList) => void
}) => {
  const feedback = useFeedback()
  const [moving, setMoving] = useState(false)
  const focusAfter = useRef<FocusAfterMove | undefined>(undefined)

  useEffect(() => {
    const target = focusAfter.current
    if (target === undefined || moving) return
    focusAfter.current = undefined
    const button = (direction: string) => document.getElementById(`mod-${target.workshopId}-${direction}`) as HTMLButtonElement | null
    const preferred = button(target.direction)
    // At the top (or bottom) its button is disabled: the other one keeps the focus in the row.
    ;(preferred !== null && !preferred.disabled ? preferred : button(target.direction === "up" ? "down" : "up"))?.focus()
  }, [list, moving])

  const move = async (mod: Mod, by: -1 | 1) => {
    const order = list.items.map((m) => m.workshopId)
    const from = order.indexOf(mod.workshopId)
    const to = from + by
    if (from < 0 || to < 0 || to >= order.length) return
    order.splice(from, 1)
    order.splice(to, 0, mod.workshopId)
    setMoving(true)
    focusAfter.current = { workshopId: mod.workshopId, direction: by < 0 ? "up" : "down" }
    try {
      const next = await modsApi((c) => c.mods.reorder({ path: { id: rest.serverId }, payload: new ReorderInput({ order }) }))
      setList(next)
      feedback.ok(`${modLabel(mod)} moved to ${to + 1} of ${order.length} in the load order`)
    } catch (error) {
      feedback.error(error)
    } finally {
      setMoving(false)
    }
  }

  const actions: RowActions = {
    ...rest,
    moving,
    move: (mod, by) => void move(mod, by),
    changed: (mod) => {
      setList(new ModList({ ...list, items: list.items.map((m) => (m.workshopId === mod.workshopId ? mod : m)) }))
      // The launch parameters follow the mods' types and states: read them again.
      void rest.reload()
    }
  }

  if (list.items.length === 0) return <p className="notice">No mods installed on this server yet.</p>
  return (
    <div className="table-wrap">
      <table className="mods-table">
        <caption className="sr-only">Installed mods in load order (loaded first at the top)</caption>
        <thead>
          <tr>
            <th scope="col">
              <abbr title="Load order">#</abbr>
            </th>
            <th scope="col">Mod</th>
            <th scope="col">Type</th>
            <th scope="col" className="hide-narrow">
              Version
            </th>
            <th scope="col">State</th>
            {rest.canInstall && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {list.items.map((mod, index) => (
            <ModRow key={mod.workshopId} mod={mod} first={index === 0} last={index === list.items.length - 1} actions={actions} />
          ))}
        </tbody>
      </table>
    </div>
  )
}
