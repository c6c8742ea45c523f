import { act, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { setCookie } from '@/lib/cookies'
import { renderWithApp } from '@/test/render'
import { Toaster, toaster } from './toaster'

afterEach(() => {
  act(() => toaster.remove())
})

describe('Toaster', () => {
  it('names its region and close buttons in the app language', async () => {
    setCookie('lan', 'mn_MN')
    renderWithApp(<Toaster />)
    act(() => {
      toaster.create({ title: 'Saved', type: 'success', closable: true })
    })
    expect(await screen.findByRole('region', { name: 'Мэдэгдэл' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Мэдэгдлийг хаах' })).toBeTruthy()
  })

  it('names them in English by default (en_US)', async () => {
    renderWithApp(<Toaster />)
    act(() => {
      toaster.create({ title: 'Saved', type: 'success', closable: true })
    })
    expect(await screen.findByRole('region', { name: 'Notifications' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Dismiss notification' })).toBeTruthy()
  })
})
