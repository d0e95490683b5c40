// Entry URL rules (§2, decisions.md): the index page or a URL without a hash route lands on `#/?…` keeping the
// query; channelCode comes from the entry URL and is kept per tab in sessionStorage.
import { validChannelCode } from '../../worker/protocol/channel-code.ts'
import { HOME_PATH } from '../../worker/protocol/constants.ts'

export interface EntryLocation {
  readonly pathname: string
  readonly search: string
  readonly hash: string
}

const hasHashRoute = (hash: string): boolean => hash.startsWith('#/')

/** The home's spec path as a hash route lands on `#/` keeping its query, as its alias route would redirect after the
 * router's first load (a second load on the page-load path). */
const HOME_ALIAS = `#${HOME_PATH}`
const homeAliasLanded = (hash: string): string =>
  hash === HOME_ALIAS || hash.startsWith(`${HOME_ALIAS}?`) ? `#/${hash.slice(HOME_ALIAS.length)}` : hash

/** The URL to replace the entry with, or null when it already is a hash route of the web root. */
export const entryRedirect = ({ pathname, search, hash }: EntryLocation): string | null => {
  const onIndexFile = pathname.endsWith('/index.html')
  const root = onIndexFile ? pathname.slice(0, -'index.html'.length) : pathname
  if (!hasHashRoute(hash)) return `${root}#/${search}`
  const landed = homeAliasLanded(hash)
  return onIndexFile || landed !== hash ? `${root}${search}${landed}` : null
}

/** channelCode from the real query or from the hash route's query. */
export const channelCodeFrom = ({ search, hash }: EntryLocation): string | null => {
  const fromSearch = new URLSearchParams(search).get('channelCode')
  if (fromSearch) return fromSearch
  const hashQuery = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : ''
  return new URLSearchParams(hashQuery).get('channelCode') || null
}

export const CHANNEL_CODE_SESSION_KEY = 'channelCode'

/** A channelCode in the entry URL replaces this tab's kept one; otherwise the kept one (a reload) stays. */
export const resolveChannelCode = (location: EntryLocation, storage: Pick<Storage, 'getItem' | 'setItem'>): string | null => {
  const fromUrl = validChannelCode(channelCodeFrom(location))
  if (fromUrl) {
    storage.setItem(CHANNEL_CODE_SESSION_KEY, fromUrl)
    return fromUrl
  }
  return validChannelCode(storage.getItem(CHANNEL_CODE_SESSION_KEY))
}

/** The route the tab starts on, from its hash. */
export const routeFromHash = (hash: string): { path: string; search: Record<string, string> } => {
  const body = hash.startsWith('#') ? hash.slice(1) : hash
  const [path = '/', query = ''] = body.split('?', 2)
  return { path: path || '/', search: Object.fromEntries(new URLSearchParams(query)) }
}
