import { Box, Button, HStack, Input, Stack, Text } from '@chakra-ui/react'
import { useId, useMemo, useState } from 'react'
import { LuChevronDown, LuSearch } from 'react-icons/lu'
import type { AssetEntry } from '../api/wallet-api'
import { CoinIcon } from './shared'

/** Filters assets by code or name (case-insensitive). */
export function filterAssets(assets: AssetEntry[], query: string): AssetEntry[] {
  const q = query.trim().toLowerCase()
  if (!q) return assets
  return assets.filter(
    (a) => a.value.toLowerCase().includes(q) || a.code.toLowerCase().includes(q) || a.label.toLowerCase().includes(q),
  )
}

/**
 * The modals' asset picker: the chosen coin as a button that opens a
 * searchable list (max height 15rem, spec §9).
 */
export function AssetPicker({
  assets,
  value,
  onChange,
  label,
  searchLabel,
  emptyLabel,
}: {
  assets: AssetEntry[]
  value: string
  onChange: (asset: AssetEntry) => void
  label: string
  searchLabel: string
  emptyLabel: string
}) {
  const labelId = useId()
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState('')
  const current = assets.find((a) => a.value === value)
  const shown = useMemo(() => filterAssets(assets, query), [assets, query])
  return (
    <Stack gap="1.5">
      <Text fontSize="sm" fontWeight="medium" id={labelId}>
        {label}
      </Text>
      <Button
        variant="outline"
        justifyContent="space-between"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-label={current ? `${label}: ${current.value}` : label}
        data-testid="asset-picker"
      >
        <HStack gap="2">
          {current ? <CoinIcon coin={current.value} src={current.img} size="2xs" /> : null}
          <Text>{current ? current.value : '--'}</Text>
          {current && current.label !== current.value ? (
            <Text color="fg.muted" fontSize="sm">
              {current.label}
            </Text>
          ) : null}
        </HStack>
        <LuChevronDown aria-hidden="true" />
      </Button>
      {open ? (
        <Box borderWidth="1px" rounded="md" p="2" data-testid="asset-picker-list">
          <HStack px="2" gap="2">
            <LuSearch aria-hidden="true" />
            <Input
              size="sm"
              variant="flushed"
              aria-label={searchLabel}
              placeholder={searchLabel}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              autoFocus
              data-testid="asset-search"
            />
          </HStack>
          <Stack gap="0" mt="1" maxH="15rem" overflowY="auto" role="listbox" aria-label={label}>
            {shown.length === 0 ? (
              <Text p="2" color="fg.muted" fontSize="sm">
                {emptyLabel}
              </Text>
            ) : (
              shown.map((a) => (
                <Button
                  key={a.value}
                  role="option"
                  aria-selected={a.value === value}
                  variant="ghost"
                  justifyContent="flex-start"
                  size="sm"
                  onClick={() => {
                    onChange(a)
                    setOpen(false)
                    setQuery('')
                  }}
                  data-testid={`asset-option-${a.value}`}
                >
                  <CoinIcon coin={a.value} src={a.img} size="2xs" />
                  <Text>{a.value}</Text>
                  <Text color="fg.muted" ms="auto" fontVariantNumeric="tabular-nums">
                    {a.normal_balance}
                  </Text>
                </Button>
              ))
            )}
          </Stack>
        </Box>
      ) : null}
    </Stack>
  )
}
