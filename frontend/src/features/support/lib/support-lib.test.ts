import { describe, expect, it } from 'vitest'
import { checkImage, MAX_IMAGE_BYTES, pickImages, sniffImage } from './attachments'
import { parseTicketListSearch } from './search'
import { isClosed, statusPalette } from './status'
import { textLength, validateMessage, validateNewTicket } from './ticket-form'

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]
const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0, 16]
const file = (bytes: number[], name: string, type = '') => new File([new Uint8Array(bytes)], name, { type })

describe('ticket list search', () => {
  it('keeps a known status and a page above 1', () => {
    expect(parseTicketListSearch({ status: 'answered', page: '3' })).toEqual({ status: 'answered', page: 3 })
    expect(parseTicketListSearch({ status: 'all', page: 1 })).toEqual({ status: undefined, page: undefined })
    expect(parseTicketListSearch({ status: 'waiting', page: 'x' })).toEqual({ status: undefined, page: undefined })
    expect(parseTicketListSearch({ page: 2.5 })).toEqual({ status: undefined, page: undefined })
  })
})

describe('image attachments', () => {
  it('reads the type from the first bytes', () => {
    expect(sniffImage(new Uint8Array(PNG))).toBe('png')
    expect(sniffImage(new Uint8Array(JPEG))).toBe('jpeg')
    expect(sniffImage(new Uint8Array([0x47, 0x49, 0x46, 0x38]))).toBeUndefined()
    expect(sniffImage(new Uint8Array([]))).toBeUndefined()
  })

  it('refuses what is not a JPEG or PNG whatever its name, and what is too large', async () => {
    expect(await checkImage(file(PNG, 'shot.png', 'image/png'))).toBeUndefined()
    expect(await checkImage(file(JPEG, 'photo'))).toBeUndefined()
    expect(await checkImage(file([0x25, 0x50, 0x44, 0x46], 'fake.png', 'image/png'))).toBe('badType')
    expect(await checkImage(file([], 'empty.png', 'image/png'))).toBe('badType')
    const big = new File([new Uint8Array(MAX_IMAGE_BYTES + 1)], 'big.png', { type: 'image/png' })
    expect(await checkImage(big)).toBe('tooLarge')
  })

  it('takes no more files than the message has room for', async () => {
    const files = [file(PNG, 'a.png'), file([1, 2, 3], 'b.gif'), file(JPEG, 'c.jpg'), file(PNG, 'd.png')]
    const result = await pickImages(files, 2)
    expect(result.accepted.map((f) => f.name)).toEqual(['a.png', 'c.jpg'])
    expect(result.rejected.map((r) => [r.file.name, r.problem])).toEqual([
      ['b.gif', 'badType'],
      ['d.png', 'tooMany'],
    ])
    expect((await pickImages([file(PNG, 'e.png')], 0)).rejected[0].problem).toBe('tooMany')
  })
})

describe('ticket form', () => {
  const limits = { types: ['deposit', 'other'], maxTitle: 10, maxText: 20 }

  it('checks the topic, the subject and the description against the server limits', () => {
    expect(validateNewTicket({ type: '', title: ' ', description: '' }, limits)).toEqual({
      type: 'new.typeRule',
      title: 'required',
      description: 'required',
    })
    expect(validateNewTicket({ type: 'api', title: 'x'.repeat(11), description: 'y'.repeat(21) }, limits)).toEqual({
      type: 'new.typeRule',
      title: 'new.subjectRule',
      description: 'new.textRule',
    })
    expect(validateNewTicket({ type: 'deposit', title: 'Депозит', description: 'Орж ирээгүй' }, limits)).toEqual({})
  })

  it('counts characters by code point after trimming', () => {
    expect(textLength('  Сайн  ')).toBe(4)
    expect(validateMessage('   ', 20)).toBe('required')
    expect(validateMessage('ok', 20)).toBeUndefined()
  })

  it('colours the states', () => {
    expect(statusPalette('open')).toBe('orange')
    expect(statusPalette('answered')).toBe('green')
    expect(statusPalette('closed')).toBe('gray')
    expect(isClosed('closed')).toBe(true)
    expect(isClosed('answered')).toBe(false)
  })
})
