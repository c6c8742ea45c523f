import { getBundledTexts, toBundleLocale } from './bundled-texts'
import { lookup } from './i18n'

/**
 * Page title and description per first path segment (spec §2): market,
 * auth/login, auth/register, trade (spot, margin by type, futures),
 * staking, savings, launchpad, taskCenter, p2p, the order pages (/order/...),
 * and a default.
 */

export type PageMetaKey =
  | 'default'
  | 'market'
  | 'login'
  | 'register'
  | 'spot'
  | 'margin'
  | 'futures'
  | 'staking'
  | 'savings'
  | 'launchpad'
  | 'taskCenter'
  | 'p2p'
  | 'orders'

const MARGIN_TYPES = new Set(['margin', 'lever', '2'])

/** Which meta entry applies to a path and its search parameters. */
export function pageMetaKey(pathname: string, search: Record<string, unknown> = {}): PageMetaKey {
  const segments = pathname.split('/').filter(Boolean)
  const first = segments[0] ?? ''
  switch (first) {
    case 'market':
      return 'market'
    case 'auth':
      if (segments[1] === 'login') return 'login'
      if (segments[1] === 'register') return 'register'
      return 'default'
    case 'trade': {
      const type = String(search.type ?? '').toLowerCase()
      if (type === 'futures' || segments[1] === 'futures') return 'futures'
      return MARGIN_TYPES.has(type) ? 'margin' : 'spot'
    }
    case 'futures':
      return 'futures'
    case 'staking':
    case 'savings':
    case 'launchpad':
    case 'taskCenter':
    case 'p2p':
      return first
    case 'order':
      return 'orders'
    default:
      return 'default'
  }
}

/** Title and description of a page. */
export interface PageMeta {
  title: string
  description: string
}

/** Resolves the title and description for a path in a language (en_US or mn_MN). */
export function pageMeta(pathname: string, search: Record<string, unknown>, lan: string): PageMeta {
  const key = pageMetaKey(pathname, search)
  const texts = getBundledTexts('common', toBundleLocale(lan))
  const fallback = getBundledTexts('common', 'en-US')
  const get = (field: 'title' | 'description') =>
    lookup(texts, `meta.${key}.${field}`) ??
    lookup(fallback, `meta.${key}.${field}`) ??
    lookup(fallback, `meta.default.${field}`) ??
    ''
  return { title: get('title'), description: get('description') }
}

/** Writes the title and the description meta tag into the document. */
export function applyPageMeta(meta: PageMeta, doc: Document = document): void {
  doc.title = meta.title
  let tag = doc.querySelector<HTMLMetaElement>('meta[name="description"]')
  if (!tag) {
    tag = doc.createElement('meta')
    tag.name = 'description'
    doc.head.appendChild(tag)
  }
  tag.content = meta.description
}
