import { Button } from '@chakra-ui/react'
import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { DataTable, type DataColumn } from './data-table'

interface Row {
  id: string
  pair: string
  price: string
  status: string
}

const columns: DataColumn<Row>[] = [
  { id: 'pair', header: 'Pair', card: 'title', cell: (r) => r.pair },
  { id: 'price', header: 'Price', numeric: true, cell: (r) => r.price },
  { id: 'status', header: 'Status', card: 'aside', cell: (r) => <span data-testid="status">{r.status}</span> },
  { id: 'secret', header: 'Internal', card: 'hidden', cell: (r) => `internal-${r.id}` },
]

const rows: Row[] = [
  { id: 'a', pair: 'BTC/USDT', price: '100.00', status: 'Open' },
  { id: 'b', pair: 'ETH/USDT', price: '20.00', status: 'Filled' },
]

function table(props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) {
  return (
    <DataTable<Row>
      columns={columns}
      rows={rows}
      rowKey={(r) => r.id}
      label="My orders"
      testId="list"
      rowTestId="row"
      emptyText="Nothing here"
      emptyTestId="empty"
      loadingLabel="Loading"
      {...props}
    />
  )
}

describe('DataTable', () => {
  it('shows a table with a header per column and the actions column', async () => {
    const onCancel = vi.fn()
    renderWithApp(table({ layout: 'table', actionsLabel: 'Actions', actions: (r) => <Button onClick={() => onCancel(r.id)}>Cancel {r.id}</Button> }))
    const list = await screen.findByRole('table', { name: 'My orders' })
    expect(list.getAttribute('data-layout')).toBe('table')
    const headers = within(list).getAllByRole('columnheader').map((h) => h.textContent)
    expect(headers).toEqual(['Pair', 'Price', 'Status', 'Internal', 'Actions'])
    const trs = within(list).getAllByTestId('row')
    expect(trs).toHaveLength(2)
    expect(trs[1].textContent).toContain('ETH/USDT')
    expect(trs[1].textContent).toContain('internal-b')
    fireEvent.click(within(trs[1]).getByRole('button', { name: 'Cancel b' }))
    expect(onCancel).toHaveBeenCalledWith('b')
  })

  it('shows one card per row with labelled values on phones', async () => {
    renderWithApp(table({ layout: 'cards', actions: (r) => <Button>Cancel {r.id}</Button> }))
    const list = await screen.findByRole('list', { name: 'My orders' })
    expect(list.getAttribute('data-layout')).toBe('cards')
    const cards = within(list).getAllByTestId('row')
    expect(cards).toHaveLength(2)
    const first = cards[0]
    // The title and aside columns head the card; row columns are label/value pairs.
    expect(within(first).getByText('BTC/USDT')).toBeTruthy()
    expect(within(first).getByTestId('status').textContent).toBe('Open')
    const terms = Array.from(first.querySelectorAll('dt')).map((d) => d.textContent)
    expect(terms).toEqual(['Price'])
    expect(first.querySelector('dd')?.textContent).toBe('100.00')
    // Table-only columns stay off the cards.
    expect(first.textContent).not.toContain('internal-a')
    expect(within(first).getByRole('button', { name: 'Cancel a' })).toBeTruthy()
  })

  it('picks cards on narrow screens when the layout is automatic', async () => {
    // The unit-test matchMedia matches no breakpoint: the base (phone) value applies.
    renderWithApp(table())
    expect((await screen.findByTestId('list')).getAttribute('data-layout')).toBe('cards')
  })

  it('shows the loading, empty and error states', async () => {
    const { unmount } = renderWithApp(table({ isLoading: true }))
    expect((await screen.findByRole('status', { name: 'Loading' })).getAttribute('data-testid')).toBe('list-loading')
    unmount()
    const second = renderWithApp(table({ rows: [] }))
    expect((await screen.findByTestId('empty')).textContent).toBe('Nothing here')
    second.unmount()
    const onRetry = vi.fn()
    renderWithApp(table({ rows: [], error: { text: 'Failed', retryText: 'Retry', onRetry } }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Failed')
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(onRetry).toHaveBeenCalled()
  })

  it('keeps showing rows it has when a refresh fails', async () => {
    renderWithApp(table({ layout: 'table', error: { text: 'Failed', retryText: 'Retry', onRetry: () => {} } }))
    expect(await screen.findAllByTestId('row')).toHaveLength(2)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('names rows and cells per row and per layout, and shows the actions header when asked', async () => {
    const per = {
      columns: [
        ...columns.slice(0, 1),
        { id: 'price', header: 'Price', numeric: true, testId: (r: Row) => `price-${r.id}`, cell: (r: Row, layout: 'table' | 'cards') => `${r.price} (${layout})` },
      ],
      rowTestId: (r: Row, layout: 'table' | 'cards') => `${layout}-row-${r.id}`,
      cardsTestId: 'card-list',
      actionsLabel: 'Actions',
      showActionsLabel: true,
      actions: (r: Row, layout: 'table' | 'cards') => <Button>{`${layout} ${r.id}`}</Button>,
    }
    const { unmount } = renderWithApp(table({ ...per, layout: 'table' }))
    const tableRow = await screen.findByTestId('table-row-b')
    expect(within(tableRow).getByTestId('price-b').textContent).toBe('20.00 (table)')
    expect(within(tableRow).getByRole('button', { name: 'table b' })).toBeTruthy()
    const header = within(screen.getByTestId('list')).getAllByRole('columnheader').at(-1)!
    // A visible header, not one kept for screen readers only.
    expect(header.textContent).toBe('Actions')
    expect(header.querySelector('span')).toBeNull()
    unmount()
    renderWithApp(table({ ...per, layout: 'cards' }))
    const card = await screen.findByTestId('cards-row-a')
    expect(card.parentElement?.getAttribute('data-testid')).toBe('card-list')
    expect(card.querySelector('dd')?.textContent).toBe('100.00 (cards)')
    expect(within(card).getByRole('button', { name: 'cards a' })).toBeTruthy()
  })

  it('shows line columns on a card as unlabelled lines under the heading', async () => {
    const withLine: DataColumn<Row>[] = [...columns, { id: 'note', header: 'Note', card: 'line', cell: (r) => `note ${r.id}` }]
    renderWithApp(table({ columns: withLine, layout: 'cards' }))
    const [first] = await screen.findAllByTestId('row')
    expect(first.textContent).toContain('note a')
    const terms = Array.from(first.querySelectorAll('dt')).map((d) => d.textContent)
    expect(terms).toEqual(['Price'])
  })

  it('gives a card no line block when its line columns have nothing to say', async () => {
    const withLine: DataColumn<Row>[] = [...columns, { id: 'note', header: 'Note', card: 'line', cell: (r) => (r.id === 'a' ? 'note a' : null) }]
    renderWithApp(table({ columns: withLine, layout: 'cards' }))
    const [first, second] = await screen.findAllByTestId('row')
    // The line block sits between the heading and the card's <dl>: on the second card there is none.
    expect(first.querySelector('dl')?.previousElementSibling?.textContent).toBe('note a')
    expect(second.children).toHaveLength(2)
    expect(second.querySelector('dl')?.previousElementSibling?.textContent).toContain(rows[1].pair)
  })

  it('can keep the actions column in view while the rest scrolls sideways', async () => {
    const actions = (r: Row) => <Button>Cancel {r.id}</Button>
    const { unmount } = renderWithApp(table({ layout: 'table', actionsLabel: 'Actions', actions, stickyActions: true }))
    const list = await screen.findByRole('table', { name: 'My orders' })
    const header = within(list).getAllByRole('columnheader').at(-1)!
    const cells = within(list).getAllByTestId('row').map((tr) => tr.lastElementChild as HTMLElement)
    for (const el of [header, ...cells]) {
      expect(el.getAttribute('data-sticky')).toBe('true')
      const style = getComputedStyle(el)
      expect(style.position).toBe('sticky')
      expect(style.insetInlineEnd).toMatch(/^0(px)?$/)
      // (That it is opaque in light and dark is checked in a browser: jsdom resolves no theme colours.)
    }
    expect(within(cells[0]).getByRole('button', { name: 'Cancel a' })).toBeTruthy()
    // The other columns scroll as before.
    expect(getComputedStyle(within(list).getAllByRole('columnheader')[0]).position).not.toBe('sticky')
    unmount()
    // Off by default.
    renderWithApp(table({ layout: 'table', actionsLabel: 'Actions', actions }))
    const plain = within(await screen.findByRole('table', { name: 'My orders' })).getAllByRole('columnheader').at(-1)!
    expect(plain.getAttribute('data-sticky')).toBeNull()
    expect(getComputedStyle(plain).position).not.toBe('sticky')
  })

  it('makes a sideways-scrolling table a named, focusable region for keyboard users, and only then', async () => {
    // jsdom lays nothing out: the scroll area's widths are set by hand.
    const widths = { scroll: 900, client: 390 }
    const scrollWidth = vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(() => widths.scroll)
    const clientWidth = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => widths.client)
    try {
      const { unmount } = renderWithApp(table({ layout: 'table' }))
      const list = await screen.findByRole('table', { name: 'My orders' })
      const region = await screen.findByRole('region', { name: 'My orders' })
      expect(region.contains(list)).toBe(true)
      expect(region.tabIndex).toBe(0)
      expect(region.getAttribute('tabindex')).toBe('0')
      region.focus()
      expect(document.activeElement).toBe(region)
      unmount()
      // A table that fits adds no Tab stop and no landmark.
      widths.scroll = 390
      renderWithApp(table({ layout: 'table' }))
      const fits = await screen.findByRole('table', { name: 'My orders' })
      expect(screen.queryByRole('region', { name: 'My orders' })).toBeNull()
      expect(fits.parentElement?.hasAttribute('tabindex')).toBe(false)
    } finally {
      scrollWidth.mockRestore()
      clientWidth.mockRestore()
    }
  })
})
