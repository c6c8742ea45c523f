import { Box, Button, Flex, HStack, IconButton, Menu, Portal, type IconButtonProps } from '@chakra-ui/react'
import type { RefObject } from 'react'
import type { IconType } from 'react-icons'
import {
  LuActivity,
  LuChartArea,
  LuChartCandlestick,
  LuChartLine,
  LuChartNoAxesColumn,
  LuEraser,
  LuMaximize,
  LuMinimize,
  LuMinus,
  LuTrendingUp,
} from 'react-icons/lu'
import { useTexts } from '@/lib/i18n'
import { PERIODS, type Period } from '../../api/trade-api'
import type { DrawTool } from './drawings'
import { CHART_TYPES, MAIN_INDICATORS, SUB_INDICATORS, type ChartType, type IndicatorId } from './settings'

export type ChartViewMode = 'kline' | 'depth'

const TYPE_ICONS: Record<ChartType, IconType> = {
  candles: LuChartCandlestick,
  hollow: LuChartCandlestick,
  bars: LuChartNoAxesColumn,
  line: LuChartLine,
  area: LuChartArea,
}

export interface ChartToolbarProps {
  view: ChartViewMode
  onView: (v: ChartViewMode) => void
  period: Period
  onPeriod: (p: Period) => void
  type: ChartType
  onType: (t: ChartType) => void
  indicators: readonly IndicatorId[]
  onIndicator: (id: IndicatorId, on: boolean) => void
  tool?: DrawTool
  onTool: (t: DrawTool) => void
  onClear: () => void
  hasDrawings: boolean
  fullscreen: boolean
  onFullscreen: () => void
  /** Where the menus open: the chart panel while it is full screen (the rest of the page is not shown then). */
  portalRef?: RefObject<HTMLElement | null>
}

/** A toolbar icon button: its name is its label and its tooltip. */
function Tool({ label, pressed, children, ...rest }: IconButtonProps & { label: string; pressed?: boolean }) {
  return (
    <IconButton
      size="2xs"
      variant={pressed ? 'subtle' : 'ghost'}
      colorPalette={pressed ? 'brand' : 'gray'}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      flexShrink={0}
      {...rest}
    >
      {children}
    </IconButton>
  )
}

/**
 * The chart's toolbar: Chart | Depth, the candle periods, and the chart type,
 * indicators, drawing tools and full screen. At desktop widths one row; on a
 * phone the periods take a second row of their own (scrolling sideways when
 * narrower still), so nothing overflows the page.
 */
export function ChartToolbar(p: ChartToolbarProps) {
  const { t } = useTexts('trade')
  const kline = p.view === 'kline'
  const TypeIcon = TYPE_ICONS[p.type]
  return (
    <Flex
      wrap={{ base: 'wrap', md: 'nowrap' }}
      align="center"
      columnGap="1"
      rowGap="1"
      px="2"
      py="1.5"
      borderBottomWidth="1px"
      flexShrink={0}
      minW="0"
      role="group"
      aria-label={t('chart.toolbar')}
      data-testid="chart-toolbar"
    >
      <HStack gap="0.5" flexShrink={0} role="group" aria-label={t('chart.view')}>
        {(['kline', 'depth'] as const).map((v) => (
          <Button
            key={v}
            size="2xs"
            px="2"
            variant={p.view === v ? 'subtle' : 'ghost'}
            colorPalette={p.view === v ? 'brand' : 'gray'}
            aria-pressed={p.view === v}
            data-testid={`chart-view-${v}`}
            onClick={() => p.onView(v)}
          >
            {t(`chart.views.${v}`)}
          </Button>
        ))}
      </HStack>
      {kline && (
        // One row at every width: it scrolls sideways on screens too narrow for it rather than wrapping.
        <HStack
          gap={{ base: '0.5', sm: '1' }}
          order={{ base: 1, md: 0 }}
          w={{ base: 'full', md: 'auto' }}
          flex={{ md: '1' }}
          minW="0"
          wrap="nowrap"
          overflowX="auto"
          overflowY="hidden"
          scrollbarWidth="thin"
          role="group"
          aria-label={t('chart.period')}
          data-testid="period-row"
        >
          {PERIODS.map((per) => (
            <Button
              key={per}
              flexShrink={0}
              size="2xs"
              px={{ base: '1.5', sm: '2' }}
              variant={per === p.period ? 'subtle' : 'ghost'}
              colorPalette={per === p.period ? 'brand' : 'gray'}
              aria-pressed={per === p.period}
              data-testid={`period-${per}`}
              onClick={() => p.onPeriod(per)}
            >
              {t(`chart.periods.${per}`)}
            </Button>
          ))}
        </HStack>
      )}
      <HStack gap="0.5" ml="auto" minW="0" p="0.5" overflowX="auto" scrollbarWidth="none" data-testid="chart-tools">
        {kline && (
          <>
            <Menu.Root positioning={{ placement: 'bottom-end' }}>
              <Menu.Trigger asChild>
                <Tool label={`${t('chart.type')}: ${t(`chart.types.${p.type}`)}`} data-testid="chart-type-trigger">
                  <TypeIcon />
                </Tool>
              </Menu.Trigger>
              <Portal container={p.portalRef}>
                <Menu.Positioner>
                  <Menu.Content minW="44" data-testid="chart-type-menu">
                    <Menu.RadioItemGroup value={p.type} onValueChange={(e) => p.onType(e.value as ChartType)}>
                      <Menu.ItemGroupLabel>{t('chart.type')}</Menu.ItemGroupLabel>
                      {CHART_TYPES.map((ct) => {
                        const Icon = TYPE_ICONS[ct]
                        return (
                          <Menu.RadioItem key={ct} value={ct} data-testid={`chart-type-${ct}`}>
                            <Icon aria-hidden="true" />
                            <Menu.ItemText>{t(`chart.types.${ct}`)}</Menu.ItemText>
                            <Menu.ItemIndicator />
                          </Menu.RadioItem>
                        )
                      })}
                    </Menu.RadioItemGroup>
                  </Menu.Content>
                </Menu.Positioner>
              </Portal>
            </Menu.Root>
            <Menu.Root positioning={{ placement: 'bottom-end' }} closeOnSelect={false}>
              <Menu.Trigger asChild>
                <Button
                  size="2xs"
                  variant="ghost"
                  colorPalette="gray"
                  px="1.5"
                  flexShrink={0}
                  aria-label={t('chart.indicators')}
                  title={t('chart.indicators')}
                  data-testid="indicators-trigger"
                >
                  <LuActivity aria-hidden="true" />
                  {/* On a phone the icon alone (its name is the button's label). */}
                  <Box as="span" hideBelow="sm">
                    {t('chart.indicators')}
                  </Box>
                </Button>
              </Menu.Trigger>
              <Portal container={p.portalRef}>
                <Menu.Positioner>
                  <Menu.Content minW="60" data-testid="indicators-menu">
                    {(
                      [
                        ['main', MAIN_INDICATORS],
                        ['sub', SUB_INDICATORS],
                      ] as const
                    ).map(([group, ids]) => (
                      <Menu.ItemGroup key={group}>
                        <Menu.ItemGroupLabel>{t(`chart.${group}Indicators`)}</Menu.ItemGroupLabel>
                        {ids.map((id) => (
                          <Menu.CheckboxItem
                            key={id}
                            value={id}
                            checked={p.indicators.includes(id)}
                            onCheckedChange={(on) => p.onIndicator(id, on)}
                            data-testid={`indicator-${id}`}
                          >
                            <Menu.ItemText>{t(`chart.indicatorNames.${id}`)}</Menu.ItemText>
                            <Menu.ItemIndicator />
                          </Menu.CheckboxItem>
                        ))}
                      </Menu.ItemGroup>
                    ))}
                  </Menu.Content>
                </Menu.Positioner>
              </Portal>
            </Menu.Root>
            <HStack gap="0.5" role="group" aria-label={t('chart.draw.tools')} flexShrink={0}>
              <Tool label={t('chart.draw.hline')} pressed={p.tool === 'hline'} onClick={() => p.onTool('hline')} data-testid="draw-hline">
                <LuMinus />
              </Tool>
              <Tool label={t('chart.draw.trend')} pressed={p.tool === 'trend'} onClick={() => p.onTool('trend')} data-testid="draw-trend">
                <LuTrendingUp />
              </Tool>
              <Tool label={t('chart.draw.clear')} disabled={!p.hasDrawings} onClick={p.onClear} data-testid="draw-clear">
                <LuEraser />
              </Tool>
            </HStack>
          </>
        )}
        <Tool
          label={t(p.fullscreen ? 'chart.exitFullscreen' : 'chart.fullscreen')}
          onClick={p.onFullscreen}
          data-testid="chart-fullscreen"
        >
          {p.fullscreen ? <LuMinimize /> : <LuMaximize />}
        </Tool>
      </HStack>
    </Flex>
  )
}
