/**
 * The pages /{lan}/{slug} serves. Kept apart from the page components: the
 * route's params check (part of the first load) needs only these, while the
 * pages come with the route's lazily loaded component.
 */

/** Information text pages reached from the footer and the support menu (texts in the content page 'info'). */
export const INFO_SLUGS = [
  'about',
  'announcements',
  'careers',
  'terms',
  'privacy',
  'risk',
  'aml',
  'support',
  'request',
  'fees',
  'contact',
] as const

/** A text page of INFO_SLUGS. */
export type ArticleSlug = (typeof INFO_SLUGS)[number]

/** The Open API documentation for bot and tool authors (/{lan}/api). */
export const OPEN_API_SLUG = 'api'

/** Any page /{lan}/{slug} serves: the text pages and the Open API documentation. */
export type InfoSlug = ArticleSlug | typeof OPEN_API_SLUG

/** True when `slug` names an information page. */
export function isInfoSlug(slug: string): slug is InfoSlug {
  return slug === OPEN_API_SLUG || (INFO_SLUGS as readonly string[]).includes(slug)
}
