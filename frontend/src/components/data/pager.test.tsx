import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { Pager, pageCount, pageItems, type PagerLabels } from './pager'

const labels: PagerLabels = {
  nav: 'History pages',
  prev: 'Previous page',
  next: 'Next page',
  page: (p) => `Page ${p}`,
  status: (p, n) => `Page ${p} of ${n}`,
}

describe('page maths', () => {
  it('counts pages', () => {
    expect(pageCount(0, 10)).toBe(1)
    expect(pageCount(10, 10)).toBe(1)
    expect(pageCount(11, 10)).toBe(2)
    expect(pageCount(95, 10)).toBe(10)
    expect(pageCount(NaN, 10)).toBe(1)
  })

  it('shows the ends, the neighbours of the current page and gaps', () => {
    expect(pageItems(1, 1)).toEqual([1])
    expect(pageItems(1, 3)).toEqual([1, 2, 3])
    expect(pageItems(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10])
    expect(pageItems(1, 10)).toEqual([1, 2, 'gap', 10])
    expect(pageItems(10, 10)).toEqual([1, 'gap', 9, 10])
    // A gap that would hide one page shows the page.
    expect(pageItems(4, 10)).toEqual([1, 2, 3, 4, 5, 'gap', 10])
    // Out-of-range pages are brought into range.
    expect(pageItems(99, 3)).toEqual([1, 2, 3])
  })
})

describe('Pager', () => {
  it('renders nothing when everything fits on one page', async () => {
    renderWithApp(
      <div data-testid="host">
        <Pager page={1} pageSize={10} count={10} onPageChange={() => {}} labels={labels} />
      </div>,
    )
    const host = await screen.findByTestId('host')
    expect(host.querySelector('[data-testid="pager"]')).toBeNull()
  })

  it('moves between pages and marks the current one', async () => {
    const onPage = vi.fn()
    renderWithApp(<Pager page={2} pageSize={10} count={35} onPageChange={onPage} labels={labels} />)
    const nav = await screen.findByRole('navigation', { name: 'History pages' })
    expect(nav.getAttribute('data-pages')).toBe('4')
    expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page')
    expect(screen.getByTestId('pager-status').textContent).toBe('Page 2 of 4')
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    expect(onPage).toHaveBeenLastCalledWith(3)
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }))
    expect(onPage).toHaveBeenLastCalledWith(1)
    fireEvent.click(screen.getByRole('button', { name: 'Page 4' }))
    expect(onPage).toHaveBeenLastCalledWith(4)
  })

  it('disables previous on the first page and next on the last', async () => {
    const { unmount } = renderWithApp(<Pager page={1} pageSize={10} count={20} onPageChange={() => {}} labels={labels} />)
    expect((await screen.findByRole('button', { name: 'Previous page' })).hasAttribute('disabled')).toBe(true)
    expect(screen.getByRole('button', { name: 'Next page' }).hasAttribute('disabled')).toBe(false)
    unmount()
    renderWithApp(<Pager page={2} pageSize={10} count={20} onPageChange={() => {}} labels={labels} />)
    expect((await screen.findByRole('button', { name: 'Next page' })).hasAttribute('disabled')).toBe(true)
  })
})
