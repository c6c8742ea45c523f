import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react'
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  popoverSlotRecipe,
  qrCodeSlotRecipe,
  segmentGroupSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  sliderSlotRecipe,
  spinnerRecipe,
  statSlotRecipe,
  stepsSlotRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
  tooltipSlotRecipe,
} from '@chakra-ui/react/theme'

/**
 * Chakra's default theme with the recipes of the components the app uses
 * (its whole default set would add the styles of some forty unused
 * components to the first load). A component that gets a recipe here must
 * be listed when it is first used: theme.test.ts renders each.
 */
const themeConfig = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens,
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      checkmark: checkmarkRecipe,
      code: codeRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      inputAddon: inputAddonRecipe,
      link: linkRecipe,
      separator: separatorRecipe,
      skeleton: skeletonRecipe,
      spinner: spinnerRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      avatar: avatarSlotRecipe,
      card: cardSlotRecipe,
      checkbox: checkboxSlotRecipe,
      dataList: dataListSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      emptyState: emptyStateSlotRecipe,
      field: fieldSlotRecipe,
      list: listSlotRecipe,
      menu: menuSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      popover: popoverSlotRecipe,
      qrCode: qrCodeSlotRecipe,
      segmentGroup: segmentGroupSlotRecipe,
      slider: sliderSlotRecipe,
      stat: statSlotRecipe,
      steps: stepsSlotRecipe,
      switch: switchSlotRecipe,
      table: tableSlotRecipe,
      tabs: tabsSlotRecipe,
      toast: toastSlotRecipe,
      tooltip: tooltipSlotRecipe,
    },
  },
})

/** Brand tokens on top of Chakra's default theme. */
const config = defineConfig({
  globalCss: {
    'html, body': { minHeight: '100%' },
    body: { bg: 'bg', color: 'fg' },
  },
  theme: {
    layerStyles: {
      // Chakra's default (half opacity) leaves a disabled brand or buy/sell
      // button looking almost enabled on the dark background; greyed out it
      // reads as unavailable in both themes.
      disabled: {
        value: { opacity: '0.45', cursor: 'not-allowed', filter: 'grayscale(1)', boxShadow: 'none' },
      },
    },
    tokens: {
      fonts: {
        heading: { value: '"Inter Variable", Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
        body: { value: '"Inter Variable", Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
      },
      colors: {
        brand: {
          50: { value: '#e8f1ff' },
          100: { value: '#c6dbff' },
          200: { value: '#9cc0ff' },
          300: { value: '#6ea2ff' },
          400: { value: '#3f83f8' },
          500: { value: '#0b63e5' },
          600: { value: '#0a52bd' },
          700: { value: '#0a4196' },
          800: { value: '#09326f' },
          900: { value: '#072249' },
          950: { value: '#04152e' },
        },
      },
    },
    semanticTokens: {
      colors: {
        brand: {
          solid: { value: '{colors.brand.500}' },
          contrast: { value: 'white' },
          fg: { value: { _light: '{colors.brand.600}', _dark: '{colors.brand.300}' } },
          muted: { value: { _light: '{colors.brand.100}', _dark: '{colors.brand.900}' } },
          subtle: { value: { _light: '{colors.brand.50}', _dark: '{colors.brand.950}' } },
          emphasized: { value: { _light: '{colors.brand.200}', _dark: '{colors.brand.800}' } },
          focusRing: { value: '{colors.brand.500}' },
        },
        // Rising prices and buying, as text and as the buy button's colour. Light: 5.0:1 on white (the former #0ca678
        // was 3.1:1), and the button's white words read on it at the same; dark: 8.9:1 on the panels, with dark words
        // on the button (SIDE_COLORS in the order form).
        up: { value: { _light: '#087f5b', _dark: '#20c997' } },
        down: { value: { _light: '#e03131', _dark: '#ff6b6b' } },
      },
    },
  },
})

export const system = createSystem(defaultBaseConfig, themeConfig, config)
