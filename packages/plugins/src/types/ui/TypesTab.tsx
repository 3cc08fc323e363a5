/**
 * A server's Types tab (`server.config` on that server): the mission's
 * types files (db/types.xml and those cfgeconomycore.xml registers), one
 * picked; its items in a virtualised table, filtered by name, category,
 * usage and value; an item's form (edit, remove after a confirmation) or a
 * new item's (add); and the nominal and min totals per category.
 */
import { useEffect, useState } from "react"
import { useCan } from "@dashboard/app/session.js"
import { Loaded, type Resource, useResource } from "@dashboard/ui/data.js"
import { type TypeItem, type TypesFiles, TYPES_PERMISSION } from "../contract/Api.js"
import { allItemsOf, inMission, typesApi } from "./client.js"
import { ItemForm } from "./ItemForm.js"
import { ItemTable } from "./ItemTable.js"

type FormState = { readonly mode: "edit"; readonly name: string } | { readonly mode: "add" }

const distinct = (values: ReadonlyArray<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b))
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

const Filter = ({ label, value, options, set }: { readonly label: string; readonly value: string; readonly options: ReadonlyArray<string>; readonly set: (value: string) => void }) => (
  <label>
    {label}
    <select value={value} onChange={(e) => set(e.target.value)}>
      <option value="">Any</option>
      {options.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </select>
  </label>
)

const FilePicker = ({ files, chosen, choose }: { readonly files: TypesFiles; readonly chosen: string | undefined; readonly choose: (path: string) => void }) => {
  const picked = files.items.find((f) => f.path === chosen)
  return (
    <div className="stack">
      <p className="muted break-anywhere">Mission folder: {files.mission}</p>
      <label className="types-file">
        Types file
        <select value={chosen ?? ""} onChange={(e) => choose(e.target.value)}>
          {files.items.map((f) => (
            <option key={f.path} value={f.path}>
              {inMission(files.mission, f.path)} ({f.problem === null ? `${f.items} items` : "cannot be read"})
            </option>
          ))}
        </select>
      </label>
      {picked?.problem != null && (
        <p className="notice error" role="alert">
          {inMission(files.mission, picked.path)} cannot be read: {picked.problem}
        </p>
      )}
    </div>
  )
}

const CategoryTotals = ({ serverId, version }: { readonly serverId: string; readonly version: number }) => {
  const limits = useResource(() => typesApi((c) => c.types.limits({ path: { id: serverId } })), [serverId, version])
  return (
    <details className="card">
      <summary>Totals per category (every types file)</summary>
      <Loaded resource={limits}>
        {(l) => (
          <div className="table-wrap">
            <table>
              <caption className="sr-only">Items, nominal total and min total per category</caption>
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col">Items</th>
                  <th scope="col">Nominal total</th>
                  <th scope="col">Min total</th>
                </tr>
              </thead>
              <tbody>
                {l.items.map((row) => (
                  <tr key={row.category}>
                    <td>{row.category}</td>
                    <td>{row.items}</td>
                    <td>{row.nominal}</td>
                    <td>{row.min}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
    </details>
  )
}

const Items = ({
  serverId,
  file,
  items,
  canWrite,
  changed
}: {
  readonly serverId: string
  readonly file: string
  readonly items: Resource<ReadonlyArray<TypeItem>>
  readonly canWrite: boolean
  readonly changed: () => Promise<void>
}) => {
  const [name, setName] = useState("")
  const [category, setCategory] = useState("")
  const [usage, setUsage] = useState("")
  const [value, setValue] = useState("")
  const [form, setForm] = useState<FormState | undefined>()
  // A new form after each change: it opens on the item as the file has it now.
  const [generation, setGeneration] = useState(0)
  useEffect(() => {
    setForm(undefined)
  }, [serverId, file])

  const all = items.data ?? []
  const wanted = name.trim().toLowerCase()
  const shown = all.filter(
    (item) =>
      (wanted === "" || item.name.toLowerCase().includes(wanted)) &&
      (category === "" || item.category === category) &&
      (usage === "" || item.usage.includes(usage)) &&
      (value === "" || item.value.includes(value))
  )
  const editing = form?.mode === "edit" ? all.find((item) => sameName(item.name, form.name)) : undefined
  const categories = distinct(all.flatMap((item) => (item.category === null ? [] : [item.category])))

  const done = async (change: "saved" | "added" | "removed", itemName: string) => {
    await Promise.all([items.reload(), changed()])
    setForm(change === "removed" ? undefined : { mode: "edit", name: itemName })
    setGeneration((g) => g + 1)
  }

  return (
    <div className="types-layout">
      <div className="stack">
        <div className="types-filters">
          <label className="types-name-filter">
            Filter by name
            <input type="search" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" spellCheck={false} />
          </label>
          <Filter label="Category" value={category} options={categories} set={setCategory} />
          <Filter label="Usage" value={usage} options={distinct(all.flatMap((item) => item.usage))} set={setUsage} />
          <Filter label="Value" value={value} options={distinct(all.flatMap((item) => item.value))} set={setValue} />
        </div>
        <div className="row">
          <span className="muted grow" role="status">
            {items.data === undefined ? "" : shown.length === all.length ? `${all.length} items` : `${shown.length} of ${all.length} items`}
          </span>
          {canWrite && (
            <button type="button" onClick={() => setForm({ mode: "add" })}>
              Add an item
            </button>
          )}
        </div>
        <Loaded resource={items}>
          {() => (shown.length === 0 ? <p className="notice">No item matches these filters.</p> : <ItemTable items={shown} selected={editing?.name} open={(item) => setForm({ mode: "edit", name: item.name })} />)}
        </Loaded>
      </div>
      {form !== undefined &&
        (form.mode === "edit" && editing === undefined ? (
          items.data !== undefined && <p className="notice">{form.name} is not in this file any more.</p>
        ) : (
          <ItemForm
            key={`${file}\0${form.mode === "edit" ? form.name : "new"}\0${generation}`}
            serverId={serverId}
            file={file}
            item={editing}
            categories={categories}
            canWrite={canWrite}
            done={done}
            stale={() => void items.reload()}
            close={() => setForm(undefined)}
          />
        ))}
    </div>
  )
}

const TypesTab = ({ serverId }: { readonly serverId: string }) => {
  const can = useCan()
  const canWrite = can(TYPES_PERMISSION, serverId)
  const files = useResource(() => typesApi((c) => c.types.files({ path: { id: serverId } })), [serverId])
  const [picked, setPicked] = useState<string | undefined>()
  useEffect(() => {
    setPicked(undefined)
  }, [serverId])
  const readable = files.data?.items.find((f) => f.problem === null) ?? files.data?.items[0]
  const file = picked ?? readable?.path
  const items = useResource(() => (file === undefined ? Promise.resolve([]) : allItemsOf(serverId, file)), [serverId, file])
  const [version, setVersion] = useState(0)
  const changed = async () => {
    setVersion((v) => v + 1)
    await files.reload()
  }

  return (
    <div className="stack">
      <Loaded resource={files}>
        {(f) =>
          f.items.length === 0 || file === undefined ? (
            <p className="notice">This mission has no types file.</p>
          ) : (
            <>
              <FilePicker files={f} chosen={file} choose={setPicked} />
              <Items serverId={serverId} file={file} items={items} canWrite={canWrite} changed={changed} />
              <CategoryTotals serverId={serverId} version={version} />
            </>
          )
        }
      </Loaded>
    </div>
  )
}

export default TypesTab
