/**
 * Sumsub's WebSDK (@sumsub/websdk, MIT): it draws the provider's
 * verification flow in an iframe from Sumsub's host (https://*.sumsub.com,
 * allowed by the site's CSP frame-src). The package is imported only when
 * the flow opens, so it is never part of the first load.
 */

/** What the page hears from the SDK. */
export type SumsubEvent = 'ready' | 'submitted' | 'statusChanged' | 'error'

/** Options of {@link launchSumsub}. */
export interface SumsubLaunch {
  /** The access token of get_access_token. */
  token: string
  /** Gets a new token when the SDK's expires (get_access_token again). */
  refreshToken: () => Promise<string>
  /** 'en_US' or 'mn_MN' (the lan cookie). */
  lan: string
  theme: 'light' | 'dark'
  onEvent: (event: SumsubEvent) => void
}

/** A running SDK. */
export interface SumsubHandle {
  destroy: () => void
}

/** The SDK's language for the app's: Mongolian or English. */
export function sumsubLang(lan: string): string {
  return lan === 'mn_MN' ? 'mn' : 'en'
}

/** Loads the SDK and launches it in `container`. */
export async function launchSumsub(container: HTMLElement, options: SumsubLaunch): Promise<SumsubHandle> {
  const { default: snsWebSdk } = await import('@sumsub/websdk')
  const sdk = snsWebSdk
    .init(options.token, options.refreshToken)
    .withConf({ lang: sumsubLang(options.lan), theme: options.theme })
    .withOptions({ addViewportTag: false, adaptIframeHeight: true })
    .on('idCheck.onReady', () => options.onEvent('ready'))
    .on('idCheck.onApplicantSubmitted', () => options.onEvent('submitted'))
    .on('idCheck.onApplicantResubmitted', () => options.onEvent('submitted'))
    .on('idCheck.onApplicantStatusChanged', () => options.onEvent('statusChanged'))
    .on('idCheck.onError', () => options.onEvent('error'))
    .build()
  sdk.launch(container)
  return { destroy: () => sdk.destroy() }
}
