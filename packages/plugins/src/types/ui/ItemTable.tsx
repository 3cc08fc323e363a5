/**
 * The items of a types file as a table that renders only the rows in view
 * (a vanilla types.xml has thousands): name (which opens the item's form),
 * nominal, min, lifetime, restock, category and usage. The column heads are
 * for the eye; each cell says what it is to a screen reader.
 */
import { VirtualList } from "@dashboard/ui/VirtualList.js"
import type { TypeItem } from "../contract/Api.js"
import { durationText } from "./itemDraft.js"

const ROW_HEIGHT = 44

const Cell = ({ label, children, className = "" }: { readonly label: string; readonly children: string; readonly className?: string }) => (
  <span className={`types-cell ${className}`}>
    <span className="sr-only">{label} </span>
    {children}
  </span>
)

export const ItemTable = ({
  items,
  selected,
  open
}: {
  readonly items: ReadonlyArray<TypeItem>
  /** The name of the item whose form is open. */
  readonly selected: string | undefined
  readonly open: (item: TypeItem) => void
}) => (
  <div className="types-table">
    <div className="types-row list-head" aria-hidden="true">
      <span>Name</span>
      <span>Nominal</span>
      <span>Min</span>
      <span className="hide-narrow">Lifetime</span>
      <span className="hide-narrow">Restock</span>
      <span className="hide-narrow">Category</span>
      <span className="hide-narrow">Usage</span>
    </div>
    <VirtualList
      items={items}
      rowHeight={ROW_HEIGHT}
      // As tall as its rows, up to most of the screen.
      height={`min(60vh, 36rem, ${items.length * ROW_HEIGHT + 2}px)`}
      label="Items"
      rowKey={(item) => item.name}
      renderRow={(item) => (
        <div className="types-row">
          <span className="types-cell types-name">
            <button type="button" className="link mono" aria-current={selected === item.name ? "true" : undefined} onClick={() => open(item)}>
              {item.name}
            </button>
          </span>
          <Cell label="nominal">{item.nominal === null ? "—" : String(item.nominal)}</Cell>
          <Cell label="min">{item.min === null ? "—" : String(item.min)}</Cell>
          <Cell label="lifetime" className="hide-narrow">
            {durationText(item.lifetime)}
          </Cell>
          <Cell label="restock" className="hide-narrow">
            {durationText(item.restock)}
          </Cell>
          <Cell label="category" className="hide-narrow">
            {item.category ?? "—"}
          </Cell>
          <Cell label="usage" className="hide-narrow">
            {item.usage.length === 0 ? "—" : item.usage.join(", ")}
          </Cell>
        </div>
      )}
    />
  </div>
)
