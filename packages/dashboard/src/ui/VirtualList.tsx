/**
 * A list that renders only the rows in view (plus a few), so 1,000 or
 * 100,000 entries scroll smoothly. Rows have a fixed height.
 */
import { type ReactNode, useEffect, useRef, useState } from "react"

export const VirtualList = <T,>({
  items,
  rowHeight,
  height,
  renderRow,
  rowKey,
  label,
  overscan = 6
}: {
  readonly items: ReadonlyArray<T>
  readonly rowHeight: number
  /** CSS height of the scrolling box (e.g. "60vh"). */
  readonly height: string
  readonly renderRow: (item: T, index: number) => ReactNode
  readonly rowKey: (item: T) => string
  readonly label: string
  readonly overscan?: number
}) => {
  const box = useRef<HTMLDivElement>(null)
  const [scrollTop, setScrollTop] = useState(0)
  const [viewport, setViewport] = useState(600)

  useEffect(() => {
    const element = box.current
    if (element === null) return
    const observer = new ResizeObserver(() => setViewport(element.clientHeight))
    observer.observe(element)
    setViewport(element.clientHeight)
    return () => observer.disconnect()
  }, [])

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan)
  const last = Math.min(items.length, Math.ceil((scrollTop + viewport) / rowHeight) + overscan)
  const visible = items.slice(first, last)

  return (
    <div
      ref={box}
      className="virtual"
      style={{ height }}
      role="list"
      aria-label={label}
      tabIndex={0}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <div className="virtual-space" style={{ height: items.length * rowHeight }}>
        <div className="virtual-rows" style={{ transform: `translateY(${first * rowHeight}px)` }}>
          {visible.map((item, i) => (
            <div role="listitem" key={rowKey(item)} className="virtual-row" style={{ height: rowHeight }} aria-posinset={first + i + 1} aria-setsize={items.length}>
              {renderRow(item, first + i)}
            </div>
          ))}
        </div>
      </div>
    </div>
  )
}
