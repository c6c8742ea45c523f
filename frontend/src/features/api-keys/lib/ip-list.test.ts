import { describe, expect, it } from 'vitest'
import { checkIpList, MAX_IPS, parseIpEntry, splitIpText } from './ip-list'

describe('parseIpEntry', () => {
  // The canonical forms are those Go's net/netip prints (checked against it), which the server keeps.
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 10.0.0.1 ', '10.0.0.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
    ['10.0.0.0/24', '10.0.0.0/24'],
    // A range is kept masked to its prefix, as the server keeps it.
    ['10.0.0.7/24', '10.0.0.0/24'],
    ['192.168.1.1/32', '192.168.1.1'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['::', '::'],
    ['::1', '::1'],
    ['fe80::1:0:0:1', 'fe80::1:0:0:1'],
    // The longest run of zero groups is the one shortened; a lone zero group is not.
    ['2001:db8:0:0:1:0:0:0', '2001:db8:0:0:1::'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['1:0:0:2:0:0:3:4', '1::2:0:0:3:4'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    ['0:0:0:0:0:ffff:1.2.3.4', '1.2.3.4'],
    ['2001:db8::/32', '2001:db8::/32'],
    ['2001:db8:abcd:12::5/48', '2001:db8:abcd::/48'],
    ['2001:db8::1/128', '2001:db8::1'],
    // An IPv4-mapped address is its IPv4 address; its ranges stay IPv6.
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.0/120', '::ffff:192.0.2.0/120'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221'],
  ])('accepts %s as %s', (raw, canonical) => {
    expect(parseIpEntry(raw)).toBe(canonical)
  })

  it.each([
    '',
    '256.1.1.1',
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '1.2.3.4.',
    '1.2.3.-4',
    'a.b.c.d',
    'localhost',
    '10.0.0.0/33',
    '10.0.0.0/024',
    '10.0.0.0/',
    '/24',
    '10.0.0.0/-1',
    '2001:db8::/129',
    '2001:db8:::1',
    '1::2::3',
    '12345::1',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    // '::' must stand for at least one group of zeros.
    '1:2:3:4::5:6:7:8',
    'fe80::1%eth0',
    '::ffff:300.1.1.1',
    '1.2.3.4::',
    'g::1',
  ])('refuses %j', (raw) => {
    expect(parseIpEntry(raw)).toBeUndefined()
  })
})

describe('checkIpList', () => {
  it('splits on new lines, commas, semicolons and spaces', () => {
    expect(splitIpText('1.1.1.1\n2.2.2.2, 3.3.3.3;4.4.4.4  5.5.5.5\n\n')).toEqual(['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4', '5.5.5.5'])
  })

  it('keeps distinct canonical entries in order and names the invalid ones as typed', () => {
    const check = checkIpList('10.0.0.7/24\n10.0.0.0/24, 300.1.1.1\n2001:DB8::1 2001:db8::1 nonsense')
    expect(check.ips).toEqual(['10.0.0.0/24', '2001:db8::1'])
    expect(check.invalid).toEqual(['300.1.1.1', 'nonsense'])
    expect(check.tooMany).toBe(false)
  })

  it('does not call the entry being typed invalid until a separator follows it', () => {
    expect(checkIpList('10.0.0.1\n192.168.', { typing: true }).invalid).toEqual([])
    expect(checkIpList('10.0.0.1\n192.168.', { typing: true }).ips).toEqual(['10.0.0.1'])
    expect(checkIpList('10.0.0.1\n192.168.\n', { typing: true }).invalid).toEqual(['192.168.'])
    expect(checkIpList('192.168.', { typing: false }).invalid).toEqual(['192.168.'])
    // Earlier entries are said at once.
    expect(checkIpList('1.2.3, 4.4.4.', { typing: true }).invalid).toEqual(['1.2.3'])
  })

  it(`allows ${MAX_IPS} distinct entries, duplicates counted once`, () => {
    const ips = Array.from({ length: MAX_IPS }, (_, i) => `10.0.0.${i + 1}`)
    expect(checkIpList([...ips, ...ips].join('\n')).tooMany).toBe(false)
    expect(checkIpList([...ips, '10.0.1.1'].join('\n')).tooMany).toBe(true)
  })
})
